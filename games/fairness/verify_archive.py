"""``trix verify ARCHIVE.zip``: a day's auditor archive (``trix-archive/1``,
``games.fairness.archive``) checked in one command (docs/fairness.md, "The daily archive").

In order: the checkpoint's signature (by ``--public-key``, or the archive's keys, not pinned);
its root rebuilt from the frontier and the day's entries, with the two neighbouring entries
bounding the day; each earlier entry's inclusion proof; every entry admitted by the log's
rules; each match's records as ``trix verify --log`` checks them (its receipt, each deal's
record hash, every bot move); every deal logged on the day having its record; each
``match-payout`` reconciled with its match's records (``games.fairness.settlements``); each
draw record with its tables' matches and results (``games.fairness.verify_draws``).
Prints ``verified: ...`` and notes, or one line per mismatch. No Django."""

from __future__ import annotations

from typing import Any, TextIO

from games.fairness import archive, merkle, settlements
from games.fairness.draw import ALGORITHM as DRAW_FORMAT
from games.fairness.errors import FairnessError
from games.fairness.receipt import checkpoint_signed
from games.fairness.signing_keys import keyring_from_document
from games.fairness.transparency import check_payout, logged
from games.fairness.verify import verify_match
from games.fairness.verify_draws import draw_notes, draw_problems
from games.fairness.verify_signers import (
    checkpoint_key,
    keyring,
    not_older,
    receipts_in_their_keys_time,
)


def _checkpoint(note: str) -> tuple[str, list, merkle.Checkpoint]:
    try:
        text, signatures = merkle.parse_signed_note(note)
        return text, signatures, merkle.parse_checkpoint(text)
    except merkle.MerkleError as error:
        raise FairnessError(f"{archive.CHECKPOINT}: not a signed checkpoint: {error}") from None


def _signed(ring: Any, text: str, signatures: list, checkpoint: merkle.Checkpoint) -> str:
    """The checkpoint signed by the key it names, one of ``ring``: its key id."""
    named, at = checkpoint_key(checkpoint)
    signer = ring.key(named, at, archive.CHECKPOINT)
    signed = checkpoint_signed(text, signatures, checkpoint.origin, signer.public_key)
    if not signed:
        raise FairnessError(
            f"{archive.CHECKPOINT}: no valid signature by key {signer.key_id} ({checkpoint.origin})"
        )
    return signer.key_id


def _matches(read: archive.Archive) -> tuple[dict[str, list[Any]], list[str]]:
    """match id -> its records (each records file one match's list), and the problems of
    files that are not."""
    matches: dict[str, list[Any]] = {}
    problems = []
    for name, records in read.records.items():
        try:
            match_id = records[0]["shuffle"]["match_id"]
            if not isinstance(match_id, str) or match_id in matches:
                raise TypeError
        except (TypeError, KeyError, IndexError, AttributeError):
            problems.append(f"{name}: not one match's list of deal records")
            continue
        matches[match_id] = records
    return matches, problems


def check(read: archive.Archive, public_key: Any) -> tuple[list[str], list[str]]:
    """(problems, notes) of an archive: the problems empty when it verifies."""
    text, signatures, checkpoint = _checkpoint(read.checkpoint)
    if checkpoint.size != read.size:
        raise FairnessError(
            f"{archive.CHECKPOINT}: of {checkpoint.size} entries, the archive says {read.size}"
        )
    proven = archive.proven_entries(read, checkpoint.root)
    listed = keyring_from_document(read.keys, archive.KEYS)
    try:
        ring = keyring(public_key, listed, proven)
    except FairnessError as error:  # it names the option the list comes from elsewhere
        raise FairnessError(str(error).replace("--keys:", f"{archive.KEYS}:", 1)) from None
    signer = _signed(ring, text, signatures, checkpoint)
    not_older(ring, signer, proven, read.size, archive.CHECKPOINT)
    day = [e for e in proven if read.first <= e["index"] < read.end]
    span = f"log entries {read.first} to {read.end - 1}" if day else "no log entry"
    notes = [
        f"{read.day}: {span}, the whole day: the checkpoint of the log's first {read.size} "
        f"entries is signed by key {signer} ({ring.source})",
    ]
    matches, problems = _matches(read)
    for match_id, records in sorted(matches.items()):
        lines = verify_match(
            records, public_key=ring, require_receipt=True, partial=True, log=proven
        )
        problems += [f"match {match_id}: {line}" for line in lines]
    deals = [r for records in matches.values() for r in records]
    if not problems:  # each receipt logged while the key it names was the site's
        problems += receipts_in_their_keys_time(ring, proven, deals)
    given = set()
    for records in matches.values():
        for record in records:
            shuffle = record.get("shuffle") if isinstance(record, dict) else None
            if isinstance(shuffle, dict) and type(shuffle.get("deal_number")) is int:
                given.add((shuffle.get("match_id"), shuffle["deal_number"]))
    for entry in day:
        body = entry["body"]
        if entry["kind"] == "deal-record" and (body["match_id"], body["deal_number"]) not in given:
            problems.append(
                f"deal {body['match_id']}/{body['deal_number']} is logged on the day (entry "
                f"{entry['index']}), but the archive has no record of it"
            )
    if problems:
        return problems, notes
    payouts = [e for e in day if e["kind"] == "match-payout"]
    index = logged(proven)
    for entry in payouts:
        match_id = entry["body"]["match_id"]
        receipt = index.get(("match-receipt", match_id))
        try:
            check_payout(entry["body"], f"log entry {entry['index']}")
            notes.append(
                settlements.reconcile(
                    entry,
                    receipt["body"]["receipt"] if receipt else None,
                    matches.get(match_id, []),
                )
            )
        except FairnessError as error:
            problems.append(str(error))
    # Each event's payout of the day: its prizes, or its fees back.
    prizes = {e["body"]["event"]: e for e in day if e["kind"] == "event-payout"}
    named, drawn = set(), set()
    for name, record in sorted(read.draws.items()):
        if not isinstance(record, dict) or record.get("format") != DRAW_FORMAT:
            problems.append(f"{name}: not a {DRAW_FORMAT} record")
            continue
        named.add(record.get("event"))
        found, summary, checked = draw_problems(record, None, proven, deals)
        problems += [f"{name}: {line}" for line in found]
        if summary is None:
            continue
        drawn.add(summary["event"])
        notes += draw_notes(summary, checked, True)
        if summary["event"] in prizes and checked != summary["bound"]:
            problems.append(
                f"{name}: {summary['bound'] - checked} of its {summary['bound']} tables' "
                "matches have no records in the archive, though it holds every match of an "
                "event paid out on the day"
            )
    for event, entry in sorted(prizes.items()):
        result = entry["body"]["reason"] == "result"
        if result and event not in named:
            problems.append(
                f"event {event} paid its prizes on the day (entry {entry['index']}), but the "
                "archive has no draw record of it"
            )
        if result and ("tables-commitment", event) in index and ("tables-key", event) not in index:
            problems.append(
                f"event {event} paid its prizes on the day, but the archive lacks its "
                "tables-key entry (logged when its last table ended): its tables' commitments "
                "cannot be checked"
            )
        body = entry["body"]
        notes.append(
            f"event {event}: {sum(body['stakes'].values())} "
            + (
                f"paid out as prizes to {len(body['payouts'])} entrant(s), house fee "
                f"{body['house_fee']}: the amounts by the prize table are not recomputed (the "
                "draw record does not carry it; the site's ledger_check confirms them)"
                if result
                else "given back, every fee"
            )
        )
    notes.append(
        f"checked: {len(matches)} match(es) with records ({len(deals)} deal records), "
        f"{len(payouts)} match payout(s) reconciled, {len(drawn)} draw(s), "
        f"{len(prizes)} event payout(s)"
    )
    return problems, notes


def verify_archive_cli(path: str, stdout: TextIO, stderr: TextIO, public_key: Any = None) -> int:
    """Check the archive at ``path`` (``public_key``: the site's key you saved, which must
    sign its checkpoint or endorse the key that did). Prints ``verified: trix-archive/1 DAY``
    and ``note:`` lines and returns 0, or one line per problem on ``stderr`` and 1."""
    try:
        read = archive.read(path)
        problems, notes = check(read, public_key)
    except FairnessError as error:
        print(f"{archive.FORMAT}: {error}", file=stderr)
        return 1
    if problems:
        for line in problems:
            print(f"{archive.FORMAT}: {line}", file=stderr)
        return 1
    print(f"verified: {archive.FORMAT} {read.day}", file=stdout)
    if public_key is None:
        notes.append(
            "the keys are the archive's own, so anyone could have made it: give --public-key, "
            "the site's key you saved, to know the site signed it (that the site showed "
            "everyone this history takes a witness's cosignature, section 9c)"
        )
    for note in notes:
        print(f"note: {note}", file=stdout)
    return 0
