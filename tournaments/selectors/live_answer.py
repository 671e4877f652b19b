"""The live page's one answer (:func:`live_page`), kept per process by tournament, version
and language, so every watcher woken by one change is answered from one reading."""

from __future__ import annotations

import threading
import time
from typing import Any

from django.utils import translation

from tournaments.models import Status, Tournament
from tournaments.selectors.brackets import _bracket
from tournaments.selectors.pages import _unit_count, entrants, live_version, prize_table, teams


def live_page(*, tournament_id: int) -> dict[str, Any]:
    """The live page's one answer: :func:`bracket` plus ``name``, ``status_name``,
    ``format``, ``team_mode``, ``registered``, ``entrants`` (:func:`entrants`), ``teams``
    (:func:`teams`) and ``prize_table`` (:func:`prize_table`), so the page follows
    registrations too. ``version`` is read before everything else, so a change made while
    the answer is being read makes the next poll answer at once (never a version newer than
    the data). Its words (``status_name``, ``format_name``...) are in the active language.

    Kept per process by (tournament, version, language) for ``_LIVE_CACHE_SECONDS``: every
    watcher woken by one change is answered from one reading per language (a 256-entrant
    answer costs tens of ms)."""
    version = live_version(tournament_id)  # first: a change after it is answered next poll
    key = (tournament_id, version, translation.get_language())
    with _live_lock:
        hit = _live_cache.get(key)
    if hit is not None and time.monotonic() - hit[0] < _LIVE_CACHE_SECONDS:
        return hit[1]
    answer = _live_page(tournament_id, version)
    with _live_lock:
        if len(_live_cache) > 256:
            _live_cache.clear()
        _live_cache[key] = (time.monotonic(), answer)
    return answer


_LIVE_CACHE_SECONDS = 5.0  # names and money texts may change without a version bump
_live_cache: dict[tuple[int, int, str | None], tuple[float, dict[str, Any]]] = {}
_live_lock = threading.Lock()


def _live_page(tournament_id: int, version: int) -> dict[str, Any]:
    t = Tournament.objects.get(pk=tournament_id)
    data = _bracket(t, version)
    return {
        **data,
        "name": t.name,
        "status_name": Status(data["status"]).label,
        "format": t.format,
        "team_mode": t.team_mode,
        "registered": _unit_count(t),
        "entrants": entrants(t),
        "teams": teams(t) if t.team_mode else [],
        "prize_table": prize_table(t),
    }
