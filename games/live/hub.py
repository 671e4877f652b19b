"""The fan-out of live streams, per process and per event loop (:class:`Hub`):

- the process's listener (:mod:`games.live.listener`, the same thread the long polls wait
  on) tells the hub of each notified key; the hub hands it to its loop;
- one feed task per key with watchers (:class:`Feed`): woken by the key's notification, it
  reads the key's version and computes each audience's answer ONCE in one of the hub's
  threads (:meth:`games.live.sources.Source.catch_up`), encodes it once and puts it into each
  watcher's bounded mailbox;
- a watcher whose mailbox is full (it does not read fast enough) is sent nothing more and its
  stream ends: it reconnects with its ``Last-Event-ID`` and catches up;
- every second, a ``: keepalive`` to each quiet stream and the end of each stream whose
  lifetime (``TRIX_STREAM_LIFETIME``) is over; every :data:`SESSION_CHECK` seconds, the cut
  of each stream whose viewer logged out.

So each process holding watchers of a key reads and answers each of its changes. In
production the reverse proxy sends every stream of a key to one process (``hash $uri``, the
``trix-web-streams@`` instances: docs/operations.md), so a change is answered once, not once
per process.

While the listener has no connection each feed reads its key's version every
:data:`games.live.listener.DOWN_POLL` seconds, and once more when it is back, so no change is
missed. Without notifications (SQLite, the embedded default) each feed reads its key's
version every :data:`games.live.long_poll.POLL` seconds.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import connections

from accounts.selectors import sessions_alive
from games.live import listener
from games.live.long_poll import POLL
from games.live.sources import Source
from games.live.sse import KEEPALIVE, KEEPALIVE_COMMENT
from games.live.watchers import CUT, END, Watcher

THREADS = 4
"""Threads per process computing answers (each with its own database connection)."""
SESSION_CHECK = 5.0
"""Seconds between the hub's checks that its logged-in viewers' sessions live."""
_TICK = 1.0  # seconds between the hub's rounds of keepalives and ended lifetimes
_BACKOFF = (0.1, 5.0)  # a failing feed's first and longest pause before it reads again

log = logging.getLogger(__name__)


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
                _close(w, CUT)
            self.watchers.clear()

    async def _pump(self) -> None:
        current, deliveries = await self.hub.run(
            self.source.catch_up, self.key, list(self.watchers)
        )
        if current is None:
            for w in list(self.watchers):
                self.drop(w, CUT)
            return
        for d in deliveries:
            w = d.watcher
            if w not in self.watchers:  # gone meanwhile
                continue
            w.version, w.seat, w.basis = d.version, d.seat, d.basis
            try:
                w.queue.put_nowait(d.data)
            except asyncio.QueueFull:  # fallen behind: nothing more; it reconnects
                self.drop(w, CUT)
                continue
            if d.final:
                self.drop(w, END)

    def drop(self, watcher: Watcher, last: object) -> None:
        self.watchers.discard(watcher)
        _close(watcher, last)


def _close(watcher: Watcher, last: object) -> None:
    """End ``watcher``'s stream with ``last`` (:data:`~games.live.watchers.END` or
    :data:`~games.live.watchers.CUT`); a cut stream gets nothing of what was still queued."""
    q = watcher.queue
    if last is CUT or q.full():  # no room for the end: cut; it reconnects and catches up
        q.clear()
        last = CUT
    q.put_nowait(last)


class Hub:
    """The process's feeds on one event loop, and its subscription to the process's listener
    (:class:`games.live.listener.Subscriber`): ``notifications`` (PostgreSQL: there are
    some), ``listening`` (the listener it subscribed to, None before), ``connected`` (as that
    listener last told)."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.feeds: dict[int, Feed] = {}
        self.notifications = connections["default"].vendor == "postgresql"
        self.listening: listener.Listener | None = None
        self.connected = False
        self.executor = ThreadPoolExecutor(THREADS, thread_name_prefix="trix-stream")
        self.ticker: asyncio.Task | None = None
        self.checker: asyncio.Task | None = None  # the sessions' check under way

    def poll_every(self) -> float | None:
        """How long a feed waits for a notification before reading its version itself (None:
        until notified). While the listener is down, :data:`listener.DOWN_POLL`; a listener
        that was stopped is started again here."""
        if not self.notifications:
            return POLL
        if self.connected:
            return None
        self._listen()
        return listener.DOWN_POLL

    def _listen(self) -> None:
        """Subscribe to this process's listener, starting it (again, if it was stopped)."""
        running = listener.running()
        if running is not self.listening:
            if self.listening is not None:
                self.listening.unsubscribe(self)
            self.listening = running
            self._set_connected(running.subscribe(self))

    # -- called in the listener's thread (games.live.listener.Subscriber) --------------------

    def notified(self, key: int) -> None:
        if key in self.feeds:  # (a feed started meanwhile reads its version first anyway)
            self._in_loop(self._wake, key)

    def connection_changed(self, up: bool) -> None:
        self._in_loop(self._set_connected, up)

    def _in_loop(self, fn: Callable, *args) -> None:
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed: nothing waits on it any more
            pass

    # -- in the loop -------------------------------------------------------------------------

    def _wake(self, key: int) -> None:
        feed = self.feeds.get(key)
        if feed is not None:
            feed.wake.set()

    async def run(self, fn: Callable, *args):
        """``fn(*args)`` in one of the hub's threads (the ORM is synchronous). The executor
        is called directly: asgiref's ``sync_to_async`` (a context copy and a thread-sensitive
        check per call) cost about a tenth of a web process's CPU at every table's change."""
        return await self.loop.run_in_executor(self.executor, _in_thread, fn, *args)

    def subscribe(self, key: int, source: Source, watcher: Watcher) -> Feed:
        if self.notifications and self.listening is None:
            self._listen()
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
                        feed.drop(w, CUT)
                    elif now - w.queue.last >= KEEPALIVE and w.queue.empty():
                        w.queue.put_nowait(KEEPALIVE_COMMENT)
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
                    feed.drop(w, CUT)

    def _set_connected(self, up: bool) -> None:
        if up == self.connected:
            return
        self.connected = up
        for feed in self.feeds.values():  # read the version now (and poll while down)
            feed.wake.set()

    def forget(self) -> None:
        """Unsubscribe from the listener (the hub's loop is closing or closed)."""
        if self.listening is not None:
            self.listening.unsubscribe(self)
            self.listening = None

    async def close(self) -> None:
        """Let go of the listener, stop every feed, and close the threads' database
        connections (the server's shutdown: ``trix_site.asgi``)."""
        self.forget()
        tasks = [f.task for f in self.feeds.values() if f.task]
        tasks += [self.ticker, self.checker]
        for task in tasks:
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in tasks if t is not None), return_exceptions=True)
        self.ticker = self.checker = None
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
            _hubs.pop(old).forget()
        found = _hubs[loop] = Hub(loop)
    return found


async def shutdown() -> None:
    """Close this event loop's hub, if it has one (the ASGI lifespan's shutdown)."""
    found = _hubs.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.close()
