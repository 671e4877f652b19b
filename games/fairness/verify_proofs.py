"""The Merkle proofs ``trix verify`` checks (``--checkpoint``, ``--new-checkpoint``,
``--consistency``, ``--inclusion``, docs/fairness.md section 9a): a saved checkpoint against
the log, a newer one consistent with it, and each entry proven included being one of the
records given. No Django."""

from __future__ import annotations

from typing import Any

from games.fairness import merkle
from games.fairness.canonical import sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.receipt import check_hex, receipt_hash
from games.fairness.transparency import check_entry, entry_leaf_hash
from games.fairness.verify_files import read_json, receipt_of
from games.fairness.verify_log import bot_moves
from games.fairness.verify_notes import replayed_note
from games.fairness.verify_signers import (
    checkpoint_key,
    not_older,
    read_checkpoint,
    witnessed,
)


def _hashes(values: Any, option: str) -> list[bytes]:
    if not isinstance(values, list):
        raise FairnessError(f"{option}: proof must be a list of hex hashes")
    return [bytes.fromhex(check_hex(value, f"{option}: proof hash")) for value in values]


def tree_checks(
    tree: dict[str, Any], key: Any, entries: list[dict[str, Any]] | None
) -> tuple[list[str], list[dict[str, Any]]]:
    """The saved checkpoint, the newer one and the consistency proof between them, the
    inclusion proofs, and (given the log's ``entries``) the log's Merkle root at the saved
    size. Returns (notes, the entries proven included); raises FairnessError with the
    refusal line."""
    saved = read_checkpoint(tree["checkpoint"], "--checkpoint", key)
    roots = {saved.size: saved.root}
    notes = [f"the saved checkpoint: {saved.origin}, size {saved.size}"]
    if tree["witnesses"]:  # the newest checkpoint given: the one a witness could have seen
        newest = "--new-checkpoint" if tree["new_checkpoint"] else "--checkpoint"
        path = tree["new_checkpoint"] or tree["checkpoint"]
        notes.append(witnessed(path, newest, tree["witnesses"], tree["quorum"]))
    if key is None:
        notes.append("checkpoint signatures not checked: give --public-key")
    if tree["new_checkpoint"] is not None:
        newer = read_checkpoint(tree["new_checkpoint"], "--new-checkpoint", key)
        if newer.origin != saved.origin:
            raise FairnessError(
                f"--new-checkpoint: of the log {newer.origin!r}, not {saved.origin!r}"
            )
        proof = read_json(tree["consistency"], "--consistency")
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
        proof = read_json(path, "--inclusion")
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
        named = checkpoint_key(saved)[0]
        if key is not None and named is not None:
            not_older(key, named, entries, saved.size, "--checkpoint")
        leaves = [entry_leaf_hash(entry) for entry in entries[: saved.size]]
        if merkle.tree_root(leaves) != saved.root:
            raise FairnessError(
                f"--checkpoint: the Merkle root of the log's first {saved.size} entries is not "
                "the saved checkpoint's root: the log was rewritten"
            )
        notes.append(f"the log's first {saved.size} entries have the saved checkpoint's root")
    return notes, proven


def proven_notes(proven: list[dict[str, Any]], records: list[Any]) -> list[str]:
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
            notes.append(proven_bots(entry, receipts[body["match_id"]], records))
        else:
            raise FairnessError(f"{where}: a {entry['kind']} entry, not of these records")
    return notes


def proven_bots(entry: dict[str, Any], first: dict[str, Any], records: list[Any]) -> str:
    """A ``bot-seed`` entry proven included, of the match whose first record's shuffle is
    ``first``: every bot move of the match's ``records`` replayed from it
    (``verify_log.bot_moves``). The note, or FairnessError with the first mismatch."""
    match_id = entry["body"]["match_id"]
    where = f"--inclusion: entry {entry['index']}"
    if "bot_play" not in first["receipt"]:
        raise FairnessError(f"{where}: a bots' seed of match {match_id!r}, whose receipt has none")
    mine = [record for record in records if receipt_of(record) == first["receipt"]]
    problems, done = bot_moves(mine, first, {("bot-seed", match_id): entry})
    if problems:
        raise FairnessError(f"{where}: {problems[0]}")
    return (
        f"the bots' seed of match {match_id!r} is entry {entry['index']}: proven; "
        + replayed_note(first["receipt"], done)
    )
