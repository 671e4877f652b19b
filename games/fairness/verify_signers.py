"""Which keys ``trix verify`` checks signatures with (``--public-key``, ``--keys`` and the
log's ``signing-key`` entries, docs/fairness.md section 9b), and the signed things it reads
with them: a saved log head and a saved checkpoint. Each refusal is a ``FairnessError`` with
its one line. No Django."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.fairness import merkle
from games.fairness.canonical import loads as strict_loads
from games.fairness.errors import FairnessError
from games.fairness.receipt import (
    check_hex,
    check_signature,
    checkpoint_signed,
    key_id,
    load_public_key,
    public_key_hex,
)
from games.fairness.signing_keys import Key, Keyring, keyring_from_document, keyring_from_log
from games.fairness.transparency import HEAD_FORMAT, find_receipt, log_head, verify_log
from games.fairness.verify_files import load_log, read_json, read_text, receipt_of
from games.fairness.witness import cosignature_time


def log_and_head(
    log: str | None, head: str | None, public_key: Any, keys: str | None
) -> tuple[tuple[list[dict[str, Any]], str] | None, Keyring | None, str | None]:
    """The saved log (its entries, checked from entry 0, and head hash; None without
    ``log``), the keys signatures are checked with (:func:`keyring`: ``public_key``, among
    ``keys`` or the log's) and the note on the saved ``head``; raises FairnessError with the
    refusal line."""
    listed = keyring_from_document(read_json(keys, "--keys")) if keys is not None else None
    entries = load_log(log) if log is not None else None
    ring = keyring(public_key, listed, entries[0] if entries else None)
    return entries, ring, check_head(head, entries[0], ring) if head is not None else None


def check_head(path: str, entries: list[dict[str, Any]], key: Any) -> str:
    """A log head saved earlier (``/fairness/log-head.json``) against the log now: the log's
    first ``size`` entries must hash to it (and, given ``key``, its signature must be valid).
    Returns the note line; raises FairnessError with the refusal line."""
    try:
        saved = strict_loads(read_text(path))
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
                signer = any_signer(key, log_head(size, head), saved["signature"])
            else:
                signer = key.key(named, None, "--head")
            check_signature(log_head(size, head, named), saved["signature"], signer.public_key)
        except FairnessError as error:
            raise FairnessError(f"--head: signature: {error}") from None
        not_older(key, signer.key_id, entries, size, "--head")
    return f"the saved head (size {size}) is the head of the log's first {size} entries"


def read_checkpoint(path: str, option: str, key: Any) -> merkle.Checkpoint:
    """A saved checkpoint (a C2SP signed note); given ``key``, one of its signature lines
    must be the key's (the origin as the key name) and valid."""
    try:
        note = read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        raise FairnessError(f"{option}: cannot read {path}: {error}") from None
    try:
        text, signatures = merkle.parse_signed_note(note)
        checkpoint = merkle.parse_checkpoint(text)
    except merkle.MerkleError as error:
        raise FairnessError(f"{option}: not a signed checkpoint: {error}") from None
    if key is None:
        return checkpoint
    named, at = checkpoint_key(checkpoint)
    signer = key.key(named, at, option)
    signed = checkpoint_signed(text, signatures, checkpoint.origin, signer.public_key)
    if signed is None:
        raise FairnessError(f"{option}: no signature by key {signer.key_id} ({checkpoint.origin})")
    if not signed:
        raise FairnessError(f"{option}: its signature is not valid under key {signer.key_id}")
    return checkpoint


def any_signer(ring: Keyring, payload: dict[str, Any], signature: Any) -> Key:
    """The key of ``ring`` whose signature of ``payload`` ``signature`` is (a head that
    names no key: any of the site's keys may have signed it). Raises FairnessError."""
    for name in ring.order:
        try:
            check_signature(payload, signature, ring.keys[name].public_key)
        except FairnessError:
            continue
        return ring.keys[name]
    raise FairnessError(f"it names no key and is valid under none of {ring.ids()}")


def not_older(ring: Keyring, signer: str, entries: list[dict[str, Any]], size: int, what: str):
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


def receipts_in_their_keys_time(
    ring: Keyring, entries: list[dict[str, Any]], records: list[Any]
) -> list[str]:
    """With the log: each receipt's entry was appended while the key it names was the
    site's (after that key's ``signing-key`` entry, the first key's from entry 0, and before
    the next key's): a retired key's signature dated inside its period but logged after it
    is refused."""
    problems, seen = [], set()
    for record in records:
        receipt = receipt_of(record)
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


def checkpoint_key(checkpoint: merkle.Checkpoint) -> tuple[str | None, str | None]:
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


def keyring(key: Any, keys: Any, entries: list[dict[str, Any]] | None) -> Keyring | None:
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


def witness_keys(items: Sequence[str], quorum: int | None) -> dict[str, Any]:
    """``--witness NAME=KEY`` (repeatable) as ``{name: public key}`` and ``--witnesses N``
    checked against them; FairnessError with the one-line message (exit 2)."""
    keys: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name or " " in name or name in keys:
            raise FairnessError(f"--witness {item!r}: give NAME=KEY, each name once")
        try:
            keys[name] = load_public_key(text)
        except (FairnessError, ValueError):
            raise FairnessError(f"--witness {name}: the key is not 64 hex digits or PEM") from None
    if quorum is not None and not (keys and 1 <= quorum <= len(keys)):
        raise FairnessError(f"--witnesses: 1 to the {len(keys)} witnesses given with --witness")
    return keys


def witnessed(path: str, option: str, keys: dict[str, Any], quorum: int) -> str:
    """The note line on the checkpoint saved in ``path``: cosigned by at least ``quorum`` of
    the witnesses ``keys`` (``games.fairness.witness``). Raises FairnessError otherwise."""
    note = read_text(path)
    found = []
    for name, key in keys.items():
        try:
            if cosignature_time(note, name=name, public_key=key) is not None:
                found.append(name)
        except FairnessError as error:
            raise FairnessError(f"{option}: {error}") from None
    said = ", ".join(found) or "none"
    if len(found) < quorum:
        raise FairnessError(
            f"{option}: cosigned by {len(found)} of the {len(keys)} witnesses given ({said}); "
            f"{quorum} required: a checkpoint the witnesses did not see may be a split view"
        )
    return f"{option[2:]} cosigned by {len(found)} of the {len(keys)} witnesses given: {said}"
