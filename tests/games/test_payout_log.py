"""A table's payouts in the public log (docs/fairness.md, "Payouts"): the pot settled at the
match end and the stakes given back when a table is cancelled each enter the log as a
``match-payout`` entry, in the ledger transaction's database transaction, with its id and
amounts per seat; ``ledger_check`` confirms every such entry against the ledger and that
every payout has one, and names the mismatch otherwise."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from games import services
from games.fairness import transparency
from games.models import LogEntry, Table
from games.services import fairness_log
from tests.games.fairness_helpers import load_standalone
from tests.games.helpers import staked_table
from wallet import services as ledger
from wallet.models import Transaction
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db

STAKE = 100
TIMERS = {"choose_timer": 3600, "double_timer": 3600, "play_timer": 3600}


def _finished_by_forfeit(make_user, names):
    """A staked match that seat 0's player left during the first deal: finished, the pot not
    yet paid (the test pays it)."""
    table, users = staked_table(make_user, names)
    assert table.status == "playing"
    services.wake(table_id=table.pk, version=table.version)  # the first deal
    services.leave(user=users[0], table_id=table.pk)
    table.refresh_from_db()
    assert table.status == "finished" and not table.settled
    return table, users


def _payouts():
    return [e for e in fairness_log.entries() if e["kind"] == "match-payout"]


def _wallet_entries(transaction):
    """user id -> amount of the transaction's wallet entries (credits)."""
    return {
        e.account.owner_id: e.amount
        for e in transaction.entries.select_related("account")
        if e.account.kind == "wallet"
    }


def _ledger_check() -> tuple[bool, str]:
    out = StringIO()
    try:
        call_command("ledger_check", stdout=out)
    except CommandError as exc:
        return False, out.getvalue() + str(exc)
    return True, out.getvalue()


def test_a_settled_pot_enters_the_log_with_the_ledgers_transaction_and_amounts(
    tasks_applied_here, make_user
):
    table, users = _finished_by_forfeit(make_user, ["ann", "ben", "cat"])
    before = len(list(fairness_log.entries()))
    services.pay_pot(table_id=table.pk)
    paid = Transaction.objects.get(idempotency_key=f"settle:{table.ref}")
    (entry,) = _payouts()
    assert entry["index"] == before  # appended with the payout, nothing in between
    seat_of = {user.pk: seat for seat, user in enumerate(users)}
    credits = _wallet_entries(paid)
    assert entry["body"] == {
        "match_id": table.receipt["match_id"],
        "reason": "result",
        "transaction": paid.pk,
        "stakes": {"0": STAKE, "1": STAKE, "2": STAKE},  # the bots staked nothing
        "payouts": {str(seat_of[uid]): amount for uid, amount in credits.items()},
        "house_fee": 0,
    }
    # The leaver ranks last: paid nothing, absent from the payouts; the pot paid whole.
    assert "0" not in entry["body"]["payouts"]
    assert sum(entry["body"]["payouts"].values()) == 3 * STAKE
    balances = [wallet_balance(u) for u in users]
    # Exactly once: paying again moves nothing and logs nothing.
    services.pay_pot(table_id=table.pk)
    assert _payouts() == [entry]
    assert [wallet_balance(u) for u in users] == balances
    assert Transaction.objects.filter(reference=table.ref, kind="settlement").count() == 1
    # The log still verifies, with every verifier, and ledger_check confirms the entry.
    log = list(fairness_log.entries())
    assert transparency.verify_log(log) == fairness_log.head()["head"]
    assert fairness_log.check() == []
    standalone = load_standalone()
    lines = [json.dumps(e) for e in log]
    problems, note = standalone.check_log(
        standalone.read_log(lines), table.receipt, table.receipt_signature, [], partial=False
    )
    assert problems == [] and "in the log at entry" in note
    ok, out = _ledger_check()
    assert ok, out
    assert "ok   table payouts logged as the ledger paid them" in out


def test_a_cancelled_tables_stakes_back_enter_the_log_as_a_refund(tasks_applied_here, make_user):
    users = [make_user(name, funds=1_000) for name in ("dan", "eve")]
    table = services.create_table(user=users[0], variant="complex", stake=STAKE, options=TIMERS)
    for seat, user in enumerate(users):
        services.take_seat(user=user, table_id=table.pk, seat=seat * 2, client_seed=f"s{seat}")
    services.cancel_table(table_id=table.pk, reason="test")
    refund = Transaction.objects.get(idempotency_key=f"cancel:{table.ref}")
    (entry,) = _payouts()
    commitment = next(
        e for e in fairness_log.entries() if e["kind"] == "match-commitment"
    )  # no receipt: the match never started; its id is the commitment's
    assert entry["body"] == {
        "match_id": commitment["body"]["match_id"],
        "reason": "refund",
        "transaction": refund.pk,
        "stakes": {"0": STAKE, "2": STAKE},
        "payouts": {"0": STAKE, "2": STAKE},
        "house_fee": 0,
    }
    assert [wallet_balance(u) for u in users] == [1_000, 1_000]
    services.cancel_table(table_id=table.pk, reason="again")  # cancelled already: nothing
    assert _payouts() == [entry]
    assert _ledger_check()[0]


def _edit_log(index: int, body: dict) -> None:
    """Write an entry's body past the log's append-only trigger, as a hand edit in psql
    would."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE games_logentry SET body = %s WHERE index = %s",
            [json.dumps(body), index],
        )
        cursor.execute("SET LOCAL session_replication_role = origin")


@pytest.mark.ledger_corrupted
@pytest.mark.skipif(connection.vendor != "postgresql", reason="edits past PostgreSQL's trigger")
def test_ledger_check_names_a_logged_amount_that_is_not_the_ledgers(tasks_applied_here, make_user):
    table, users = _finished_by_forfeit(make_user, ["fay", "gus"])
    services.pay_pot(table_id=table.pk)
    (entry,) = _payouts()
    body = entry["body"]
    assert body["payouts"] == {"1": 2 * STAKE}  # gus wins the pot of two stakers
    # The amount raised, the stakes raised with it: a body that still adds up.
    forged = {**body, "payouts": {"1": 2 * STAKE + 50}, "stakes": {"0": STAKE, "1": STAKE + 50}}
    _edit_log(entry["index"], forged)
    ok, out = _ledger_check()
    assert not ok
    where = f"log entry {entry['index']} (match-payout of {body['match_id']!r})"
    assert f"{where}: the ledger pays seat 1 (user:{users[1].pk}) {2 * STAKE}, the log " in out
    assert f"the log {2 * STAKE + 50} (transaction {body['transaction']})" in out
    assert "FAIL table payouts logged as the ledger paid them" in out
    # Another transaction named: not this table's payout.
    _edit_log(entry["index"], {**body, "transaction": body["transaction"] - 1})
    ok, out = _ledger_check()
    assert not ok and f"{where}: the ledger holds no payout with transaction id" in out
    assert f"ledger transaction {body['transaction']} pays out {table.ref}: the log holds no" in out


@pytest.mark.ledger_corrupted
def test_ledger_check_names_a_payout_that_has_no_log_entry(tasks_applied_here, make_user):
    """A table's pot paid past ``games.services.money`` (straight through the ledger's
    service) is a payout the log does not hold."""
    table, users = staked_table(make_user, ["hal", "ivy"])
    paid = ledger.settle_match(
        table_ref=table.ref,
        seat_users={0: users[0].pk, 1: users[1].pk},
        result={"placements": {"0": 1, "1": 2, "2": 3, "3": 4}, "forfeit": None},
        team_mode=False,
        key="past-the-site",
    )
    assert _payouts() == []
    ok, out = _ledger_check()
    assert not ok
    assert (
        f"ledger transaction {paid.pk} pays out {table.ref}: the log holds no match-payout "
        "entry of it" in out
    )


def test_a_free_table_logs_no_payout(tasks_applied_here, make_user):
    user = make_user("joe")
    table = services.create_table(user=user, variant="complex", options=TIMERS)
    services.take_seat(user=user, table_id=table.pk, seat=0, client_seed="s")
    services.cancel_table(table_id=table.pk, reason="test")
    assert Table.objects.get(pk=table.pk).status == "cancelled"
    assert _payouts() == [] and not LogEntry.objects.filter(kind="match-payout").exists()


@pytest.mark.ledger_corrupted
@pytest.mark.skipif(connection.vendor != "postgresql", reason="edits past PostgreSQL's trigger")
def test_ledger_check_names_a_payout_entry_that_lost_its_match(tasks_applied_here, make_user):
    """A body edited out of shape is named, never a crash of the check."""
    table, _ = _finished_by_forfeit(make_user, ["kim", "lou"])
    services.pay_pot(table_id=table.pk)
    (entry,) = _payouts()
    body = {k: v for k, v in entry["body"].items() if k != "match_id"}
    _edit_log(entry["index"], body)
    ok, out = _ledger_check()
    assert not ok
    where = f"log entry {entry['index']} (match-payout of None)"
    assert f"{where}: a match-payout body has the fields" in out
    assert f"{where}: transaction {body['transaction']} pays out {table.ref}, whose match" in out


def test_log_past_payouts_logs_a_tables_pot_paid_before_the_log_held_payouts(
    tasks_applied_here, make_user
):
    """The pot of a table settled before payouts were logged (straight through the ledger,
    as an older release did): ``log_past_payouts`` appends its ``match-payout`` by seat and
    ``ledger_check`` passes."""
    from io import StringIO

    from django.core.management import call_command

    table, users = staked_table(make_user, ["jo", "kim"])
    paid = ledger.settle_match(
        table_ref=table.ref,
        seat_users={0: users[0].pk, 1: users[1].pk},
        result={"placements": {"0": 1, "1": 2, "2": 3, "3": 4}, "forfeit": None},
        team_mode=False,
        key="before-the-log",
    )
    call_command("log_past_payouts", stdout=(out := StringIO()))
    assert "payouts logged: 1; not logged: 0" in out.getvalue()
    [entry] = _payouts()
    assert entry["body"]["transaction"] == paid.pk and entry["body"]["reason"] == "result"
    ok, report = _ledger_check()
    assert ok, report
