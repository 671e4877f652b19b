"""One statement that writes a change of a table if the table is still where it was.

PostgreSQL only (``available()``): a data-modifying CTE updates the table row *only if* it
is still at the version the change was computed against and still playing (the UPDATE takes
the row lock, so changes stay one at a time per table), and inserts the change's events and
actions only if that update happened. Run in autocommit mode it is its own transaction: one
round trip instead of BEGIN, ``SELECT ... FOR UPDATE``, three writes and COMMIT.

Used by :func:`games.services.wake` for the common change (a bot's action that ends no deal);
a change that loses the race, or needs more (a deal, a timeout, the end of a deal or of the
match), goes the locking way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.db import connection

from games.models import Table, TableAction, TableEvent

_FIELDS = Table._meta.concrete_fields
_READ_SQL = "SELECT {} FROM games_table WHERE id = %s".format(
    ", ".join(f'"{f.column}"' for f in _FIELDS)
)

_SQL = """
WITH upd AS (
    UPDATE games_table
       SET version = %(new_version)s, deadline = %(deadline)s, wake_at = %(wake_at)s
     WHERE id = %(table)s AND version = %(old_version)s AND status = 'playing'
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
    SELECT a.id, upd.id, a.seat, NULL, a.source, a.version, a.action, 'applied',
           %(new_version)s, '', NULL, a.submitted_at, %(now)s
      FROM upd, jsonb_to_recordset(%(actions)s::jsonb)
           AS a(id uuid, seat smallint, source text, version integer, action jsonb,
                submitted_at timestamptz)
    RETURNING 1
)
SELECT (SELECT count(*) FROM upd), (SELECT count(*) FROM ev), (SELECT count(*) FROM act)
"""


def available() -> bool:
    """Whether this database takes the one-statement write (PostgreSQL, outside a transaction
    block, so the statement commits by itself)."""
    return connection.vendor == "postgresql" and connection.get_autocommit()


def read_table(table_id: int) -> Table | None:
    """Table ``table_id`` as stored now (no lock), or None: the row as ``Table.objects.get``
    gives it, in one statement without building a query (a wake-up reads it every time)."""
    with connection.cursor() as cursor:
        cursor.execute(_READ_SQL, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = [
        f.from_db_value(v, None, connection) if hasattr(f, "from_db_value") else v
        for f, v in zip(_FIELDS, row, strict=True)
    ]
    return Table.from_db(connection.alias, [f.attname for f in _FIELDS], values)


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
    """Write ``events`` (unsaved :class:`TableEvent` rows, versions ``old_version + 1`` ..
    ``new_version``) and ``actions`` (unsaved :class:`TableAction` rows of bots or timeouts,
    stored as applied at ``new_version`` and ``now``) and set the table's version,
    ``deadline`` and ``wake_at``, in one committed statement, if table ``table_id`` is still
    at ``old_version`` and playing.

    Returns True if written, False if the table had moved on (nothing written). Raises
    ``django.db.DatabaseError`` as any write (nothing written)."""
    params = {
        "table": table_id,
        "old_version": old_version,
        "new_version": new_version,
        "deadline": deadline,
        "wake_at": wake_at,
        "now": now,
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
        cursor.execute(_SQL, params)
        updated, n_events, n_actions = cursor.fetchone()
    if not updated:
        return False
    if n_events != len(events) or n_actions != len(actions):  # pragma: no cover - a bug
        raise RuntimeError("the table write stored an unexpected number of rows")
    return True
