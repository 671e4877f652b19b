"""``trix verify``: read deal records, a draw record, a public key, a log and a saved log head
from files or stdin, check them (``games.fairness.verify``, ``games.fairness.draw_record``) and
print one ``verified`` line and notes, or one line per mismatch. No Django.
"""

from __future__ import annotations

import os
import sys
import zipfile
from collections.abc import Sequence
from typing import Any, TextIO

from games.fairness.draw import ALGORITHM as DRAW_FORMAT
from games.fairness.errors import FairnessError
from games.fairness.receipt import receipt_hash
from games.fairness.transparency import find_receipt, logged
from games.fairness.verify import verify_match, verify_record
from games.fairness.verify_archive import verify_archive_cli
from games.fairness.verify_draws import draw_notes, draw_problems
from games.fairness.verify_files import (
    Unreadable,
    flattened,
    load_inputs,
    option_values,
    receipt_of,
)
from games.fairness.verify_log import receipt_in_log, records_in_log
from games.fairness.verify_notes import bots_note, keys_note, order_note, partial_note, seats_note
from games.fairness.verify_proofs import proven_notes, tree_checks
from games.fairness.verify_signers import (
    log_and_head,
    receipts_in_their_keys_time,
    witness_keys,
)


def _verify_draw_cli(
    record: dict[str, Any],
    stdout: TextIO,
    stderr: TextIO,
    commitment: str | None = None,
    log_checks: dict[str, Any] | None = None,
) -> int:
    """A ``trix-draw/1`` record alone (:func:`_draw_problems`; ``log_checks``: ``--log``,
    ``--head``, ``--public-key``, ``--keys``): one OK line and notes and 0, or the error
    lines and 1."""
    entries, notes = None, []
    if log_checks is not None and log_checks["log"] is not None:
        try:
            entries, _, head_note = log_and_head(**log_checks)
        except FairnessError as error:
            print(error, file=stderr)
            return 1
        notes += [head_note] if head_note else []
    log = entries[0] if entries is not None else None
    problems, summary, checked = draw_problems(record, commitment, log)
    if problems:
        for line in problems:
            print(line, file=stderr)
        return 1
    print(
        f"verified: {DRAW_FORMAT} {summary['event']}, {summary['format']}"
        f"{' partnership' if summary['team_mode'] else ''}, {summary['entrants']} entrants, "
        f"{summary['rounds']} rounds ({summary['played']} with results)",
        file=stdout,
    )
    for note in draw_notes(summary, checked, entries is not None) + notes:
        print(f"note: {note}", file=stdout)
    return 0


def _notes(
    records: list[Any],
    key: Any,
    log: Any,
    partial: bool,
    single: bool,
    pinned: Sequence[str],
    proven_bots: frozenset[str] = frozenset(),
) -> list[str]:
    """The lines after ``verified``: what was and was not checked (``single``: one record
    was given, checked alone rather than as a match; ``pinned``: the seats whose client seed
    ``--client-seed`` gave; ``proven_bots``: the matches whose bots' seed an inclusion proof
    gave, whose replay has its own note), and, per receipt, which seats were bots and
    people."""
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
        notes.append(keys_note(key, [s["receipt"] for s in receipts]))
    distinct = {receipt_hash(s["receipt"]): s["receipt"] for s in receipts}
    notes.extend(seats_note(receipt, pinned) for receipt in distinct.values())
    notes.extend(
        order_note(receipt, None if log is None else log[0]) for receipt in distinct.values()
    )
    for receipt in distinct.values():
        if receipt["match_id"] in proven_bots:
            continue  # the inclusion proof's note says what the replay showed
        mine = [record for record in records if receipt_of(record) == receipt]
        note = bots_note(receipt, mine, None if log is None else log[0], single)
        if note:
            notes.append(note)
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
    keys: str | None = None,
    log: str | None = None,
    commitment: str | None = None,
    client_seeds: Sequence[str] = (),
    partial: bool = False,
    head: str | None = None,
    checkpoint: str | None = None,
    new_checkpoint: str | None = None,
    consistency: str | None = None,
    inclusions: Sequence[str] = (),
    witnesses: Sequence[str] = (),
    quorum: int | None = None,
) -> int:
    """``trix verify FILE|-``: verify deal records and print ``verified`` or the mismatches.

    A file holding one ``trix-draw/1`` record (a tournament's seating draw) is checked by
    ``games.fairness.draw_record.verify_record`` instead (with ``commitment``, the one saved from
    the tournament page before the start, which the record must carry): one
    ``verified: ...`` line and 0, or one ``trix-draw/1: ...`` error line on ``stderr`` and 1.

    ``path`` is a day's archive (``/fairness/archive/DAY.zip``, checked by
    ``games.fairness.verify_archive``; only ``public_key`` applies), a record file, ``-`` for
    stdin, a file holding a JSON list of one match's records, or a directory of ``*.json`` files
    of any shape the site serves (a record, a match's "all records" list, a ``trix-draw/1``
    record, each checked by its own rules; the records grouped into matches by match id and
    commitment). ``public_key`` (64 hex digits, PEM, or a file holding either or the site's
    ``/fairness/public-key.json``): receipts, heads and checkpoints must be signed by it.
    ``keys`` (the site's ``/fairness/keys.json`` saved to a file): every signature must be by
    the key it names, in use when it was made (with ``public_key``, which must be one of them;
    :func:`keyring`); with ``log``, the log's own ``signing-key`` entries give those keys.
    ``log`` (a file of the site's ``/fairness/log.jsonl``): its chain must verify and hold each
    match's receipt.
    ``commitment`` and ``client_seeds`` (``["SEAT=TEXT", ...]``, seats 0..3): every record
    must carry them. ``partial``: a match's deals may stop before its deal count (with
    ``log``, only if the log holds no other deal record of the match; without it, a note
    says completeness was not checked). ``head``
    (with ``log``): a ``trix-log-head/1`` saved earlier; the log's first entries must hash to
    it (a rewritten or shortened log is refused). ``checkpoint``: a C2SP checkpoint saved
    earlier (``/fairness/checkpoint``; with ``log``, the Merkle root of the log's first
    entries must be its root); ``new_checkpoint`` and ``consistency``: a newer checkpoint and
    the consistency proof from the saved one to it (``/fairness/proof/consistency``);
    ``inclusions``: inclusion proofs (``/fairness/proof/inclusion``) against either
    checkpoint, each of an entry of these records (their receipt or a deal record) that must
    be the records' (:func:`tree_checks`); given ``public_key``, checkpoints must be signed
    by it. ``witnesses`` (``["NAME=KEY", ...]``) and ``quorum`` (default: all of them): the
    newest checkpoint given must carry valid cosignatures by at least ``quorum`` of them. Prints
    ``verified`` (one record) or ``verified: N deal records`` then ``note: ...`` lines on
    ``stdout`` and returns 0; or one line per mismatch on ``stderr`` and returns 1 (also for
    an unreadable file, invalid JSON or a broken log); a malformed option value: one line, 2.
    """
    try:
        key, commitment, seeds = option_values(public_key, commitment, client_seeds)
    except FairnessError as error:
        print(error, file=stderr)
        return 2
    unzipped = os.path.isdir(path) and os.path.isfile(os.path.join(path, "archive.json"))
    named = path.lower().endswith(".zip")
    if path != "-" and (unzipped or named or (os.path.isfile(path) and zipfile.is_zipfile(path))):
        others = keys or log or commitment or seeds or partial or head or checkpoint
        if others or new_checkpoint or consistency or inclusions or witnesses:
            print("a day's archive (trix-archive/1) takes --public-key only", file=stderr)
            return 2
        return verify_archive_cli(path, stdout, stderr, key)
    try:
        loaded = load_inputs(path, stdin if stdin is not None else sys.stdin)
    except Unreadable as error:
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
        tree = checkpoint or new_checkpoint or consistency or inclusions or witnesses
        if seeds or partial or tree or (log is None and (head or key is not None or keys)):
            print(
                "--checkpoint, --new-checkpoint, --consistency, --inclusion, --client-seed, "
                "--partial: for deal records (a draw record takes --commitment, and --log "
                "with --head, --public-key and --keys)",
                file=stderr,
            )
            return 2
        log_checks = {"log": log, "head": head, "public_key": key, "keys": keys}
        return _verify_draw_cli(loaded[0][1], stdout, stderr, commitment, log_checks)
    checks = {
        "public_key": key,
        "commitment": commitment,
        "client_seeds": seeds,
        "require_receipt": key is not None or keys is not None or log is not None,
        "keys": keys,
    }
    try:
        listed = witness_keys(witnesses, quorum)
    except FairnessError as error:
        print(error, file=stderr)
        return 2
    tree = {
        "checkpoint": checkpoint,
        "new_checkpoint": new_checkpoint,
        "consistency": consistency,
        "inclusions": list(inclusions),
        "witnesses": listed,
        "quorum": len(listed) if quorum is None else quorum,
    }
    return _verify_deals_cli(path, loaded, checks, stdout, stderr, log, head, partial, tree)


def _verify_deals_cli(
    path: str,
    loaded: list[tuple[str, Any]],
    checks: dict[str, Any],
    stdout: TextIO,
    stderr: TextIO,
    log: str | None,
    head: str | None,
    partial: bool,
    tree: dict[str, Any],
) -> int:
    """Deal records (``checks``: ``verify_record``'s keyword checks) against the log, the
    saved head and the checkpoints and proofs (``tree``) when given: ``verified`` and the
    notes, and 0; or the mismatches, and 1 (2 for ``head`` without ``log``, proofs without
    ``--checkpoint``)."""
    if head is not None and log is None:
        print("--head: give the log too (--log FILE)", file=stderr)
        return 2
    if tree["checkpoint"] is None and (
        tree["new_checkpoint"] or tree["consistency"] or tree["inclusions"] or tree["witnesses"]
    ):
        print(
            "--new-checkpoint, --consistency, --inclusion, --witness: give --checkpoint too",
            file=stderr,
        )
        return 2
    if (tree["new_checkpoint"] is None) != (tree["consistency"] is None):
        print("--new-checkpoint and --consistency go together", file=stderr)
        return 2
    checks = dict(checks)
    keys = checks.pop("keys")
    try:
        entries, key, head_note = log_and_head(log, head, checks["public_key"], keys)
        checks["public_key"] = key
        tree_notes, proven = (
            tree_checks(tree, key, entries[0] if entries else None)
            if tree["checkpoint"] is not None
            else ([], [])
        )
    except FairnessError as error:
        print(error, file=stderr)
        return 1
    try:
        problems, records, draw_notes = _verify_loaded(loaded, checks, entries, partial)
    except RecursionError:
        print(f"invalid JSON: {path}: nested too deep", file=stderr)
        return 1
    if not problems and key is not None and entries is not None:
        problems = receipts_in_their_keys_time(key, entries[0], records)
    if problems:
        for line in problems:
            print(line, file=stderr)
        return 1
    try:
        tree_notes += proven_notes(proven, records)
    except FairnessError as error:
        print(error, file=stderr)
        return 1
    count = len(records)
    print("verified" if count == 1 else f"verified: {count} deal records", file=stdout)
    single = len(loaded) == 1 and isinstance(loaded[0][1], dict)
    proven_bots = frozenset(e["body"]["match_id"] for e in proven if e["kind"] == "bot-seed")
    pinned = list(checks["client_seeds"])
    notes = _notes(records, key, entries, partial, single, pinned, proven_bots)
    for note in notes + draw_notes + ([head_note] if head_note else []) + tree_notes:
        print(f"note: {note}", file=stdout)
    return 0


def _verify_loaded(
    loaded: list[tuple[str, Any]],
    checks: dict[str, Any],
    entries: tuple[list[dict[str, Any]], str] | None,
    partial: bool,
) -> tuple[list[str], list[Any], list[str]]:
    """(mismatches, the deal records, the notes on draw records) of what ``load`` read."""
    log = entries[0] if entries is not None else None
    if len(loaded) == 1 and isinstance(loaded[0][1], dict):
        record = loaded[0][1]
        problems = verify_record(record, **checks)
        if not problems and log is not None:
            index = logged(log)
            problems = receipt_in_log(record["shuffle"], index) + records_in_log([record], index)
        return problems, [record], []
    if len(loaded) == 1 and isinstance(loaded[0][1], list):
        records = loaded[0][1]
        return verify_match(records, **checks, partial=partial, log=log), records, []
    problems: list[str] = []
    matches: dict[tuple[Any, Any], list[Any]] = {}
    deals, draws = [], []
    for name, record in flattened(loaded):
        if isinstance(record, dict) and record.get("format") == DRAW_FORMAT:
            draws.append((name, record))  # a tournament's seating draw beside its matches
            continue
        deals.append((name, record))
        try:
            group = (record["shuffle"]["match_id"], record["shuffle"]["commitment"])
            hash(group)
        except (TypeError, KeyError):
            problems.extend(f"{name}: {line}" for line in verify_record(record, **checks))
            continue
        matches.setdefault(group, []).append(record)
    if not deals and not problems:
        problems.append("no deal records among the files given")
    for (match_id, _), records in matches.items():
        lines = verify_match(records, **checks, partial=partial, log=log)
        problems.extend(f"match {match_id}: {line}" for line in lines)
    notes = []
    for name, draw in draws:
        found, summary, checked = draw_problems(draw, None, log, [d for _, d in deals])
        problems.extend(f"{name}: {line}" for line in found)
        if summary is not None:
            notes += draw_notes(summary, checked, log is not None)
    return problems, [record for _, record in deals], notes
