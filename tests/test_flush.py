"""The tests' flush (``tests/conftest.py``, ``_flush_by_delete``): a transactional test's
teardown empties every table, also of the rows a transaction still in flight (the session
worker's wake-up of the test's table) writes, as Django's ``TRUNCATE`` did."""

from __future__ import annotations

import threading

import pytest
from django.core.management import call_command
from django.db import connection, connections

from tests.games.helpers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def _blocked_by(holder: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
            [holder],
        )
        return cursor.fetchone()[0] > 0


def test_the_flush_leaves_no_row_of_a_transaction_in_flight():
    """A transaction that has written a row, not committed yet, when the flush starts: the
    flush waits for it, and the row goes with the rest."""
    holder = connection.get_new_connection(connection.get_connection_params())
    flushed = threading.Event()

    def flush():
        try:
            call_command(  # as a transactional test's teardown calls it
                "flush",
                verbosity=0,
                interactive=False,
                reset_sequences=False,
                inhibit_post_migrate=True,
            )
        finally:
            connections.close_all()
            flushed.set()

    try:
        with holder.cursor() as cursor:
            cursor.execute("INSERT INTO auth_group (name) VALUES ('written in flight')")
            thread = threading.Thread(target=flush)
            thread.start()
            wait_until(lambda: flushed.is_set() or _blocked_by(holder.info.backend_pid), 30)
        holder.commit()
    finally:
        holder.close()
    thread.join(30)
    assert flushed.is_set()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM auth_group")
        assert cursor.fetchone()[0] == 0
