"""The transparency log's Merkle tree: the cost of a root, an inclusion proof and a
consistency proof at 10,000 and 1,000,000 entries, built as the site builds them
(``games.services.log_tree``: each perfect subtree's hash stored once, a proof reading
``O(log n)`` of them), here from a dict in memory instead of the ``LogTreeNode`` table (the
site adds one indexed query by primary key per proof). Prints, per size, the time to build
the tree, the stored hashes a proof reads, and the mean time to make and to verify each proof.

Run: ``.venv/bin/python benchmarks/merkle.py [--sizes 10000,1000000] [--proofs 2000]``.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.fairness import merkle  # noqa: E402


def stand_in(index: int) -> bytes:
    """The leaf hash of stand-in entry ``index`` (the benchmarks need hashes, not entries)."""
    return merkle.leaf_hash(hashlib.sha256(index.to_bytes(8, "big")).digest())


def build(size: int) -> dict[tuple[int, int], bytes]:
    """``{(start, length): hash}`` of every perfect subtree of ``size`` stand-in entries."""
    return store(stand_in(index) for index in range(size))


def store(leaves) -> dict[tuple[int, int], bytes]:
    """``{(start, length): hash}`` of every perfect subtree over the leaf hashes ``leaves``,
    appended one leaf at a time, as the site stores them."""
    stored: dict[tuple[int, int], bytes] = {}
    for index, digest in enumerate(leaves):
        stored[(index, 1)] = digest
        length = 1
        while (index // length) & 1:
            start = index - 2 * length + 1
            digest = merkle.node_hash(stored[(start, length)], digest)
            length *= 2
            stored[(start, length)] = digest
    return stored


def measure(size: int, proofs: int, rng: random.Random) -> None:
    """Build the tree of ``size`` entries and time ``proofs`` proofs of each kind."""
    start = time.perf_counter()
    stored = build(size)
    built = time.perf_counter() - start
    reads = 0

    def subtree(first: int, length: int) -> bytes:
        nonlocal reads
        reads += 1
        return stored[(first, length)]

    root = merkle.range_hash(subtree, 0, size)
    print(f"\n{size:,} entries: tree built in {built:.1f} s ({len(stored):,} stored hashes)")
    cases = [
        (
            "inclusion",
            lambda: rng.randrange(size),
            lambda i: merkle.inclusion_ranges(i, size),
            lambda i, proof: merkle.verify_inclusion(stored[(i, 1)], i, size, proof, root),
        ),
        (
            "consistency",
            lambda: rng.randrange(1, size),
            lambda m: merkle.consistency_ranges(m, size),
            lambda m, proof: merkle.verify_consistency(
                m, size, proof, merkle.range_hash(lambda a, b: stored[(a, b)], 0, m), root
            ),
        ),
    ]
    for name, pick, ranges_of, verify in cases:
        picks = [pick() for _ in range(proofs)]
        reads = 0
        start = time.perf_counter()
        made = [[merkle.range_hash(subtree, lo, hi) for lo, hi in ranges_of(p)] for p in picks]
        making = (time.perf_counter() - start) / len(picks)
        read_per_proof = reads / len(picks)
        start = time.perf_counter()
        for p, proof in zip(picks, made, strict=True):
            verify(p, proof)
        checking = (time.perf_counter() - start) / len(picks)
        hashes = sum(map(len, made)) / len(made)
        print(
            f"  {name:11} proof: {hashes:4.1f} hashes, {read_per_proof:5.1f} stored hashes "
            f"read, made in {making * 1e6:6.1f} us, verified in {checking * 1e6:6.1f} us"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,1000000")
    parser.add_argument("--proofs", type=int, default=2000)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    rng = random.Random(7)
    for size in (int(s) for s in args.sizes.split(",")):
        measure(size, args.proofs, rng)


if __name__ == "__main__":
    main()
