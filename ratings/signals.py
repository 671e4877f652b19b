"""Receivers of other apps' signals: a finished match is rated by a task."""

from __future__ import annotations


def on_table_finished(sender=None, *, table_id: int, status: str = "", **_):
    """``games.signals.table_finished``: a table's match finished (a cancelled table is not
    rated); send :func:`ratings.tasks.rate_table` after the commit, if any. A lost send is
    covered by the sweep (:func:`ratings.tasks.sweep`)."""
    if status != "finished":
        return
    from django.db import transaction

    from ratings import tasks

    transaction.on_commit(lambda: tasks.rate_table.delay(table_id), robust=True)
