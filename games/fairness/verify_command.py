"""``trix verify``: read deal records, a draw record, a public key, a log and a saved log head
from files or stdin, check them (``games.fairness.verify``, ``games.fairness.draw_record``) and
print one ``verified`` line and notes, or one line per mismatch. No Django.
"""

from __future__ import annotations

import hmac
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from games.fairness.canonical import loads as strict_loads
from games.fairness.draw import ALGORITHM as DRAW_FORMAT
from games.fairness.draw_record import verify_record as verify_draw_record
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_text
from games.fairness.receipt import (
    check_hex,
    check_signature,
    key_id,
    load_public_key,
    receipt_hash,
)
from games.fairness.transparency import (
    HEAD_FORMAT,
    find_receipt,
    log_head,
    logged,
    parse_log,
    verify_log,
)
from games.fairness.verify import (
    SEAT_KEYS,
    partial_note,
    receipt_in_log,
    records_in_log,
    seats_note,
    verify_match,
    verify_record,
)


class _Unreadable(ValueError):
    """Input ``trix verify`` cannot parse; its message is the whole error line."""


def _parse(text: str, name: str) -> Any:
    try:
        return strict_loads(text)
    except FairnessError as error:
        raise _Unreadable(f"invalid JSON: {name}: {error}") from None
    except json.JSONDecodeError as error:
        raise _Unreadable(
            f"invalid JSON: {name}: line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise _Unreadable(f"invalid JSON: {name}: nested too deep") from None


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _load(path: str, stdin: TextIO) -> list[tuple[str, Any]]:
    """(name, parsed JSON) pairs: one for a file or ``-``, one per ``*.json`` in a directory."""
    if path == "-":
        return [("-", _parse(stdin.read(), "-"))]
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
        if not names:
            raise ValueError(f"{path}: no .json deal records in this directory")
        return [(name, _parse(_read_text(os.path.join(path, name)), name)) for name in names]
    return [(path, _parse(_read_text(path), path))]


def _verify_draw_cli(
    record: dict[str, Any], stdout: TextIO, stderr: TextIO, commitment: str | None = None
) -> int:
    """A ``trix-draw/1`` record: one OK line and 0, or one error line and 1. ``commitment``
    (hex, any case): the draw commitment the tournament page showed before the start; the
    record must carry exactly it."""
    try:
        summary = verify_draw_record(record)
        stated = record["commitment"].lower()
        if commitment is not None and not hmac.compare_digest(stated, commitment.lower()):
            raise FairnessError(
                f"commitment: the record's {stated} is not the commitment you saved before "
                f"the start, {commitment.lower()}"
            )
    except FairnessError as error:
        print(f"{DRAW_FORMAT}: {error}", file=stderr)
        return 1
    print(
        f"verified: {DRAW_FORMAT} {summary['event']}, {summary['format']}"
        f"{' partnership' if summary['team_mode'] else ''}, {summary['entrants']} entrants, "
        f"{summary['rounds']} rounds ({summary['played']} with results)",
        file=stdout,
    )
    return 0


SEAT_HINT = "seats are 0..3 as in records; the table page's Seat 1..4 is record seat 0..3"


def _option_values(
    public_key: str | None, commitment: str | None, client_seeds: Sequence[str]
) -> tuple[Any, str | None, dict[str, str]]:
    """Parse ``--public-key HEX|FILE``, ``--commitment HEX``, ``--client-seed SEAT=TEXT``;
    raises FairnessError with the one-line message."""
    key = None
    if public_key is not None:
        text = public_key
        if os.path.isfile(public_key):
            try:
                text = _read_text(public_key)
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


def _load_log(path: str) -> tuple[list[dict[str, Any]], str]:
    """The entries and head hash of a saved ``trix-log/1``; raises FairnessError."""
    try:
        text = _read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise FairnessError(f"--log: cannot read {path}: {error}") from None
    try:
        entries = parse_log(text)
        return entries, verify_log(entries)
    except FairnessError as error:
        raise FairnessError(f"--log: {error}") from None


def _check_head(path: str, entries: list[dict[str, Any]], key: Any) -> str:
    """A log head saved earlier (``/fairness/log-head.json``) against the log now: the log's
    first ``size`` entries must hash to it (and, given ``key``, its signature must be valid).
    Returns the note line; raises FairnessError with the refusal line."""
    try:
        saved = strict_loads(_read_text(path))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, FairnessError) as error:
        raise FairnessError(f"--head: cannot read {path}: {error}") from None
    if not isinstance(saved, dict) or saved.get("format") != HEAD_FORMAT:
        raise FairnessError(f"--head: not a {HEAD_FORMAT} object")
    size, head = saved.get("size"), saved.get("head")
    if type(size) is not int or size < 0:
        raise FairnessError("--head: size must be a whole number from 0")
    check_hex(head, "--head: head")
    if size > len(entries):
        raise FairnessError(
            f"--head: the saved head covers {size} entries, the log has only {len(entries)}: "
            "entries were removed"
        )
    now = verify_log(entries[:size])
    if now != head:
        raise FairnessError(
            f"--head: the log's first {size} entries hash to {now}, not to the saved head "
            f"{head}: the log was rewritten"
        )
    if key is not None and "signature" in saved:
        try:
            check_signature(log_head(size, head), saved["signature"], key)
        except FairnessError as error:
            raise FairnessError(f"--head: signature: {error}") from None
    return f"the saved head (size {size}) is the head of the log's first {size} entries"


def _notes(
    records: list[Any], key: Any, log: Any, partial: bool, single: bool, pinned: Sequence[str]
) -> list[str]:
    """The lines after ``verified``: what was and was not checked (``single``: one record
    was given, checked alone rather than as a match; ``pinned``: the seats whose client seed
    ``--client-seed`` gave), and, per receipt, which seats were bots and people."""
    shuffles = [r["shuffle"] for r in records if isinstance(r.get("shuffle"), dict)]
    receipts = [s for s in shuffles if "receipt" in s]
    notes = []
    if len(receipts) < len(shuffles):
        notes.append(
            f"{len(shuffles) - len(receipts)} record(s) without a receipt (from before "
            "receipts): cards and plays only, nothing binds their client seeds to the "
            "match start"
        )
    if receipts and key is None:
        notes.append("receipt signatures not checked: give --public-key")
    elif receipts:
        notes.append(f"receipt signatures valid under key {key_id(key)}")
    distinct = {receipt_hash(s["receipt"]): s["receipt"] for s in receipts}
    notes.extend(seats_note(receipt, pinned) for receipt in distinct.values())
    if log is not None:
        entries, head = log
        for receipt in distinct.values():
            entry = find_receipt(entries, receipt["match_id"])
            notes.append(
                f"receipt {receipt_hash(receipt)[:16]}... in the log at entry {entry['index']}, "
                f"the one receipt of match {receipt['match_id']!r}"
            )
        notes.append(f"{len(records)} record(s) each the deal-record logged for its deal")
        notes.append(
            f"log of {len(entries)} entries, head {head}: a head saved earlier must be the "
            "head of the log's first entries"
        )
    if partial and single:
        notes.append("--partial: not used: one record is checked alone, not as a match")
    elif partial:
        matches: dict[tuple[str, str], list[Any]] = {}  # grouped as _verify_loaded does
        for record in records:
            group = (record["shuffle"]["match_id"], record["shuffle"]["commitment"])
            matches.setdefault(group, []).append(record)
        notes.extend(partial_note(group, log is not None) for group in matches.values())
    return notes


def verify_cli(
    path: str,
    stdout: TextIO,
    stderr: TextIO,
    stdin: TextIO | None = None,
    *,
    public_key: str | None = None,
    log: str | None = None,
    commitment: str | None = None,
    client_seeds: Sequence[str] = (),
    partial: bool = False,
    head: str | None = None,
) -> int:
    """``trix verify FILE|-``: verify deal records and print ``verified`` or the mismatches.

    A file holding one ``trix-draw/1`` record (a tournament's seating draw) is checked by
    ``games.fairness.draw_record.verify_record`` instead (with ``commitment``, the one saved from
    the tournament page before the start, which the record must carry): one
    ``verified: ...`` line and 0, or one ``trix-draw/1: ...`` error line on ``stderr`` and 1.

    ``path`` is a record file, ``-`` for stdin, a file holding a JSON list of one match's
    records, or a directory of ``*.json`` records (grouped into matches by match id and
    commitment). ``public_key`` (64 hex digits, PEM, or a file holding either or the site's
    ``/fairness/public-key.json``): receipts must be signed by it. ``log`` (a file of the
    site's ``/fairness/log.jsonl``): its chain must verify and hold each match's receipt.
    ``commitment`` and ``client_seeds`` (``["SEAT=TEXT", ...]``, seats 0..3): every record
    must carry them. ``partial``: a match's deals may stop before its deal count (with
    ``log``, only if the log holds no other deal record of the match; without it, a note
    says completeness was not checked). ``head``
    (with ``log``): a ``trix-log-head/1`` saved earlier; the log's first entries must hash to
    it (a rewritten or shortened log is refused). Prints
    ``verified`` (one record) or ``verified: N deal records`` then ``note: ...`` lines on
    ``stdout`` and returns 0; or one line per mismatch on ``stderr`` and returns 1 (also for
    an unreadable file, invalid JSON or a broken log); a malformed option value: one line, 2.
    """
    try:
        key, commitment, seeds = _option_values(public_key, commitment, client_seeds)
    except FairnessError as error:
        print(error, file=stderr)
        return 2
    try:
        loaded = _load(path, stdin if stdin is not None else sys.stdin)
    except _Unreadable as error:
        print(error, file=stderr)
        return 1
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"cannot read {path}: {error}", file=stderr)
        return 1
    if (
        len(loaded) == 1
        and isinstance(loaded[0][1], dict)
        and loaded[0][1].get("format") == DRAW_FORMAT
    ):
        if key is not None or log or seeds or partial or head:
            print(
                "--public-key, --log, --head, --client-seed, --partial: for deal records "
                "(a draw record takes --commitment only)",
                file=stderr,
            )
            return 2
        return _verify_draw_cli(loaded[0][1], stdout, stderr, commitment)
    checks = {
        "public_key": key,
        "commitment": commitment,
        "client_seeds": seeds,
        "require_receipt": key is not None or log is not None,
    }
    return _verify_deals_cli(path, loaded, checks, stdout, stderr, log, head, partial)


def _verify_deals_cli(
    path: str,
    loaded: list[tuple[str, Any]],
    checks: dict[str, Any],
    stdout: TextIO,
    stderr: TextIO,
    log: str | None,
    head: str | None,
    partial: bool,
) -> int:
    """Deal records (``checks``: ``verify_record``'s keyword checks) against the log and the
    saved head when given: ``verified`` and the notes, and 0; or the mismatches, and 1 (2 for
    ``head`` without ``log``)."""
    if head is not None and log is None:
        print("--head: give the log too (--log FILE)", file=stderr)
        return 2
    key = checks["public_key"]
    try:
        entries = _load_log(log) if log is not None else None
        head_note = _check_head(head, entries[0], key) if head is not None else None
    except FairnessError as error:
        print(error, file=stderr)
        return 1
    try:
        problems, records = _verify_loaded(loaded, checks, entries, partial)
    except RecursionError:
        print(f"invalid JSON: {path}: nested too deep", file=stderr)
        return 1
    if problems:
        for line in problems:
            print(line, file=stderr)
        return 1
    count = len(records)
    print("verified" if count == 1 else f"verified: {count} deal records", file=stdout)
    single = len(loaded) == 1 and isinstance(loaded[0][1], dict)
    notes = _notes(records, key, entries, partial, single, list(checks["client_seeds"]))
    for note in notes + ([head_note] if head_note else []):
        print(f"note: {note}", file=stdout)
    return 0


def _verify_loaded(
    loaded: list[tuple[str, Any]],
    checks: dict[str, Any],
    entries: tuple[list[dict[str, Any]], str] | None,
    partial: bool,
) -> tuple[list[str], list[Any]]:
    """(mismatches, the records) of what ``_load`` read."""
    log = entries[0] if entries is not None else None
    if len(loaded) == 1 and isinstance(loaded[0][1], dict):
        record = loaded[0][1]
        problems = verify_record(record, **checks)
        if not problems and log is not None:
            index = logged(log)
            problems = receipt_in_log(record["shuffle"], index) + records_in_log([record], index)
        return problems, [record]
    if len(loaded) == 1 and isinstance(loaded[0][1], list):
        records = loaded[0][1]
        return verify_match(records, **checks, partial=partial, log=log), records
    problems: list[str] = []
    matches: dict[tuple[Any, Any], list[Any]] = {}
    for name, record in loaded:
        try:
            group = (record["shuffle"]["match_id"], record["shuffle"]["commitment"])
            hash(group)
        except (TypeError, KeyError):
            problems.extend(f"{name}: {line}" for line in verify_record(record, **checks))
            continue
        matches.setdefault(group, []).append(record)
    for (match_id, _), records in matches.items():
        lines = verify_match(records, **checks, partial=partial, log=log)
        problems.extend(f"match {match_id}: {line}" for line in lines)
    return problems, [record for _, record in loaded]
