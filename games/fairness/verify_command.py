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

from cryptography.exceptions import InvalidSignature

from games.fairness import merkle, table_results
from games.fairness.canonical import loads as strict_loads
from games.fairness.canonical import sha256_hex
from games.fairness.draw import ALGORITHM as DRAW_FORMAT
from games.fairness.draw_record import verify_record as verify_draw_record
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_text
from games.fairness.receipt import (
    check_hex,
    check_signature,
    key_id,
    load_public_key,
    public_key_hex,
    receipt_hash,
)
from games.fairness.signing_keys import Key, Keyring, keyring_from_document, keyring_from_log
from games.fairness.transparency import (
    HEAD_FORMAT,
    check_entry,
    entry_leaf_hash,
    find_receipt,
    log_head,
    logged,
    parse_log,
    verify_log,
)
from games.fairness.verify import SEAT_KEYS, verify_match, verify_record
from games.fairness.verify_log import bot_moves, draw_in_log, receipt_in_log, records_in_log
from games.fairness.verify_notes import (
    bots_note,
    keys_note,
    order_note,
    partial_note,
    replayed_note,
    seats_note,
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


def _draw_problems(
    record: dict[str, Any],
    commitment: str | None,
    entries: list[dict[str, Any]] | None,
    deals: Sequence[Any] = (),
) -> tuple[list[str], dict[str, Any] | None, int]:
    """A ``trix-draw/1`` record's mismatches (each line prefixed ``trix-draw/1: ``), its
    summary and the tables whose results were recomputed: the record by itself; with
    ``commitment`` (hex, any case, the one the tournament page showed before the start) it
    must carry exactly it; with the log's ``entries``, its commitment and key are the
    logged ones (``verify_log.draw_in_log``) and its tables' matches the logged ones
    (``table_results.check_against_log``); with ``deals`` (deal records given beside it),
    each table whose match's records are all there has the results they give
    (``table_results.check_against_records``)."""
    try:
        summary = verify_draw_record(record)
        stated = record["commitment"].lower()
        if commitment is not None and not hmac.compare_digest(stated, commitment.lower()):
            raise FairnessError(
                f"commitment: the record's {stated} is not the commitment you saved before "
                f"the start, {commitment.lower()}"
            )
    except FairnessError as error:
        return [f"{DRAW_FORMAT}: {error}"], None, 0
    problems: list[str] = []
    if entries is not None:
        index = logged(entries)
        problems += draw_in_log(record, index) + table_results.check_against_log(record, index)
    found, checked = table_results.check_against_records(record, deals)
    problems += found
    return [f"{DRAW_FORMAT}: {line}" for line in problems], summary, checked


def _draw_notes(summary: dict[str, Any], checked: int, logged_too: bool) -> list[str]:
    """What a verified draw record's check covered: its matches in the log, its results
    recomputed from deal records."""
    event, bound = summary["event"], summary["bound"]
    if not bound:
        return [
            f"{event}: its results name no matches (a record from before they did): nothing "
            "binds them to the deals played"
        ]
    notes = [
        f"{event}: the matches of its {bound} tables with results are the log's, each with "
        "every deal record the log holds of it"
        if logged_too
        else f"{event}: its tables' matches not checked against the log: give --log"
    ]
    notes.append(
        f"{event}: the results of {checked} of its {bound} tables recomputed from their deal "
        "records"
        + ("" if checked == bound else " (download the others' records to check them too)")
    )
    return notes


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
            entries, _, head_note = _log_and_head(**log_checks)
        except FairnessError as error:
            print(error, file=stderr)
            return 1
        notes += [head_note] if head_note else []
    log = entries[0] if entries is not None else None
    problems, summary, checked = _draw_problems(record, commitment, log)
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
    for note in _draw_notes(summary, checked, entries is not None) + notes:
        print(f"note: {note}", file=stdout)
    return 0


def _log_and_head(
    log: str | None, head: str | None, public_key: Any, keys: str | None
) -> tuple[tuple[list[dict[str, Any]], str] | None, Keyring | None, str | None]:
    """The saved log (its entries, checked from entry 0, and head hash; None without
    ``log``), the keys signatures are checked with (:func:`_keyring`: ``public_key``, among
    ``keys`` or the log's) and the note on the saved ``head``; raises FairnessError with the
    refusal line."""
    listed = keyring_from_document(_read_json(keys, "--keys")) if keys is not None else None
    entries = _load_log(log) if log is not None else None
    ring = _keyring(public_key, listed, entries[0] if entries else None)
    return entries, ring, _check_head(head, entries[0], ring) if head is not None else None


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
        named = saved.get("key_id")
        try:
            if named is None and len(key.keys) > 1:  # a head from before heads named a key
                signer = _any_signer(key, log_head(size, head), saved["signature"])
            else:
                signer = key.key(named, None, "--head")
            check_signature(log_head(size, head, named), saved["signature"], signer.public_key)
        except FairnessError as error:
            raise FairnessError(f"--head: signature: {error}") from None
        _not_older(key, signer.key_id, entries, size, "--head")
    return f"the saved head (size {size}) is the head of the log's first {size} entries"


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
        mine = [record for record in records if _receipt_of(record) == receipt]
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


def _receipt_of(record: Any) -> Any:
    shuffle = record.get("shuffle") if isinstance(record, dict) else None
    return shuffle.get("receipt") if isinstance(shuffle, dict) else None


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
) -> int:
    """``trix verify FILE|-``: verify deal records and print ``verified`` or the mismatches.

    A file holding one ``trix-draw/1`` record (a tournament's seating draw) is checked by
    ``games.fairness.draw_record.verify_record`` instead (with ``commitment``, the one saved from
    the tournament page before the start, which the record must carry): one
    ``verified: ...`` line and 0, or one ``trix-draw/1: ...`` error line on ``stderr`` and 1.

    ``path`` is a record file, ``-`` for stdin, a file holding a JSON list of one match's
    records, or a directory of ``*.json`` files of any shape the site serves (a record, a
    match's "all records" list, a ``trix-draw/1`` record, each checked by its own rules; the
    records grouped into matches by match id and commitment). ``public_key`` (64 hex
    digits, PEM, or a file holding either or the site's ``/fairness/public-key.json``):
    receipts, heads and checkpoints must be signed by it. ``keys`` (the site's
    ``/fairness/keys.json`` saved to a file): every signature must be by the key it names,
    in use when it was made (with ``public_key``, which must be one of them;
    :func:`_keyring`); with ``log``, the log's own ``signing-key`` entries give those keys.
    ``log`` (a file of the site's ``/fairness/log.jsonl``):
    its chain must verify and hold each match's receipt.
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
    be the records' (:func:`_tree_checks`); given ``public_key``, checkpoints must be signed
    by it. Prints
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
        tree = checkpoint or new_checkpoint or consistency or inclusions
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
    tree = {
        "checkpoint": checkpoint,
        "new_checkpoint": new_checkpoint,
        "consistency": consistency,
        "inclusions": list(inclusions),
    }
    return _verify_deals_cli(path, loaded, checks, stdout, stderr, log, head, partial, tree)


def _read_json(path: str, option: str) -> Any:
    try:
        return strict_loads(_read_text(path))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, FairnessError) as error:
        raise FairnessError(f"{option}: cannot read {path}: {error}") from None


def _read_checkpoint(path: str, option: str, key: Any) -> merkle.Checkpoint:
    """A saved checkpoint (a C2SP signed note); given ``key``, one of its signature lines
    must be the key's (the origin as the key name) and valid."""
    try:
        note = _read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise FairnessError(f"{option}: cannot read {path}: {error}") from None
    try:
        text, signatures = merkle.parse_signed_note(note)
        checkpoint = merkle.parse_checkpoint(text)
    except merkle.MerkleError as error:
        raise FairnessError(f"{option}: not a signed checkpoint: {error}") from None
    if key is None:
        return checkpoint
    named, at = _checkpoint_key(checkpoint)
    signer = key.key(named, at, option)
    raw = bytes.fromhex(public_key_hex(signer.public_key))
    wanted = merkle.ed25519_key_hash(checkpoint.origin, raw)
    for name, key_hash, signature in signatures:
        if name == checkpoint.origin and key_hash == wanted:
            try:
                signer.public_key.verify(signature, text.encode())
            except InvalidSignature:
                raise FairnessError(
                    f"{option}: its signature is not valid under key {signer.key_id}"
                ) from None
            return checkpoint
    raise FairnessError(f"{option}: no signature by key {signer.key_id} ({checkpoint.origin})")


def _any_signer(ring: Keyring, payload: dict[str, Any], signature: Any) -> Key:
    """The key of ``ring`` whose signature of ``payload`` ``signature`` is (a head that
    names no key: any of the site's keys may have signed it). Raises FairnessError."""
    for name in ring.order:
        try:
            check_signature(payload, signature, ring.keys[name].public_key)
        except FairnessError:
            continue
        return ring.keys[name]
    raise FairnessError(f"it names no key and is valid under none of {ring.ids()}")


def _not_older(ring: Keyring, signer: str, entries: list[dict[str, Any]], size: int, what: str):
    """A head or checkpoint of the log's first ``size`` entries is signed by the key the
    last ``signing-key`` entry among them names, or a later one (the site reads its key
    after the size), never by a key those entries retired. Raises FairnessError."""
    logged = [e["body"]["key_id"] for e in entries[:size] if e["kind"] == "signing-key"]
    if not logged or logged[-1] not in ring.order or signer not in ring.order:
        return
    if ring.order.index(signer) < ring.order.index(logged[-1]):
        raise FairnessError(
            f"{what}: signed by key {signer}, which the log's first {size} entries retired "
            f"(their last signing key is {logged[-1]})"
        )


def _receipts_in_their_keys_time(
    ring: Keyring, entries: list[dict[str, Any]], records: list[Any]
) -> list[str]:
    """With the log: each receipt's entry was appended while the key it names was the
    site's (after that key's ``signing-key`` entry, the first key's from entry 0, and before
    the next key's): a retired key's signature dated inside its period but logged after it
    is refused."""
    problems, seen = [], set()
    for record in records:
        receipt = _receipt_of(record)
        if not isinstance(receipt, dict) or receipt.get("match_id") in seen:
            continue
        seen.add(receipt["match_id"])
        entry = find_receipt(entries, receipt["match_id"])
        try:  # the key it names, or (a receipt from before key ids) the key of its time
            key = ring.key(receipt.get("key_id"), receipt["issued_at"], "receipt")
        except FairnessError:
            continue  # its signature check said why
        if entry is not None and not key.signed_at(entry["index"]):
            problems.append(
                f"the receipt of match {receipt['match_id']!r} is log entry {entry['index']}, "
                f"logged when key {key.key_id} was not the site's key: a retired key's "
                "signature"
            )
    return problems


def _checkpoint_key(checkpoint: merkle.Checkpoint) -> tuple[str | None, str | None]:
    """The key id and time a checkpoint's extension line names (``time <T> key-id <id>``),
    or (None, None) for a checkpoint without it."""
    for line in checkpoint.extensions:
        words = line.split()
        if len(words) == 4 and words[0] == "time" and words[2] == "key-id":
            return words[3], words[1]
    return None, None


def _agree(listed: Keyring, logged: Keyring | None) -> bool:
    """Whether a saved key list is the log's key history: the same keys, periods and log
    indexes, or the start of it (a list saved before a later rotation: its last key still
    open; a list saved before the first rotation: the key in use, without a period, the
    log's first key); with no key in the log, one key listed without a period."""
    mine = [(k.key_id, k.valid_from, k.valid_until, k.log_index) for k in listed.keys.values()]
    unlogged = len(mine) == 1 and mine[0][1:] == (None, None, None)
    if logged is None or unlogged:
        return unlogged and (logged is None or mine[0][0] == logged.order[0])
    theirs = [(k.key_id, k.valid_from, k.valid_until, k.log_index) for k in logged.keys.values()]
    if len(mine) > len(theirs) or mine[:-1] != theirs[: len(mine) - 1]:
        return False
    last, same = mine[-1], theirs[len(mine) - 1]
    return last == same or last == (*same[:2], None, same[3])


def _keyring(key: Any, keys: Any, entries: list[dict[str, Any]] | None) -> Keyring | None:
    """The keys signatures are checked with: ``--keys`` (a saved ``/fairness/keys.json``) or
    the log's ``signing-key`` entries, pinned by ``--public-key`` (the key you saved, which
    must be one of them: the chain of endorsements then vouches for the others), or that
    key alone. With the log, ``--keys`` must be its keys and periods, or the start of them
    (saved before a later rotation), and the log's keys are the ones used. Raises
    FairnessError with the refusal line."""
    listed = keys
    try:
        logged = keyring_from_log(entries) if entries is not None else None
    except FairnessError as error:
        raise FairnessError(f"--log: {error}") from None
    if listed is not None and entries is not None and not _agree(listed, logged):
        raise FairnessError(
            "--keys: the keys and periods listed are not the log's signing-key entries"
        )
    ring = logged or listed  # the log's keys: a saved list may end before later rotations
    if key is None:
        if listed is None:
            return None
        unpinned = f"{ring.source}, not pinned: give --public-key, the key you saved"
        return Keyring(list(ring.keys.values()), unpinned)
    if ring is None:
        return Keyring.of(key)
    pinned = ring.keys.get(key_id(key))
    if pinned is None or public_key_hex(pinned.public_key) != public_key_hex(key):
        raise FairnessError(
            f"--public-key: key {key_id(key)} is not one of {ring.source} ({ring.ids()}): "
            "nothing ties those keys to the one you saved"
        )
    return Keyring(list(ring.keys.values()), f"{ring.source}, pinned by --public-key")


def _hashes(values: Any, option: str) -> list[bytes]:
    if not isinstance(values, list):
        raise FairnessError(f"{option}: proof must be a list of hex hashes")
    return [bytes.fromhex(check_hex(value, f"{option}: proof hash")) for value in values]


def _tree_checks(
    tree: dict[str, Any], key: Any, entries: list[dict[str, Any]] | None
) -> tuple[list[str], list[dict[str, Any]]]:
    """The saved checkpoint, the newer one and the consistency proof between them, the
    inclusion proofs, and (given the log's ``entries``) the log's Merkle root at the saved
    size. Returns (notes, the entries proven included); raises FairnessError with the
    refusal line."""
    saved = _read_checkpoint(tree["checkpoint"], "--checkpoint", key)
    roots = {saved.size: saved.root}
    notes = [f"the saved checkpoint: {saved.origin}, size {saved.size}"]
    if key is None:
        notes.append("checkpoint signatures not checked: give --public-key")
    if tree["new_checkpoint"] is not None:
        newer = _read_checkpoint(tree["new_checkpoint"], "--new-checkpoint", key)
        if newer.origin != saved.origin:
            raise FairnessError(
                f"--new-checkpoint: of the log {newer.origin!r}, not {saved.origin!r}"
            )
        proof = _read_json(tree["consistency"], "--consistency")
        if not isinstance(proof, dict) or proof.get("format") != "trix-consistency/1":
            raise FairnessError("--consistency: not a trix-consistency/1 object")
        if (proof.get("first"), proof.get("second")) != (saved.size, newer.size):
            raise FairnessError(
                f"--consistency: a proof from size {proof.get('first')} to "
                f"{proof.get('second')}; the checkpoints have sizes {saved.size} and "
                f"{newer.size}"
            )
        hashes = _hashes(proof.get("proof"), "--consistency")
        try:
            merkle.verify_consistency(saved.size, newer.size, hashes, saved.root, newer.root)
        except merkle.MerkleError as error:
            raise FairnessError(f"--consistency: {error}") from None
        roots[newer.size] = newer.root
        notes.append(
            f"the newer checkpoint (size {newer.size}) extends the saved one: nothing in the "
            f"first {saved.size} entries changed"
        )
    proven = []
    for path in tree["inclusions"]:
        proof = _read_json(path, "--inclusion")
        if not isinstance(proof, dict) or proof.get("format") != "trix-inclusion/1":
            raise FairnessError(f"--inclusion {path}: not a trix-inclusion/1 object")
        index, size = proof.get("index"), proof.get("size")
        if size not in roots or type(size) is not int:
            raise FairnessError(
                f"--inclusion {path}: a proof in the tree of {size} entries; the checkpoints "
                f"have sizes {', '.join(map(str, sorted(roots)))}"
            )
        entry = check_entry(proof.get("entry"), f"--inclusion {path}: entry")
        if entry["index"] != index:
            raise FairnessError(f"--inclusion {path}: the entry is not at index {index}")
        hashes = _hashes(proof.get("proof"), f"--inclusion {path}")
        try:
            merkle.verify_inclusion(entry_leaf_hash(entry), index, size, hashes, roots[size])
        except merkle.MerkleError as error:
            raise FairnessError(f"--inclusion {path}: {error}") from None
        proven.append(entry)
    if entries is not None:
        if saved.size > len(entries):
            raise FairnessError(
                f"--checkpoint: the saved checkpoint covers {saved.size} entries, the log has "
                f"only {len(entries)}: entries were removed"
            )
        named = _checkpoint_key(saved)[0]
        if key is not None and named is not None:
            _not_older(key, named, entries, saved.size, "--checkpoint")
        leaves = [entry_leaf_hash(entry) for entry in entries[: saved.size]]
        if merkle.tree_root(leaves) != saved.root:
            raise FairnessError(
                f"--checkpoint: the Merkle root of the log's first {saved.size} entries is not "
                "the saved checkpoint's root: the log was rewritten"
            )
        notes.append(f"the log's first {saved.size} entries have the saved checkpoint's root")
    return notes, proven


def _proven_notes(proven: list[dict[str, Any]], records: list[Any]) -> list[str]:
    """Each entry proven included must be the records' receipt, one of their deal records or
    their match's bots' seed (whose bots' moves are then replayed): the notes, or
    FairnessError naming the entry that is not."""
    receipts = {}
    deals = {}
    for record in records:
        shuffle = record.get("shuffle") or {}
        if "receipt" in shuffle:
            receipts[shuffle["receipt"]["match_id"]] = shuffle
        deals[f"{shuffle.get('match_id')}/{shuffle.get('deal_number')}"] = record
    notes = []
    for entry in proven:
        body, where = entry["body"], f"--inclusion: entry {entry['index']}"
        if entry["kind"] == "match-receipt":
            match_id = body["receipt"]["match_id"]
            mine = receipts.get(match_id)
            if mine is None:
                raise FairnessError(f"{where}: the receipt of match {match_id!r}, not of these")
            if receipt_hash(body["receipt"]) != receipt_hash(mine["receipt"]) or body[
                "signature"
            ] != mine.get("signature"):
                raise FairnessError(
                    f"{where}: the log holds another receipt for match {match_id!r} than the "
                    "records'"
                )
            notes.append(f"the receipt of match {match_id!r} is entry {entry['index']}: proven")
        elif entry["kind"] == "deal-record":
            deal = f"{body['match_id']}/{body['deal_number']}"
            if deal not in deals:
                raise FairnessError(f"{where}: the deal-record of {deal}, not of these records")
            if sha256_hex(deals[deal]) != body["record_hash"]:
                raise FairnessError(
                    f"{where}: the log's record_hash of deal {deal} is not the record's: its "
                    "contract, plays or scores differ from the deal logged"
                )
            notes.append(f"deal {deal} is entry {entry['index']}: proven")
        elif entry["kind"] == "bot-seed" and body["match_id"] in receipts:
            notes.append(_proven_bots(entry, receipts[body["match_id"]], records))
        else:
            raise FairnessError(f"{where}: a {entry['kind']} entry, not of these records")
    return notes


def _proven_bots(entry: dict[str, Any], first: dict[str, Any], records: list[Any]) -> str:
    """A ``bot-seed`` entry proven included, of the match whose first record's shuffle is
    ``first``: every bot move of the match's ``records`` replayed from it
    (``verify_log.bot_moves``). The note, or FairnessError with the first mismatch."""
    match_id = entry["body"]["match_id"]
    where = f"--inclusion: entry {entry['index']}"
    if "bot_play" not in first["receipt"]:
        raise FairnessError(f"{where}: a bots' seed of match {match_id!r}, whose receipt has none")
    mine = [record for record in records if _receipt_of(record) == first["receipt"]]
    problems, done = bot_moves(mine, first, {("bot-seed", match_id): entry})
    if problems:
        raise FairnessError(f"{where}: {problems[0]}")
    return (
        f"the bots' seed of match {match_id!r} is entry {entry['index']}: proven; "
        + replayed_note(first["receipt"], done)
    )


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
        tree["new_checkpoint"] or tree["consistency"] or tree["inclusions"]
    ):
        print("--new-checkpoint, --consistency, --inclusion: give --checkpoint too", file=stderr)
        return 2
    if (tree["new_checkpoint"] is None) != (tree["consistency"] is None):
        print("--new-checkpoint and --consistency go together", file=stderr)
        return 2
    checks = dict(checks)
    keys = checks.pop("keys")
    try:
        entries, key, head_note = _log_and_head(log, head, checks["public_key"], keys)
        checks["public_key"] = key
        tree_notes, proven = (
            _tree_checks(tree, key, entries[0] if entries else None)
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
        problems = _receipts_in_their_keys_time(key, entries[0], records)
    if problems:
        for line in problems:
            print(line, file=stderr)
        return 1
    try:
        tree_notes += _proven_notes(proven, records)
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
    """(mismatches, the deal records, the notes on draw records) of what ``_load`` read."""
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
    for name, record in _flattened(loaded):
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
        found, summary, checked = _draw_problems(draw, None, log, [d for _, d in deals])
        problems.extend(f"{name}: {line}" for line in found)
        if summary is not None:
            notes += _draw_notes(summary, checked, log is not None)
    return problems, [record for _, record in deals], notes


def _flattened(loaded: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
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
