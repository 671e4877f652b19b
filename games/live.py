"""Live updates: waiting for a table's next version (a state poll's long wait), by PostgreSQL
notifications, one listener per process.

On PostgreSQL every committed change of a table's version sends ``NOTIFY trix_table,
'<table id>:<version>'`` (a trigger, migration ``games/0003``). One daemon thread per process,
started by the first request that waits, holds its own connection (autocommit, ``LISTEN
trix_table``) and wakes the requests waiting on that table. A waiting request costs no query
and no CPU until its table changes or its time is up.

The listener survives a lost connection: it reconnects with a growing pause (0.1 s to 5 s),
and meanwhile, and whenever it (re)connects, waiters look at the database themselves (every
0.1 s while it is down), so no change is missed. It is started in the process that serves
(lazily, never at import) and forgotten in a forked child, which starts its own.

On other databases (SQLite, the embedded default: no NOTIFY) a wait polls every 50 ms.

:func:`watch` takes any key: a table's id, or a tournament's negative id (its live page,
``NOTIFY trix_table, '-<id>:<version>'``, sent by ``tournaments.live``).

Use::

    with live.watch(table_id) as w:
        version = <read the table's version>          # after watch(): no change is missed
        while version == since and w.wait(since, end - time.monotonic()):
            version = <read it again>
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field

from django.db import connections

from games import sql

CHANNEL = sql.NOTIFY_CHANNEL
POLL = 0.05  # seconds between looks at the table without notifications (SQLite)
DOWN_POLL = 0.1  # the same while the listener has no connection
_IDLE = 1.0  # seconds the listener blocks in notifies() before it looks at its stop flag
_BACKOFF = (0.1, 5.0)  # first and longest pause before reconnecting
#: The listener connection's ``application_name``: how ``pg_stat_activity`` tells it apart
#: from the process's other connections (the live streams' hub listens on the same channel).
APPLICATION_NAME = "trix-table-notifications"

log = logging.getLogger(__name__)


@dataclass
class _Slot:
    """The waiters of one table: how many, and the highest version notified meanwhile."""

    cond: threading.Condition
    count: int = 0
    latest: int = 0


@dataclass
class _Listener:
    """The process's listener thread and what it shares with the waiters (under ``lock``)."""

    params: dict
    lock: threading.Lock = field(default_factory=threading.Lock)
    slots: dict[int, _Slot] = field(default_factory=dict)
    connected: bool = False
    epoch: int = 0  # counts connections made: a waiter that saw another one looks again
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
        table, version = parsed
        with self.lock:
            slot = self.slots.get(table)
            if slot is not None and version > slot.latest:
                slot.latest = version
                slot.cond.notify_all()

    def _set_connected(self, up: bool) -> None:
        with self.lock:
            if up == self.connected:
                return
            self.connected = up
            if up:
                self.epoch += 1
            for slot in self.slots.values():  # waiters look at the database again
                slot.cond.notify_all()

    # -- the waiters' side -------------------------------------------------------------------

    def wait(self, table_id: int, since: int, epoch: int | None, timeout: float) -> bool:
        end = time.monotonic() + timeout
        with self.lock:
            slot = self.slots[table_id]
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


def parse(payload: str) -> tuple[int, int] | None:
    """A notification's ``'<key>:<version>'`` as ``(key, version)`` (a tournament's key is
    negative), or None for anything else."""
    try:
        key, version = (int(part) for part in payload.split(":"))
    except ValueError:
        return None
    return key, version


_listener: _Listener | None = None
_start_lock = threading.Lock()


def _forget_in_child() -> None:
    global _listener, _start_lock
    _listener = None  # the parent's thread does not exist here; its connection is not ours
    _start_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)


def connection_params() -> dict:
    """Connection arguments for ``psycopg.connect`` (or ``psycopg.AsyncConnection.connect``)
    from Django's ``default`` database, with TCP keepalives (a listener's own connection)."""
    params = connections["default"].get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    params.setdefault("keepalives", 1)  # notice a silently dropped connection
    params.setdefault("keepalives_idle", 30)
    params.setdefault("keepalives_interval", 10)
    params.setdefault("keepalives_count", 3)
    return params


def _running() -> _Listener:
    global _listener
    listener = _listener
    if listener is not None and listener.pid == os.getpid() and not listener.stop.is_set():
        return listener
    with _start_lock:
        listener = _listener
        if listener is None or listener.pid != os.getpid() or listener.stop.is_set():
            listener = _Listener({**connection_params(), "application_name": APPLICATION_NAME})
            listener.thread = threading.Thread(
                target=listener.run, name="trix-table-notifications", daemon=True
            )
            listener.thread.start()
            _listener = listener
    return listener


def stop(timeout: float = 5.0) -> None:
    """Stop this process's listener and close its connection (tests; a new ``watch``
    starts another). Waiters still waiting fall back to looking at the database."""
    global _listener
    with _start_lock:
        listener, _listener = _listener, None
    if listener is None or listener.pid != os.getpid():
        return
    listener.stop.set()
    with listener.lock:
        for slot in listener.slots.values():
            slot.cond.notify_all()
    if listener.thread is not None:
        listener.thread.join(timeout)


def connected() -> bool:
    """Whether this process's listener is listening now (tests, diagnostics)."""
    listener = _listener
    return listener is not None and listener.pid == os.getpid() and listener.connected


def _give_back_pooled_connection() -> None:
    """Return this thread's database connection to the process's pool if it has one and no
    transaction is open (outside a pool, a connection is kept: reconnecting costs more)."""
    conn = connections["default"]
    if conn.connection is not None and conn.in_atomic_block is False and _pooled(conn):
        conn.close()


def _pooled(conn) -> bool:
    return conn.vendor == "postgresql" and bool(conn.settings_dict.get("OPTIONS", {}).get("pool"))


class _Watch:
    """A registered waiter on one table (see :func:`watch`)."""

    def __init__(self, listener: _Listener, table_id: int):
        self.listener, self.table_id = listener, table_id
        with listener.lock:
            slot = listener.slots.get(table_id)
            if slot is None:
                slot = listener.slots[table_id] = _Slot(threading.Condition(listener.lock))
            slot.count += 1
            self.epoch = listener.epoch if listener.connected else None

    def wait(self, since: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a sign that the table may be past ``since``.
        True: look at the table again (then call again if it is not); False: time is up.
        A connection borrowed from the process's pool (``DATABASE_POOL``) is given back
        first, so waiting long polls do not hold the pool (the next look borrows one)."""
        if timeout <= 0:
            return False
        _give_back_pooled_connection()
        listener = self.listener
        if listener.stop.is_set():
            time.sleep(min(timeout, DOWN_POLL))
            return True
        woke = listener.wait(self.table_id, since, self.epoch, timeout)
        with listener.lock:
            self.epoch = listener.epoch if listener.connected else None
        return woke

    def close(self) -> None:
        listener = self.listener
        with listener.lock:
            slot = listener.slots[self.table_id]
            slot.count -= 1
            if slot.count == 0:
                del listener.slots[self.table_id]

    def __enter__(self) -> _Watch:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Polling:
    """A waiter where there are no notifications: every look is after ``POLL`` seconds."""

    def wait(self, since: int, timeout: float) -> bool:
        if timeout <= 0:
            return False
        time.sleep(min(timeout, POLL))
        return True

    def __enter__(self) -> _Polling:
        return self

    def __exit__(self, *exc) -> None:
        pass


def watch(table_id: int) -> _Watch | _Polling:
    """Register a wait for ``table_id``'s next version; use as a context manager, read the
    table's version after entering it, then call ``wait(since, seconds)`` while the version
    is not past ``since``: it returns True when the caller should look again (a newer version
    was notified, or the listener (re)connected or is down), False when ``seconds`` passed.
    ``table_id`` may be any notified key (a tournament's ``-<id>``). Starts this process's
    listener on PostgreSQL."""
    if connections["default"].vendor != "postgresql":
        return _Polling()
    return _Watch(_running(), table_id)
