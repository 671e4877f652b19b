"""The one-statement write of a wake-up (``games.services.fast_turn``, PostgreSQL): it changes a
table only if the table is still at the version the change was computed against, a race
leaves exactly one change, and a match played that way is the match the locking path plays.
The worker's tasks are run in this process (the tasks it would send are dropped)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import timezone

from games import services, sql
from games.models import MatchRecord, Table, TableAction, TableEvent
from games.services import fast_turn
from tests.games.helpers import forget_log_keys, play_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def new_table(tasks_applied_here, make_user):
    """``new_table()`` -> a four-bot table on fixed seeds (the same deals and bot choices each
    time), whose wake-ups the test applies itself."""
    user = make_user("owner")

    def make() -> Table:
        forget_log_keys()  # the same match id each time, on purpose
        t = services.create_table(
            user=user,
            variant="complex_partner",
            stake=0,
            options={},
            shuffle_secret=b"s" * 32,
            shuffle_match_id="same-deals",
            bot_seed="fixed",
        )
        for seat in range(4):
            services.seat_bot(user=user, table_id=t.pk, seat=seat, bot="rules")
        return Table.objects.get(pk=t.pk)

    return make


def log_of(table: Table) -> list[tuple]:
    """The event log, without what names this table's own rows (its deals' ids)."""
    rows = TableEvent.objects.filter(table=table).order_by("version")
    return [
        (
            e.version,
            e.type,
            {k: v for k, v in e.payload.items() if k != "deal_id"},
            e.visible_to,
            e.log,
        )
        for e in rows
    ]


def test_runs_on_postgresql_outside_a_transaction_only():
    assert connection.vendor == "postgresql"
    assert fast_turn.available()
    from django.db import transaction

    with transaction.atomic():
        assert not fast_turn.available()


def test_a_table_that_moved_on_is_not_written(new_table):
    t = new_table()
    before = (t.version, TableEvent.objects.count(), TableAction.objects.count())
    now = timezone.now()
    event = TableEvent(table=t, version=t.version, type="timeout", payload={"seat": 0})
    written = sql.write_if_current(t.pk, t.version - 1, t.version, None, None, [event], [], now)
    assert written is False
    t.refresh_from_db()
    assert (t.version, TableEvent.objects.count(), TableAction.objects.count()) == before


def test_a_match_written_in_one_statement_is_the_match_of_the_locking_path(new_table, monkeypatch):
    fast = play_out(new_table().pk)
    monkeypatch.setattr(fast_turn, "available", lambda: False)
    locked = play_out(new_table().pk)
    assert fast.status == locked.status == "finished"
    assert fast.result == locked.result
    assert fast.version == locked.version
    fast_log, locked_log = log_of(fast), log_of(locked)
    assert fast_log == locked_log
    assert MatchRecord.objects.get(table=fast).state == MatchRecord.objects.get(table=locked).state
    sources = ("source", "seat", "version", "action", "status", "applied_version")
    assert list(TableAction.objects.filter(table=fast).order_by("version").values(*sources)) == (
        list(TableAction.objects.filter(table=locked).order_by("version").values(*sources))
    )


def test_two_workers_waking_the_same_turn_apply_it_once(new_table):
    t = new_table()
    for _ in range(6):  # dealt, into the contract and doubling
        services.wake(table_id=t.pk, version=Table.objects.get(pk=t.pk).version)
    t = Table.objects.get(pk=t.pk)
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            services.wake(table_id=t.pk, version=t.version)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    after = Table.objects.get(pk=t.pk)
    assert TableAction.objects.filter(table=t, version=t.version).count() == 1
    assert TableAction.objects.filter(table=t, version__gt=t.version).count() == 0
    versions = list(
        TableEvent.objects.filter(table=t, version__gt=t.version).values_list("version", flat=True)
    )
    assert sorted(versions) == list(range(t.version + 1, after.version + 1))


def test_read_table_gives_the_row_as_the_orm_does(new_table):
    t = new_table()
    services.wake(table_id=t.pk, version=t.version)
    orm = Table.objects.get(pk=t.pk)
    raw = sql.read_table(t.pk)
    fields = [f.attname for f in Table._meta.concrete_fields]
    assert {f: getattr(raw, f) for f in fields} == {f: getattr(orm, f) for f in fields}
    assert isinstance(raw.options, dict) and isinstance(raw.seat_kinds, list)
    assert sql.read_table(orm.pk + 1000) is None
