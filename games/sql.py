"""Every raw SQL statement of the games app, each with its vendor branch and its decoding.

The ORM builds the rest. These few statements are the hot paths, where building a query
costs more CPU than running it, or what the ORM cannot say:

- :func:`live_fields`: a state poll's look at a table (``version``, ``status``, ``deadline``,
  ``result``);
- :func:`events`: a table's events in a range of versions (a poll, a rebuild);
- :func:`live_reading`: both in one statement (a live stream's feed, at every change);
- :func:`log_increments`: the match log's increments after a version (the state cache);
- :func:`read_table` and :func:`write_if_current`: a bot's turn in one read and one
  statement (:mod:`games.services.fast_turn`);
- :func:`listen`: the live-update listener's ``LISTEN`` (:mod:`games.live.listener`) on the
  channel the ``games/0003`` trigger notifies.

On PostgreSQL a ``jsonb`` column comes back as text from a raw cursor (psycopg is not asked
to decode it, as Django's JSONField is not); each function decodes it as the ORM would
(JSON ``null`` stored as SQL NULL reads as None). Elsewhere (SQLite) the functions that run
there fall back to the ORM.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db import connection

from games.models import ActionStatus, Table, TableAction, TableEvent, TableStatus

NOTIFY_CHANNEL = "trix_table"
"""The channel of ``NOTIFY trix_table, '<table id>:<version>'`` (migration ``games/0003``)."""

LIVE_FIELDS = ("version", "status", "deadline", "result")
"""The fields of a table a state poll reads on every look (:func:`live_fields`)."""

_LIVE_SQL = f"SELECT {', '.join(LIVE_FIELDS)} FROM games_table WHERE id = %s"

_READING_SQL = (
    f"SELECT {', '.join('t.' + f for f in LIVE_FIELDS)},"
    " e.version, e.type, e.payload, e.visible_to, e.log"
    " FROM games_table t LEFT JOIN games_tableevent e"
    " ON e.table_id = t.id AND e.version > %s AND e.version <= t.version"
    " WHERE t.id = %s ORDER BY e.version"
)

_TABLE_FIELDS = Table._meta.concrete_fields
_READ_TABLE_SQL = "SELECT {} FROM games_table WHERE id = %s".format(
    ", ".join(f'"{f.column}"' for f in _TABLE_FIELDS)
)

_INCREMENTS_SQL = (
    "SELECT log FROM games_tableevent WHERE table_id = %s AND version > %s AND version <= %s"
    " AND log IS NOT NULL ORDER BY version"
)

_WRITE_IF_CURRENT_SQL = """
WITH upd AS (
    UPDATE games_table
       SET version = %(new_version)s, deadline = %(deadline)s, wake_at = %(wake_at)s
     WHERE id = %(table)s AND version = %(old_version)s AND status = %(playing)s
    RETURNING id
), ev AS (
    INSERT INTO games_tableevent (table_id, version, type, payload, visible_to, log, created_at)
    SELECT upd.id, e.version, e.type, e.payload, e.visible_to, e.log, %(now)s
      FROM upd, jsonb_to_recordset(%(events)s::jsonb)
           AS e(version integer, type text, payload jsonb, visible_to jsonb, log jsonb)
    RETURNING 1
), act AS (
    INSERT INTO games_tableaction
        (id, table_id, seat, user_id, source, version, action, status, applied_version,
         error, http_status, submitted_at, applied_at)
    SELECT a.id, upd.id, a.seat, NULL, a.source, a.version, a.action, %(applied)s,
           %(new_version)s, '', NULL, a.submitted_at, %(now)s
      FROM upd, jsonb_to_recordset(%(actions)s::jsonb)
           AS a(id uuid, seat smallint, source text, version integer, action jsonb,
                submitted_at timestamptz)
    RETURNING 1
)
SELECT (SELECT count(*) FROM upd), (SELECT count(*) FROM ev), (SELECT count(*) FROM act)
"""


def _json(value: Any) -> Any:
    """A jsonb value as the ORM reads it: text decoded, SQL NULL as None, already decoded
    values (SQLite's drivers) as they are."""
    return json.loads(value) if isinstance(value, str) else value


def is_postgresql() -> bool:
    """Whether the default database is PostgreSQL (the raw statements' home)."""
    return connection.vendor == "postgresql"


def live_fields(table_id: int) -> tuple | None:
    """The table's :data:`LIVE_FIELDS` as a tuple, ``result`` decoded (None: no such table).
    On PostgreSQL without the ORM's query building, which costs more CPU than the query
    (every poll makes this one); elsewhere through the ORM."""
    if not is_postgresql():
        return Table.objects.filter(pk=table_id).values_list(*LIVE_FIELDS).first()
    with connection.cursor() as cursor:
        cursor.execute(_LIVE_SQL, [table_id])
        row = cursor.fetchone()
    return None if row is None else _live_row(row)


def _live_row(row: Sequence) -> tuple:
    """A raw :data:`LIVE_FIELDS` row as :func:`live_fields` gives it (``result`` decoded)."""
    version, status, deadline, result = row
    return (version, status, deadline, None if result is None else _json(result))


def _event_row(row: Sequence) -> tuple:
    """A raw event row (version, type, then jsonb columns) as :func:`events` gives it."""
    return (row[0], row[1], *(None if v is None else _json(v) for v in row[2:]))


def events(table_id: int, after: int, upto: int, with_log: bool) -> list[tuple]:
    """The table's events in ``(after, upto]`` as ``(version, type, payload, visible_to)``
    tuples, plus ``log`` if ``with_log``; in order. Server-only: ``log`` holds hands. On
    PostgreSQL one plain statement; elsewhere through the ORM."""
    if upto <= after:
        return []
    fields = ["version", "type", "payload", "visible_to"] + (["log"] if with_log else [])
    if not is_postgresql():
        rows = TableEvent.objects.filter(table_id=table_id, version__gt=after, version__lte=upto)
        return list(rows.order_by("version").values_list(*fields))
    sql = (
        f"SELECT {', '.join(fields)} FROM games_tableevent"
        " WHERE table_id = %s AND version > %s AND version <= %s ORDER BY version"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id, after, upto])
        rows = cursor.fetchall()
    return [_event_row(row) for row in rows]


def live_reading(table_id: int, after: int) -> tuple[tuple, list[tuple]] | None:
    """The table's :data:`LIVE_FIELDS` (as :func:`live_fields`) and its events after
    ``after`` up to that version (as :func:`events` with ``log``), read in one statement, so
    from one snapshot: ``(fields, rows)``; None: no such table. A live stream's feed reads
    both at each of the table's changes (:class:`games.live.sources.TableSource`): one round trip
    instead of two. Elsewhere than PostgreSQL, the two functions in turn."""
    if not is_postgresql():
        fields = live_fields(table_id)
        return None if fields is None else (fields, events(table_id, after, fields[0], True))
    with connection.cursor() as cursor:
        cursor.execute(_READING_SQL, [after, table_id])
        found = cursor.fetchall()
    if not found:
        return None
    n = len(LIVE_FIELDS)
    return _live_row(found[0][:n]), [_event_row(r[n:]) for r in found if r[n] is not None]


def log_increments(table_id: int, after: int, upto: int) -> list[dict]:
    """The match log's increments stored on table ``table_id``'s events in ``(after, upto]``,
    in order: one plain statement on every database (a worker whose cache is behind runs it
    on most wake-ups)."""
    with connection.cursor() as cursor:
        cursor.execute(_INCREMENTS_SQL, [table_id, after, upto])
        rows = cursor.fetchall()
    return [_json(log) for (log,) in rows]


def read_table(table_id: int) -> Table | None:
    """Table ``table_id`` as stored now (no lock), or None: the row as ``Table.objects.get``
    gives it, in one statement without building a query (a wake-up reads it every time)."""
    with connection.cursor() as cursor:
        cursor.execute(_READ_TABLE_SQL, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = [
        f.from_db_value(v, None, connection) if hasattr(f, "from_db_value") else v
        for f, v in zip(_TABLE_FIELDS, row, strict=True)
    ]
    return Table.from_db(connection.alias, [f.attname for f in _TABLE_FIELDS], values)


def write_if_current(
    table_id: int,
    old_version: int,
    new_version: int,
    deadline,
    wake_at,
    events: Sequence[TableEvent],
    actions: Sequence[TableAction],
    now,
) -> bool:
    """PostgreSQL: write ``events`` (unsaved :class:`TableEvent` rows, versions
    ``old_version + 1`` .. ``new_version``) and ``actions`` (unsaved :class:`TableAction` rows
    of bots or timeouts, stored as applied at ``new_version`` and ``now``) and set the table's
    version, ``deadline`` and ``wake_at``, in one statement (a data-modifying CTE), if table
    ``table_id`` is still at ``old_version`` and playing.

    Returns True if written, False if the table had moved on (nothing written). Raises
    ``django.db.DatabaseError`` as any write (nothing written)."""
    params = {
        "table": table_id,
        "old_version": old_version,
        "new_version": new_version,
        "deadline": deadline,
        "wake_at": wake_at,
        "now": now,
        "playing": TableStatus.PLAYING.value,
        "applied": ActionStatus.APPLIED.value,
        "events": json.dumps(
            [
                {
                    "version": e.version,
                    "type": e.type,
                    "payload": e.payload,
                    "visible_to": e.visible_to,
                    "log": e.log,
                }
                for e in events
            ]
        ),
        "actions": json.dumps(
            [
                {
                    "id": str(a.pk),
                    "seat": a.seat,
                    "source": a.source,
                    "version": a.version,
                    "action": a.action,
                    "submitted_at": a.submitted_at.isoformat(),
                }
                for a in actions
            ]
        ),
    }
    with connection.cursor() as cursor:
        cursor.execute(_WRITE_IF_CURRENT_SQL, params)
        updated, n_events, n_actions = cursor.fetchone()
    if not updated:
        return False
    if n_events != len(events) or n_actions != len(actions):  # pragma: no cover - a bug
        raise RuntimeError("the table write stored an unexpected number of rows")
    return True


def listen(conn) -> None:
    """``LISTEN`` on :data:`NOTIFY_CHANNEL` on ``conn`` (a psycopg connection in autocommit
    mode, the live-update listener's own)."""
    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")


def notify(key: int, version: int) -> None:
    """``NOTIFY`` :data:`NOTIFY_CHANNEL` with ``'<key>:<version>'`` in the current transaction
    (delivered at its commit, never for a rolled-back change; PostgreSQL only, else nothing).
    Tables are notified by their trigger (migration ``games/0003``); other keys (a tournament:
    ``-<id>``) use this, and the live listener wakes their waiters the same way."""
    if not is_postgresql():
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, f"{int(key)}:{int(version)}"])
