"""The stored match state: a checkpoint plus the log increments on the event rows, the
per-process cache, and what one bot action costs in queries. The worker's tasks are run in
this process (the tasks it would send are dropped), so each step is one known change."""

from __future__ import annotations

import pytest

from games import selectors, services, state_store
from games.models import MatchRecord, Table, TableAction, TableEvent
from games.services import fast_turn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(tasks_applied_here, make_user):
    """A four-bot table whose wake-ups this test applies itself."""
    user = make_user("owner")
    t = services.create_table(
        user=user, variant="complex_partner", stake=0, options={}, bot_seed="fixed"
    )
    for seat in range(4):
        services.seat_bot(user=user, table_id=t.pk, seat=seat, bot="rules")
    return Table.objects.get(pk=t.pk)


def step(table_id: int, n: int = 1) -> Table:
    for _ in range(n):
        services.wake(table_id=table_id, version=Table.objects.get(pk=table_id).version)
    return Table.objects.get(pk=table_id)


def test_stored_state_is_checkpoint_plus_log_and_equals_the_event_log(table):
    record = MatchRecord.objects.get(table=table)
    assert record.state_version == table.version  # the match's first state
    t = step(table.pk, 5)  # dealt, contract chosen, doubling going on
    checkpoint = MatchRecord.objects.get(table=table)
    assert checkpoint.state == record.state  # not rewritten by the actions
    assert checkpoint.state_version == record.state_version < t.version
    while state_store.stored_json(t)["summary"]["phase"] != "play":
        t = step(t.pk)
    t = step(t.pk, 3)  # mid-trick (while doubling is on, the event log hides the picks)
    stored = state_store.stored_json(t)
    assert stored["summary"]["phase"] == "play"
    assert stored == selectors.rebuild_from_events(t.pk).to_json()
    assert MatchRecord.objects.get(table=table).state == record.state
    # Each change put its increment on its first event, and only there.
    logs = list(
        TableEvent.objects.filter(table=table, log__isnull=False).values_list("version", "log")
    )
    assert len(logs) == len(stored["actions"]) + 1
    assert logs[0][1]["deals"] and not logs[0][1]["actions"]
    assert all(len(log["actions"]) == 1 and not log["deals"] for _, log in logs[1:])
    # Through the first deal's end: a new checkpoint, still equal to the event log.
    while t.status == "playing" and not t.deals.exists():
        t = step(t.pk)
    checkpoint = MatchRecord.objects.get(table=table)
    assert checkpoint.state_version == t.version
    assert checkpoint.state == state_store.stored_json(t)
    t = step(t.pk, 7)
    assert state_store.stored_json(t) == selectors.rebuild_from_events(t.pk).to_json()
    while t.status == "playing":
        t = step(t.pk)
    final = state_store.stored_json(t)
    assert final["summary"]["phase"] == "over"
    assert final == MatchRecord.objects.get(table=table).state
    assert final == selectors.rebuild_from_events(t.pk).to_json()


def test_cache_is_advanced_by_the_increments(table, django_assert_num_queries):
    t = step(table.pk, 3)
    state_store._cache.clear()
    state_store.read(t, lambda s: None)  # fills the cache from the database
    with django_assert_num_queries(0):
        cached = state_store.read(t, lambda s: s.to_json())
    assert cached == state_store.stored_json(t)
    later = step(t.pk, 6)
    # This process applied those changes, so it is at the new version already; make it lag.
    state_store._cache[state_store._key(t)] = (t.version, state_store._load(t))
    with django_assert_num_queries(1):  # the increments since the cached version
        seen = state_store.read(later, lambda s: s.to_json())
    assert seen == state_store.stored_json(later)
    assert state_store._cache[state_store._key(later)][0] == later.version


def test_a_table_row_older_than_the_checkpoint_still_reads_its_own_version(table):
    """A reader's table row may predate a checkpoint written since (the deal ended
    meanwhile): it gets the state at its row's version, not the checkpoint's."""
    t = step(table.pk)
    while True:
        nxt = step(t.pk)
        if nxt.deals.exists():
            break
        t = nxt
    expected = selectors.rebuild_from_events(t.pk).to_json()  # all events so far ...
    at = MatchRecord.objects.get(table=table).state_version
    assert at > t.version
    state_store._cache.clear()
    seen = state_store.read(t, lambda s: s.to_json())  # ... but read at the older row
    assert seen["summary"]["phase"] == "play" and seen != expected
    assert len(seen["actions"]) == len(expected["actions"]) - 1


def test_one_bot_action_costs_two_statements_with_a_warm_cache(table, django_assert_num_queries):
    t = step(table.pk, 3)
    # Read the table row; then one statement that updates the table if it is still at that
    # version and inserts the events and the bot's action row (games.services.fast_turn). The
    # stored state is neither read nor rewritten.
    with django_assert_num_queries(2):
        services.wake(table_id=t.pk, version=t.version)
    after = Table.objects.get(pk=t.pk)
    assert after.version > t.version
    assert after.wake_at is not None and after.wake_at != t.wake_at
    action = TableAction.objects.get(table=t, version=t.version)
    assert (action.source, action.status, action.applied_version) == (
        "bot",
        "applied",
        after.version,
    )
    events = TableEvent.objects.filter(table=t, version__gt=t.version).order_by("version")
    assert [e.version for e in events] == list(range(t.version + 1, after.version + 1))
    assert events[0].log is not None and all(e.log is None for e in events[1:])


def test_the_locking_path_costs_six_statements(table, monkeypatch, django_assert_num_queries):
    monkeypatch.setattr(fast_turn, "available", lambda: False)
    t = step(table.pk, 3)
    # BEGIN; lock the table row, insert the events, insert the bot's action row, update the
    # table; COMMIT.
    with django_assert_num_queries(6):
        services.wake(table_id=t.pk, version=t.version)
    assert Table.objects.get(pk=t.pk).version > t.version
