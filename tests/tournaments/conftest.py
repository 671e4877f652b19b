"""Fixtures of the tournaments tests: a tournament made by ``staff`` (the people are the root
fixtures, ``tests/conftest.py``), and a snapshot of everything a refused call must leave
unchanged."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_tournament(staff):
    """``make_tournament(**overrides)`` -> ``tests.factories.TournamentFactory`` made by
    ``staff``: open for registration now, starting in an hour, solo Swiss, 2 rounds, fee 100,
    10 % house fee, 50/30/20. The no-move rule (``no_show_without_action``) is off unless a
    test turns it on: the whole events these tests run have every seat played by the timer
    (nobody moves themself), which the rule would make every entrant a no-show."""
    from tests.factories import TournamentFactory

    def make(**overrides):
        return TournamentFactory(**{"by": staff, "no_show_without_action": False, **overrides})

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
