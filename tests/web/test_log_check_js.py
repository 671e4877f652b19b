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


# --- checkLog: one deal against a log served by a stub of /fairness/ -----------------------------


def _site(records, receipt, signature, key, rewrite: bool = False, other_record=None):
    """The /fairness/ answers for a log holding a draw commitment (before the Sit), the
    match's commitment and receipt, then its deal records: (the checkpoint kept at the Sit,
    {path: answer}). ``rewrite``: the entry before the Sit changed, the log rebuilt from it;
    ``other_record``: the log holds that record's hash for deal 1."""
    from games.fairness import receipt as receipts
    from games.fairness.canonical import sha256_hex
    from games.fairness.receipt import key_id
    from games.fairness.transparency import entry_leaf_hash, next_entry

    def build(first_event: str):
        entries = []

        def add(kind, body):
            prev = entries[-1] if entries else None
            entries.append(next_entry(prev=prev, kind=kind, body=body, logged_at=LOGGED_AT))

        drawn = {"event": first_event, "algorithm": "trix-draw/1", "commitment": "ab" * 32}
        add("draw-commitment", drawn)
        fields = ("match_id", "algorithm", "commitment", "deals")
        add("match-commitment", {f: receipt[f] for f in fields})
        add("match-receipt", {"receipt": receipt, "signature": signature})
        for r in records:
            logged = other_record if (other_record and r is records[0]) else r
            body = {"match_id": receipt["match_id"], "deal_number": r["shuffle"]["deal_number"]}
            add("deal-record", {**body, "record_hash": sha256_hex(logged)})
        return entries

    def note(leaves, size):
        root = merkle.tree_root(leaves[:size])
        extension = f"time {LOGGED_AT} key-id {key_id(key.public_key())}"
        cp = merkle.Checkpoint("trix.test/log", size, root, (extension,))
        text = merkle.format_checkpoint(cp)
        raw = bytes.fromhex(receipts.public_key_hex(key))
        line = merkle.signature_line(
            cp.origin, merkle.ed25519_key_hash(cp.origin, raw), key.sign(text.encode())
        )
        return text + "\n" + line

    kept = build("tournament:1")
    now = build("tournament:1" if not rewrite else "tournament:2")
    leaves_then = [entry_leaf_hash(e) for e in kept]
    leaves = [entry_leaf_hash(e) for e in now]
    size = len(leaves)

    def hashes(source, ranges):
        return [merkle.tree_root(source[lo:hi]).hex() for lo, hi in ranges]

    answers = {
        "checkpoint": note(leaves, size),
        f"proof/consistency?first=1&second={size}": {
            "format": "trix-consistency/1", "first": 1, "second": size,
            "proof": hashes(leaves, merkle.consistency_ranges(1, size)),
        },
    }  # fmt: skip
    for entry in now[2:]:
        subject = transparency_key(entry)
        answers[f"proof/inclusion?kind={entry['kind']}&subject={subject}&size={size}"] = {
            "format": "trix-inclusion/1", "index": entry["index"], "size": size, "entry": entry,
            "proof": hashes(leaves, merkle.inclusion_ranges(entry["index"], size)),
        }  # fmt: skip
    return note(leaves_then, 1), answers


def transparency_key(entry) -> str:
    from urllib.parse import quote

    from games.fairness.transparency import entry_key

    return quote(entry_key(entry["kind"], entry["body"]), safe="")


LOGGED_AT = "2026-12-01T10:00:00Z"


@pytest.fixture
def site_match():
    from games.fairness.receipt import load_private_key
    from tests.games.fairness_helpers import RFC8032_TEST1_SECRET, simulated_records, with_receipt

    key = load_private_key(RFC8032_TEST1_SECRET)
    records, receipt, signature = with_receipt(simulated_records("complex", 5), key)
    return records, receipt, signature, key


def check_log(page, record, saved, answers):
    return run(
        page,
        """const [record, saved, answers] = arg;
        const get = async (path) => (path in answers ? answers[path] : null);
        return await m.checkLog(record, saved, get);""",
        [record, saved, answers],
    )


def _kept(checkpoint, receipt, signature, key):
    from games.fairness.receipt import public_key_hex

    return {
        "match_id": receipt["match_id"],
        "checkpoint": checkpoint,
        "public_key": public_key_hex(key.public_key()),
        "receipt": receipt,
        "signature": signature,
    }


def test_check_log_accepts_the_log_that_extends_the_kept_checkpoint(page, site_match):
    records, receipt, signature, key = site_match
    checkpoint, answers = _site(records, receipt, signature, key)
    kept = _kept(checkpoint, receipt, signature, key)
    assert check_log(page, records[2], kept, answers) == {"log": "valid", "problems": []}
    # Nothing kept at the Sit: nothing to check against.
    assert check_log(page, records[2], {**kept, "checkpoint": None}, answers) == {
        "log": "unchecked",
        "problems": [],
    }


def test_check_log_names_each_way_the_log_disagrees(page, site_match):
    records, receipt, signature, key = site_match
    checkpoint, answers = _site(records, receipt, signature, key, rewrite=True)
    kept = _kept(checkpoint, receipt, signature, key)
    got = check_log(page, records[0], kept, answers)
    assert got == {"log": "invalid", "problems": [{"key": "log_rewritten", "size": 1}]}

    _, answers = _site(records, receipt, signature, key, other_record=records[1])
    got = check_log(page, records[0], kept, answers)
    assert got["problems"] == [{"key": "log_record_differs", "index": 3}]

    checkpoint, answers = _site(records, receipt, signature, key)
    other = {**receipt, "issued_at": "2026-12-01T11:00:00Z"}
    got = check_log(page, records[0], {**kept, "receipt": other}, answers)
    assert got["problems"] == [{"key": "log_receipt_differs", "index": 2}]

    gone = {k: v for k, v in answers.items() if "kind=deal-record" not in k}
    got = check_log(page, records[0], kept, gone)
    assert got["problems"] == [{"key": "log_record_missing"}]

    bent = dict(answers)
    path = next(k for k in answers if "kind=match-receipt" in k)
    bent[path] = {**answers[path], "proof": list(reversed(answers[path]["proof"]))}
    got = check_log(page, records[0], kept, bent)
    assert got["problems"] == [{"key": "log_receipt_inclusion"}]

    forged = {**answers, "checkpoint": answers["checkpoint"].replace(" key-id ", " key-id  ")}
    got = check_log(page, records[0], kept, forged)
    assert {"key": "log_checkpoint_signature"} in got["problems"]
