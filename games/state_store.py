"""Loading and storing a table's match state: a checkpoint, the log since, a per-process cache.

The stored state of a match is two parts (``games.models``):

- ``MatchRecord.state``: a checkpoint, the engine's ``MatchState.to_json()`` as of table
  version ``MatchRecord.state_version``, rewritten only when the record is written anyway
  (the match starts, a deal ends, the match ends);
- the ``log`` of the :class:`~games.models.TableEvent` rows after it: each change of the
  match puts the increment of the match log it made (:func:`increment`) on its first event.

The state at version V is the checkpoint advanced by the increments up to V
(:func:`stored_json` materialises it). So an action appends a few bytes to the event rows it
inserts anyway, instead of rewriting the whole log.

Each process keeps the last state it saw of each table, with its version, and brings it up
to date by applying only the increments after it (one small query). Entries are put back
only after the transaction that wrote them committed, and a state being changed is taken out
of the cache first, so a rolled-back change never leaves a wrong state behind. Readers use a
state under the cache's lock (:func:`read`), so a thread never sees one half-advanced.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.db import transaction

from games import sql
from games.engine import IllegalAction, MatchState, apply, new_match
from games.engine.cards import codes_of
from games.engine.match import expand_action

_MAX = 512
_lock = threading.Lock()
_cache: OrderedDict[tuple, tuple[int, MatchState]] = OrderedDict()


def _key(table) -> tuple:
    return (table.pk, table.commitment)


# -- log increments --------------------------------------------------------------------------


def mark(state: MatchState | None) -> tuple[int, int]:
    """Where ``state``'s log ends now: pass it to :func:`increment` after changing it."""
    if state is None:
        return (0, 0)
    return (len(state.log_deals), len(state.log_actions))


def increment(state: MatchState, since: tuple[int, int]) -> dict[str, list] | None:
    """The match log ``state`` gained since :func:`mark` returned ``since``:
    ``{"deals": [{"0": [13 codes], ...}], "actions": ["p0:QS", ...]}`` (the engine's compact
    actions), or None if nothing was added."""
    deals = [{str(s): codes_of(h[s]) for s in range(4)} for h in state.log_deals[since[0] :]]
    actions = state.log_actions[since[1] :]
    if not deals and not actions:
        return None
    return {"deals": deals, "actions": list(actions)}


def _deal_if_needed(state: MatchState, deals: list) -> None:
    """Apply the next of ``deals`` (taken from the end) while the state waits for a deal."""
    while state.phase == "deal" and deals:
        apply(state, {"type": "deal", "hands": deals.pop()}, emit=False)


def _apply_increments(state: MatchState, increments: list[dict]) -> MatchState:
    """Apply log increments in order; a deal is applied whenever the state waits for one
    (as ``games.engine.rebuild`` does). Raises :class:`IllegalAction` if they do not fit."""
    for inc in increments:
        deals = list(inc.get("deals", ()))
        deals.reverse()
        _deal_if_needed(state, deals)
        for compact in inc.get("actions", ()):
            apply(state, expand_action(compact), emit=False)
            _deal_if_needed(state, deals)
        if deals:
            raise IllegalAction("a stored log increment has a deal the state does not take")
    return state


def _increments(table, after: int) -> list[dict]:
    """The log increments of ``table``'s events in ``(after, table.version]``, in order: one
    plain statement (:func:`games.sql.log_increments`)."""
    return sql.log_increments(table.pk, after, table.version)


def _load(table) -> MatchState | None:
    """The state at ``table.version`` from the database: the checkpoint and the increments
    after it (or, should a newer checkpoint have been written since ``table`` was read, the
    match's first state and every increment)."""
    from games.models import MatchRecord

    data, at = MatchRecord.objects.values_list("state", "state_version").get(table_id=table.pk)
    if data is None:
        return None
    if at > table.version:
        return _apply_increments(new_match(table.options), _increments(table, 0))
    return _apply_increments(MatchState.from_json(data), _increments(table, at))


def _current(table, entry) -> MatchState | None:
    if entry is not None and entry[0] == table.version:
        return entry[1]
    if entry is not None and entry[0] < table.version:
        return _apply_increments(entry[1], _increments(table, entry[0]))
    return _load(table)


def stored_json(table) -> dict[str, Any] | None:
    """The stored state at ``table.version`` as ``MatchState.to_json()`` (checkpoint plus
    the increments since), read from the database alone (no cache)."""
    state = _load(table)
    return None if state is None else state.to_json()


# -- reading and writing ---------------------------------------------------------------------


def cached_version(table) -> int | None:
    """The version of the state this process keeps for ``table`` (None: none)."""
    with _lock:
        entry = _cache.get(_key(table))
    return None if entry is None else entry[0]


def read(
    table,
    use: Callable[[MatchState | None], Any],
    logs: tuple[int, list[tuple[int, dict]]] | None = None,
):
    """``use(state)`` with the state at ``table.version`` (do not keep or change it).

    ``logs``, if the caller read them anyway: ``(after, [(version, log increment), ...])``,
    every increment of the versions in ``(after, table.version]``, in order; a cached state
    at ``after`` or later is advanced with them instead of a query."""
    key = _key(table)
    with _lock:
        entry = _cache.get(key)
        if entry is not None and entry[0] == table.version:
            _cache.move_to_end(key)
            return use(entry[1])
    # Behind: fetch the increments without holding the lock (other tables' readers go on).
    base = entry[0] if entry is not None and entry[0] < table.version else None
    if base is None:
        fetched = None
    elif logs is not None and logs[0] <= base:
        fetched = [log for version, log in logs[1] if base < version <= table.version]
    else:
        fetched = _increments(table, base)
    with _lock:
        entry = _cache.get(key)
        if entry is not None and entry[0] == table.version:
            _cache.move_to_end(key)
            return use(entry[1])
        try:
            if entry is not None and entry[0] == base and fetched is not None:
                state = _apply_increments(entry[1], fetched)
            else:
                state = _current(table, entry)
        except Exception:
            _cache.pop(key, None)
            raise
        if state is not None and (entry is None or entry[0] <= table.version):
            _cache[key] = (table.version, state)
            _cache.move_to_end(key)
            _trim()
        return use(state)


def for_write(table) -> MatchState | None:
    """A state at ``table.version`` the caller may change (the table row is locked); it is
    out of the cache until :func:`remember_on_commit`."""
    with _lock:
        entry = _cache.pop(_key(table), None)
    return _current(table, entry)


def put_back(table, state: MatchState | None) -> None:
    """Cache ``state`` as the table's state at ``table.version`` now: a state taken with
    :func:`for_write` and left unchanged, or one whose change is already committed."""
    if state is not None:
        _put(_key(table), table.version, state)


def _put(key: tuple, version: int, state: MatchState) -> None:
    with _lock:
        entry = _cache.get(key)
        if entry is None or entry[0] <= version:
            _cache[key] = (version, state)
            _cache.move_to_end(key)
            _trim()


def remember_on_commit(table, state: MatchState) -> None:
    """Cache ``state`` as the table's state at ``table.version`` once the transaction
    commits (never if it rolls back)."""
    key, version = _key(table), table.version
    transaction.on_commit(lambda: _put(key, version, state))


def _trim() -> None:
    while len(_cache) > _MAX:
        _cache.popitem(last=False)
