"""Long polls: a state poll's wait for a key's next version (``GET /api/tables/{id}/state/
?since=V&wait=S``, a tournament's live answer), on the process's listener of notifications
(:mod:`games.live.listener`).

A waiting request costs no query and no CPU until its key changes or its time is up. While
the listener has no connection, and whenever it (re)connects, a waiter looks at the database
itself (every :data:`games.live.listener.DOWN_POLL` seconds while it is down), so no change
is missed. On other databases (SQLite, the embedded default: no NOTIFY) a wait polls every
:data:`POLL` seconds.

:func:`watch` takes any key: a table's id, or a tournament's negative id (its live page,
``NOTIFY trix_table, '-<id>:<version>'``, sent by ``tournaments.live``).

Use::

    with long_poll.watch(table_id) as w:
        version = <read the table's version>          # after watch(): no change is missed
        while version == since and w.wait(since, end - time.monotonic()):
            version = <read it again>
"""

from __future__ import annotations

import threading
import time

from django.db import connections

from games.live import listener
from games.live.listener import DOWN_POLL, Listener, Slot

POLL = 0.05
"""Seconds between a wait's looks at its key without notifications (SQLite)."""


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

    def __init__(self, listening: Listener, table_id: int):
        self.listener, self.table_id = listening, table_id
        with listening.lock:
            slot = listening.slots.get(table_id)
            if slot is None:
                slot = listening.slots[table_id] = Slot(threading.Condition(listening.lock))
            slot.count += 1
            self.epoch = listening.epoch if listening.connected else None

    def wait(self, since: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a sign that the table may be past ``since``.
        True: look at the table again (then call again if it is not); False: time is up.
        A connection borrowed from the process's pool (``DATABASE_POOL``) is given back
        first, so waiting long polls do not hold the pool (the next look borrows one)."""
        if timeout <= 0:
            return False
        _give_back_pooled_connection()
        listening = self.listener
        if listening.stop.is_set():
            time.sleep(min(timeout, DOWN_POLL))
            return True
        woke = listening.wait(self.table_id, since, self.epoch, timeout)
        with listening.lock:
            self.epoch = listening.epoch if listening.connected else None
        return woke

    def close(self) -> None:
        listening = self.listener
        with listening.lock:
            slot = listening.slots[self.table_id]
            slot.count -= 1
            if slot.count == 0:
                del listening.slots[self.table_id]

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
    return _Watch(listener.running(), table_id)
