"""A table's live stream (``GET /api/tables/{id}/stream/``, ``games.live``), served by the
ASGI site under uvicorn (``live_server``, ``tests/asgi_server.py``) on PostgreSQL: every
version reaches a watcher in order and contiguously, a reconnection with ``Last-Event-ID``
gets exactly what it missed, spectators get the same bytes and never a seat's hand, a private
pick sends nobody anything, a watcher that falls behind is cut off and catches up, the
listener's lost connection loses nothing, and bad input is a clear 4xx.

Most tables here are played by four humans in this process, one known change at a time (no
timers); the first test plays four bots on the real worker."""

from __future__ import annotations

import asyncio
import copy
import gc
import json
import threading
import time
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client

from games import selectors, services
from games.live import hub, listener, sources, sse, streams
from games.live.sources import TABLES
from games.live.watchers import Delivery
from games.models import Table, TableAction
from tests.games.helpers import new_table, seat_bots, wait_finished, wait_until
from tests.games.test_private_picks import facts
from tests.sse import Stream, off_the_loop

pytestmark = pytest.mark.django_db(transaction=True)


def cookie_of(user) -> dict:
    client = Client()
    client.force_login(user)
    return {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}


def spectator_events(table_id: int, since: int | None) -> tuple[int, list]:
    answer = selectors.table_state(table_id, AnonymousUser(), since)
    return answer["version"], answer["events"]


def assert_contiguous(messages, since: int) -> list:
    """Each message follows the previous one (its events after the previous version, up to
    its own); the events of all of them, in order."""
    events, previous = [], since
    for m in messages:
        body = m.json()
        assert int(m.id) == body["version"] > previous
        assert all(previous < e["version"] <= body["version"] for e in body["events"])
        events += body["events"]
        previous = body["version"]
    return events


@pytest.fixture
def players(tasks_applied_here, make_user):
    return [make_user(name) for name in ("alice", "bob", "carol", "dave")]


def humans_table(players) -> int:
    """Four humans at a free table without timers (each ``0``), dealt: nothing moves unless
    they act, even with the session's worker running (a test that used it earlier in the run
    leaves this process's wake-ups going to it; with the default timers, x0.01 in tests, it
    played a timeout 0.15 s after a test's own action: CI, 2026-12-02)."""
    no_timers = {"choose_timer": 0, "double_timer": 0, "play_timer": 0}
    table = services.create_table(user=players[0], variant="trix", stake=0, options=no_timers)
    for seat, user in enumerate(players):
        services.take_seat(user=user, table_id=table.pk, seat=seat, client_seed=f"seed-{seat}")
    t = Table.objects.get(pk=table.pk)
    services.wake(table_id=t.pk, version=t.version)
    return table.pk


def act(players, table_id: int, action: dict | None = None) -> None:
    """The first seat to act plays ``action`` (default: its first legal action), as the web
    request and the worker would."""
    f = facts(table_id)
    seat = f["to_act"][0]
    action = action or f["legal"][seat][0]
    table = Table.objects.get(pk=table_id)
    action_id = uuid.uuid4()
    services.submit_action(
        user=players[seat],
        table_id=table_id,
        action_id=action_id,
        version=table.version,
        action=action,
    )
    assert TableAction.objects.get(pk=action_id).status == "applied"


def version_of(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


# -- every version, in order -------------------------------------------------------------------


def test_a_watcher_gets_every_version_in_order_until_the_end(worker, live_server, api):
    owner = api("owner")
    table_id = new_table(owner)["id"]
    watcher = Stream(live_server.url, f"/api/tables/{table_id}/stream/?since=0")
    assert watcher.status == 200
    assert watcher.headers["Content-Type"] == "text/event-stream"
    assert watcher.headers["Cache-Control"] == "no-cache"
    assert watcher.headers["X-Accel-Buffering"] == "no"
    seat_bots(owner, table_id, range(4))
    messages = watcher.states()  # to the end: the stream closes after `event: end`
    watcher.close()
    table = wait_finished(table_id)
    assert messages and int(messages[-1].id) == table.version
    assert messages[-1].json()["table"]["status"] == "finished"
    final, everything = spectator_events(table_id, 0)
    assert assert_contiguous(messages, 0) == everything
    # Over and seen to the end: a reconnection is told there is nothing more (204).
    again = Stream(live_server.url, f"/api/tables/{table_id}/stream/?since={final}")
    assert again.status == 204
    again.close()


def test_a_reconnection_with_last_event_id_gets_exactly_what_it_missed(players, live_server):
    table_id = humans_table(players)
    start = version_of(table_id)
    first = Stream(live_server.url, f"/api/tables/{table_id}/stream/?since={start}")
    act(players, table_id)
    got = first.states(until_version=version_of(table_id))
    first.close()
    seen = int(got[-1].id)
    for _ in range(3):
        act(players, table_id)
    # The header wins over the query (EventSource keeps the URL it was opened with).
    again = Stream(
        live_server.url,
        f"/api/tables/{table_id}/stream/?since=0",
        headers={"Last-Event-ID": str(seen)},
    )
    now = version_of(table_id)
    caught = again.states(until_version=now)
    again.close()
    assert caught[0].json()["events"][0]["version"] == seen + 1
    assert assert_contiguous(caught, seen) == spectator_events(table_id, seen)[1]
    assert assert_contiguous(got + caught, start) == spectator_events(table_id, start)[1]


# -- audiences ---------------------------------------------------------------------------------


def test_a_stream_ends_once_its_viewers_session_is_gone(
    players, live_server, monkeypatch, settings
):
    """Found by a new user: after a logout in another tab, an open table page kept receiving
    its player's hand (new deals too) for up to ``TRIX_STREAM_LIFETIME``, the viewer fixed
    when the stream opened. The hub checks its logged-in watchers' sessions every
    ``SESSION_CHECK`` seconds and cuts a stream whose session no longer logs its user in (the
    page reconnects as whoever its browser now is): a logout (the session deleted), and a
    password changed elsewhere (the session stays, Django rejects it at its next request:
    found by a review); a stream whose session lives goes on."""
    from django.contrib.sessions.models import Session

    monkeypatch.setattr(hub, "SESSION_CHECK", 0.5)
    settings.TRIX_STREAM_LIFETIME = 30  # without the check they end only then (bounded)
    table_id = humans_table(players)
    path = f"/api/tables/{table_id}/stream/"
    cookies = [cookie_of(player) for player in players[:3]]
    logged_out, new_password, stays = (
        Stream(live_server.url, path, headers=cookie, timeout=20) for cookie in cookies
    )
    assert [s.next().json()["my_seat"] for s in (logged_out, new_password, stays)] == [0, 1, 2]
    Session.objects.filter(session_key=cookies[0]["Cookie"].split("=", 1)[1]).delete()
    players[1].set_password("a new one, changed on another device")
    players[1].save()
    started = time.monotonic()
    assert logged_out.next() is None  # cut: no message, the stream ends
    assert new_password.next() is None
    assert time.monotonic() - started < 10
    act(players, table_id)
    assert stays.next().json()["version"] == version_of(table_id)
    for s in (logged_out, new_password, stays):
        s.close()


@off_the_loop
def test_spectators_get_the_same_bytes_and_never_a_seats_hand(players, live_server, make_user):
    table_id = humans_table(players)
    v = version_of(table_id)
    path = f"/api/tables/{table_id}/stream/?since={v}"
    anonymous = Stream(live_server.url, path)
    logged_in = Stream(live_server.url, path, headers=cookie_of(make_user("watcher")))
    f = facts(table_id)
    owner = f["to_act"][0]
    seat = Stream(live_server.url, path, headers=cookie_of(players[owner]))
    for _ in range(4):
        act(players, table_id)
    now = version_of(table_id)
    a, b, mine = (s.states(until_version=now) for s in (anonymous, logged_in, seat))
    for s in (anonymous, logged_in, seat):
        s.close()
    assert [m.raw for m in a] == [m.raw for m in b]
    hand = mine[0].json()["view"]["hand"]
    assert hand and mine[0].json()["my_seat"] == owner
    for m in a:
        body = m.json()
        assert body["my_seat"] is None and not body["view"].get("hand")
        assert json.dumps(hand) not in m.data
        assert not any(s["is_me"] for s in body["table"]["seats"])
    assert all(m.raw != n.raw for m, n in zip(a, mine, strict=False))
    assert assert_contiguous(a, v) == spectator_events(table_id, v)[1]


def test_a_private_pick_sends_nobody_anything(players, live_server):
    table_id = humans_table(players)
    act(players, table_id, {"type": "contract", "contract": "king"})
    f = facts(table_id)
    assert f["phase"] == "double"
    holder = next(s for s in range(4) if f["doublable"][s])
    other = next(s for s in range(4) if s != holder)
    v = version_of(table_id)
    path = f"/api/tables/{table_id}/stream/?since={v}"
    spectator = Stream(live_server.url, path)
    others = Stream(live_server.url, path, headers=cookie_of(players[other]))
    mine = Stream(live_server.url, path, headers=cookie_of(players[holder]))
    pick = f["doublable"][holder]
    services.submit_action(
        user=players[holder],
        table_id=table_id,
        action_id=uuid.uuid4(),
        version=v,
        action={"type": "select", "cards": pick},
    )
    assert version_of(table_id) == v
    services.submit_action(
        user=players[other],
        table_id=table_id,
        action_id=(action_id := uuid.uuid4()),
        version=v,
        action={"type": "double", "cards": []},
    )
    assert TableAction.objects.get(pk=action_id).status == "applied"
    # The next message anyone gets is the next version's: nothing was sent for the pick.
    for s in (spectator, others, mine):
        m = s.next()
        s.close()
        assert int(m.id) == v + 1, m.raw
        body = m.json()
        if s is mine:  # the seat still sees its own pick
            assert body["view"]["doubling"]["selected"] == pick
        else:
            assert "selected" not in (body["view"]["doubling"] or {})


# -- falling behind, losing the listener -------------------------------------------------------


@off_the_loop
def test_a_watcher_that_falls_behind_is_cut_off_and_catches_up(players, settings):
    """In one event loop: a stream not read while the table moves on is ended (its queue
    holds ``TRIX_STREAM_QUEUE`` messages); opened again after what it got, it catches up."""
    settings.TRIX_STREAM_QUEUE = 2
    table_id = humans_table(players)
    start = version_of(table_id)

    async def scenario():
        body = streams.events(table_id, TABLES, AnonymousUser(), start)
        assert (await anext(body)).startswith(b"retry:")
        feed = hub.hub().feeds[table_id]
        (watcher,) = feed.watchers
        for _ in range(5):
            await asyncio.to_thread(act_and_close, players, table_id)
            now = await asyncio.to_thread(version_of_and_close, table_id)
            while watcher in feed.watchers and watcher.version != now:
                await asyncio.sleep(0.01)
        assert watcher not in feed.watchers  # cut off
        got = [chunk async for chunk in body]  # nothing more: the stream ends
        assert got == []
        again = streams.events(table_id, TABLES, AnonymousUser(), start)
        assert (await anext(again)).startswith(b"retry:")
        caught = await anext(again)
        await again.aclose()
        await hub.shutdown()
        return caught

    caught = asyncio.run(scenario())
    head, _, data = caught.partition(b"data: ")
    expected = copy.deepcopy(selectors.table_state(table_id, AnonymousUser(), start))
    got = json.loads(data)
    assert head == b"id: %d\nevent: state\n" % expected["version"]
    assert got["events"] == expected["events"] and got["version"] == version_of(table_id)


class _Scripted(sources.Source):
    """A source whose versions the test sets (``v``; ``final``: nothing changes after it)."""

    def __init__(self):
        self.v, self.final = 1, None

    def current(self, key):
        return (self.v,)

    def final_version(self, key):
        return self.final

    def answers(self, key, behind, current):
        v = current[0]
        data = sse.message(v, b"{}")
        return [Delivery(w, v, data, None, v == self.final) for w in behind]


@off_the_loop
def test_a_watcher_full_when_the_last_version_comes_is_cut_and_never_fails(settings):
    """Found by a review: a stream whose mailbox was full when the last version came got the
    end marker behind its messages and failed (``TypeError`` joining them). Now it is cut
    (nothing more is sent) and the browser reconnects and catches up, as for any full one."""
    settings.TRIX_STREAM_QUEUE = 2
    source = _Scripted()

    async def scenario():
        body = streams.events(1, source, AnonymousUser(), 0)
        assert (await anext(body)).startswith(b"retry:")
        feed = hub.hub().feeds[1]
        (watcher,) = feed.watchers
        while watcher.version != 1:  # version 1 waits, unread (a slow reader)
            await asyncio.sleep(0.01)
        source.v = source.final = 2
        feed.wake.set()
        while watcher in feed.watchers:  # version 2 fills the mailbox: no room for the end
            await asyncio.sleep(0.01)
        rest = [chunk async for chunk in body]
        await hub.shutdown()
        return rest

    assert asyncio.run(scenario()) == []


@off_the_loop
def test_a_held_stream_leaves_four_objects_per_message_for_the_collector(settings):
    """Between two messages a held stream waits; what that wait is made of is new each time
    and is what a web process's young collection visits, for every stream that got a
    message since the last one (``trix_site.heap``: 25-90 ms every ~10 s with 2,500 streams
    a process, the tail of a person's p99). Through Django's ``StreamingHttpResponse`` (two
    wrapping generators), a coroutine per wait and a new list per message, a message left
    eight objects per stream (8.1-8.2 measured here); read as Django's ASGI handler reads it
    (``aiter(response)``), a stream now leaves four: its generator's step, the future it
    waits on, that future's iterator and the reading task's wake-up."""
    source, watchers = _Scripted(), 500

    async def until(done, what):
        deadline = time.monotonic() + 20
        while not done():
            assert time.monotonic() < deadline, f"no {what} within 20 s"
            await asyncio.sleep(0.005)

    async def scenario():
        bodies = [
            aiter(streams.LiveStreamResponse(streams.events(1, source, AnonymousUser(), 0)))
            for _ in range(watchers)
        ]
        for body in bodies:  # the ``retry:`` line
            await anext(body)
        got = [0] * watchers

        async def read(i, body):
            async for _ in body:
                got[i] += 1

        readers = [asyncio.ensure_future(read(i, body)) for i, body in enumerate(bodies)]
        the_hub = hub.hub()
        feed = the_hub.feeds[1]
        await until(lambda: the_hub.connected or not the_hub.notifications, "LISTEN connection")

        async def deliver(version):
            source.v = version
            feed.wake.set()
            await until(
                lambda: min(got) >= version and all(w.queue.waiter for w in feed.watchers),
                f"version {version} read by every stream",
            )

        await deliver(1)
        gc.collect()
        before = gc.get_objects()  # kept alive, so no new object can take one's id
        known = {id(o) for o in before}
        await deliver(2)
        await asyncio.sleep(0.05)  # the feed's and the hub's own steps are done
        gc.collect()  # what is left is what the waits hold
        left = sum(1 for o in gc.get_objects() if id(o) not in known)
        del before
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        await hub.shutdown()
        return left

    assert asyncio.run(scenario()) <= 4 * watchers + 50


@off_the_loop
def test_a_quiet_stream_gets_keepalives_and_ends_after_its_lifetime(players, settings, monkeypatch):
    """The hub's tick (not a timer per watcher) sends ``: keepalive`` to a stream sent nothing
    for ``KEEPALIVE`` seconds, and ends a stream after ``TRIX_STREAM_LIFETIME`` seconds (the
    browser reconnects); a change meanwhile still comes as one message."""
    monkeypatch.setattr(hub, "KEEPALIVE", 0.3)
    monkeypatch.setattr(hub, "_TICK", 0.1)
    settings.TRIX_STREAM_LIFETIME = 1.5
    table_id = humans_table(players)
    start = version_of(table_id)

    async def scenario():
        loop = asyncio.get_running_loop()
        began = loop.time()
        body = streams.events(table_id, TABLES, AnonymousUser(), start)
        got = [await anext(body)]
        got.append(await anext(body))  # nothing changed: a keepalive
        await asyncio.to_thread(act_and_close, players, table_id)
        got += [chunk async for chunk in body]  # the change, keepalives, then the end
        took = loop.time() - began
        await hub.shutdown()
        return got, took

    got, took = asyncio.run(scenario())
    assert got[0].startswith(b"retry:") and got[1] == b": keepalive\n\n"
    states = [c for c in got if c.startswith(b"id: ")]
    assert len(states) == 1 and states[0].startswith(b"id: %d\n" % version_of(table_id))
    assert got.count(b": keepalive\n\n") >= 2
    assert 1.5 <= took < 10.0  # ended by its lifetime (a loaded machine may be seconds late)


def act_and_close(players, table_id):
    try:
        act(players, table_id)
    finally:
        connection.close()


def version_of_and_close(table_id):
    try:
        return version_of(table_id)
    finally:
        connection.close()


def listeners() -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND query = 'LISTEN trix_table' AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


def test_the_listener_losing_its_connection_misses_nothing(players, live_server):
    table_id = humans_table(players)
    start = version_of(table_id)
    watcher = Stream(live_server.url, f"/api/tables/{table_id}/stream/?since={start}")
    act(players, table_id)
    got = watcher.states(until_version=version_of(table_id))
    wait_until(listeners, timeout=30)
    with connection.cursor() as cursor:
        for pid in listeners():
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    for _ in range(3):  # while it is down and reconnecting
        act(players, table_id)
    got += watcher.states(until_version=version_of(table_id))
    wait_until(listeners, timeout=30)  # back
    act(players, table_id)
    got += watcher.states(until_version=version_of(table_id))
    watcher.close()
    assert assert_contiguous(got, start) == spectator_events(table_id, start)[1]


def test_one_listener_serves_the_streams_and_the_long_polls(players, live_server):
    """A process listens once: a stream open and a long poll waiting in one process (the live
    server is a thread of this one) wait on the same ``LISTEN`` connection and thread, and
    both get the change."""
    table_id = humans_table(players)
    start = version_of(table_id)
    watcher = Stream(live_server.url, f"/api/tables/{table_id}/stream/?since={start}")
    assert watcher.response.readline().startswith(b"retry:")  # the hub has subscribed
    polled = []

    def long_poll():
        polled.append(selectors._wait_for_version(table_id, start, 20))
        connection.close()

    poller = threading.Thread(target=long_poll)
    poller.start()
    wait_until(lambda: table_id in listener.running().slots, timeout=10)  # it waits
    assert len(wait_until(listeners, timeout=10)) == 1
    names = [t.name for t in threading.enumerate()]
    assert names.count(listener.THREAD_NAME) == 1
    act(players, table_id)
    now = version_of(table_id)
    assert int(watcher.states(until_version=now)[-1].id) == now
    poller.join(20)
    assert polled and polled[0][0] == now
    assert len(listeners()) == 1
    watcher.close()


# -- refusals ----------------------------------------------------------------------------------


@off_the_loop
def test_bad_input_is_a_clear_4xx(players, client):
    table_id = humans_table(players)
    url = f"/api/tables/{table_id}/stream/"
    for query in ("?since=abc", "?since=-1", "?since=1.5", "?since=99999999999"):
        r = client.get(url + query)
        assert r.status_code == 400, query
        assert r.json()["code"] == "invalid" and "since" in r.json()["error"]
    r = client.get(url, HTTP_LAST_EVENT_ID="seven")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = client.get("/api/tables/999999/stream/")
    assert r.status_code == 404 and r.json() == {
        "error": "There is no table 999999.",
        "code": "not_found",
    }
    assert client.get("/api/tables/abc/stream/").status_code == 404
    # Only GET; any other method is a JSON 405 (a POST used to meet the CSRF check's HTML
    # 403 first, and HEAD or OPTIONS an empty 405), the tournaments' stream the same.
    strict = Client(enforce_csrf_checks=True)
    for path in (url, "/api/tournaments/1/stream/"):
        for method in ("post", "put", "delete", "head", "options"):
            r = getattr(strict, method)(path)
            assert r.status_code == 405 and r["Allow"] == "GET", (path, method)
            if method != "head":
                assert r.json()["code"] == "method_not_allowed", (path, method)
    # The test client is a WSGI handler: a stream there would send nothing until it ended.
    r = client.get(url)
    assert r.status_code == 501 and r.json()["code"] == "unavailable"


def test_a_client_holds_at_most_its_cap_of_streams(players, live_server, settings):
    settings.TRIX_WAITS_PER_CLIENT = 1
    table_id = humans_table(players)
    path = f"/api/tables/{table_id}/stream/?since={version_of(table_id)}"
    first = Stream(live_server.url, path)
    assert first.status == 200
    assert first.response.readline().startswith(b"retry:")  # started: counted
    second = Stream(live_server.url, path)
    assert second.status == 429
    assert second.response.read().count(b"too_many_streams") == 1
    second.close()
    first.close()

    def third_opens():
        s = Stream(live_server.url, path)
        s.close()
        return s.status == 200

    wait_until(third_opens, timeout=30)


# -- what a held stream costs ------------------------------------------------------------------


def connections_to_this_database() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@off_the_loop
def test_held_streams_hold_no_thread_and_no_database_connection(players, live_server, settings):
    settings.TRIX_WAITS_PER_CLIENT = 100
    table_id = humans_table(players)
    path = f"/api/tables/{table_id}/stream/?since={version_of(table_id)}"
    warm = Stream(live_server.url, path)  # the listener, the feed and its threads started
    act(players, table_id)
    warm.states(until_version=version_of(table_id))
    threads, conns = threading.active_count(), connections_to_this_database()
    held = [Stream(live_server.url, path, headers=cookie_of(players[n % 4])) for n in range(20)]
    held += [Stream(live_server.url, path) for _ in range(20)]
    try:
        for s in held:
            assert s.response.readline().startswith(b"retry:")
        act(players, table_id)
        now = version_of(table_id)
        for s in held:
            assert int(s.states(until_version=now)[-1].id) == now
        # 40 streams open: a few more threads and connections at most (requests ending).
        counts = []

        def few_more():
            counts.append(
                (threading.active_count() - threads, connections_to_this_database() - conns)
            )
            return counts[-1][0] <= 4 and counts[-1][1] <= 4

        try:
            wait_until(few_more, timeout=30)
        except AssertionError:
            raise AssertionError(f"more threads, connections than before: {counts[-3:]}") from None
    finally:
        for s in held + [warm]:
            s.close()
