"""Presence (issue 14): a seat that missed two turns in a row is marked away, plays its
default action at once while away, and acting (or saying it is back) clears the mark.

Most tests run the worker's services in this process, one known change at a time (the
tasks it would send are dropped; a timeout is made due by moving the table's deadline into
the past); the last one runs the real worker on its timers."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games import selectors, services
from games.models import Table, TableAction, TableEvent
from tests.games.helpers import new_table, seat_bots, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


@pytest.fixture
def alice(tasks_applied_here, make_user):
    """Alice at seat 0 of a free table with timers, against three bots (match started)."""
    user = make_user("alice")
    table = services.create_table(
        user=user, variant="complex_partner", stake=0, options=TIMERS, bot_seed="fixed"
    )
    services.take_seat(user=user, table_id=table.pk, seat=0, client_seed="alice-seed")
    for seat in (1, 2, 3):
        services.seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
    user.table_id = table.pk
    return user


def to_her_turn(user) -> tuple[Table, dict]:
    """Let the bots (and deals) move until it is alice's turn alone (no bot still to act, as
    in simultaneous doubling); the table and her first legal action (without its seat)."""
    for _ in range(300):
        t = Table.objects.get(pk=user.table_id)
        state = selectors.table_state(t.pk, user, None)
        view = state["view"]
        if t.deadline is not None and view and view["legal"] and view["to_act"] == [0]:
            legal = view["legal"][0]
            return t, {k: v for k, v in legal.items() if k != "seat"}
        services.wake(table_id=t.pk, version=t.version)
    raise AssertionError("alice never had to act")


def time_out(user) -> Table:
    """Alice's turn comes and its deadline passes: the worker's wake-up times her out."""
    t, _ = to_her_turn(user)
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=t.pk).update(deadline=past, wake_at=past)
    services.wake(table_id=t.pk, version=t.version)
    after = Table.objects.get(pk=t.pk)
    assert after.version > t.version
    assert TableEvent.objects.filter(
        table_id=t.pk, version__gt=t.version, type="timeout", payload__seat=0
    ).exists()
    return after


def act(user) -> Table:
    """Alice plays her first legal action herself (applied by the request that submits it)."""
    t, action = to_her_turn(user)
    action_id = uuid.uuid4()
    services.submit_action(
        user=user, table_id=t.pk, action_id=action_id, version=t.version, action=action
    )
    assert TableAction.objects.get(pk=action_id).status == "applied"
    return Table.objects.get(pk=t.pk)


def seat_info(user, seat: int = 0) -> dict:
    return selectors.table_state(user.table_id, user, None)["table"]["seats"][seat]


def test_two_timeouts_in_a_row_mark_the_seat_away(alice):
    time_out(alice)
    assert seat_info(alice)["away"] is False
    assert not TableEvent.objects.filter(table_id=alice.table_id, type="seat_away").exists()
    t = time_out(alice)
    assert t.away == [0]
    assert seat_info(alice)["away"] is True
    seats = selectors.table_state(t.pk, alice, None)["table"]["seats"]
    assert [s["away"] for s in seats] == [True, False, False, False]
    away = TableEvent.objects.get(table_id=t.pk, type="seat_away")
    assert away.payload == {"seat": 0} and away.visible_to is None  # public
    # Its version is one of the change that timed her out (after her timeout event).
    timeout = TableEvent.objects.filter(table_id=t.pk, type="timeout").order_by("-version")[0]
    assert away.version == timeout.version + 1


def test_while_away_her_turn_is_due_at_once(alice):
    time_out(alice)
    time_out(alice)
    t, _ = to_her_turn(alice)
    # Her deadline is TRIX_AWAY_DELAY after the last change, not the phase timer.
    last = TableEvent.objects.filter(table_id=t.pk).order_by("-version")[0].created_at
    full = timedelta(seconds=TIMERS["play_timer"] * settings.TRIX_TIMER_SCALE)
    assert t.deadline - last < timedelta(seconds=settings.TRIX_AWAY_DELAY) + full / 3
    # Played as a timeout plays: the default action, a public timeout event, still away.
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=t.pk).update(deadline=past, wake_at=past)
    services.wake(table_id=t.pk, version=t.version)
    row = TableAction.objects.filter(table_id=t.pk, seat=0).order_by("-submitted_at")[0]
    assert row.source == "timeout"
    assert Table.objects.get(pk=t.pk).away == [0]


def test_acting_clears_the_mark_and_the_next_answer_says_so(alice):
    time_out(alice)
    t = time_out(alice)
    since = t.version
    after = act(alice)
    assert after.away == [] and after.missed == [0, 0, 0, 0]
    back = TableEvent.objects.get(table_id=t.pk, type="seat_back")
    assert back.payload == {"seat": 0} and back.visible_to is None
    answer = selectors.table_state(t.pk, alice, since)
    assert answer["returned_from_away"] is True
    assert answer["table"]["seats"][0]["away"] is False
    # Once: the next answer (since this one's version) no longer says it.
    assert selectors.table_state(t.pk, alice, answer["version"])["returned_from_away"] is False
    # Her next turn has the full timer again.
    t, _ = to_her_turn(alice)
    last = TableEvent.objects.filter(table_id=t.pk).order_by("-version")[0].created_at
    full = timedelta(seconds=TIMERS["play_timer"] * settings.TRIX_TIMER_SCALE)
    assert t.deadline - last >= full - timedelta(milliseconds=50)


def test_one_timeout_then_an_action_is_not_away(alice):
    time_out(alice)
    act(alice)
    t = time_out(alice)
    assert t.away == [] and t.missed[0] == 1
    assert seat_info(alice)["away"] is False
    assert not TableEvent.objects.filter(table_id=t.pk, type__in=("seat_away", "seat_back"))


def test_saying_back_clears_the_mark_without_acting(alice):
    time_out(alice)
    t = time_out(alice)
    services.come_back(user=alice, table_id=t.pk)
    after = Table.objects.get(pk=t.pk)
    assert after.away == [] and after.version == t.version + 1
    assert TableEvent.objects.filter(table_id=t.pk, type="seat_back").count() == 1
    services.come_back(user=alice, table_id=t.pk)  # not away: nothing changes
    assert Table.objects.get(pk=t.pk).version == after.version


def test_a_bot_that_takes_an_away_seat_over_is_not_away(alice):
    time_out(alice)
    t = time_out(alice)
    services.replace_with_bot(table_id=t.pk, seat=0, reason="test")
    assert seat_info(alice)["away"] is False


def test_the_back_endpoint(api, tasks_applied_here):
    bob = api("bob")
    r = bob.post("/api/tables/999999/back/")
    assert r.status_code == 404, r.content
    table = new_table(bob, **TIMERS)
    r = bob.post(f"/api/tables/{table['id']}/back/")
    assert r.status_code == 403 and r.json()["code"] == "not_seated", r.content
    bob.post(f"/api/tables/{table['id']}/seats/", {"seat": 0}, format="json")
    r = bob.post(f"/api/tables/{table['id']}/back/")
    assert r.status_code == 400 and r.json()["code"] == "not_playing", r.content


def test_with_the_worker_an_away_seat_stops_holding_the_table(worker, api):
    """Real timers (x0.01: 100 s -> 1 s): two full timeouts, then the seat is away and its
    turns are played at once."""
    carol = api("carol")
    table = new_table(carol, choose_timer=100, double_timer=100, play_timer=100)
    carol.post(f"/api/tables/{table['id']}/seats/", {"seat": 1}, format="json")
    seat_bots(carol, table["id"], [0, 2, 3])
    try:
        away = wait_until(
            lambda: TableEvent.objects.filter(table_id=table["id"], type="seat_away").first(), 30
        )
    except AssertionError:
        rows = TableEvent.objects.filter(table_id=table["id"]).order_by("version")
        seen = [(r.version, r.type, r.payload.get("seat")) for r in rows]
        raise AssertionError(seen[-40:]) from None
    wait_until(
        lambda: (
            TableEvent.objects.filter(
                table_id=table["id"], type="timeout", version__gt=away.version + 1
            ).count()
            >= 2
        ),
        30,
    )
    rows = list(TableEvent.objects.filter(table_id=table["id"]).order_by("version"))
    gaps = []  # per timeout of seat 1: seconds since the change before it
    for before, row in zip(rows, rows[1:], strict=False):
        if row.type == "timeout" and row.payload["seat"] == 1:
            gaps.append((row.version, (row.created_at - before.created_at).total_seconds()))
    first_two = [g for v, g in gaps if v < away.version][:2]
    later = [g for v, g in gaps if v > away.version][:2]
    assert len(first_two) == 2 and all(g >= 0.9 for g in first_two), gaps
    assert len(later) == 2 and all(g < 0.5 for g in later), gaps
    state = carol.get(f"/api/tables/{table['id']}/state/").json()
    assert state["table"]["seats"][1]["away"] is True
    assert [s["away"] for s in state["table"]["seats"]].count(True) == 1
