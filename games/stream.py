"""Live updates as Server-Sent Events: one long-lived response per watcher, fed by one
listener per web process.

A watcher opens ``GET /api/tables/{id}/stream/?since=V`` (or a tournament's
``GET /api/tournaments/{id}/stream/``) and keeps it open. Each message is::

    id: <version>
    event: state
    data: <the JSON the state poll answers for that caller after their previous version>

so a message is exactly what ``GET .../state/?since=<previous>`` would answer that caller
(:func:`games.selectors.table_state`): a contiguous sequence of events with the view, or the
full state. A source that sends every watcher its whole answer (a tournament's page) sends,
to a watcher that asked for ``?patches=1``, the change instead once the stream has sent it a
whole answer::

    id: <version>
    event: patch
    data: {"version": <version>, "since": <the version of the answer it changes>,
           "patch": <RFC 6902 JSON Patch operations turning that answer into this one>}

(:func:`json_patch`): applied to the answer the stream sent last, it gives exactly the whole
answer at ``version``. A new stream (a reconnection) always starts with a whole answer.

EventSource reconnects by itself and sends ``Last-Event-ID`` (the last version it got): the
new stream starts there, so a dropped connection loses nothing. ``: keepalive``
comments are sent every :data:`KEEPALIVE` seconds; a stream ends after
``TRIX_STREAM_LIFETIME`` seconds (the client reconnects) and, with an ``event: end``
message, once nothing will change any more (a table cancelled, or finished and paid:
:func:`games.selectors.table_over`; a tournament finished or cancelled).

The fan-out, per process and per event loop (:class:`Hub`):

- one listener task holds a ``psycopg.AsyncConnection`` with ``LISTEN`` on
  :data:`games.sql.NOTIFY_CHANNEL` (the payloads :func:`games.live.parse` reads: a table's
  id, a tournament's negative id, and the version);
- one feed task per key with watchers (:class:`Feed`): woken by the key's notification, it
  reads the key's version and computes each audience's answer ONCE in a worker thread (a
  spectator's answer is shared by every spectator at the same version, so all spectators get
  the same bytes; a seated user gets their own, computed once for all their tabs), encodes it
  once and puts it into each watcher's bounded queue;
- a watcher whose queue is full (it does not read fast enough) is sent nothing more and its
  stream ends: it reconnects with its ``Last-Event-ID`` and catches up.

So each process holding watchers of a key reads and answers each of its changes. In
production the reverse proxy sends every stream of a key to one process (``hash $uri``, the
``trix-web-streams@`` instances: docs/operations.md), so a change is answered once, not once
per process.

A private doubling pick (:mod:`games.services.picks`) changes no version and notifies nobody,
so it sends no message to anyone; its own seat sees it in its next answer, as with the poll.

If the listener loses its connection it reconnects (0.1 s to 5 s apart, as
:mod:`games.live`); meanwhile each feed reads its key's version every ``DOWN_POLL`` seconds,
and once more when the listener is back, so no change is missed. Without notifications
(SQLite, the embedded default) each feed reads its key's version every ``POLL`` seconds.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import jsonpatch
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import MethodNotAllowed
from rest_framework.renderers import JSONRenderer

from accounts.selectors import sessions_alive
from games import live, selectors, sql, waits

KEEPALIVE = 15.0  # seconds between ``: keepalive`` comments on a quiet stream
RETRY_MS = 1000  # EventSource's pause before reconnecting (the stream's ``retry:``)
THREADS = 4  # worker threads per process computing answers (their own DB connections)
_BACKOFF = (0.1, 5.0)  # the listener's first and longest pause before reconnecting

CONTENT_TYPE = "text/event-stream"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
"""The headers of a stream: no cache, no buffering by a proxy (nginx reads the second)."""

log = logging.getLogger(__name__)

_END = object()  # a queue item: send ``event: end`` and close
_CUT = None  # a queue item: close at once (fallen behind, its lifetime over, the process stops)
_KEEPALIVE = b": keepalive\n\n"
_END_MESSAGE = b"event: end\ndata: {}\n\n"
_TICK = 1.0  # seconds between the hub's rounds of keepalives and ended lifetimes
SESSION_CHECK = 5.0  # seconds between the hub's checks that its logged-in viewers' sessions live


class BadVersion(ValueError):
    """A ``since`` or ``Last-Event-ID`` that is not a whole number from 0."""


def requested_version(query: str | None, header: str | None) -> int | None:
    """The version a stream starts after: the ``Last-Event-ID`` header's if sent (it wins),
    else the ``since`` query's, else None (the full state). Raises :class:`BadVersion`."""
    value = header if header not in (None, "") else query
    if value is None or value == "":
        return None
    value = value.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 10:
        raise BadVersion("since (or Last-Event-ID) must be a whole number from 0")
    return int(value)


def message(version: int, data: bytes) -> bytes:
    """One SSE message: ``id: <version>``, ``event: state``, ``data: <json>``."""
    return b"id: %d\nevent: state\ndata: %s\n\n" % (version, data)


def encode(answer: dict[str, Any]) -> bytes:
    """An answer as the API renders it (DRF's JSON renderer: compact, UTF-8, one line)."""
    return JSONRenderer().render(answer)


def patch_message(version: int, since: int, ops: list[dict[str, Any]]) -> bytes:
    """One SSE patch message: ``id: <version>``, ``event: patch``, ``data: {"version",
    "since", "patch"}``, where ``patch`` (:func:`json_patch`'s) turns the answer at ``since``
    into the answer at ``version``."""
    data = encode({"version": version, "since": since, "patch": ops})
    return b"id: %d\nevent: patch\ndata: %s\n\n" % (version, data)


def json_patch(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The RFC 6902 JSON Patch operations turning ``old`` into ``new``
    (``jsonpatch.make_patch``; the page applies them with the same standard's
    ``fast-json-patch``), checked here by applying them to ``old``: None when that does not
    give ``new`` exactly (send the whole answer instead). ``old`` and ``new`` are JSON
    documents as :func:`encode` renders them (dicts, lists, strings, numbers, bools, None)."""
    try:
        ops = jsonpatch.make_patch(old, new).patch
        if any(_moves_into_a_sibling(op) for op in ops):
            return None
        if jsonpatch.apply_patch(old, ops) != new:
            return None
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError, ValueError):
        log.exception("no patch: the whole answer is sent")  # (a value JSON does not know)
        return None
    return ops


def _moves_into_a_sibling(op: dict[str, Any]) -> bool:
    """Whether ``op`` moves a value into another element of the container it leaves (``from``
    ``/a/0``, ``path`` ``/a/1/k/0``): ``jsonpatch`` removes first, then walks ``path``; the
    page's ``fast-json-patch`` walks ``path`` on the document before the removal and, where
    that finds another element, throws or puts the value elsewhere (about one patch in 9,000
    random ones); such an answer goes whole."""
    if op.get("op") != "move":
        return False
    source, target = op["from"].split("/"), op["path"].split("/")
    return len(target) > len(source) and target[: len(source) - 1] == source[:-1]


# -- what a feed sends -------------------------------------------------------------------------


class Mailbox:
    """A watcher's bounded list of what is waiting to be written to its stream: the feed puts
    (``put_nowait``, :class:`asyncio.QueueFull` when ``size`` items wait), the stream waits
    (:meth:`wait`) while it is empty, then takes everything waiting at once as one piece
    (:meth:`take`); a cut stream's is emptied (:meth:`clear`).

    ``asyncio.Queue`` with ``asyncio.wait_for`` for the keepalive made a task per message and
    per watcher (about a third of a web process's event loop with 5,000 watchers): a wait
    here is one future, and the keepalives and the stream's lifetime are the hub's
    (:meth:`Hub.tick`). A wait leaves nothing else behind that the garbage collector must
    visit (no coroutine, no new list: :meth:`take` answers bytes), since a web process's
    young collection visits the waits of every stream that got a message since the last one
    (``trix_site.heap``). ``last`` is when something was last put (``time.monotonic``)."""

    __slots__ = ("items", "size", "waiter", "last")

    def __init__(self, size: int):
        self.items: list = []
        self.size = size
        self.waiter: asyncio.Future | None = None
        self.last = time.monotonic()

    def full(self) -> bool:
        return len(self.items) >= self.size

    def empty(self) -> bool:
        return not self.items

    def put_nowait(self, item) -> None:
        if self.full():
            raise asyncio.QueueFull
        self.items.append(item)
        self.last = time.monotonic()
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        """Drop everything waiting."""
        self.items.clear()

    def wait(self) -> asyncio.Future:
        """A future done once something is put: ``while box.empty(): await box.wait()``."""
        self.waiter = asyncio.get_running_loop().create_future()
        return self.waiter

    def take(self) -> tuple[bytes | None, bool]:
        """Everything waiting, in order, as one piece to write, and whether the stream ends
        with it: ``(None, True)`` for a cut (close at once, nothing more written), the
        ``event: end`` message last for an end. Call it once :meth:`empty` is False."""
        items, self.waiter = self.items, None
        if items[0] is _CUT:  # (a cut empties the mailbox first: it comes alone)
            items.clear()
            return None, True
        end = items[-1] is _END
        if end:
            items[-1] = _END_MESSAGE
        data = items[0] if len(items) == 1 else b"".join(items)
        items.clear()
        return data, end


@dataclass(eq=False)
class Watcher:
    """One open stream: who watches (``viewer``: the user, for a table), the last version it
    was sent (None: nothing yet), its bounded :class:`Mailbox` of encoded messages, the seat
    its last answer gave it (None: a spectator), when the stream ends (``time.monotonic``;
    None: never), whether it takes ``event: patch`` messages (``?patches=1``), the whole
    answer its last message gave it (``basis``: the very object, for a source that patches;
    None: none yet on this stream), the language its request was answered in
    (``request.LANGUAGE_CODE``: a source whose answers hold words answers in it), and a
    logged-in viewer's session (its key, the user's id and session auth hash: the stream is
    cut once that session no longer logs them in, :meth:`Hub.cut_ended_sessions`)."""

    viewer: Any
    version: int | None
    queue: Mailbox = field(repr=False)
    seat: int | None = None
    ends_at: float | None = None
    patches: bool = False
    basis: Any = field(default=None, repr=False)
    language: str | None = None
    session: tuple[str, int, str] | None = field(default=None, repr=False)


@dataclass
class Delivery:
    """An answer computed for one watcher: its version, its encoded message, its seat,
    whether it is the last (nothing will change after it), and the whole answer the watcher
    holds once it has the message (:attr:`Watcher.basis`)."""

    watcher: Watcher
    version: int
    data: bytes
    seat: int | None = None
    final: bool = False
    basis: Any = None


class Source:
    """What the feeds of one kind of key send. Its methods are synchronous (they read the
    database) and run in the hub's threads. ``patches``: whether its watchers may ask for
    ``event: patch`` messages (``?patches=1``)."""

    patches = False

    def current(self, key: int) -> tuple | None:
        """What the key's answers start from, read once per wake-up: a tuple whose first item
        is the key's current version; None when the key does not exist."""
        raise NotImplementedError

    def version(self, key: int) -> int | None:
        """The key's current version; None when it does not exist."""
        current = self.current(key)
        return None if current is None else current[0]

    def answers(self, key: int, behind: list[Watcher], current: tuple) -> list[Delivery]:
        """The messages bringing each of ``behind`` (watchers whose version is not the
        current one) up to ``current`` (:meth:`current`'s), each computed once per
        audience."""
        raise NotImplementedError

    def final_version(self, key: int) -> int | None:
        """The key's last version once nothing will change any more, else None."""
        raise NotImplementedError

    def catch_up(self, key: int, watchers: list[Watcher]) -> tuple[int | None, list[Delivery]]:
        """The key's current version (None: it does not exist) and the messages bringing
        each of ``watchers`` whose version is not that one up to date: what a feed does at
        each wake-up, in one call (one trip to the hub's threads)."""
        current = self.current(key)
        if current is None:
            return None, []
        behind = [w for w in watchers if w.version != current[0]]
        return current[0], self.answers(key, behind, current) if behind else []


class TableSource(Source):
    """A table: each watcher gets :func:`games.selectors.table_state` after its version.

    What an answer depends on beyond the table and ``since`` is the caller's seat (the view,
    ``my_seat``, ``returned_from_away``, the seat's private pick) and, in ``table.seats``,
    ``is_me`` (True only on the caller's own seat): a user who holds no seat gets exactly the
    answer an anonymous caller gets. So per ``since``, the watchers who hold no seat share
    one answer computed for an anonymous caller, and each seated user gets their own (one
    user holds at most one seat of a table: ``games_seat_one_per_user``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seated: dict[int, frozenset[int]] = {}  # table -> user ids seated (last seen)

    def current(self, key: int) -> tuple | None:
        return sql.live_fields(key)  # the answers start from these (games.sql.LIVE_FIELDS)

    def final_version(self, key: int) -> int | None:
        return selectors.table_over(key)

    def catch_up(self, key: int, watchers: list[Watcher]) -> tuple[int | None, list[Delivery]]:
        """As :meth:`Source.catch_up`, with the table's fields and the events after the
        oldest version among ``watchers`` read in one statement
        (:func:`games.sql.live_reading`): the answers need no other read while the process's
        caches of the table are current (every change of a watched table keeps them so)."""
        after = min((w.version or 0 for w in watchers), default=0)
        read = sql.live_reading(key, after)
        if read is None:
            return None, []
        fields, rows = read
        behind = [w for w in watchers if w.version != fields[0]]
        return fields[0], self.answers(key, behind, fields, (after, rows)) if behind else []

    def _remember(self, key: int, answer: dict) -> dict[int, int]:
        seats = {s["user_id"]: s["seat"] for s in answer["table"]["seats"] if s["user_id"]}
        with self._lock:
            if len(self._seated) > 4096:
                self._seated.clear()
            self._seated[key] = frozenset(seats)
        return seats

    def answers(
        self, key: int, behind: list[Watcher], current: tuple, read: tuple | None = None
    ) -> list[Delivery]:
        """As :meth:`Source.answers`; ``read``: the events :meth:`catch_up` read with
        ``current`` (``table_state``'s ``read``)."""
        groups: dict[int | None, list[Watcher]] = defaultdict(list)
        for w in behind:
            groups[w.version].append(w)
        with self._lock:
            seated_before = self._seated.get(key, frozenset())
        out: list[Delivery] = []
        final_version: int | None = None
        for since, watchers in groups.items():
            by_user: dict[int, list[Watcher]] = defaultdict(list)
            others: list[Watcher] = []
            for w in watchers:
                uid = _user_id(w.viewer)
                (by_user[uid] if uid in seated_before else others).append(w)
            if others:
                answer = selectors.table_state(
                    key, AnonymousUser(), since, fields=current, read=read
                )
                seats = self._remember(key, answer)
                data = message(answer["version"], encode(answer))
                final_version = _final(key, answer, final_version)
                for w in others:
                    uid = _user_id(w.viewer)
                    if uid in seats:  # seated at this version: their own answer below
                        by_user[uid].append(w)
                        continue
                    final = answer["version"] == final_version
                    out.append(Delivery(w, answer["version"], data, None, final))
            for users in by_user.values():
                answer = selectors.table_state(
                    key, users[0].viewer, since, fields=current, read=read
                )
                self._remember(key, answer)
                data = message(answer["version"], encode(answer))
                final_version = _final(key, answer, final_version)
                final = answer["version"] == final_version
                for w in users:
                    out.append(Delivery(w, answer["version"], data, answer["my_seat"], final))
        return out


def _user_id(user) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def _final(key: int, answer: dict, known: int | None) -> int | None:
    """The table's last version once it is over (read only for a table that ended)."""
    if known is not None or answer["table"]["status"] not in ("finished", "cancelled"):
        return known
    return selectors.table_over(key)


TABLES = TableSource()
"""The tables' source (``GET /api/tables/{id}/stream/``)."""


# -- the feeds and the listener ----------------------------------------------------------------


class Feed:
    """The watchers of one key and the task bringing them up to date."""

    def __init__(self, hub: Hub, key: int, source: Source):
        self.hub, self.key, self.source = hub, key, source
        self.watchers: set[Watcher] = set()
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        failures = 0
        try:
            while self.watchers:
                self.wake.clear()
                try:
                    await self._pump()
                    failures = 0
                except Exception as exc:  # the database is away: try again, slower each time
                    failures += 1
                    log.warning("live stream %s: %s", self.key, exc)
                    await asyncio.sleep(min(_BACKOFF[0] * 2**failures, _BACKOFF[1]))
                    continue
                if not self.watchers:
                    break
                every = self.hub.poll_every()
                if every is None:  # notified: nothing to do until the notification
                    await self.wake.wait()
                    continue
                try:
                    await asyncio.wait_for(self.wake.wait(), every)
                except TimeoutError:
                    pass
        finally:
            if self.hub.feeds.get(self.key) is self:  # no await since the loop's last check
                del self.hub.feeds[self.key]
            for w in list(self.watchers):
                _close(w, _CUT)
            self.watchers.clear()

    async def _pump(self) -> None:
        current, deliveries = await self.hub.run(
            self.source.catch_up, self.key, list(self.watchers)
        )
        if current is None:
            for w in list(self.watchers):
                self.drop(w, _CUT)
            return
        for d in deliveries:
            w = d.watcher
            if w not in self.watchers:  # gone meanwhile
                continue
            w.version, w.seat, w.basis = d.version, d.seat, d.basis
            try:
                w.queue.put_nowait(d.data)
            except asyncio.QueueFull:  # fallen behind: nothing more; it reconnects
                self.drop(w, _CUT)
                continue
            if d.final:
                self.drop(w, _END)

    def drop(self, watcher: Watcher, last: object) -> None:
        self.watchers.discard(watcher)
        _close(watcher, last)


def _close(watcher: Watcher, last: object) -> None:
    """End ``watcher``'s stream with ``last`` (:data:`_END` or :data:`_CUT`); a cut stream
    gets nothing of what was still queued."""
    q = watcher.queue
    if last is _CUT or q.full():  # no room for the end: cut; it reconnects and catches up
        q.clear()
        last = _CUT
    q.put_nowait(last)


class Hub:
    """The process's feeds and listener, on one event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.feeds: dict[int, Feed] = {}
        self.notified = connections["default"].vendor == "postgresql"
        self.connected = False
        self.executor = ThreadPoolExecutor(THREADS, thread_name_prefix="trix-stream")
        self.listener: asyncio.Task | None = None
        self.ticker: asyncio.Task | None = None
        self.checker: asyncio.Task | None = None  # the sessions' check under way

    def poll_every(self) -> float | None:
        """How long a feed waits for a notification before reading its version itself."""
        if not self.notified:
            return live.POLL
        return None if self.connected else live.DOWN_POLL

    async def run(self, fn: Callable, *args):
        """``fn(*args)`` in one of the hub's threads (the ORM is synchronous). The executor
        is called directly: asgiref's ``sync_to_async`` (a context copy and a thread-sensitive
        check per call) cost about a tenth of a web process's CPU at every table's change."""
        return await self.loop.run_in_executor(self.executor, _in_thread, fn, *args)

    def subscribe(self, key: int, source: Source, watcher: Watcher) -> Feed:
        if self.notified and self.listener is None:
            self.listener = _spawn(self.listen())
        if self.ticker is None or self.ticker.done():
            self.ticker = _spawn(self.tick())
        feed = self.feeds.get(key)
        if feed is None:
            feed = self.feeds[key] = Feed(self, key, source)
            feed.watchers.add(watcher)
            feed.task = _spawn(feed.run())
        else:
            feed.watchers.add(watcher)
            feed.wake.set()
        return feed

    def unsubscribe(self, feed: Feed, watcher: Watcher) -> None:
        if watcher in feed.watchers:
            feed.watchers.discard(watcher)
            if not feed.watchers:
                feed.wake.set()  # the feed ends

    async def tick(self) -> None:
        """Every :data:`_TICK` seconds while there are feeds: a ``: keepalive`` comment to
        each watcher sent nothing for :data:`KEEPALIVE` seconds, and the end of each stream
        whose lifetime is over (``TRIX_STREAM_LIFETIME``: it reconnects); every
        :data:`SESSION_CHECK` seconds, the cut of each stream whose viewer logged out
        (:meth:`cut_ended_sessions`)."""
        checked = time.monotonic()
        while self.feeds:
            await asyncio.sleep(_TICK)
            now = time.monotonic()
            for feed in list(self.feeds.values()):
                for w in list(feed.watchers):
                    if w.ends_at is not None and now >= w.ends_at:
                        feed.drop(w, _CUT)
                    elif now - w.queue.last >= KEEPALIVE and w.queue.empty():
                        w.queue.put_nowait(_KEEPALIVE)
            if now - checked >= SESSION_CHECK and (self.checker is None or self.checker.done()):
                checked = now  # a task of its own: the tick never waits on the database
                self.checker = _spawn(self.cut_ended_sessions())

    async def cut_ended_sessions(self) -> None:
        """Cut every stream whose viewer's session no longer logs them in (a logout in
        another tab, an expiry, a password change or reset elsewhere, a closed or banned
        account): its answers were that user's (their seat's hand), and the page reconnects
        as whoever its browser now is (a spectator after a logout). Two queries per
        :data:`SESSION_CHECK` seconds for all the process's logged-in watchers
        (:func:`accounts.selectors.sessions_alive`); a database away skips a round."""
        sessions = {
            w.session[0]: w.session[1:]
            for f in self.feeds.values()
            for w in f.watchers
            if w.session
        }
        if not sessions:
            return
        try:
            alive = await self.run(sessions_alive, sessions)
        except Exception as exc:
            log.warning("live streams' session check: %s", exc)
            return
        ended = sessions.keys() - alive  # (a stream opened meanwhile waits for the next round)
        for feed in list(self.feeds.values()):
            for w in list(feed.watchers):
                if w.session and w.session[0] in ended:
                    feed.drop(w, _CUT)

    def _set_connected(self, up: bool) -> None:
        if up == self.connected:
            return
        self.connected = up
        for feed in self.feeds.values():  # read the version now (and poll while down)
            feed.wake.set()

    async def listen(self) -> None:
        import psycopg

        pause = _BACKOFF[0]
        params = await self.run(live.connection_params)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as conn:
                    await sql.alisten(conn)
                    self._set_connected(True)
                    pause = _BACKOFF[0]
                    async for note in conn.notifies():
                        parsed = live.parse(note.payload)
                        feed = self.feeds.get(parsed[0]) if parsed else None
                        if feed is not None:
                            feed.wake.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a lost connection, a refused one, a restart...
                log.warning("live streams' notifications: %s; reconnecting in %.1f s", exc, pause)
            finally:
                self._set_connected(False)
            await asyncio.sleep(pause)
            pause = min(pause * 2, _BACKOFF[1])

    async def close(self) -> None:
        """Stop the listener and every feed, and close the threads' database connections
        (the server's shutdown: ``trix_site.asgi``)."""
        tasks = [f.task for f in self.feeds.values() if f.task]
        tasks += [self.listener, self.ticker, self.checker]
        for task in tasks:
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in tasks if t is not None), return_exceptions=True)
        self.listener = self.ticker = self.checker = None
        barrier = threading.Barrier(THREADS, timeout=5)

        def close_mine():
            try:
                barrier.wait()  # one call per thread
            except threading.BrokenBarrierError:
                pass
            connections.close_all()

        await asyncio.gather(
            *(self.loop.run_in_executor(self.executor, close_mine) for _ in range(THREADS))
        )
        self.executor.shutdown(wait=False)


def _in_thread(fn: Callable, *args):
    """Run ``fn`` with a usable connection: one that failed is replaced (the threads keep
    theirs between calls, unlike requests)."""
    conn = connections["default"]
    if conn.connection is not None and conn.errors_occurred:
        if conn.is_usable():
            conn.errors_occurred = False
        else:
            conn.close()
    return fn(*args)


def _spawn(coro) -> asyncio.Task:
    """A task in a context of its own (not the request's that started it)."""
    return asyncio.get_running_loop().create_task(coro, context=contextvars.Context())


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    """This event loop's hub (one per process under an ASGI server)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for old in [lp for lp in _hubs if lp.is_closed()]:
            del _hubs[old]
        found = _hubs[loop] = Hub(loop)
    return found


async def shutdown() -> None:
    """Close this event loop's hub, if it has one (the ASGI lifespan's shutdown)."""
    found = _hubs.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.close()


# -- one stream --------------------------------------------------------------------------------


async def events(
    key: int,
    source: Source,
    viewer: Any,
    since: int | None,
    *,
    on_seat: Callable[[int], Any] | None = None,
    client: str | None = None,
    patches: bool = False,
    language: str | None = None,
    session: tuple[str, int, str] | None = None,
) -> AsyncIterator[bytes]:
    """The body of one stream: the messages bringing ``viewer`` up from ``since`` and every
    later version of ``key``, keepalive comments, then ``event: end`` once over (or nothing
    more after ``TRIX_STREAM_LIFETIME`` seconds, or once it fell behind). ``on_seat(seat)``
    (synchronous, run in the hub's threads) is called the first time an answer gives the viewer
    a seat. ``client``
    (:func:`games.waits.client_of`) is counted among its streams while this one is open
    (:func:`games.waits.take_stream`; over the cap the stream ends at once). ``patches``: the
    watcher takes ``event: patch`` messages (where the source sends them); ``language``: the
    one its answers' words are in (where the source has words); ``session``: a logged-in
    viewer's (:attr:`Watcher.session`: the stream is cut once it no longer logs them in)."""
    if client is not None and not waits.take_stream(client):
        return  # opened meanwhile by the same client (the view checked): it reconnects
    watcher = Watcher(
        viewer,
        since,
        Mailbox(settings.TRIX_STREAM_QUEUE),
        ends_at=time.monotonic() + settings.TRIX_STREAM_LIFETIME,
        patches=patches and source.patches,
        language=language,
        session=session,
    )
    the_hub = hub()
    feed = the_hub.subscribe(key, source, watcher)
    seated = False
    try:
        yield b"retry: %d\n\n" % RETRY_MS  # the response starts now (EventSource opens)
        box = watcher.queue
        while True:
            while box.empty():
                await box.wait()
            data, end = box.take()  # everything waiting: one write
            if data is None:  # cut
                return
            if watcher.seat is not None and not seated and on_seat is not None:
                seated = True
                await the_hub.run(on_seat, watcher.seat)  # not the request's thread
            yield data
            if end:
                return
    finally:
        the_hub.unsubscribe(feed, watcher)
        if client is not None:
            waits.give_back_stream(client)


async def response(
    request,
    key: int,
    source: Source,
    *,
    viewer: Any,
    missing: str,
    on_seat: Callable[[int], Any] | None = None,
) -> HttpResponse:
    """A stream's answer to ``request`` (``GET``, ``?since=`` or ``Last-Event-ID``, and
    ``?patches=1`` where the source patches): the
    event stream (200); 204 when nothing will change after the version the caller has (an
    EventSource stops reconnecting); 400 ``invalid`` for a bad version or ``patches`` (``0`` or
    ``1``), 404 ``not_found``
    (``missing``) for an unknown key, 429 ``too_many_streams`` when the caller's client
    already holds ``TRIX_WAITS_PER_CLIENT`` streams in this process; 501 ``unavailable``
    under a WSGI server (``runserver``, gunicorn's sync workers), which would hold a thread
    and send nothing until the stream ends (the pages then long-poll). Errors in the API's
    shape ``{"error", "code"}``."""
    try:
        since = requested_version(request.GET.get("since"), request.headers.get("Last-Event-ID"))
    except BadVersion:
        return _error(_("since (or Last-Event-ID) must be a whole number from 0"), "invalid", 400)
    patches = request.GET.get("patches", "0") if source.patches else "0"  # else not read
    if patches not in ("0", "1"):
        return _error(_("patches must be 0 or 1"), "invalid", 400)
    version = await sync_to_async(source.version)(key)
    if version is None:
        return _error(missing, "not_found", 404)
    if since == version and await sync_to_async(source.final_version)(key) == version:
        return HttpResponse(status=204)
    if "wsgi.version" in request.META:  # a WSGI server would hold a thread and send nothing
        return _error(
            _("Live streams are served by the ASGI server only: follow the state poll."),
            "unavailable",
            501,
        )
    client = waits.client_of(request, viewer)
    if waits.streams_full(client):
        return _error(
            _("Too many live streams open: close a page, or follow it with the state poll."),
            "too_many_streams",
            429,
        )
    body = events(
        key,
        source,
        viewer,
        since,
        on_seat=on_seat,
        client=client,
        patches=patches == "1",
        language=getattr(request, "LANGUAGE_CODE", None),
        session=_session_of(request, viewer),
    )
    await _let_go_of_the_request_thread()
    return LiveStreamResponse(body, content_type=CONTENT_TYPE, headers=HEADERS)


def _session_of(request, viewer) -> tuple[str, int, str] | None:
    """A logged-in viewer's session: its key, the user's id and session auth hash (None:
    anonymous, or no session)."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    key = getattr(getattr(request, "session", None), "session_key", None)
    return None if key is None else (key, viewer.pk, viewer.get_session_auth_hash())


class LiveStreamResponse(StreamingHttpResponse):
    """A stream's response: Django's ASGI handler iterates its body itself (:func:`events`,
    whose messages are bytes already) instead of through the two generators
    ``StreamingHttpResponse`` wraps it in, each of which left an object per message and per
    watcher for the garbage collector to visit (``trix_site.heap``); the handler's
    ``aclosing(aiter(response))`` then closes the body itself when the stream ends or the
    client goes (its ``finally``: the hub lets go of the watcher at once). A synchronous
    body is iterated as Django does."""

    def __aiter__(self):
        return self._iterator if self.is_async else super().__aiter__()


async def _let_go_of_the_request_thread() -> None:
    """Give back what the request's synchronous part holds while its stream is open: Django's
    ASGI handler runs a request's sync middleware and sync calls in one thread of its own,
    with its own database connection, kept until the response ends (``asgiref``'s
    ``ThreadSensitiveContext``), which for a stream is minutes. Its connection is closed now,
    and the thread told to end once the middleware is done (a sync call later in the request,
    ``response.close()`` at the end, gets a new thread then)."""
    await sync_to_async(connections.close_all)()
    context = SyncToAsync.thread_sensitive_context.get(None)
    executor = SyncToAsync.context_to_thread_executor.pop(context, None) if context else None
    if executor is not None:
        executor.shutdown(wait=False)


def get_only(view: Callable) -> Callable:
    """A stream view's guard: ``GET`` only (EventSource's method); any other method answers
    405 ``method_not_allowed`` in the API's shape, with ``Allow: GET`` (Django's
    ``require_GET`` answered an empty 405, and a ``POST`` first met the CSRF check's HTML
    403). Exempt from that check: a stream changes nothing."""

    @csrf_exempt
    @functools.wraps(view)
    async def guarded(request, *args, **kwargs):
        if request.method != "GET":
            response = _error(MethodNotAllowed(request.method).detail, "method_not_allowed", 405)
            response["Allow"] = "GET"
            return response
        return await view(request, *args, **kwargs)

    return guarded


def _error(text: str, code: str, status: int) -> JsonResponse:
    """An error in the API's shape, UTF-8 as DRF renders the others (no ``\\u`` escapes)."""
    body = {"error": str(text), "code": code}
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
