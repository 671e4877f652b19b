"""Canonical JSON: the one byte form of a receipt, a log entry or a log head that is hashed
and signed (``docs/fairness.md``, "Canonical JSON").

``canonical_bytes(obj)`` is ``json.dumps(obj, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`` encoded as UTF-8: keys sorted by code point, no spaces, non-ASCII text
as itself. Only objects with string keys, arrays, strings, integers, ``true``, ``false`` and
``null`` may appear: a float (whose text form differs between languages) is refused.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.fairness.errors import FairnessError

__all__ = ["canonical_bytes", "loads", "sha256_hex"]

_MAX_DEPTH = 32


def _check(value: Any, where: str, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise FairnessError(f"{where}: nested more than {_MAX_DEPTH} levels")
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise FairnessError(f"{where}: object keys must be strings")
            _check(item, f"{where}.{key}", depth + 1)
        return
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _check(item, f"{where}[{i}]", depth + 1)
        return
    raise FairnessError(f"{where}: {type(value).__name__} is not allowed in canonical JSON")


def canonical_bytes(obj: Any) -> bytes:
    """The canonical UTF-8 JSON bytes of ``obj``; raises FairnessError for a float, a
    non-string key, another type, or nesting deeper than 32 levels."""
    _check(obj, "$", 0)
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def sha256_hex(obj: Any) -> str:
    """Lower-case hex SHA-256 of ``canonical_bytes(obj)`` (64 digits)."""
    return hashlib.sha256(canonical_bytes(obj)).hexdigest()


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise FairnessError(f"the key {key!r} is given twice in one object")
        seen.add(key)
    return dict(pairs)


def loads(text: str) -> Any:
    """``json.loads`` refusing an object that gives a key twice (FairnessError: two readers
    could otherwise see two different records in one file); ``ValueError`` for invalid
    JSON, ``RecursionError`` for nesting too deep, as ``json.loads``."""
    return json.loads(text, object_pairs_hook=_unique_keys)
