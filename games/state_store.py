"""Loading a table's match state: replay its stored log, with a small per-process cache.

The stored ``MatchRecord.state`` is the engine's ``MatchState.to_json()``; rebuilding it
replays every action of the match (milliseconds late in a match). Each process keeps the last
state it saw of each table, with its version, and brings it up to date by applying only the
actions and deals the stored log has beyond it. Entries are put back only after the
transaction that wrote them committed, and a state being changed is taken out of the cache
first, so a rolled-back change never leaves a wrong state behind. Readers use a state under
the cache's lock (:func:`read`), so a thread never sees one half-advanced.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.db import transaction

from games.engine import MatchState, apply

_MAX = 512
_lock = threading.Lock()
_cache: OrderedDict[tuple, tuple[int, MatchState]] = OrderedDict()


def _key(table) -> tuple:
    return (table.pk, table.commitment)


def _advance(state: MatchState, data: dict[str, Any]) -> MatchState:
    """Apply the deals and actions of ``data`` (a stored log) beyond what ``state`` has."""
    deals, actions = data["deals"], data["actions"]

    def deal_if_needed() -> None:
        while state.phase == "deal" and len(state.log_deals) < len(deals):
            apply(state, {"type": "deal", "hands": deals[len(state.log_deals)]}, emit=False)

    deal_if_needed()
    for action in actions[len(state.log_actions) :]:
        apply(state, action, emit=False)
        deal_if_needed()
    if len(state.log_deals) != len(deals) or state.phase != data["summary"]["phase"]:
        return MatchState.from_json(data)  # pragma: no cover - a log that does not extend
    return state


def _current(table, data: dict[str, Any] | None, entry) -> MatchState | None:
    if data is None:
        return None
    if entry is not None and entry[0] <= table.version:
        return _advance(entry[1], data)
    return MatchState.from_json(data)


def read(table, loader: Callable[[], dict | None], use: Callable[[MatchState | None], Any]):
    """``use(state)`` with the state at ``table.version`` (do not keep or change it);
    ``loader()`` returns the stored JSON (read with the table row, so they agree)."""
    key = _key(table)
    with _lock:
        entry = _cache.get(key)
        if entry is not None and entry[0] == table.version:
            _cache.move_to_end(key)
            return use(entry[1])
        try:
            state = _current(table, loader(), entry)
        except Exception:
            _cache.pop(key, None)
            raise
        if state is not None and (entry is None or entry[0] <= table.version):
            _cache[key] = (table.version, state)
            _cache.move_to_end(key)
            _trim()
        return use(state)


def for_write(table, record_state: dict | None) -> MatchState | None:
    """A state at ``table.version`` the caller may change (the table row is locked); it is
    out of the cache until :func:`remember_on_commit`."""
    with _lock:
        entry = _cache.pop(_key(table), None)
    return _current(table, record_state, entry)


def remember_on_commit(table, state: MatchState) -> None:
    """Cache ``state`` as the table's state at ``table.version`` once the transaction
    commits (never if it rolls back)."""
    key, version = _key(table), table.version

    def remember() -> None:
        with _lock:
            entry = _cache.get(key)
            if entry is None or entry[0] <= version:
                _cache[key] = (version, state)
                _cache.move_to_end(key)
                _trim()

    transaction.on_commit(remember)


def _trim() -> None:
    while len(_cache) > _MAX:
        _cache.popitem(last=False)
