"""A tournament's payouts in the public log (docs/fairness.md, "Payouts"): its prizes, and
every fee given back when it is called off, each enter the log as an ``event-payout`` entry
with the ledger transaction's id and the amounts per entrant id; ``ledger_check`` confirms
every such entry against the ledger and that every payout has one."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from games.fairness import transparency
from games.services import fairness_log
from tests.tournaments.helpers import archived
from tournaments import services
from tournaments.models import Entry, Status, Tournament
from wallet import services as ledger
from wallet.models import Transaction
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def _payouts():
    return [e for e in fairness_log.entries() if e["kind"] == "event-payout"]


def _ledger_check() -> tuple[bool, str]:
    out = StringIO()
    try:
        call_command("ledger_check", stdout=out)
    except CommandError as exc:
        return False, out.getvalue() + str(exc)
    return True, out.getvalue()


def _in_review(make_tournament, player, staff, count=4):
    """A started tournament of ``count`` entrants (fee 100, house fee 10 %, prizes
    50/30/20) whose play is over and whose review window has ended: its prizes are due."""
    t = make_tournament()
    users = [player(f"p{t.pk}-{i}") for i in range(count)]
    for i, user in enumerate(users):
        services.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")
    services.start(tournament_id=t.pk, by=staff, reason="test")
    Tournament.objects.filter(pk=t.pk).update(
        status=Status.REVIEW, review_ends_at=timezone.now() - timedelta(seconds=1)
    )
    return t, users


def test_the_prizes_enter_the_log_with_the_ledgers_transaction_and_amounts(
    make_tournament, player, staff
):
    t, users = _in_review(make_tournament, player, staff)
    services.pay_prizes(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.status == Status.FINISHED and t.pool == 400 and t.house_fee == 40
    paid = Transaction.objects.get(idempotency_key=f"{t.ref}:prizes")
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=t)}
    (entry,) = _payouts()
    assert entry["body"] == {
        "event": t.ref,
        "reason": "result",
        "transaction": paid.pk,
        "stakes": {e.entrant: 100 for e in entries.values()},
        "payouts": {e.entrant: e.prize for e in entries.values() if e.prize},
        "house_fee": 40,
    }
    assert sum(entry["body"]["payouts"].values()) == 360
    # The entrant ids are the draw's, never a person's name or account.
    assert set(entry["body"]["stakes"]) == {e["entrant"] for e in t.entrants}
    balances = [wallet_balance(u) for u in users]
    services.pay_prizes(tournament_id=t.pk)  # again: nothing more, paid or logged
    assert _payouts() == [entry] and [wallet_balance(u) for u in users] == balances
    log = list(fairness_log.entries())
    assert transparency.verify_log(log) == fairness_log.head()["head"]
    assert fairness_log.check() == []
    ok, out = _ledger_check()
    assert ok, out
    assert "ok   tournament payouts logged as the ledger paid them" in out


def test_a_called_off_tournaments_fees_back_enter_the_log_as_a_refund(
    make_tournament, player, staff
):
    t = make_tournament()
    users = [player(f"q{i}") for i in range(2)]
    for i, user in enumerate(users):
        services.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")
    services.cancel(tournament_id=t.pk, by=staff, reason="the hall is closed")
    refund = Transaction.objects.get(idempotency_key=f"{t.ref}:cancel")
    entrants = [Entry.objects.get(tournament=t, user=u).entrant for u in users]
    (entry,) = _payouts()
    assert entry["body"] == {
        "event": t.ref,
        "reason": "refund",
        "transaction": refund.pk,
        "stakes": dict.fromkeys(entrants, 100),
        "payouts": dict.fromkeys(entrants, 100),
        "house_fee": 0,
    }
    assert [wallet_balance(u) for u in users] == [10_000, 10_000]
    assert _ledger_check()[0]
    # The day's archive: no draw (never revealed), the fees back, and it verifies.
    read, problems, notes = archived(t)
    assert read.draws == {} and problems == [], problems
    assert f"event {t.ref}: 200 given back, every fee" in notes


@pytest.mark.ledger_corrupted
@pytest.mark.skipif(connection.vendor != "postgresql", reason="edits past PostgreSQL's trigger")
def test_ledger_check_names_a_logged_prize_that_is_not_the_ledgers(make_tournament, player, staff):
    t, users = _in_review(make_tournament, player, staff)
    services.pay_prizes(tournament_id=t.pk)
    (entry,) = _payouts()
    body = entry["body"]
    winner = max(body["payouts"], key=body["payouts"].get)
    loser = next(e for e in body["stakes"] if e not in body["payouts"])
    # Ten units moved from the winner to an entrant the ledger paid nothing: it adds up.
    payouts = {**body["payouts"], winner: body["payouts"][winner] - 10, loser: 10}
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE games_logentry SET body = %s WHERE index = %s",
            [json.dumps({**body, "payouts": payouts}), entry["index"]],
        )
        cursor.execute("SET LOCAL session_replication_role = origin")
    ok, out = _ledger_check()
    assert not ok
    where = f"log entry {entry['index']} (event-payout of {t.ref!r})"
    user_of = {e.entrant: e.user_id for e in Entry.objects.filter(tournament=t)}
    assert f"{where}: the ledger pays entrant {loser} (user:{user_of[loser]}) 0, the log 10" in out
    assert f"{where}: the ledger pays entrant {winner} (user:{user_of[winner]})" in out
    assert "FAIL tournament payouts logged as the ledger paid them" in out


@pytest.mark.ledger_corrupted
def test_ledger_check_names_prizes_paid_without_a_log_entry(make_tournament, player):
    t = make_tournament()
    users = [player(f"r{i}") for i in range(2)]
    for i, user in enumerate(users):
        services.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")
    paid = ledger.award_prizes(tournament_ref=t.ref, prizes={users[0].pk: 200}, key="by-hand")
    ok, out = _ledger_check()
    assert not ok
    assert (
        f"ledger transaction {paid.pk} pays out {t.ref}: the log holds no event-payout entry "
        "of it" in out
    )


def test_payouts_made_before_the_log_held_them_are_logged_once_by_the_command(
    make_tournament, player
):
    """A database older than payout logging: its prizes paid without an entry fail
    ``ledger_check``; ``log_past_payouts`` appends the entry (a second run adds nothing) and
    the check passes, the log still verifying."""
    from io import StringIO

    from django.core.management import call_command

    from games.fairness import transparency
    from games.services import fairness_log

    t = make_tournament()
    users = [player(f"old{i}") for i in range(2)]
    for i, user in enumerate(users):
        services.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")
    paid = ledger.award_prizes(tournament_ref=t.ref, prizes={users[0].pk: 200}, key="before")
    assert not _ledger_check()[0]
    out = StringIO()
    call_command("log_past_payouts", stdout=out)
    assert "payouts logged: 1; not logged: 0" in out.getvalue()
    call_command("log_past_payouts", stdout=(again := StringIO()))
    assert "payouts logged: 0; not logged: 0" in again.getvalue()
    ok, report = _ledger_check()
    assert ok, report
    [entry] = list(fairness_log.entries_of("event-payout"))
    assert entry["body"]["transaction"] == paid.pk and entry["body"]["reason"] == "result"
    transparency.verify_log(list(fairness_log.entries()))
