"""The live page's one long poll: wait until anything on a tournament's live page changes.

The page follows one number, :func:`tournaments.selectors.live_version`: the tournament's
own ``version``, which every change the page shows bumps (a registration, a round opening, a
deal ended at one of its tables: its running scores, a table's result recorded, an admin
action). A card played at one of its tables does not: the page shows tables' scores after
each deal, not their moves (watchers follow a table on its own page), so
hundreds of watchers are not woken 64 times a second by a round's tables. A waiting poll
costs no query meanwhile: it waits on the tournament's notification (:mod:`games.live.long_poll`,
``NOTIFY trix_table, '-<tournament id>:<version>'``), which :func:`notify_version` sends
inside the transaction that saves the tournament (so it is delivered at commit, never for a
rolled-back change).

On other databases (SQLite: no NOTIFY) the wait looks at the version every 50 ms.

The same page as a live stream (``GET /api/tournaments/{id}/stream/``, :mod:`games.live.streams`):
:class:`TournamentSource` sends every watcher the one answer the long poll gives, at each new
live version, keyed by the same ``-<id>`` notification: one connection per watcher for the
whole tournament, never one per table. A watcher that asked for ``?patches=1`` (the page
does) gets, after its first whole answer, only what changed (``event: patch``: RFC 6902
operations, :func:`games.live.patch.json_patch`): a registration changes a few hundred bytes of an
answer that holds every entrant (about 185 bytes each: 18.5 KB with 100).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import translation

from games import sql
from games.live import long_poll, sources, sse
from games.live.patch import json_patch
from games.live.watchers import Delivery, Watcher
from tournaments.selectors import (
    LIST_GROUPS,
    live_final_version,
    live_version,
    tournament_exists,
)


def tournament_key(tournament_id: int) -> int:
    """The tournament's key among the keys of ``games.live``: ``-id``."""
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
    with long_poll.watch(tournament_key(tournament_id)) as watch:
        version = live_version(tournament_id)
        while version == since and watch.wait(since, end - time.monotonic()):
            version = live_version(tournament_id)
    return version


class TournamentSource(sources.Source):
    """A tournament's live page as a stream's source (keys: :func:`tournament_key`). The page
    shows nobody's own data, so one answer, ``answer(tournament_id)`` (the long poll's), is
    computed per version and language (its words, ``status_name``..., are in the watcher's:
    :attr:`~games.Watcher.language`) and sent to every watcher of that language, the
    same bytes; the stream ends after a finished or cancelled tournament's page.

    Patches: each watcher holds the very answer its last message gave it
    (:attr:`~games.Watcher.basis`); a watcher that asked for patches gets the patch from
    it to the new answer, made once per distinct basis (:data:`MAX_BASES` at most per version
    and language); a new stream gets the whole answer, as does a watcher whose patch would be
    no smaller."""

    patches = True

    def __init__(self, answer: Callable[[int], dict[str, Any]]):
        self.answer = answer
        self._kept: dict[tuple[int, str | None], dict[str, Any]] = {}  # the last answer given

    def _shared(self, key: int, language: str | None, page: dict[str, Any]) -> dict[str, Any]:
        """``page``, or the equal answer at the same version given before (the very object:
        watchers who joined at one version hold one basis, patched once at the next)."""
        kept = self._kept.get((key, language))
        if kept is not None and kept["version"] == page["version"] and kept == page:
            return kept
        if len(self._kept) > 1024:
            self._kept.clear()
        self._kept[(key, language)] = page
        return page

    def current(self, key: int) -> tuple | None:
        if not tournament_exists(tournament_id=-key):
            return None
        return (live_version(-key),)

    def final_version(self, key: int) -> int | None:
        return live_final_version(-key)

    def answers(self, key: int, behind: list[Watcher], current: tuple) -> list[Delivery]:
        by_language: dict[str | None, list[Watcher]] = {}
        for w in behind:
            by_language.setdefault(w.language, []).append(w)
        out: list[Delivery] = []
        for language, watchers in by_language.items():
            with translation.override(language):
                page = self._shared(key, language, self.answer(-key))
            data = sse.message(page["version"], sse.encode(page))
            final = page["status"] in LIST_GROUPS["finished"]
            # A patch per distinct basis, the most widely held first (every basis is held by a
            # watcher here, so their ids differ); beyond MAX_BASES, whole answers.
            held = Counter(id(w.basis) for w in watchers if w.patches and w.basis is not None)
            bases = {id(w.basis): w.basis for w in watchers if w.basis is not None}
            made = {
                basis: _patch(bases[basis], page, data) for basis, _ in held.most_common(MAX_BASES)
            }
            for w in watchers:
                message = data
                if w.patches and w.basis is not None:
                    message = made.get(id(w.basis)) or data
                out.append(Delivery(w, page["version"], message, None, final, basis=page))
        return out


MAX_BASES = 4
"""Patches made per version and language of a tournament's page: one per distinct answer its
watchers hold (usually one: equal answers at one version are one shared object,
:meth:`TournamentSource._shared`; another where the answer changed without a version, a
renamed player); the watchers holding yet others get the whole answer."""


def _patch(basis: dict[str, Any], page: dict[str, Any], whole: bytes) -> bytes | None:
    """The patch message turning ``basis`` into ``page``, or None when there is none or it is
    no smaller than ``whole`` (the whole answer's message)."""
    ops = json_patch(basis, page)
    if ops is None:
        return None
    message = sse.patch_message(page["version"], basis["version"], ops)
    return message if len(message) < len(whole) else None
