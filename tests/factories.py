"""Test data by factory (factory_boy): people, staff and tournaments, each made through the
same doors the site uses (``create_user``, ``wallet.services.deposit``,
``tournaments.services.create_tournament``), so a factory's object is one the site could
have made.

Every user a test creates is verified (``tests/conftest.py``, ``verified_by_default``) unless
the test is marked ``unverified``. The root fixtures ``make_user``, ``player`` and ``staff``
(``tests/conftest.py``) are these factories for tests that take fixtures; call a factory
directly where a fixture is awkward (a helper module, a parametrised builder).

Money is in integer minor units (``docs/wallet.md``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import factory
from django.conf import settings
from django.utils import timezone

#: The password of a user made with ``password=PASSWORD`` (``player`` and ``staff`` use it),
#: for tests that log in through the login form or HTTP Basic.
PASSWORD = "pw-Trix-2025!"

#: A fixed draw secret, so the same inputs give the same seatings
#: (``games/fairness/seating.py``).
DRAW_SECRET = bytes(range(32))


def fund(user: Any, amount: int) -> None:
    """Deposit ``amount`` minor units into ``user``'s wallet, under a key of its own
    (``wallet.services.deposit``; the key makes a repeated call a no-op)."""
    from wallet import services as wallet

    wallet.deposit(user=user, amount=amount, key=f"test-deposit:{user.pk}:{amount}")


class UserFactory(factory.django.DjangoModelFactory):
    """A person: ``UserFactory(username=..., password=None, funds=0, display_name=None,
    **fields)``.

    ``password`` None gives an unusable password (no hashing: fast); ``funds`` (minor units)
    is deposited after the user is made; ``display_name`` is set through
    ``accounts.services.set_display_name``."""

    class Meta:
        model = settings.AUTH_USER_MODEL
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = None

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return model_class._default_manager.create_user(*args, **kwargs)

    @factory.post_generation
    def display_name(user, create, extracted, **kwargs):
        if create and extracted:
            from accounts.services import set_display_name

            set_display_name(user, extracted)

    @factory.post_generation
    def funds(user, create, extracted, **kwargs):
        if create and extracted:
            fund(user, extracted)


class StaffFactory(UserFactory):
    """A member of staff (``is_staff``), who runs tournaments and the staff pages."""

    username = factory.Sequence(lambda n: f"staff{n}")
    is_staff = True


class TournamentFactory(factory.Factory):
    """A tournament made by ``tournaments.services.create_tournament``: open for
    registration now, closing in 30 minutes and starting in an hour; solo Swiss in the
    Complex variant, 2 rounds, 4 to 16 entrants, an entry fee of 100 with a 10 % house fee
    and prizes of 50/30/20 %, the fixed :data:`DRAW_SECRET`. ``by`` defaults to a new
    :class:`StaffFactory` member. Any ``create_tournament`` argument overrides a default;
    the times follow ``starts_at`` when only it is given."""

    class Meta:
        model = dict  # built by _create through the service, not by a model's constructor

    by = factory.SubFactory(StaffFactory)
    name = "Test cup"
    format = "swiss"
    variant = "complex"
    rounds = 2
    capacity = 16
    min_entrants = 4
    entry_fee = 100
    house_fee_bps = 1000
    prize_bps = factory.LazyFunction(lambda: [5000, 3000, 2000])
    starts_at = factory.LazyFunction(lambda: timezone.now() + timedelta(hours=1))
    registration_opens_at = factory.LazyFunction(lambda: timezone.now() - timedelta(minutes=1))
    registration_closes_at = factory.LazyAttribute(
        lambda t: min(timezone.now() + timedelta(minutes=30), t.starts_at)
    )
    draw_secret = DRAW_SECRET

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        from tournaments import services

        return services.create_tournament(**kwargs)
