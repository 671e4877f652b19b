"""The process's one listener of table notifications (PostgreSQL ``LISTEN``).

On PostgreSQL every committed change of a table's version sends ``NOTIFY trix_table,
'<table id>:<version>'`` (a trigger, migration ``games/0003``; a tournament's live page sends
``'-<id>:<version>'``, :func:`games.sql.notify`). One daemon thread per process, started by
the first long poll or live stream that needs it (never at import), holds its own connection
(autocommit, ``LISTEN trix_table``, ``application_name`` :data:`APPLICATION_NAME`) and tells:

- the long polls waiting on a key (:mod:`games.live.long_poll`: a condition per key);
- every subscriber (:class:`Subscriber`: each event loop's hub of live streams,
  :class:`games.live.hub.Hub`), which it calls from its thread.

If the connection is lost the thread reconnects, 0.1 s then twice as long each time up to
5 s; meanwhile every waiter and subscriber is told it is down and looks at the database
itself, and once more when it is back, so no change is missed. A forked child forgets its
parent's listener and starts its own.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Protocol

from django.db import connections

from games import sql

CHANNEL = sql.NOTIFY_CHANNEL
APPLICATION_NAME = "trix-table-notifications"
"""The listener connection's ``application_name``: how ``pg_stat_activity`` tells it apart
from the process's other connections."""
THREAD_NAME = "trix-table-notifications"
DOWN_POLL = 0.1
"""Seconds between a waiter's own looks at its key while the listener has no connection."""
_IDLE = 1.0  # seconds the thread blocks in notifies() before it looks at its stop flag
_BACKOFF = (0.1, 5.0)  # the first and the longest pause before reconnecting

log = logging.getLogger(__name__)


class Subscriber(Protocol):
    """What the listener tells besides the long polls. Both methods are called in the
    listener's thread and must return at once (an event loop's hub hands them to its loop)."""

    def notified(self, key: int) -> None:
        """``key`` (a table's id, a tournament's negative id) has a new version."""

    def connection_changed(self, up: bool) -> None:
        """The listener is listening now (``up``), or has no connection (look yourself)."""


def parse(payload: str) -> tuple[int, int] | None:
    """A notification's ``'<key>:<version>'`` as ``(key, version)`` (a tournament's key is
    negative), or None for anything else."""
    try:
        key, version = (int(part) for part in payload.split(":"))
    except ValueError:
        return None
    return key, version


def connection_params() -> dict:
    """Connection arguments for ``psycopg.connect`` from Django's ``default`` database, with
    TCP keepalives (to notice a silently dropped connection)."""
    params = connections["default"].get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    params.setdefault("keepalives", 1)
    params.setdefault("keepalives_idle", 30)
    params.setdefault("keepalives_interval", 10)
    params.setdefault("keepalives_count", 3)
    return params


@dataclass
class Slot:
    """The long polls waiting on one key: how many, and the highest version notified since
    the first of them came."""

    cond: threading.Condition
    count: int = 0
    latest: int = 0


@dataclass
class Listener:
    """The thread and what it shares with the waiters and subscribers (under ``lock``):
    ``slots`` by key, ``subscribers``, whether it is ``connected``, and ``epoch``, the number
    of connections it has made (a waiter that saw another one looks again)."""

    params: dict
    lock: threading.Lock = field(default_factory=threading.Lock)
    slots: dict[int, Slot] = field(default_factory=dict)
    subscribers: list[Subscriber] = field(default_factory=list)
    connected: bool = False
    epoch: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    pid: int = field(default_factory=os.getpid)

    # -- the thread --------------------------------------------------------------------------

    def run(self) -> None:
        import psycopg

        pause = _BACKOFF[0]
        while not self.stop.is_set():
            try:
                with psycopg.connect(**self.params, autocommit=True) as conn:
                    sql.listen(conn)
                    self._set_connected(True)
                    pause = _BACKOFF[0]
                    while not self.stop.is_set():
                        for note in conn.notifies(timeout=_IDLE):
                            self._notified(note.payload)
            except Exception as exc:  # a lost connection, a refused one, a restart...
                if self.stop.is_set():
                    break
                log.warning("table notifications: %s; reconnecting in %.1f s", exc, pause)
            finally:
                self._set_connected(False)
            self.stop.wait(pause)
            pause = min(pause * 2, _BACKOFF[1])

    def _notified(self, payload: str) -> None:
        parsed = parse(payload)
        if parsed is None:
            return
        key, version = parsed
        with self.lock:
            slot = self.slots.get(key)
            if slot is not None and version > slot.latest:
                slot.latest = version
                slot.cond.notify_all()
            subscribers = tuple(self.subscribers)
        for subscriber in subscribers:
            subscriber.notified(key)

    def _set_connected(self, up: bool) -> None:
        with self.lock:
            if up == self.connected:
                return
            self.connected = up
            if up:
                self.epoch += 1
            for slot in self.slots.values():  # waiters look at the database again
                slot.cond.notify_all()
            subscribers = tuple(self.subscribers)
        for subscriber in subscribers:
            subscriber.connection_changed(up)

    # -- the waiters' and subscribers' side --------------------------------------------------

    def wait(self, key: int, since: int, epoch: int | None, timeout: float) -> bool:
        """Block until ``key`` is notified past ``since``, the connection changed since
        ``epoch`` (None: it was down) or ``timeout`` seconds passed (then False)."""
        end = time.monotonic() + timeout
        with self.lock:
            slot = self.slots[key]
            while slot.latest <= since:
                if not self.connected:  # down: look at the database every DOWN_POLL
                    slot.cond.wait(min(timeout, DOWN_POLL))
                    return True
                if self.epoch != epoch:  # (re)connected since the caller looked: look again
                    return True
                if self.stop.is_set():  # stopped: the caller looks, then polls
                    return True
                remaining = end - time.monotonic()
                if remaining <= 0:
                    return False
                slot.cond.wait(remaining)
            return True

    def subscribe(self, subscriber: Subscriber) -> bool:
        """Tell ``subscriber`` of every notification and connection change from now on;
        returns whether the listener is connected now (later changes come after this)."""
        with self.lock:
            self.subscribers.append(subscriber)
            return self.connected

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self.lock:
            if subscriber in self.subscribers:
                self.subscribers.remove(subscriber)


_listener: Listener | None = None
_start_lock = threading.Lock()


def _forget_in_child() -> None:
    global _listener, _start_lock
    _listener = None  # the parent's thread does not exist here; its connection is not ours
    _start_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)


def running() -> Listener:
    """This process's listener, started if it is not running."""
    global _listener
    listener = _listener
    if listener is not None and listener.pid == os.getpid() and not listener.stop.is_set():
        return listener
    with _start_lock:
        listener = _listener
        if listener is None or listener.pid != os.getpid() or listener.stop.is_set():
            listener = Listener({**connection_params(), "application_name": APPLICATION_NAME})
            listener.thread = threading.Thread(target=listener.run, name=THREAD_NAME, daemon=True)
            listener.thread.start()
            _listener = listener
    return listener


def stop(timeout: float = 5.0) -> None:
    """Stop this process's listener and close its connection (tests; the next long poll or
    stream starts another). Waiters still waiting fall back to looking at the database; each
    subscriber is told the connection is down and is let go of (it subscribes again)."""
    global _listener
    with _start_lock:
        listener, _listener = _listener, None
    if listener is None or listener.pid != os.getpid():
        return
    with listener.lock:  # let go of the subscribers first: they are told once, below
        subscribers, listener.subscribers = listener.subscribers, []
        listener.stop.set()
        for slot in listener.slots.values():
            slot.cond.notify_all()
    if listener.thread is not None:
        listener.thread.join(timeout)
    for subscriber in subscribers:
        subscriber.connection_changed(False)


def connected() -> bool:
    """Whether this process's listener is listening now (tests, diagnostics)."""
    listener = _listener
    return listener is not None and listener.pid == os.getpid() and listener.connected
