"""Every tournament task sent (``tournaments.tasks``, by name: this module imports no task
module, so the services it serves never reach the tasks that call them), ahead of the
tables' tasks.

A round's advance must not wait behind the wake-ups of the tables still playing (the next
round opens within 1 s of the last table ending), so every tournament task goes out
at ``settings.TRIX_TOURNAMENT_TASK_PRIORITY`` while everything else has
``CELERY_TASK_DEFAULT_PRIORITY``: on the Redis broker a worker takes the first from its
queue's list of the higher priority (the settings say how; docs/tournaments.md, "Running
it"). Sends made inside a transaction go out after it commits, robustly: one that finds no
broker is logged and does not fail the request whose change was saved; the beat's
:func:`tournaments.services.sweep` re-sends what is due (starts, results, rounds, prizes).
"""

from __future__ import annotations

from typing import Any

from celery import signature
from django.conf import settings
from django.db import transaction

TASKS = "tournaments.tasks."
"""The prefix of the tournament tasks' names: ``advance`` is ``tournaments.tasks.advance``."""


def send(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Now: ``tournaments.tasks.<task_name>(*args)``, after ``countdown`` seconds if given
    (sent by name with :func:`celery.signature`: the registered task's ``apply_async`` where
    this process has imported it, else ``send_task``; the same routes and priority)."""
    signature(TASKS + task_name, args=args).apply_async(
        countdown=countdown or None, priority=settings.TRIX_TOURNAMENT_TASK_PRIORITY
    )


def send_on_commit(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """:func:`send` after the current transaction commits (at once outside one); a failed send
    is logged, not raised (``robust``: the sweep re-sends)."""
    transaction.on_commit(lambda: send(task_name, *args, countdown=countdown), robust=True)
