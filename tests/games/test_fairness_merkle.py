"""The log's Merkle tree and checkpoints (games.fairness.merkle): RFC 9162 hashing and
proofs against the Certificate Transparency reference vectors, every pair of sizes, tampered
and forked logs refused, and the C2SP checkpoint and signed-note text."""

import base64
import hashlib

import pytest

from games.fairness.merkle import (
    EMPTY_ROOT,
    Checkpoint,
    MerkleError,
    consistency_ranges,
    ed25519_key_hash,
    extended_root,
    format_checkpoint,
    inclusion_ranges,
    leaf_hash,
    node_hash,
    parse_checkpoint,
    parse_signed_note,
    range_hash,
    signature_line,
    subtrees,
    tree_root,
    verify_consistency,
    verify_inclusion,
)

# The reference tree of google/certificate-transparency (RFC 6962 hashing, as RFC 9162):
# its leaves, the roots of its first 1..8 leaves, and its proofs.
CT_LEAVES = [
    bytes.fromhex(h)
    for h in (
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    )
]
CT_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
CT_INCLUSION = [  # (leaf index, tree size, proof)
    (0, 1, []),
    (
        0,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        5,
        8,
        [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (
        1,
        5,
        [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
]
CT_CONSISTENCY = [  # (first size, second size, proof)
    (1, 1, []),
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        [
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
]


def hashes_of(leaves):
    return [leaf_hash(leaf) for leaf in leaves]


def subtree_of(hashes):
    def subtree(start, size):
        return tree_root(hashes[start : start + size])

    return subtree


def proof(ranges, hashes):
    return [range_hash(subtree_of(hashes), lo, hi) for lo, hi in ranges]


def test_empty_tree_and_hashing_prefixes():
    assert EMPTY_ROOT.hex() == hashlib.sha256(b"").hexdigest()
    assert tree_root([]) == EMPTY_ROOT
    assert leaf_hash(b"ab") == hashlib.sha256(b"\x00ab").digest()
    assert (
        node_hash(b"l" * 32, b"r" * 32) == hashlib.sha256(b"\x01" + b"l" * 32 + b"r" * 32).digest()
    )


@pytest.mark.parametrize("size", range(1, 9))
def test_reference_roots(size):
    assert tree_root(hashes_of(CT_LEAVES[:size])).hex() == CT_ROOTS[size - 1]


@pytest.mark.parametrize(("index", "size", "expected"), CT_INCLUSION)
def test_reference_inclusion_proofs(index, size, expected):
    hashes = hashes_of(CT_LEAVES)
    got = proof(inclusion_ranges(index, size), hashes[:size])
    assert [h.hex() for h in got] == expected
    root = bytes.fromhex(CT_ROOTS[size - 1])
    verify_inclusion(hashes[index], index, size, [bytes.fromhex(h) for h in expected], root)


@pytest.mark.parametrize(("first", "second", "expected"), CT_CONSISTENCY)
def test_reference_consistency_proofs(first, second, expected):
    hashes = hashes_of(CT_LEAVES)
    got = proof(consistency_ranges(first, second), hashes[:second])
    assert [h.hex() for h in got] == expected
    verify_consistency(
        first,
        second,
        [bytes.fromhex(h) for h in expected],
        bytes.fromhex(CT_ROOTS[first - 1]),
        bytes.fromhex(CT_ROOTS[second - 1]),
    )


LEAVES = [f"entry {i}".encode() for i in range(21)]
HASHES = hashes_of(LEAVES)
ROOTS = [tree_root(HASHES[:n]) for n in range(len(HASHES) + 1)]


def test_every_inclusion_proof_up_to_21_leaves_verifies_and_a_changed_leaf_is_refused():
    for size in range(1, len(HASHES) + 1):
        for index in range(size):
            path = proof(inclusion_ranges(index, size), HASHES[:size])
            verify_inclusion(HASHES[index], index, size, path, ROOTS[size])
            with pytest.raises(MerkleError):
                verify_inclusion(leaf_hash(b"tampered"), index, size, path, ROOTS[size])
            if size > 1:
                with pytest.raises(MerkleError):  # another leaf's position
                    verify_inclusion(HASHES[index], (index + 1) % size, size, path, ROOTS[size])
                with pytest.raises(MerkleError):  # a proof cut short
                    verify_inclusion(HASHES[index], index, size, path[:-1], ROOTS[size])


def test_every_consistency_proof_up_to_21_leaves_verifies_and_a_fork_is_refused():
    for second in range(len(HASHES) + 1):
        for first in range(second + 1):
            path = proof(consistency_ranges(first, second), HASHES[:second])
            verify_consistency(first, second, path, ROOTS[first], ROOTS[second])
            if first == 0:
                continue
            # The same history with one earlier entry rewritten: its root at `first` differs.
            forked = list(HASHES[:second])
            forked[first - 1] = leaf_hash(b"rewritten")
            forked_first, forked_second = tree_root(forked[:first]), tree_root(forked)
            with pytest.raises(MerkleError):
                verify_consistency(first, second, path, forked_first, ROOTS[second])
            with pytest.raises(MerkleError):
                forked_path = proof(consistency_ranges(first, second), forked)
                verify_consistency(first, second, forked_path, ROOTS[first], forked_second)


def test_a_root_from_the_first_leaves_frontier_and_the_rest_is_the_trees_root():
    """extended_root (a day's archive): for every split of trees up to 40 leaves, the
    frontier of the first leaves and the leaves after them give the tree's root; a changed
    leaf or frontier hash gives another root; a frontier of the wrong length is refused."""
    leaves = [leaf_hash(bytes([n])) for n in range(40)]
    for size in range(41):
        for start in range(size + 1):
            frontier = [tree_root(leaves[lo : lo + n]) for lo, n in subtrees(0, start)]
            root = extended_root(frontier, start, leaves[start:size])
            assert root == tree_root(leaves[:size]), (start, size)
            if start < size:
                changed = [*leaves[start:size]]
                changed[-1] = leaf_hash(b"x")
                assert extended_root(frontier, start, changed) != root
            if frontier:
                assert extended_root([EMPTY_ROOT, *frontier[1:]], start, leaves[start:size]) != root
    with pytest.raises(MerkleError, match="perfect subtrees"):
        extended_root([], 3, leaves[3:5])


def test_a_larger_first_size_is_refused():
    with pytest.raises(MerkleError):
        consistency_ranges(5, 4)
    with pytest.raises(MerkleError):
        verify_consistency(5, 4, [], ROOTS[5], ROOTS[4])
    with pytest.raises(MerkleError):
        inclusion_ranges(4, 4)


CHECKPOINT = Checkpoint(
    "trix.example/fairness/log",
    5,
    ROOTS[5],
    ("time 2026-12-07T03:00:00Z key-id 0123456789abcdef",),
)


def test_checkpoint_text_round_trips():
    text = format_checkpoint(CHECKPOINT)
    root = base64.b64encode(ROOTS[5]).decode()
    assert text == (
        f"trix.example/fairness/log\n5\n{root}\ntime 2026-12-07T03:00:00Z key-id 0123456789abcdef\n"
    )
    assert parse_checkpoint(text) == CHECKPOINT


@pytest.mark.parametrize(
    "text",
    [
        "origin\n5\n",
        "origin\n05\nAAAA\n",
        "origin\n-1\n" + base64.b64encode(bytes(32)).decode() + "\n",
        "origin\n5\n" + base64.b64encode(bytes(31)).decode() + "\n",
        "origin\n5\n" + base64.b64encode(bytes(32)).decode(),
        "origin\n5\n" + base64.b64encode(bytes(32)).decode() + "\n\nextension\n",
    ],
)
def test_malformed_checkpoints_are_refused(text):
    with pytest.raises(MerkleError):
        parse_checkpoint(text)


def test_signed_note_lines():
    public = bytes(range(32))
    key_hash = ed25519_key_hash("trix.example/fairness/log", public)
    assert key_hash == hashlib.sha256(b"trix.example/fairness/log\n\x01" + public).digest()[:4]
    text = format_checkpoint(CHECKPOINT)
    note = text + "\n" + signature_line("trix.example/fairness/log", key_hash, b"s" * 64)
    assert note.splitlines()[-1].startswith("\u2014 trix.example/fairness/log ")
    assert parse_signed_note(note) == (text, [("trix.example/fairness/log", key_hash, b"s" * 64)])
    for broken in (text, note.replace("\u2014", "-"), note[:-1], text + "\n"):
        with pytest.raises(MerkleError):
            parse_signed_note(broken)
