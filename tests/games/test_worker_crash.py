"""Kill the worker in the middle of a match and start another: the match finishes with
exactly the result of an uninterrupted run with the same seeds and actions."""

from __future__ import annotations

import uuid

import pytest

from games import services
from games.models import Deal, Table, TableEvent
from tests.games.helpers import forget_log_keys, wait_finished, wait_until
from tests.worker import Worker, use_queue

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_session_worker")]

SECRET = bytes(range(32))


def _table(user) -> int:
    forget_log_keys()  # the same match id for both tables, on purpose
    table = services.create_table(
        user=user,
        variant="complex_partner",
        stake=0,
        options={},
        shuffle_secret=SECRET,
        shuffle_match_id="crash-test",
        bot_seed="crash-bots",
    )
    for seat in range(4):
        services.seat_bot(
            user=user, table_id=table.pk, seat=seat, bot="rules" if seat % 2 else "random"
        )
    return table.pk


def _log(table_id: int) -> list:
    out = []
    for ev in TableEvent.objects.filter(table_id=table_id).order_by("version"):
        payload = {k: v for k, v in ev.payload.items() if k != "deal_id"}
        out.append((ev.version, ev.type, payload, ev.visible_to))
    return out


def _records(table_id: int) -> list:
    """The deal records less what names the table or the moment: the table number, the
    receipt's issue time and its commitment's place in the log (the second table's entries
    come after the first's), hence its signature (the receipt is otherwise the same)."""
    out = []
    for d in Deal.objects.filter(table_id=table_id).order_by("number"):
        record = {k: v for k, v in d.record.items() if k != "match"}
        shuffle = dict(record["shuffle"])
        shuffle.pop("signature")
        shuffle["receipt"] = {
            k: v
            for k, v in shuffle["receipt"].items()
            if k not in ("issued_at", "commitment_entry", "seed_entries")
        }
        out.append({**record, "shuffle": shuffle})
    return out


def test_a_killed_worker_loses_nothing(worker, django_user_model):
    user = django_user_model.objects.create_user("crash")
    # The uninterrupted run first, on the session's worker (one match id at a time in the log:
    # it admits one deal-record per match and deal, so the two runs cannot overlap).
    clean = _table(user)
    wait_finished(clean, 120)
    queue = f"trix-crash-{uuid.uuid4().hex[:8]}"
    old = use_queue(queue)
    first = second = None
    try:
        first = Worker(queue)
        crashed = _table(user)
        wait_until(lambda: Table.objects.get(pk=crashed).version > 200, 60, 0.02)
        first.stop(kill=True)  # SIGKILL mid-match: in-flight tasks and timers are lost
        mid = Table.objects.get(pk=crashed)
        assert mid.status == "playing"
        second = Worker(queue)  # its beat sweep finds the lost timer
        wait_finished(crashed, 120)
    finally:
        for w in (first, second):
            if w is not None:
                w.stop()
        use_queue(old)
    a, b = Table.objects.get(pk=crashed), Table.objects.get(pk=clean)
    assert a.result == b.result
    assert a.version == b.version
    assert _log(crashed) == _log(clean)
    assert _records(crashed) == _records(clean)
