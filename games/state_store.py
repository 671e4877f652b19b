"""Loading a table's match state: replay its stored log, with a small per-process cache.

The stored ``MatchRecord.state`` is the engine's ``MatchState.to_json()``; rebuilding it
replays every action of the match. A worker usually applies the next action to the state it
just wrote, so each process keeps the last states it saw, keyed by (table id, commitment,
version): a version names exactly one state of one table. An entry is added only after the
transaction that wrote it committed, and a state being changed is taken out of the cache
first, so a rolled-back change never leaves a wrong state behind.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict

from django.db import transaction

from games.engine import MatchState

_MAX = 512
_lock = threading.Lock()
_cache: OrderedDict[tuple, MatchState] = OrderedDict()


def _key(table) -> tuple:
    return (table.pk, table.commitment, table.version)


def _rebuild(record_state: dict | None) -> MatchState | None:
    if record_state is None:
        return None
    return MatchState.from_json(record_state)


def for_read(table, record_state_loader) -> MatchState | None:
    """The state at ``table.version`` for reading only (do not change it).

    ``record_state_loader()`` returns the stored JSON when the cache misses."""
    key = _key(table)
    with _lock:
        state = _cache.get(key)
        if state is not None:
            _cache.move_to_end(key)
            return state
    state = _rebuild(record_state_loader())
    if state is not None:
        _remember(key, state)
    return state


def for_write(table, record_state: dict | None) -> MatchState | None:
    """A state at ``table.version`` the caller may change (the table row is locked)."""
    key = _key(table)
    with _lock:
        state = _cache.pop(key, None)
    if state is not None:
        return state
    return _rebuild(record_state)


def trial_copy(state: MatchState) -> MatchState:
    """A private copy to try an action on (the web request's immediate check)."""
    return copy.deepcopy(state)


def remember_on_commit(table, state: MatchState) -> None:
    """Cache ``state`` as the table's state at ``table.version`` once the transaction
    commits (never if it rolls back)."""
    key = _key(table)
    transaction.on_commit(lambda: _remember(key, state))


def _remember(key: tuple, state: MatchState) -> None:
    with _lock:
        _cache[key] = state
        _cache.move_to_end(key)
        while len(_cache) > _MAX:
            _cache.popitem(last=False)
