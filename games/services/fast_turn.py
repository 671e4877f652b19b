"""The fast path of a bot's turn: one statement that writes the change of a table if the
table is still where it was.

PostgreSQL only (``available()``): the statement (:func:`games.sql.write_if_current`), a
data-modifying CTE, updates the table row *only if* it
is still at the version the change was computed against and still playing (the UPDATE takes
the row lock, so changes stay one at a time per table), and inserts the change's events and
actions only if that update happened. Run in autocommit mode it is its own transaction: one
round trip instead of BEGIN, ``SELECT ... FOR UPDATE``, three writes and COMMIT.

Used by :func:`games.services.wakes.wake` for the common change (:func:`try_bot_turn`: a
bot's action that ends no deal); a change that loses the race, or needs more (a deal, a
timeout, the end of a deal or of the match), goes the locking way.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.utils import timezone

from games import sql, state_store
from games.models import TableStatus
from games.services import changes, deadlines, dispatch, server_turns


def available() -> bool:
    """Whether this database takes the one-statement write (PostgreSQL, outside a transaction
    block, so the statement commits by itself)."""
    return sql.is_postgresql() and connection.get_autocommit()


def try_bot_turn(table_id: int, version: int) -> bool:
    """The wake-up's common case in one write, outside a transaction (PostgreSQL): read the
    table without a lock, take its state, apply the turn, and store the events, the actions
    and the table's new version, deadline and wake-up with :func:`games.sql.write_if_current`, which
    writes only if the table is still at ``version``. Returns True when done (written, or
    nothing to do for this version); False when the locking path must run (a deal to deal or
    ending, the match ending, an early wake-up, a deadline passed, a forced card to play,
    nothing due, or the race lost)."""
    table = sql.read_table(table_id)
    if table is None or table.version != version or table.status != TableStatus.PLAYING:
        return True  # as the locking path: a wake-up for an old version is a no-op
    now = timezone.now()
    if table.wake_at is None or table.wake_at > now + timedelta(milliseconds=20):
        return False
    if deadlines.deadline_passed(table, now):
        return False  # a timeout: a pending action may beat it, under the lock
    state = state_store.for_write(table)
    if state is None or state.phase in ("deal", "over"):
        state_store.put_back(table, state)
        return False
    since = state_store.mark(state)
    turn = server_turns.turn(table, state, now)
    if turn is None:
        state_store.put_back(table, state)
        return False
    events, actions = turn
    if any(act.source == "timeout" for act in actions):
        return False  # a forced card: a pending action of the seat may beat it, under the lock
    if state.phase in ("deal", "over") or any(e["type"] == "deal_ended" for e in events):
        return False  # the changed state is dropped; the locking path redoes the turn
    rows = changes.event_rows(table, events, state_store.increment(state, since))
    then = deadlines.schedule(table, state, events)
    written = sql.write_if_current(
        table_id, version, table.version, table.deadline, table.wake_at, rows, actions, now
    )
    if not written:
        return False
    state_store.put_back(table, state)
    dispatch.follow(table, then, on_this_worker=True)
    return True
