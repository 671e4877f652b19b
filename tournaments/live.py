"""The live page's one long poll: wait until anything on a tournament's live page changes.

The page follows one number, :func:`tournaments.selectors.live_version`: the tournament's
own ``version``, which every change the page shows bumps (a registration, a round opening, a
table's result recorded, an admin action). A card played at one of its tables does not: the
page shows tables' results, not their moves (watchers follow a table on its own page), so
hundreds of watchers are not woken 64 times a second by a round's tables. A waiting poll
costs no query meanwhile: it waits on the tournament's notification (``games.live``,
``NOTIFY trix_table, '-<tournament id>:<version>'``), which :func:`notify_version` sends
inside the transaction that saves the tournament (so it is delivered at commit, never for a
rolled-back change).

On other databases (SQLite: no NOTIFY) the wait looks at the version every 50 ms.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from games import live as table_live
from games import sql
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


def wait_for_change(*, tournament_id: int, since: int, wait: float) -> int:
    """The tournament's live version, once it differs from ``since``, or after ``wait``
    seconds (capped at ``settings.TRIX_STATE_WAIT_MAX``, like the tables' state poll),
    whichever is first. A ``since`` other than the current version answers at once."""
    end = time.monotonic() + min(max(float(wait), 0.0), settings.TRIX_STATE_WAIT_MAX)
    with table_live.watch(tournament_key(tournament_id)) as watch:
        version = live_version(tournament_id)
        while version == since and watch.wait(since, end - time.monotonic()):
            version = live_version(tournament_id)
    return version
