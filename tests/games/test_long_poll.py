"""State long polls on PostgreSQL wait on the table's notification (``games.live.long_poll``):
they return soon after another connection commits a new version, not for a rolled-back one,
without a query per 50 ms meanwhile, and still after the listener's connection was killed.
And the cheaper polls (the per-process caches of ``games.selectors``) answer exactly what a
poll without any cache answers."""

from __future__ import annotations

import copy
import json
import threading
import time
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, connections, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import selectors, services, sql, state_store, tasks
from games.live import listener
from games.live.sources import TABLES
from games.live.watchers import Watcher
from games.models import Deal, Table, TableEvent
from tests.games.helpers import wait_until, waits_on

pytestmark = pytest.mark.django_db(transaction=True)


def later(seconds: float, change) -> threading.Thread:
    """Run ``change()`` in another thread (its own connection) after ``seconds``; the thread
    keeps the time the change returned (committed) in ``.done_at``."""

    def run():
        try:
            time.sleep(seconds)
            change()
            thread.done_at = time.monotonic()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.done_at = None
    thread.start()
    return thread


def bump(table_id: int) -> None:
    with transaction.atomic():
        Table.objects.filter(pk=table_id).update(version=F("version") + 1)


class Rollback(Exception):
    pass


def bump_and_roll_back(table_id: int) -> None:
    try:
        with transaction.atomic():
            Table.objects.filter(pk=table_id).update(version=F("version") + 1)
            raise Rollback
    except Rollback:
        pass


@pytest.fixture
def open_table(make_user):
    user = make_user("owner")
    return services.create_table(user=user, variant="complex_partner", stake=0, options={}), user


def listener_pids() -> list[int]:
    """The backends of the process's listener (``games.live.listener``): by its application
    name."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name = %s AND query = %s AND pid <> pg_backend_pid()",
            [listener.APPLICATION_NAME, f"LISTEN {listener.CHANNEL}"],
        )
        return [row[0] for row in cursor.fetchall()]


def test_a_long_poll_returns_soon_after_another_connection_commits(open_table):
    table, user = open_table
    changer = later(
        0.3, lambda: services.seat_bot(user=user, table_id=table.pk, seat=0, bot="rules")
    )
    start = time.monotonic()
    body = (
        APIClient()
        .get(f"/api/tables/{table.pk}/state/", {"since": table.version, "wait": 4})
        .json()
    )
    returned = time.monotonic()
    changer.join()
    assert body["version"] == table.version + 1
    assert [e["type"] for e in body["events"]] == ["bot_seated"]
    assert body["table"]["seats"][0]["bot"] == "rules"
    assert returned - start < 3  # not the whole wait
    assert returned - changer.done_at < 0.5  # loose: a notification, not a timeout


def test_a_since_beyond_the_tables_version_is_answered_at_once(open_table):
    """Found by a new user: ``since`` far beyond the version held the whole wait. Only a
    client that has the current version waits; one that is ahead (a bug of its own, or a
    table it mixed up) gets the state at once."""
    table, _ = open_table
    start = time.monotonic()
    r = APIClient().get(f"/api/tables/{table.pk}/state/", {"since": table.version + 100, "wait": 4})
    assert r.status_code == 200
    assert time.monotonic() - start < 2  # loose: not the 4 s wait
    assert r.json()["version"] == table.version and r.json()["events"] == []


def listening(table) -> None:
    """This process's listener started and connected: a wait measured after this is woken
    by notifications alone, not by the listener's own (re)connection (which wakes every
    wait to look again, ``games.live.long_poll.watch``)."""
    selectors._wait_for_version(table.pk, table.version, 0.01)  # starts the listener
    wait_until(listener.connected, 10, 0.01)


def test_a_waiting_poll_makes_no_query_until_the_notification(open_table):
    table, _ = open_table
    listening(table)
    changer = later(0.5, lambda: bump(table.pk))
    with CaptureQueriesContext(connection) as queries:
        fields = selectors._wait_for_version(table.pk, table.version, 4)
    changer.join()
    assert fields[0] == table.version + 1
    assert len(queries) == 2  # the version before waiting and after the notification


def test_a_rolled_back_change_does_not_end_the_wait(open_table):
    table, _ = open_table
    listening(table)
    changer = later(0.2, lambda: bump_and_roll_back(table.pk))
    start = time.monotonic()
    with CaptureQueriesContext(connection) as queries:
        fields = selectors._wait_for_version(table.pk, table.version, 1.0)
    changer.join()
    assert time.monotonic() - start >= 0.95
    assert fields[0] == table.version
    assert len(queries) == 1  # never woken


def test_an_update_that_keeps_the_version_notifies_nothing(open_table):
    table, _ = open_table
    listening(table)
    changer = later(0.2, lambda: Table.objects.filter(pk=table.pk).update(wake_at=None))
    with CaptureQueriesContext(connection) as queries:
        selectors._wait_for_version(table.pk, table.version, 0.6)
    changer.join()
    assert len(queries) == 1


def test_waits_go_on_after_the_listeners_connection_is_killed(open_table):
    table, _ = open_table
    selectors._wait_for_version(table.pk, table.version, 0.01)  # starts the listener
    wait_until(listener.connected, 10, 0.01)
    (killed,) = wait_until(listener_pids, 10, 0.01)

    # A poll waiting while the connection dies still sees a change made after that.
    answers = []
    waiter = threading.Thread(
        target=lambda: (
            answers.append(selectors._wait_for_version(table.pk, table.version, 8)),
            connections.close_all(),
        )
    )
    waiter.start()
    wait_until(lambda: waits_on(table.pk), 10, 0.01)
    epoch = listener.running().epoch
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [killed])
    # The listener has seen its connection die (it is down, or already back on another).
    wait_until(lambda: not listener.connected() or listener.running().epoch > epoch, 10, 0.01)
    bump(table.pk)
    committed = time.monotonic()
    waiter.join(8)
    assert answers and answers[0][0] == table.version + 1
    assert time.monotonic() - committed < 2  # not the whole wait

    # The listener is back on a new connection, and waits are woken by notifications again.
    wait_until(listener.connected, 10, 0.01)
    pids = wait_until(listener_pids, 10, 0.01)
    assert killed not in pids
    version = table.version + 1
    changer = later(0.3, lambda: bump(table.pk))
    with CaptureQueriesContext(connection) as queries:
        fields = selectors._wait_for_version(table.pk, version, 4)
    changer.join()
    assert fields[0] == version + 1 and len(queries) == 2
    assert changer.done_at is not None


def test_a_stopped_listener_restarts_with_the_next_wait(open_table):
    table, _ = open_table
    selectors._wait_for_version(table.pk, table.version, 0.01)
    wait_until(listener.connected, 10, 0.01)
    listener.stop()
    assert not listener.connected()
    wait_until(lambda: not listener_pids(), 10, 0.01)  # its connection is closed
    changer = later(0.3, lambda: bump(table.pk))
    fields = selectors._wait_for_version(table.pk, table.version, 4)
    changer.join()
    assert fields[0] == table.version + 1
    assert wait_until(listener.connected, 10, 0.01)
    listeners = [t for t in threading.enumerate() if t.name == "trix-table-notifications"]
    assert len(listeners) == 1  # the stopped one is gone
    assert len(wait_until(listener_pids, 10, 0.01)) == 1


# -- cheaper polls answer what a poll without caches answers ----------------------------------


@pytest.fixture
def quiet_tasks(monkeypatch):
    """This test applies the wake-ups itself (the tasks the services send are dropped)."""
    for task in (tasks.wake, tasks.apply_action, tasks.pay_pot):
        monkeypatch.setattr(task, "delay", lambda *a, **k: None)
        monkeypatch.setattr(task, "apply_async", lambda *a, **k: None)


def uncached(table_id: int, user, since):
    """The answer of a poll with every per-process cache empty."""
    saved = (dict(selectors._static), dict(selectors._views), dict(state_store._cache))
    selectors._static.clear()
    selectors._views.clear()
    state_store._cache.clear()
    try:
        return selectors.table_state(table_id, user, since)
    finally:
        selectors._static.update(saved[0])
        selectors._views.update(saved[1])
        state_store._cache.update(saved[2])


def same(cached: dict, fresh: dict) -> None:
    cached, fresh = dict(cached), dict(fresh)
    cached.pop("server_time"), fresh.pop("server_time")
    assert cached == fresh


def feed_answers(table_id: int, users: dict, since: dict) -> int:
    """What a live stream's feed sends watchers of ``users`` (name -> user, None: a
    spectator) each at ``since[name]`` (``games.live.sources.TableSource.catch_up``), checked
    against polls with every cache empty; the statements it made."""
    watchers = {
        name: Watcher(viewer=user or AnonymousUser(), version=since[name], queue=None)
        for name, user in users.items()
    }
    with CaptureQueriesContext(connection) as queries:
        version, deliveries = TABLES.catch_up(table_id, list(watchers.values()))
    assert version == Table.objects.get(pk=table_id).version
    by_watcher = {id(d.watcher): d for d in deliveries}
    for name, user in users.items():
        d = by_watcher.get(id(watchers[name]))
        if since[name] == version:
            assert d is None  # up to date: nothing to send
            continue
        head, _, data = d.data.partition(b"data: ")
        assert head == b"id: %d\nevent: state\n" % version
        same(json.loads(data), uncached(table_id, user, since[name]))
    return len(queries)


def test_cached_polls_answer_what_uncached_polls_answer(quiet_tasks, make_user, api):
    """And a live stream's feed answers the same, in one statement once its caches are
    current (``games.sql.live_reading``)."""
    alice = api("alice")
    no_timers = {"choose_timer": 0, "double_timer": 0, "play_timer": 0}
    table = services.create_table(
        user=alice.user, variant="complex_partner", stake=0, options=no_timers
    )
    users = {"alice": alice.user, "spectator": None}
    since = dict.fromkeys(users, 0)

    statements = []

    def poll_all(everything: bool = False):
        statements.append(feed_answers(table.pk, users, since))
        for name, user in users.items():
            version = Table.objects.get(pk=table.pk).version
            for s in (since[name], version, None) if everything else (since[name], version):
                same(selectors.table_state(table.pk, user, s), uncached(table.pk, user, s))
            since[name] = version

    poll_all(True)
    # seats change while the table is cached
    services.take_seat(user=alice.user, table_id=table.pk, seat=1)
    poll_all(True)
    for seat in (0, 2, 3):
        services.seat_bot(user=alice.user, table_id=table.pk, seat=seat, bot="rules")
        poll_all(True)
    key = state_store._key(table)
    for step in range(130):
        t = Table.objects.get(pk=table.pk)
        assert t.status == "playing"
        if step == 100:  # alice leaves mid-match: a bot takes her seat
            services.leave(user=alice.user, table_id=table.pk)
            poll_all(True)
            continue
        if step % 2:  # as in a web process: its cached state is behind the worker's
            behind = copy.deepcopy(state_store._cache.get(key))
        if t.wake_at is not None:
            services.wake(table_id=table.pk, version=t.version)
        else:  # alice's turn (no timer)
            legal = selectors.table_state(table.pk, alice.user, None)["view"]["legal"]
            action = {k: v for k, v in legal[0].items() if k != "seat"}
            services.submit_action(
                user=alice.user,
                table_id=table.pk,
                action_id=uuid.uuid4(),
                version=t.version,
                action=action,
            )
        if step % 2 and behind is not None:
            state_store._cache[key] = behind
        poll_all(step % 25 == 0)
    t = Table.objects.get(pk=table.pk)
    assert t.version > 100 and t.seat_kinds[1] == "rules"
    # One statement per change while the caches are current (more when seats change, a
    # deal ends, a static reading expires): it was two at every change. (PostgreSQL's: the
    # embedded SQLite reads the two apart.)
    if connection.vendor == "postgresql":
        assert statements.count(1) > 0.8 * len(statements), statements
    assert Deal.objects.filter(table=t).exists()  # a deal ended (a new checkpoint) meanwhile
    fields = ("version", "type", "payload", "visible_to", "log")
    orm = TableEvent.objects.filter(table=t).order_by("version").values_list(*fields)
    assert sql.events(t.pk, 0, t.version, True) == list(orm)  # as the ORM reads them
    assert sql.live_reading(t.pk, 0) == (sql.live_fields(t.pk), list(orm))
    assert sql.live_reading(t.pk, t.version) == (sql.live_fields(t.pk), [])
    assert sql.live_reading(t.pk + 1000, 0) is None
