"""Fixtures of the tournaments tests: staff, funded players, a tournament factory, and a
snapshot of everything a refused call must leave unchanged."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

_names = itertools.count()

#: A fixed draw secret, so the same inputs give the same seatings.
SECRET = bytes(range(32))


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user(username=f"admin{next(_names)}", is_staff=True)


@pytest.fixture
def player(db):
    """``player(name=None, funds=10_000)`` -> a user with a funded wallet (minor units)."""
    from wallet import services as wallet

    def make(name: str | None = None, funds: int = 10_000):
        name = name or f"player{next(_names)}"
        user = get_user_model().objects.create_user(username=name)
        if funds:
            wallet.deposit(user=user, amount=funds, key=f"test-deposit:{user.pk}")
        return user

    return make


@pytest.fixture
def make_tournament(staff):
    """``make_tournament(**overrides)`` -> a tournament open for registration now, starting in
    an hour: solo Swiss, 2 rounds, fee 100, 10 % house fee, 50/30/20. The no-move rule
    (``no_show_without_action``) is off unless a test turns it on: the whole events these
    tests run have every seat played by the timer (nobody moves themself), which the rule
    would make every entrant a no-show."""
    from tournaments import services

    def make(**overrides):
        now = timezone.now()
        params = {
            "by": staff,
            "name": "Test cup",
            "format": "swiss",
            "variant": "complex",
            "rounds": 2,
            "capacity": 16,
            "min_entrants": 4,
            "entry_fee": 100,
            "house_fee_bps": 1000,
            "prize_bps": [5000, 3000, 2000],
            "registration_opens_at": now - timedelta(minutes=1),
            "registration_closes_at": now + timedelta(minutes=30),
            "starts_at": now + timedelta(hours=1),
            "draw_secret": SECRET,
            "no_show_without_action": False,
        }
        params.update(overrides)
        return services.create_tournament(**params)

    return make


def snapshot() -> dict:
    """Everything a refused service call must leave as it was."""
    from tournaments.models import (
        AdminAction,
        Entry,
        Round,
        RoundTable,
        Team,
        Tournament,
        TournamentEdit,
    )
    from wallet.models import Account, Transaction

    return {
        "tournaments": list(Tournament.objects.order_by("id").values()),
        "entries": list(Entry.objects.order_by("id").values()),
        "teams": list(Team.objects.order_by("id").values()),
        "rounds": Round.objects.count(),
        "tables": RoundTable.objects.count(),
        "actions": AdminAction.objects.count(),
        "edits": TournamentEdit.objects.count(),
        "transactions": Transaction.objects.count(),
        "balances": list(Account.objects.order_by("id").values_list("reference", "balance")),
    }
