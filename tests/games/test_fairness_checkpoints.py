"""``trix verify`` with a saved checkpoint (games.fairness.verify_command): inclusion proofs
of a match's receipt and deal records, a consistency proof to a newer checkpoint, the log's
Merkle root; a rewritten or forked log and proofs of other entries are refused."""

from __future__ import annotations

import io
import json

import pytest

from games.engine.cli import main as trix
from games.fairness import merkle
from games.fairness.receipt import key_id, load_private_key, new_private_key, public_key_hex
from games.fairness.transparency import entry_hash, entry_leaf_hash
from tests.games.fairness_helpers import (
    RFC8032_TEST1_SECRET,
    match_log,
    played_records,
    with_receipt,
)

SITE_KEY = load_private_key(RFC8032_TEST1_SECRET)
SITE_PUBLIC = public_key_hex(SITE_KEY)
ORIGIN = "trix.example/fairness/log"
SECRET = bytes(range(32)).hex()
SEEDS = ["7f3a9c", "bot", "Zm9v", "bot"]


@pytest.fixture(scope="module")
def site_match():
    """(records, receipt, signature) of an 8-deal match as the site issues it."""
    records = played_records("complex_partner", "table-12", SECRET, SEEDS)
    for record in records:
        record["match"] = 12
        record["deal_number"] = record["shuffle"]["deal_number"]
    return with_receipt(records, SITE_KEY)


@pytest.fixture(scope="module")
def entries(site_match):
    """The log: commitment, a draw commitment, the receipt (entry 2), 8 deal records."""
    return match_log(site_match)


def note(entries, key=SITE_KEY, origin=ORIGIN):
    """The site's signed checkpoint of ``entries``."""
    root = merkle.tree_root([entry_leaf_hash(e) for e in entries])
    extension = f"time 2026-12-01T10:00:00Z key-id {key_id(key)}"
    text = merkle.format_checkpoint(merkle.Checkpoint(origin, len(entries), root, (extension,)))
    key_hash = merkle.ed25519_key_hash(origin, bytes.fromhex(public_key_hex(key)))
    return text + "\n" + merkle.signature_line(origin, key_hash, key.sign(text.encode()))


def _hashes(entries, ranges):
    leaves = [entry_leaf_hash(e) for e in entries]

    def subtree(start, size):
        return merkle.tree_root(leaves[start : start + size])

    return [merkle.range_hash(subtree, lo, hi).hex() for lo, hi in ranges]


def inclusion(entries, index, size):
    """What /fairness/proof/inclusion serves for the log ``entries``."""
    proof = _hashes(entries[:size], merkle.inclusion_ranges(index, size))
    return {
        "format": "trix-inclusion/1",
        "index": index,
        "size": size,
        "entry": json.loads(json.dumps(entries[index])),
        "proof": proof,
    }


def consistency(entries, first, second):
    """What /fairness/proof/consistency serves for the log ``entries``."""
    proof = _hashes(entries[:second], merkle.consistency_ranges(first, second))
    return {"format": "trix-consistency/1", "first": first, "second": second, "proof": proof}


def write(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return str(path)


def run(tmp_path, records, *options):
    path = write(tmp_path, "records.json", records)
    out, err = io.StringIO(), io.StringIO()
    code = trix(["verify", path, *options], out, err)
    return code, out.getvalue(), err.getvalue()


def proofs(tmp_path, entries, saved_size, *, log=None):
    """The options of a player who saved the checkpoint at ``saved_size`` and checks the
    log ``log`` (default ``entries``) at its end: its checkpoint, the consistency proof,
    the inclusion of the receipt (entry 2) and of deal 3 (entry 5)."""
    log = log if log is not None else entries
    size = len(log)
    return [
        "--checkpoint",
        write(tmp_path, "saved-checkpoint", note(entries[:saved_size])),
        "--new-checkpoint",
        write(tmp_path, "checkpoint", note(log)),
        "--consistency",
        write(tmp_path, "consistency.json", consistency(log, saved_size, size)),
        "--inclusion",
        write(tmp_path, "receipt.json", inclusion(log, 2, size)),
        "--inclusion",
        write(tmp_path, "deal-3.json", inclusion(log, 5, size)),
    ]


def test_a_match_is_proven_in_the_log_from_a_checkpoint_saved_at_its_start(
    tmp_path, site_match, entries
):
    records = site_match[0]
    options = proofs(tmp_path, entries, 2) + ["--public-key", SITE_PUBLIC]
    code, out, err = run(tmp_path, records, *options)
    assert (code, err) == (0, ""), err
    assert f"note: the saved checkpoint: {ORIGIN}, size 2" in out
    assert "note: the newer checkpoint (size 11) extends the saved one" in out
    assert "note: the receipt of match 'table-12' is entry 2: proven" in out
    assert "note: deal table-12/3 is entry 5: proven" in out
    assert "checkpoint signatures not checked" not in out
    # Without the key: verified, and the note says the signatures were not checked.
    code, out, err = run(tmp_path, records, *proofs(tmp_path, entries, 2))
    assert code == 0 and "note: checkpoint signatures not checked: give --public-key" in out


def test_an_inclusion_proof_against_the_saved_checkpoint_itself(tmp_path, site_match, entries):
    options = [
        "--checkpoint",
        write(tmp_path, "saved", note(entries[:4])),
        "--inclusion",
        write(tmp_path, "receipt.json", inclusion(entries[:4], 2, 4)),
    ]
    code, out, err = run(tmp_path, site_match[0], *options)
    assert (code, err) == (0, ""), err
    assert "the receipt of match 'table-12' is entry 2: proven" in out


def _rewritten(entries):
    """The operator's rewrite: entry 1 changed, every later prev recomputed (the chain holds)."""
    entries = json.loads(json.dumps(entries))
    entries[1]["body"]["commitment"] = "cd" * 32
    for i in range(2, len(entries)):
        entries[i]["prev"] = entry_hash(entries[i - 1])
    return entries


def test_a_rewritten_log_with_a_re_signed_checkpoint_is_refused(tmp_path, site_match, entries):
    records = site_match[0]
    rewritten = _rewritten(entries)
    options = proofs(tmp_path, entries, 2, log=rewritten) + ["--public-key", SITE_PUBLIC]
    code, out, err = run(tmp_path, records, *options)
    assert code == 1 and out == ""
    assert err == (
        "--consistency: the tree of 2 leaves is not the start of the tree of 11 leaves: "
        "the log was rewritten or forked\n"
    )
    # The whole rewritten log against the saved checkpoint: its Merkle root differs.
    log = write(tmp_path, "log.jsonl", "".join(json.dumps(e) + "\n" for e in rewritten))
    saved = write(tmp_path, "saved", note(entries[:2]))
    code, out, err = run(tmp_path, records, "--log", log, "--checkpoint", saved)
    assert code == 1 and err == (
        "--checkpoint: the Merkle root of the log's first 2 entries is not the saved "
        "checkpoint's root: the log was rewritten\n"
    )
    shortened = write(tmp_path, "short.jsonl", json.dumps(entries[0]) + "\n")
    code, out, err = run(tmp_path, records, "--log", shortened, "--checkpoint", saved)
    assert code == 1 and err == (
        "--checkpoint: the saved checkpoint covers 2 entries, the log has only 1: entries "
        "were removed\n"
    )
    log = write(tmp_path, "log.jsonl", "".join(json.dumps(e) + "\n" for e in entries))
    code, out, err = run(tmp_path, records, "--log", log, "--checkpoint", saved)
    assert code == 0 and "note: the log's first 2 entries have the saved checkpoint's root" in out


def test_a_tampered_entry_or_a_proof_of_another_entry_is_refused(tmp_path, site_match, entries):
    records = site_match[0]
    saved = write(tmp_path, "saved", note(entries))
    proof = inclusion(entries, 2, len(entries))
    proof["entry"]["body"]["signature"] = "00" * 64
    tampered = write(tmp_path, "tampered.json", proof)
    code, _, err = run(tmp_path, records, "--checkpoint", saved, "--inclusion", tampered)
    assert code == 1 and err.startswith(f"--inclusion {tampered}: the inclusion proof of leaf 2")
    other = write(tmp_path, "other.json", inclusion(entries, 1, len(entries)))
    code, _, err = run(tmp_path, records, "--checkpoint", saved, "--inclusion", other)
    assert (code, err) == (
        1,
        "--inclusion: entry 1: a draw-commitment entry, not of these records\n",
    )
    # A log whose receipt entry carries another signature, proven against its own checkpoint.
    forged = json.loads(json.dumps(entries))
    forged[2]["body"]["signature"] = "00" * 64
    options = ["--checkpoint", write(tmp_path, "forged-saved", note(forged))]
    options += ["--inclusion", write(tmp_path, "forged.json", inclusion(forged, 2, len(forged)))]
    code, _, err = run(tmp_path, records, *options)
    assert (code, err) == (
        1,
        "--inclusion: entry 2: the log holds another receipt for match 'table-12' than the "
        "records'\n",
    )
    wrong_size = write(tmp_path, "wrong.json", inclusion(entries, 2, 5))
    code, _, err = run(tmp_path, records, "--checkpoint", saved, "--inclusion", wrong_size)
    assert code == 1 and "a proof in the tree of 5 entries; the checkpoints have sizes 11" in err


def test_a_checkpoint_signed_by_another_key_and_missing_options(tmp_path, site_match, entries):
    records = site_match[0]
    other_key = new_private_key()
    other = write(tmp_path, "other", note(entries, key=other_key))
    code, _, err = run(tmp_path, records, "--checkpoint", other, "--public-key", SITE_PUBLIC)
    assert code == 1 and err.startswith(
        f"--checkpoint is signed by key {key_id(other_key)}, which is not in --public-key"
    )
    proof = write(tmp_path, "receipt.json", inclusion(entries, 2, len(entries)))
    code, _, err = run(tmp_path, records, "--inclusion", proof)
    assert (code, err) == (
        2,
        "--new-checkpoint, --consistency, --inclusion, --witness: give --checkpoint too\n",
    )
    saved = write(tmp_path, "saved", note(entries))
    code, _, err = run(tmp_path, records, "--checkpoint", saved, "--new-checkpoint", saved)
    assert (code, err) == (2, "--new-checkpoint and --consistency go together\n")
    broken = write(tmp_path, "broken", "not a checkpoint\n")
    code, _, err = run(tmp_path, records, "--checkpoint", broken)
    assert code == 1 and err.startswith("--checkpoint: not a signed checkpoint: ")
