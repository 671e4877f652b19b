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

The same page as a live stream (``GET /api/tournaments/{id}/stream/``, :mod:`games.stream`):
:class:`TournamentSource` sends every watcher the one answer the long poll gives, at each new
live version, keyed by the same ``-<id>`` notification: one connection per watcher for the
whole tournament, never one per table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from games import live as table_live
from games import sql, stream
from tournaments.selectors import (
    LIST_GROUPS,
    live_final_version,
    live_version,
    tournament_exists,
)


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


class TournamentSource(stream.Source):
    """A tournament's live page as a stream's source (keys: :func:`tournament_key`). The page
    shows nobody's own data, so one answer, ``answer(tournament_id)`` (the long poll's), is
    computed per version and sent to every watcher, the same bytes; the stream ends after a
    finished or cancelled tournament's page."""

    def __init__(self, answer: Callable[[int], dict[str, Any]]):
        self.answer = answer

    def current(self, key: int) -> tuple | None:
        if not tournament_exists(tournament_id=-key):
            return None
        return (live_version(-key),)

    def final_version(self, key: int) -> int | None:
        return live_final_version(-key)

    def answers(
        self, key: int, behind: list[stream.Watcher], current: tuple
    ) -> list[stream.Delivery]:
        page = self.answer(-key)
        data = stream.message(page["version"], stream.encode(page))
        final = page["status"] in LIST_GROUPS["finished"]
        return [stream.Delivery(w, page["version"], data, None, final) for w in behind]
