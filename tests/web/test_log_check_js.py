"""The table page's check of the site's log (``web/static/web/table/log_check.js``), run as
an ES module in Chromium: its RFC 9162 inclusion and consistency proofs agree with the
site's tree (``games.fairness.merkle``) for every index and size of small trees and refuse
a proof or root changed in any byte, and it reads the site's signed checkpoint and checks
its signature with the site's key, refusing one altered."""

from __future__ import annotations

import pytest

from games import signing
from games.fairness import merkle
from games.services import fairness_log, log_tree

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MODULE = "/static/web/table/log_check.js"
LEAVES = [merkle.leaf_hash(f"entry {i}".encode()) for i in range(19)]


def run(page, body: str, arg=None):
    """Evaluate ``body`` (an async function body with ``m``, the module, and ``arg``)."""
    return page.evaluate(f"async (arg) => {{ const m = await import('{MODULE}'); {body} }}", arg)


@pytest.fixture
def page(new_page):
    page = new_page()
    page.goto("/")
    return page


def _root(size: int) -> bytes:
    return merkle.tree_root(LEAVES[:size])


def _hashes(ranges) -> list[str]:
    return [merkle.tree_root(LEAVES[lo:hi]).hex() for lo, hi in ranges]


def test_inclusion_proofs_agree_with_the_sites_tree(page):
    cases = []
    for size in range(1, len(LEAVES) + 1):
        for index in range(size):
            proof = _hashes(merkle.inclusion_ranges(index, size))
            root = _root(size)
            merkle.verify_inclusion(
                LEAVES[index], index, size, [bytes.fromhex(h) for h in proof], root
            )
            cases.append([LEAVES[index].hex(), index, size, proof, root.hex()])
    got = run(
        page,
        """const hex = (h) => Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16));
        const out = [];
        for (const [leaf, index, size, proof, root] of arg) {
          const check = (l, i, p) => m.verifyInclusion(hex(l), i, size, p, hex(root));
          const ok = await check(leaf, index, proof);
          const wrongLeaf = await check("cd".repeat(32), index, proof);
          const flip = (h) => (h[0] === "0" ? "1" : "0") + h.slice(1);
          const bent = proof.length ? [flip(proof[0]), ...proof.slice(1)] : null;
          const wrongProof = bent ? await check(leaf, index, bent) : false;
          const wrongIndex = size > 1 ? await check(leaf, (index + 1) % size, proof) : false;
          out.push([ok, wrongLeaf || wrongProof || wrongIndex]);
        }
        return out;""",
        cases,
    )
    assert got == [[True, False]] * len(cases)


def test_consistency_proofs_agree_with_the_sites_tree(page):
    cases = []
    for second in range(1, len(LEAVES) + 1):
        for first in range(second + 1):
            proof = _hashes(merkle.consistency_ranges(first, second))
            merkle.verify_consistency(
                first, second, [bytes.fromhex(h) for h in proof], _root(first), _root(second)
            )
            cases.append([first, second, proof, _root(first).hex(), _root(second).hex()])
    got = run(
        page,
        """const hex = (h) => Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16));
        const out = [];
        for (const [first, second, proof, a, b] of arg) {
          const ok = await m.verifyConsistency(first, second, proof, hex(a), hex(b));
          const other = "ab".repeat(32);
          // A rewritten past: another root at the first size (an empty first tree has none).
          const rewritten =
            first > 0 && (await m.verifyConsistency(first, second, proof, hex(other), hex(b)));
          const shrunk = await m.verifyConsistency(second + 1, second, proof, hex(a), hex(b));
          out.push([ok, rewritten || shrunk]);
        }
        return out;""",
        cases,
    )
    assert got == [[True, False]] * len(cases)


def test_the_sites_checkpoint_is_read_and_its_signature_checked(page):
    fairness_log.append([fairness_log.draw_commitment(event="tournament:1", commitment="ab" * 32)])
    note = log_tree.checkpoint()
    key = signing.current().public_bytes().hex()
    got = run(
        page,
        """const [note, key] = arg;
        const cp = m.parseCheckpoint(note);
        const bent = m.parseCheckpoint(note.replace(/\\n1\\n/, "\\n2\\n"));
        const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
        return {size: cp.size, root: hex(cp.root),
                keyId: cp.keyId, signed: await m.checkpointSigned(cp, key),
                bent: await m.checkpointSigned(bent, key),
                otherKey: await m.checkpointSigned(cp, "11".repeat(32)),
                notOne: m.parseCheckpoint("not a checkpoint")};""",
        [note, key],
    )
    parsed = merkle.parse_checkpoint(merkle.parse_signed_note(note)[0])
    assert got["size"] == parsed.size == 1 and got["root"] == parsed.root.hex()
    assert got["keyId"] == signing.current().key_id
    assert (got["signed"], got["bent"], got["otherKey"], got["notOne"]) == (
        "valid",
        "invalid",
        "invalid",
        None,
    )
