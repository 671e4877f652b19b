"""Fixtures of the ratings tests: users, API clients, and finished tables made directly (no
match played: the rating only reads the table's variant, seats, result and end)."""

from __future__ import annotations

import itertools
from datetime import timedelta

from django.utils import timezone

_clock = itertools.count(1)


# The games tests' logged-in API clients (one definition; the people: tests/conftest.py).
from tests.games.conftest import api  # noqa: E402,F401


def finished_table(
    seats,
    places,
    *,
    variant: str = "complex",
    status: str = "finished",
    finished_at=None,
    forfeit=None,
):
    """A table ended as given: ``seats`` four users or bot kinds (str) or None; ``places``
    the engine's placements by seat. ``finished_at`` defaults to a later time each call."""
    from games.models import Seat, Table

    people = [s for s in seats if s is not None and not isinstance(s, str)]
    creator = people[0] if people else None
    if creator is None:
        from django.contrib.auth import get_user_model

        creator, _ = get_user_model().objects.get_or_create(username="table-maker")
    if finished_at is None:
        finished_at = timezone.now() + timedelta(seconds=next(_clock))
    result = {
        "scores": {str(s): 0 for s in range(4)},
        "placements": {str(s): p for s, p in enumerate(places)},
        "forfeit": forfeit,
        "deals_played": 8,
    }
    table = Table.objects.create(
        variant=variant,
        options={"variant": variant},
        created_by=creator,
        commitment="00" * 32,
        bot_seed="seed",
        status=status,
        result=result if status == "finished" else None,
        finished_at=finished_at,
    )
    for number, who in enumerate(seats):
        if isinstance(who, str):
            Seat.objects.create(table=table, seat=number, bot=who)
        else:
            Seat.objects.create(table=table, seat=number, user=who)
    return table
