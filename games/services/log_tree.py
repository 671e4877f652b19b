"""The transparency log's Merkle tree as the site stores it, and its signed checkpoints
(``games.fairness.merkle``, docs/fairness.md "The Merkle tree and checkpoints").

Each perfect subtree's hash is stored once, in :class:`~games.models.LogTreeNode`, when its
last entry is appended (:func:`add_nodes`, called by ``fairness_log.append`` in the entry's
transaction). A root, an inclusion proof or a consistency proof then reads ``O(log n)``
stored hashes (``O(log^2 n)`` at most for a proof), in one query, whatever the log's size.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db.models import Q

from games.fairness import merkle, transparency
from games.models import LogEntry, LogTreeNode

__all__ = [
    "add_nodes",
    "check",
    "checkpoint",
    "checkpoint_extension",
    "consistency_proof",
    "frontier",
    "inclusion_proof",
    "root_hash",
    "size",
]


def position(level: int, number: int) -> int:
    """The stored key of the subtree of ``2**level`` entries from ``number * 2**level``."""
    return number * 64 + level


def add_nodes(entries: Sequence[Mapping[str, Any]]) -> None:
    """Store the leaf hash of each new entry (consecutive indexes, the log's new head) and
    the hash of every perfect subtree the entries complete. One query reads the left
    siblings stored earlier."""
    if not entries:
        return
    first = entries[0]["index"]
    wanted = set()
    for entry in entries:
        index, level = entry["index"], 0
        while (index >> level) & 1:
            number = (index >> level) - 1
            if (number + 1) << level <= first:  # completed before these entries
                wanted.add(position(level, number))
            level += 1
    known = {
        row.position: bytes.fromhex(row.hash)
        for row in LogTreeNode.objects.filter(position__in=wanted)
    }
    missing = wanted - set(known)
    if missing:
        raise RuntimeError(
            f"the log's tree lacks {len(missing)} subtree hash(es) before entry {first}: "
            "run manage.py migrate"
        )
    rows = []
    for entry in entries:
        index, level = entry["index"], 0
        digest = transparency.entry_leaf_hash(entry)
        known[position(0, index)] = digest
        rows.append(LogTreeNode(position=position(0, index), hash=digest.hex()))
        while (index >> level) & 1:
            number = index >> level
            digest = merkle.node_hash(known[position(level, number - 1)], digest)
            level += 1
            known[position(level, number >> 1)] = digest
            rows.append(LogTreeNode(position=position(level, number >> 1), hash=digest.hex()))
    LogTreeNode.objects.bulk_create(rows)


def check(entries: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every stored subtree hash recomputed from ``entries`` (the whole log in order, as
    ``manage.py fairness_log_check`` streams it): one problem per missing or wrong hash,
    and one if hashes are stored beyond the log. Empty when the tree is whole."""
    problems: list[str] = []
    stack: list[tuple[int, bytes]] = []
    batch: dict[int, bytes] = {}

    def flush() -> None:
        stored = dict(
            LogTreeNode.objects.filter(position__in=batch).values_list("position", "hash")
        )
        for key, digest in sorted(batch.items()):
            if stored.get(key) != digest.hex():
                level, number = key % 64, key // 64
                state = "missing" if key not in stored else "wrong"
                first, last = number << level, ((number + 1) << level) - 1
                problems.append(f"log tree: the hash of entries {first}..{last} is {state}")
        batch.clear()

    count = 0
    for entry in entries:
        digest, level, number = transparency.entry_leaf_hash(entry), 0, entry["index"]
        batch[position(0, number)] = digest
        while stack and stack[-1][0] == level:
            digest = merkle.node_hash(stack.pop()[1], digest)
            level, number = level + 1, number >> 1
            batch[position(level, number)] = digest
        stack.append((level, digest))
        count += 1
        if len(batch) >= 4000:
            flush()
    flush()
    expected = 2 * count - bin(count).count("1")
    if LogTreeNode.objects.count() != expected:
        problems.append(f"log tree: {expected} subtree hashes expected for {count} entries")
    return problems


def size() -> int:
    """The number of entries committed now."""
    last = LogEntry.objects.order_by("-index").values_list("index", flat=True).first()
    return 0 if last is None else last + 1


def _hashes(ranges: Iterable[tuple[int, int]]) -> list[bytes]:
    """The subtree hash of each leaf range, from the stored perfect subtrees (one query)."""
    ranges = list(ranges)
    wanted = {
        position(length.bit_length() - 1, start // length)
        for lo, hi in ranges
        for start, length in merkle.subtrees(lo, hi)
    }
    stored = {
        row.position: bytes.fromhex(row.hash)
        for row in LogTreeNode.objects.filter(position__in=wanted)
    }

    def subtree(start: int, length: int) -> bytes:
        key = position(length.bit_length() - 1, start // length)
        if key not in stored:
            raise RuntimeError(f"the log's tree lacks the subtree of {length} from {start}")
        return stored[key]

    return [merkle.range_hash(subtree, lo, hi) for lo, hi in ranges]


def root_hash(tree_size: int) -> bytes:
    """The root of the tree of the log's first ``tree_size`` entries."""
    return _hashes([(0, tree_size)])[0]


def frontier(tree_size: int) -> list[bytes]:
    """The hash of each perfect subtree that makes up the log's first ``tree_size`` entries
    (``merkle.subtrees(0, tree_size)``, left to right): with the entries after them, they
    give the root of a larger tree (``merkle.extended_root``)."""
    return _hashes((lo, lo + n) for lo, n in merkle.subtrees(0, tree_size))


def inclusion_proof(index: int, tree_size: int) -> list[bytes]:
    """The inclusion proof of entry ``index`` in the tree of ``tree_size`` entries
    (``merkle.MerkleError`` unless ``index < tree_size``)."""
    return _hashes(merkle.inclusion_ranges(index, tree_size))


def consistency_proof(first: int, second: int) -> list[bytes]:
    """The consistency proof from the tree of ``first`` entries to the tree of ``second``
    (``merkle.MerkleError`` unless ``first <= second``)."""
    return _hashes(merkle.consistency_ranges(first, second))


def checkpoint_time(tree_size: int, key_id: str) -> str:
    """A checkpoint's time: when the log's entry ``tree_size - 1`` was logged, or, if the
    signing key's own ``signing-key`` entry came after it (a rotation logged between reading
    the size and the key), when that entry was; the Unix epoch for an empty log. So the time
    lies in the signing key's period and does not change with the moment of the request."""
    last = Q(index=tree_size - 1) if tree_size else Q(pk__in=[])
    rows = LogEntry.objects.filter(last | Q(key__kind="signing-key", key__subject=key_id))
    times = list(rows.values_list("logged_at", flat=True))
    moment = max(times) if times else datetime(1970, 1, 1, tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def checkpoint_extension(logged_at: str, key_id: str) -> str:
    """The checkpoint's extension line: ``time <UTC time> key-id <16 hex>``."""
    return f"time {logged_at} key-id {key_id}"


def checkpoint(tree_size: int | None = None) -> str:
    """The signed checkpoint of the log now (or of its first ``tree_size`` entries): the
    C2SP note text (origin ``TRIX_LOG_ORIGIN``, size, base64 root, the extension line with
    the time and the site key's id), a blank line and the site's signature line. One size
    and key give one text (:func:`checkpoint_time`), so witnesses cosign the same text."""
    from games import signing

    if tree_size is None:
        tree_size = size()
    origin = settings.TRIX_LOG_ORIGIN
    key = signing.current()  # read after the size: the key in use at that size, or later
    extension = checkpoint_extension(checkpoint_time(tree_size, key.key_id), key.key_id)
    text = merkle.format_checkpoint(
        merkle.Checkpoint(origin, tree_size, root_hash(tree_size), (extension,))
    )
    key_hash = merkle.ed25519_key_hash(origin, key.public_bytes())
    signature = key.private_key.sign(text.encode())
    return text + "\n" + merkle.signature_line(origin, key_hash, signature)
