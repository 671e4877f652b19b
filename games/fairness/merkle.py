"""The transparency log's Merkle tree: RFC 9162 (Certificate Transparency v2) hashing, tree
shape and proofs, and its signed checkpoints in the C2SP ``tlog-checkpoint`` signed-note
format (``docs/fairness.md``, "The Merkle tree and checkpoints").

Hashing (RFC 9162 section 2.1.1): a leaf's hash is ``SHA-256(0x00 || leaf bytes)``, an inner
node's ``SHA-256(0x01 || left || right)``, the empty tree's ``SHA-256("")``. The tree over
``n > 1`` leaves splits at ``k``, the largest power of two smaller than ``n``: the left
subtree holds the first ``k`` leaves, the right one the rest. So every subtree of the tree of
size ``n`` is a run of perfect, aligned subtrees (``k`` leaves from a multiple of ``k``, ``k``
a power of two), folded from the right (:func:`range_hash`): a site that stores each perfect
subtree's hash once, when it is completed, computes a root or a proof from ``O(log n)`` of
them (:func:`subtrees`).

Proofs: an inclusion proof (RFC 9162 section 2.1.3) shows a leaf is at its index in the tree
of a given size; a consistency proof (section 2.1.4) shows the tree of one size is the first
leaves of the tree of a larger size (nothing before it changed, removed or reordered).
:func:`inclusion_ranges` and :func:`consistency_ranges` name the subtrees a proof's hashes
cover, in the proof's order; :func:`verify_inclusion` and :func:`verify_consistency` are the
RFC's verification algorithms.

Checkpoints (``https://c2sp.org/tlog-checkpoint``, ``https://c2sp.org/signed-note``): the note
text is the origin line, the tree size in decimal, the base64 root hash, then extension lines,
each ending in a newline; a blank line; then one signature line per signer, ``"\\u2014 "``,
the key name, a space and the base64 of the 4-byte key hash and the signature. An Ed25519 key
hash is the first four bytes of ``SHA-256(name || 0x0A || 0x01 || 32-byte public key)``.

Standard library only (signing and checking the Ed25519 signature are the caller's).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "EMPTY_ROOT",
    "Checkpoint",
    "extended_root",
    "MerkleError",
    "consistency_ranges",
    "ed25519_key_hash",
    "format_checkpoint",
    "inclusion_ranges",
    "leaf_hash",
    "node_hash",
    "parse_checkpoint",
    "parse_signed_note",
    "range_hash",
    "signature_line",
    "subtrees",
    "tree_root",
    "verify_consistency",
    "verify_inclusion",
]

EMPTY_ROOT = hashlib.sha256(b"").digest()
"""The root of the empty tree (RFC 9162 section 2.1.1)."""

SubtreeHash = Callable[[int, int], bytes]
"""``subtree(start, size)``: the hash of the perfect subtree of ``size`` leaves (a power of
two) from leaf ``start`` (a multiple of ``size``)."""


class MerkleError(ValueError):
    """A malformed proof, checkpoint or note, or one that does not verify."""


def leaf_hash(data: bytes) -> bytes:
    """``SHA-256(0x00 || data)``: the hash of a leaf holding ``data``."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``: the hash of an inner node."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n > 1``)."""
    return 1 << ((n - 1).bit_length() - 1)


def subtrees(lo: int, hi: int) -> list[tuple[int, int]]:
    """The perfect subtrees ``(start, size)`` that make up the leaves ``lo..hi-1`` of a
    subtree of the RFC 9162 tree, left to right (``lo`` is then a multiple of a power of two
    at least ``hi - lo``, as in every range :func:`inclusion_ranges` and
    :func:`consistency_ranges` name, and in ``0..n-1``)."""
    parts = []
    while lo < hi:
        size = 1 << ((hi - lo).bit_length() - 1)
        parts.append((lo, size))
        lo += size
    return parts


def range_hash(subtree: SubtreeHash, lo: int, hi: int) -> bytes:
    """The hash of the subtree over leaves ``lo..hi-1`` (``EMPTY_ROOT`` when empty), from
    the hashes of its perfect subtrees folded from the right."""
    parts = [subtree(start, size) for start, size in subtrees(lo, hi)]
    if not parts:
        return EMPTY_ROOT
    result = parts[-1]
    for part in reversed(parts[:-1]):
        result = node_hash(part, result)
    return result


def tree_root(leaves: Sequence[bytes]) -> bytes:
    """The root of the tree over the leaf hashes ``leaves`` (RFC 9162 ``MTH``), computed from
    all of them: for tests and small trees (a site stores subtree hashes instead)."""

    def subtree(start: int, size: int) -> bytes:
        if size == 1:
            return leaves[start]
        half = size // 2
        return node_hash(subtree(start, half), subtree(start + half, half))

    return range_hash(subtree, 0, len(leaves))


def extended_root(frontier: Sequence[bytes], start: int, leaves: Sequence[bytes]) -> bytes:
    """The root of the tree of ``start + len(leaves)`` leaves from the hashes of the perfect
    subtrees that make up its first ``start`` leaves (``frontier``, one per
    ``subtrees(0, start)``, left to right) and the hashes of the leaves after them. A day's
    archive proves its entries are leaves ``start..`` of a signed tree this way, without the
    leaves before them. MerkleError when ``frontier`` has not one hash per subtree."""
    _check_size(start, "start")
    ranges = subtrees(0, start)
    if len(frontier) != len(ranges):
        raise MerkleError(
            f"the first {start} leaves are {len(ranges)} perfect subtrees, not {len(frontier)}"
        )
    known = {
        part: _check_hash(h, "frontier hash") for part, h in zip(ranges, frontier, strict=True)
    }

    def subtree(lo: int, size: int) -> bytes:
        if (lo, size) in known:
            return known[(lo, size)]
        if lo >= start:
            if size == 1:
                return leaves[lo - start]
            return tree_root(leaves[lo - start : lo - start + size])
        half = size // 2  # a subtree across leaf ``start``: never inside a frontier one
        return node_hash(subtree(lo, half), subtree(lo + half, half))

    return range_hash(subtree, 0, start + len(leaves))


def _check_size(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MerkleError(f"{name} must be a whole number from 0")
    return value


def inclusion_ranges(index: int, size: int) -> list[tuple[int, int]]:
    """The leaf ranges ``(lo, hi)`` whose subtree hashes, in this order, are the inclusion
    proof of leaf ``index`` in the tree of ``size`` leaves (RFC 9162 section 2.1.3.1,
    ``PATH``). MerkleError unless ``0 <= index < size``."""
    _check_size(index, "index")
    _check_size(size, "size")
    if index >= size:
        raise MerkleError(f"index {index} is not in a tree of {size} leaves")
    ranges: list[tuple[int, int]] = []
    lo, hi = 0, size
    while hi - lo > 1:
        k = _split(hi - lo)
        if index < lo + k:
            ranges.append((lo + k, hi))
            hi = lo + k
        else:
            ranges.append((lo, lo + k))
            lo = lo + k
    ranges.reverse()  # PATH lists the sibling nearest the leaf first
    return ranges


def consistency_ranges(first: int, second: int) -> list[tuple[int, int]]:
    """The leaf ranges whose subtree hashes, in this order, are the consistency proof from
    the tree of ``first`` leaves to the tree of ``second`` leaves (RFC 9162 section 2.1.4.1,
    ``PROOF`` and ``SUBPROOF``); empty when ``first`` is 0 or equal to ``second``.
    MerkleError unless ``0 <= first <= second``."""
    _check_size(first, "first")
    _check_size(second, "second")
    if first > second:
        raise MerkleError(f"a tree of {first} leaves cannot precede one of {second}")
    if first in (0, second):
        return []
    ranges: list[tuple[int, int]] = []
    m, lo, hi, whole = first, 0, second, True
    while m != hi - lo:
        k = _split(hi - lo)
        if m <= k:
            ranges.append((lo + k, hi))
            hi = lo + k
        else:
            ranges.append((lo, lo + k))
            m, lo, whole = m - k, lo + k, False
    if not whole:
        ranges.append((lo, hi))
    ranges.reverse()  # SUBPROOF lists the innermost subtree first
    return ranges


def _check_hash(value: object, name: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise MerkleError(f"{name} must be a 32-byte hash")
    return value


def verify_inclusion(
    leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes
) -> None:
    """Raise MerkleError unless ``proof`` shows the leaf hash ``leaf`` at ``index`` in the
    tree of ``size`` leaves whose root is ``root`` (RFC 9162 section 2.1.3.2)."""
    _check_size(index, "index")
    _check_size(size, "size")
    _check_hash(leaf, "leaf hash")
    _check_hash(root, "root hash")
    if index >= size:
        raise MerkleError(f"index {index} is not in a tree of {size} leaves")
    fn, sn, result = index, size - 1, leaf
    for number, hash_ in enumerate(proof):
        _check_hash(hash_, f"proof hash {number}")
        if sn == 0:
            raise MerkleError("the inclusion proof is too long")
        if fn & 1 or fn == sn:
            result = node_hash(hash_, result)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            result = node_hash(result, hash_)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise MerkleError("the inclusion proof is too short")
    if result != root:
        raise MerkleError(
            f"the inclusion proof of leaf {index} does not lead to the root of the tree of "
            f"{size} leaves: that leaf is not in that tree"
        )


def verify_consistency(
    first: int, second: int, proof: Sequence[bytes], first_root: bytes, second_root: bytes
) -> None:
    """Raise MerkleError unless ``proof`` shows the tree of ``first`` leaves with root
    ``first_root`` is the start of the tree of ``second`` leaves with root ``second_root``
    (RFC 9162 section 2.1.4.2; sizes 0 and equal sizes take an empty proof)."""
    _check_size(first, "first size")
    _check_size(second, "second size")
    _check_hash(first_root, "first root hash")
    _check_hash(second_root, "second root hash")
    for number, hash_ in enumerate(proof):
        _check_hash(hash_, f"proof hash {number}")
    if first > second:
        raise MerkleError(f"a tree of {first} leaves cannot precede one of {second}")
    if first == 0 or first == second:
        if proof:
            raise MerkleError("the consistency proof must be empty for these sizes")
        if first == 0 and first_root != EMPTY_ROOT:
            raise MerkleError("the root of an empty tree is SHA-256 of nothing")
        if first == second and first_root != second_root:
            raise MerkleError(f"two different roots for the tree of {first} leaves: the log forked")
        return
    if not proof:
        raise MerkleError("the consistency proof is empty")
    path = list(proof)
    if first & (first - 1) == 0:  # a power of two: the old root is the first node
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for hash_ in path[1:]:
        if sn == 0:
            raise MerkleError("the consistency proof is too long")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(hash_, fr), node_hash(hash_, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, hash_)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise MerkleError("the consistency proof is too short")
    if fr != first_root or sr != second_root:
        raise MerkleError(
            f"the tree of {first} leaves is not the start of the tree of {second} leaves: "
            "the log was rewritten or forked"
        )


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint's note text: the log's origin, its size, its root hash and any extension
    lines (each without its newline)."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()


def _check_line(value: object, name: str) -> str:
    if not isinstance(value, str) or not value or "\n" in value:
        raise MerkleError(f"{name} must be one non-empty line")
    return value


def format_checkpoint(checkpoint: Checkpoint) -> str:
    """The note text of ``checkpoint`` (each line ending in a newline), what is signed."""
    _check_line(checkpoint.origin, "origin")
    _check_size(checkpoint.size, "size")
    _check_hash(checkpoint.root, "root hash")
    lines = [checkpoint.origin, str(checkpoint.size), base64.b64encode(checkpoint.root).decode()]
    lines += [_check_line(line, "an extension line") for line in checkpoint.extensions]
    return "".join(line + "\n" for line in lines)


_SIZE = re.compile(r"0|[1-9][0-9]{0,19}")


def _b64(text: str, name: str) -> bytes:
    try:
        value = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise MerkleError(f"{name} is not standard base64") from None
    if base64.b64encode(value).decode("ascii") != text:
        raise MerkleError(f"{name} is not standard base64")
    return value


def parse_checkpoint(text: str) -> Checkpoint:
    """The checkpoint of a note text (origin, decimal size without leading zeros, base64 root
    of 32 bytes, extension lines). MerkleError for anything else."""
    if not isinstance(text, str) or not text.endswith("\n"):
        raise MerkleError("a checkpoint's text ends with a newline")
    lines = text[:-1].split("\n")
    if len(lines) < 3 or any(not line for line in lines):
        raise MerkleError("a checkpoint's text is at least three non-empty lines")
    origin, size, root, *extensions = lines
    if not _SIZE.fullmatch(size):
        raise MerkleError("a checkpoint's second line is its size in decimal")
    digest = _b64(root, "a checkpoint's root hash")
    if len(digest) != 32:
        raise MerkleError("a checkpoint's root hash is 32 bytes")
    return Checkpoint(origin, int(size), digest, tuple(extensions))


def ed25519_key_hash(name: str, public_key: bytes) -> bytes:
    """The signed-note key hash of an Ed25519 key (4 bytes): the first four bytes of
    ``SHA-256(name || 0x0A || 0x01 || public key)``."""
    _check_line(name, "key name")
    if " " in name or "+" in name:
        raise MerkleError("a key name has no space or '+'")
    return hashlib.sha256(name.encode() + b"\n\x01" + public_key).digest()[:4]


def signature_line(name: str, key_hash: bytes, signature: bytes) -> str:
    """One signed-note signature line, newline included: ``"\\u2014 name base64\\n"``."""
    _check_line(name, "key name")
    return f"\u2014 {name} {base64.b64encode(key_hash + signature).decode()}\n"


def parse_signed_note(note: str) -> tuple[str, list[tuple[str, bytes, bytes]]]:
    """``(text, [(key name, 4-byte key hash, signature), ...])`` of a signed note: the text
    up to the first blank line (its newline kept, what was signed), then at least one
    signature line. MerkleError for anything else."""
    if not isinstance(note, str):
        raise MerkleError("a signed note is text")
    text, blank, rest = note.partition("\n\n")
    if not blank or not rest.endswith("\n"):
        raise MerkleError("a signed note is its text, a blank line and signature lines")
    signatures = []
    for line in rest[:-1].split("\n"):
        dash, _, tail = line.partition(" ")
        name, _, encoded = tail.partition(" ")
        if dash != "\u2014" or not name or not encoded or " " in encoded:
            raise MerkleError("a signature line is '\u2014 <key name> <base64>'")
        raw = _b64(encoded, "a signature")
        if len(raw) < 5:
            raise MerkleError("a signature is a 4-byte key hash and the signature")
        signatures.append((name, raw[:4], raw[4:]))
    return text + "\n", signatures
