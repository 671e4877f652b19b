"""A seat's action is applied by the request that submits it, under the table's lock, so a
timeout that falls due meanwhile waits for it and then finds the table moved on. An action
stored pending (by a release that queued actions, during a rolling upgrade) and submitted
before its seat's deadline still beats the timeout. The worker's tasks are run in this
process (the tasks it would send are dropped)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from games import selectors, services
from games.models import Table, TableAction

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice_to_act(tasks_applied_here, make_user):
    """Alice at seat 0 of a free table against three bots, advanced until she must act."""
    alice = make_user("alice")
    table = services.create_table(
        user=alice, variant="complex_partner", stake=0, options={}, bot_seed="fixed"
    )
    services.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="alice-seed")
    for seat in (1, 2, 3):
        services.seat_bot(user=alice, table_id=table.pk, seat=seat, bot="rules")
    for _ in range(200):
        t = Table.objects.get(pk=table.pk)
        state = selectors.table_state(t.pk, alice, None)
        if t.deadline is not None and state["view"]["legal"]:
            return alice, t, state["view"]["legal"][0]
        services.wake(table_id=t.pk, version=t.version)
    raise AssertionError("alice never had to act")


def test_an_action_is_applied_by_the_request_that_submits_it(alice_to_act):
    alice, table, legal = alice_to_act
    action = {k: v for k, v in legal.items() if k != "seat"}
    action_id = uuid.uuid4()
    row = services.submit_action(
        user=alice, table_id=table.pk, action_id=action_id, version=table.version, action=action
    )
    after = Table.objects.get(pk=table.pk)
    assert row.pk == action_id and row.status == "applied"
    assert table.version < row.applied_version <= after.version
    stored = TableAction.objects.get(pk=action_id)
    assert (stored.status, stored.applied_version) == ("applied", row.applied_version)
    # The timer of that turn, if its wake-up still comes, finds the table moved on.
    services.wake(table_id=table.pk, version=table.version)
    assert Table.objects.get(pk=table.pk).version == after.version
    assert not TableAction.objects.filter(table=table, source="timeout").exists()


def test_a_pending_action_submitted_before_the_deadline_beats_the_timeout(alice_to_act):
    alice, table, legal = alice_to_act
    action_id = uuid.uuid4()
    submitted = table.deadline - timedelta(seconds=1)
    TableAction.objects.create(  # stored pending, not yet applied by a worker
        id=action_id,
        table=table,
        seat=0,
        user=alice,
        version=table.version,
        action=dict(legal),
        submitted_at=submitted,
    )
    # The deadline passes while the action waits for a worker; the timer fires first.
    Table.objects.filter(pk=table.pk).update(
        deadline=submitted + timedelta(milliseconds=1), wake_at=submitted
    )
    services.wake(table_id=table.pk, version=table.version)
    mine = TableAction.objects.get(pk=action_id)
    assert mine.status == "applied", (mine.status, mine.error)
    assert not TableAction.objects.filter(table=table, source="timeout").exists()
    services.apply_action(action_id=action_id)  # its own task, later: nothing more happens
    assert TableAction.objects.get(pk=action_id).applied_version == mine.applied_version


def test_a_refused_pending_action_does_not_stop_the_wake_up(alice_to_act):
    alice, table, legal = alice_to_act
    action_id = uuid.uuid4()
    TableAction.objects.create(  # accepted earlier, illegal by now (not alice's card)
        id=action_id,
        table=table,
        seat=0,
        user=alice,
        version=table.version,
        action={"type": "play", "seat": 0, "card": "XX"},
        submitted_at=table.deadline,
    )
    past = table.deadline - timedelta(days=1)  # the deadline passed long ago
    TableAction.objects.filter(pk=action_id).update(submitted_at=past - timedelta(seconds=1))
    Table.objects.filter(pk=table.pk).update(deadline=past, wake_at=past)
    services.wake(table_id=table.pk, version=table.version)
    assert TableAction.objects.get(pk=action_id).status == "rejected"
    # The wake-up went on: the timeout (or first a bot's turn, when bots act too) moved on.
    after = Table.objects.get(pk=table.pk)
    assert after.version > table.version
    assert TableAction.objects.filter(table=table, version=table.version, status="applied")


def test_submit_action_returns_the_row_and_a_retry_returns_the_first(alice_to_act):
    """``services.submit_action`` returns a domain object (the :class:`TableAction`), the same
    row for a retried id; the API's ``action_answer`` shapes its answer (202 applied, or
    a rejection's own status)."""
    from games.api.answers import action_answer

    alice, table, legal = alice_to_act
    action = {k: v for k, v in legal.items() if k != "seat"}
    action_id = uuid.uuid4()
    kwargs = dict(user=alice, table_id=table.pk, action_id=action_id, version=table.version)
    first = services.submit_action(**kwargs, action=action)
    again = services.submit_action(**kwargs, action=action)
    assert isinstance(again, TableAction) and again.pk == first.pk
    assert action_answer(again) == (
        202,
        {
            "accepted": True,
            "id": str(action_id),
            "version": table.version,
            "status": "applied",
            "applied_version": first.applied_version,
        },
    )
    TableAction.objects.filter(pk=action_id).update(
        status="rejected", http_status=409, error="stale"
    )
    rejected = services.submit_action(**kwargs, action=action)
    assert action_answer(rejected) == (
        409,
        {"error": "stale", "code": "stale_version", "id": str(action_id)},
    )
