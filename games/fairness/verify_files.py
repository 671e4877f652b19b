"""What ``trix verify`` reads: record files, directories of downloads and standard input,
a saved log, and its option values; each failure one line (``Unreadable`` for input it cannot
parse, ``FairnessError`` for an option or the log). No Django."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any, TextIO

from games.fairness.canonical import loads as strict_loads
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_text
from games.fairness.receipt import check_hex, load_public_key
from games.fairness.transparency import parse_log, verify_log
from games.fairness.verify import SEAT_KEYS

#: How ``--client-seed`` numbers seats (the pages number them 1..4).
SEAT_HINT = "seats are 0..3 as in records; the table page's Seat 1..4 is record seat 0..3"


class Unreadable(ValueError):
    """Input ``trix verify`` cannot parse; its message is the whole error line."""


def _parse(text: str, name: str) -> Any:
    try:
        return strict_loads(text)
    except FairnessError as error:
        raise Unreadable(f"invalid JSON: {name}: {error}") from None
    except json.JSONDecodeError as error:
        raise Unreadable(
            f"invalid JSON: {name}: line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise Unreadable(f"invalid JSON: {name}: nested too deep") from None


def read_text(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def load_inputs(path: str, stdin: TextIO) -> list[tuple[str, Any]]:
    """(name, parsed JSON) pairs: one for a file or ``-``, one per ``*.json`` in a directory."""
    if path == "-":
        return [("-", _parse(stdin.read(), "-"))]
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
        if not names:
            raise ValueError(f"{path}: no .json deal records in this directory")
        return [(name, _parse(read_text(os.path.join(path, name)), name)) for name in names]
    return [(path, _parse(read_text(path), path))]


def option_values(
    public_key: str | None, commitment: str | None, client_seeds: Sequence[str]
) -> tuple[Any, str | None, dict[str, str]]:
    """Parse ``--public-key HEX|FILE``, ``--commitment HEX``, ``--client-seed SEAT=TEXT``;
    raises FairnessError with the one-line message."""
    key = None
    if public_key is not None:
        text = public_key
        if os.path.isfile(public_key):
            try:
                text = read_text(public_key)
            except (OSError, UnicodeDecodeError) as error:
                raise FairnessError(f"--public-key: cannot read {public_key}: {error}") from None
            try:  # the site's /fairness/public-key.json saved to a file
                served = json.loads(text)
            except (ValueError, RecursionError):
                served = None
            if isinstance(served, dict) and isinstance(served.get("public_key"), str):
                text = served["public_key"]
        try:
            key = load_public_key(text)
        except (FairnessError, ValueError) as error:
            looks_like_a_path = "/" in public_key or os.sep in public_key or "." in public_key
            if text == public_key and looks_like_a_path and not os.path.exists(public_key):
                raise FairnessError(
                    f"--public-key: {public_key}: no such file (and not a key: {error})"
                ) from None
            raise FairnessError(f"--public-key: {error}") from None
    if commitment is not None:
        check_hex(commitment.lower(), "--commitment")
    seeds: dict[str, str] = {}
    for item in client_seeds:
        seat, sep, text = item.partition("=")
        if not sep or seat not in SEAT_KEYS:
            raise FairnessError(f"--client-seed {item!r}: give SEAT=TEXT; {SEAT_HINT}")
        if seat in seeds:
            raise FairnessError(f"--client-seed: seat {seat} is given twice")
        seeds[seat] = check_text(text, f"--client-seed {seat}")
    return key, commitment, seeds


def load_log(path: str) -> tuple[list[dict[str, Any]], str]:
    """The entries and head hash of a saved ``trix-log/1``; raises FairnessError."""
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise FairnessError(f"--log: cannot read {path}: {error}") from None
    try:
        entries = parse_log(text)
        return entries, verify_log(entries)
    except FairnessError as error:
        raise FairnessError(f"--log: {error}") from None


def read_json(path: str, option: str) -> Any:
    try:
        return strict_loads(read_text(path))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, FairnessError) as error:
        raise FairnessError(f"{option}: cannot read {path}: {error}") from None


def flattened(loaded: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """A directory's files as records: a file holding a JSON list (a match's "all records"
    download, ``/verify/matches/<id>/records.json``) gives each of its items, named
    ``file[i]``; any other file is one record."""
    out = []
    for name, value in loaded:
        if isinstance(value, list):
            out.extend((f"{name}[{i}]", item) for i, item in enumerate(value))
        else:
            out.append((name, value))
    return out


def receipt_of(record: Any) -> Any:
    shuffle = record.get("shuffle") if isinstance(record, dict) else None
    return shuffle.get("receipt") if isinstance(shuffle, dict) else None
