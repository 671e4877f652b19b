"""A witness of the transparency log: it cosigns a checkpoint only if that checkpoint's tree
extends the last one it cosigned, so a log that shows different histories to different
people (a split view, a fork) is caught by any witness that saw both (``docs/fairness.md``,
"Witnesses").

Cosignatures are C2SP ``tlog-cosignature`` v1 (``https://c2sp.org/tlog-cosignature``),
Ed25519: a signed-note signature line ``"\\u2014 <witness name> base64(key id (4 bytes) ||
timestamp (8 bytes, big-endian POSIX seconds) || Ed25519 signature (64 bytes))"`` over the
message ``"cosignature/v1\\n" || "time <timestamp>\\n" || the checkpoint's note text`` (its
lines and final newline, no signature line). The key id is the first four bytes of
``SHA-256(<name> || 0x0A || 0x04 || 32-byte public key)``.

A witness keeps its state (:class:`WitnessState`: the log's origin and key, and the size and
root it last cosigned) and moves it only forward (:func:`witness_checkpoint`). Standard
library and ``cryptography`` only; the fetching is the caller's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from games.fairness import merkle
from games.fairness.errors import FairnessError
from games.fairness.receipt import checkpoint_signed, load_public_key, public_key_hex

HEADER = "cosignature/v1"
ED25519_COSIGNATURE = b"\x04"  # the key id's signature type byte (tlog-cosignature)


def key_id(name: str, public_key: Ed25519PublicKey | Ed25519PrivateKey) -> bytes:
    """The 4-byte key id of a witness ``name`` and its Ed25519 key."""
    raw = bytes.fromhex(public_key_hex(public_key))
    return hashlib.sha256(name.encode() + b"\n" + ED25519_COSIGNATURE + raw).digest()[:4]


def message(note_text: str, timestamp: int) -> bytes:
    """What a cosignature signs: the header line, the time line and the note text."""
    return f"{HEADER}\ntime {timestamp}\n{note_text}".encode()


def cosign(note_text: str, *, name: str, key: Ed25519PrivateKey, timestamp: int) -> str:
    """The cosignature line (newline included) of the checkpoint ``note_text`` by the witness
    ``name`` with ``key`` at ``timestamp`` (POSIX seconds)."""
    if not 0 <= timestamp < 2**63:
        raise FairnessError("a cosignature's time is 0 .. 2^63 - 1 POSIX seconds")
    signature = key.sign(message(note_text, timestamp))
    raw = key_id(name, key) + timestamp.to_bytes(8, "big") + signature
    return merkle.signature_line(name, raw[:4], raw[4:])


def cosignature_time(note: str, *, name: str, public_key: Ed25519PublicKey | str) -> int | None:
    """The time (POSIX seconds) of the witness ``name``'s valid cosignature of the signed note
    ``note``, or None when it holds none by that key (a line by another key or an invalid
    one is no cosignature of this witness). Raises FairnessError for a malformed note."""
    key = load_public_key(public_key) if isinstance(public_key, str) else public_key
    try:
        text, signatures = merkle.parse_signed_note(note)
    except merkle.MerkleError as error:
        raise FairnessError(f"not a signed note: {error}") from None
    wanted = key_id(name, key)
    for signer, hash_, rest in signatures:
        if signer != name or hash_ != wanted or len(rest) != 8 + 64:
            continue
        timestamp = int.from_bytes(rest[:8], "big")
        try:
            key.verify(rest[8:], message(text, timestamp))
        except InvalidSignature:
            continue
        return timestamp
    return None


@dataclass(frozen=True)
class WitnessState:
    """What a witness remembers of one log: its ``origin``, the log's public key
    (``log_key``, 64 hex, pinned at the first run), and the ``size`` and ``root`` (64 hex)
    of the last tree it cosigned (0 and the empty tree's root before the first)."""

    origin: str
    log_key: str
    size: int = 0
    root: str = merkle.EMPTY_ROOT.hex()

    def dumps(self) -> str:
        return json.dumps({"format": "trix-witness-state/1", **asdict(self)}, indent=1) + "\n"

    @classmethod
    def loads(cls, text: str) -> WitnessState:
        data = json.loads(text)
        if not isinstance(data, dict) or data.pop("format", None) != "trix-witness-state/1":
            raise FairnessError("not a trix-witness-state/1 file")
        try:
            state = cls(**data)
        except TypeError:
            raise FairnessError("a witness state has origin, log_key, size and root") from None
        size, root = state.size, state.root
        if type(size) is not int or size < 0 or not isinstance(root, str) or len(root) != 64:
            raise FairnessError("a witness state's size is a whole number, its root 64 hex")
        bytes.fromhex(root)
        if not isinstance(state.origin, str) or not state.origin:
            raise FairnessError("a witness state names its log's origin")
        load_public_key(state.log_key)
        return state


def _log_signed(note: str, state: WitnessState) -> tuple[str, merkle.Checkpoint]:
    """The note text and checkpoint of ``note`` if the log's pinned key signed it."""
    try:
        text, signatures = merkle.parse_signed_note(note)
        checkpoint = merkle.parse_checkpoint(text)
    except merkle.MerkleError as error:
        raise FairnessError(f"not a checkpoint: {error}") from None
    if checkpoint.origin != state.origin:
        raise FairnessError(
            f"a checkpoint of {checkpoint.origin!r}, not of the log {state.origin!r} this "
            "witness follows"
        )
    if checkpoint_signed(text, signatures, state.origin, load_public_key(state.log_key)):
        return text, checkpoint
    raise FairnessError(
        "the checkpoint is not signed by the log's key this witness pinned "
        f"({state.log_key[:16]}...): a key the site rotated to is pinned again by hand"
    )


def witness_checkpoint(
    state: WitnessState,
    note: str,
    consistency: Callable[[int, int], Sequence[bytes]],
    *,
    name: str,
    key: Ed25519PrivateKey,
    timestamp: int,
) -> tuple[WitnessState, str]:
    """Cosign the log's signed checkpoint ``note`` if its tree extends the last one this
    witness cosigned (``state``): the log's key signed it, its size is not smaller, and the
    consistency proof ``consistency(old size, new size)`` (hashes) holds from the old root
    to the new (equal sizes: equal roots). Returns (the new state, the cosignature line).
    Raises FairnessError naming the refusal (a fork: two trees the log signed, neither
    extending the other), the state left as it was."""
    text, checkpoint = _log_signed(note, state)
    old_root = bytes.fromhex(state.root)
    if checkpoint.size < state.size:
        raise FairnessError(
            f"fork: the log now shows {checkpoint.size} entries; this witness cosigned "
            f"{state.size}: a log only grows"
        )
    proof = (
        []
        if checkpoint.size == state.size or state.size == 0
        else consistency(state.size, checkpoint.size)
    )
    try:
        merkle.verify_consistency(state.size, checkpoint.size, proof, old_root, checkpoint.root)
    except merkle.MerkleError as error:
        raise FairnessError(
            f"fork: the log's tree of {checkpoint.size} entries does not extend the tree of "
            f"{state.size} this witness cosigned ({error})"
        ) from None
    new = WitnessState(state.origin, state.log_key, checkpoint.size, checkpoint.root.hex())
    return new, cosign(text, name=name, key=key, timestamp=timestamp)
