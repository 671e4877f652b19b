"""Rows held locked by a test, so a worker's next step on them waits where the test wants it
to (PostgreSQL row locks, ``SELECT ... FOR UPDATE``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def rows_locked(model, pks) -> Iterator[int]:
    """``model``'s rows ``pks`` locked (``FOR UPDATE``) in a transaction of a connection of
    the test's own, apart from Django's (whose commits go on meanwhile); yields that
    connection's backend pid; the locks go when the block ends."""
    params = connection.get_connection_params()
    holder = connection.get_new_connection(params)
    try:
        with holder.cursor() as cursor:
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"SELECT id FROM {table} WHERE id = ANY(%s) FOR UPDATE", [list(pks)])
            assert cursor.fetchall()
            yield holder.info.backend_pid
    finally:
        holder.rollback()
        holder.close()
