"""The live page's one long poll: wait until anything on a tournament's live page changes.

The page follows one number, :func:`tournaments.selectors.live_version` (the tournament's own
``version`` plus the versions of all its tables). A waiting poll costs no query meanwhile:
it waits on the tables' notifications (``games.live``, ``NOTIFY trix_table,
'<table id>:<version>'``, sent by a trigger at commit) for the tournament's tables still
open or playing, and on the tournament's own notification, ``NOTIFY trix_table,
'-<tournament id>:<version>'``, which :func:`notify_version` sends inside the transaction that
saves the tournament (so it is delivered at commit, never for a rolled-back change). A new
round bumps the tournament's version, so its new tables are watched by the next poll.

On other databases (SQLite: no NOTIFY) the wait looks at the version every 50 ms.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from games import live as table_live
from games import sql
from games.models import TableStatus
from tournaments.models import RoundTable
from tournaments.selectors import live_version


def tournament_key(tournament_id: int) -> int:
    """The tournament's key among the table ids of ``games.live``: ``-id``."""
    return -int(tournament_id)


def notify_version(sender: Any = None, *, instance: Any, using: str = "default", **_: Any) -> None:
    """``post_save`` receiver of :class:`~tournaments.models.Tournament`: notify
    ``'-<id>:<version>'`` in the saving transaction (``games.sql.notify``; PostgreSQL only)."""
    if using != "default" or instance.pk is None:
        return
    sql.notify(tournament_key(instance.pk), instance.version)


def _watched_tables(tournament_id: int) -> list[int]:
    return list(
        RoundTable.objects.filter(
            round__tournament_id=tournament_id,
            table__status__in=(TableStatus.OPEN, TableStatus.PLAYING),
        ).values_list("table_id", flat=True)
    )


def wait_for_change(*, tournament_id: int, since: int, wait: float) -> int:
    """The tournament's live version, once it differs from ``since``, or after ``wait``
    seconds (capped at ``settings.TRIX_STATE_WAIT_MAX``, like the tables' state poll),
    whichever is first. A ``since`` other than the current version answers at once."""
    end = time.monotonic() + min(max(float(wait), 0.0), settings.TRIX_STATE_WAIT_MAX)
    keys = [tournament_key(tournament_id), *_watched_tables(tournament_id)]
    with table_live.watch_many(keys) as watch:
        version = live_version(tournament_id)
        while version == since and watch.wait(end - time.monotonic()):
            version = live_version(tournament_id)
    return version
