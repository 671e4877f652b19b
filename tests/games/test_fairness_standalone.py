"""games/fairness/verify_standalone.py: its Ed25519 check against RFC 8032 and `cryptography`, its
strict input checks (each refused input of issue 12), match mode, --receipt, --public-key and
--log; and that it needs nothing but the standard library."""

import ast
import copy
import json
import os
import subprocess
import sys

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from games.fairness.receipt import key_id, load_private_key, new_private_key, public_key_hex, sign
from games.fairness.transparency import entry_hash
from tests.games.fairness_helpers import (
    LOGGED_AT,
    RFC8032_TEST1_SECRET,
    STANDALONE,
    forged_records,
    load_standalone,
    match_log,
    played_records,
    with_receipt,
)

standalone = load_standalone()
SITE_KEY = load_private_key(RFC8032_TEST1_SECRET)
SITE_PUBLIC = public_key_hex(SITE_KEY)
SITE_ID = key_id(SITE_KEY)

# RFC 8032 section 7.1: TEST 1, 2, 3 (secret key, public key, message, signature).
RFC8032 = [
    (
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
    (
        "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        "af82",
        "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
    ),
]


# --- Ed25519 in pure Python ---------------------------------------------------------------


@pytest.mark.parametrize("secret, public, message, signature", RFC8032)
def test_rfc8032_vectors(secret, public, message, signature):
    key = load_private_key(secret)
    assert public_key_hex(key) == public
    assert key.sign(bytes.fromhex(message)).hex() == signature  # the vectors as printed
    public, message, signature = map(bytes.fromhex, (public, message, signature))
    assert standalone.ed25519_ok(public, message, signature)
    assert not standalone.ed25519_ok(public, message + b"x", signature)
    assert standalone.encode(standalone.times(1, standalone.BASE)) == standalone.encode(
        standalone.BASE
    )


def _cryptography_ok(public: bytes, message: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def _flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8 % len(out)] ^= 1 << (bit % 8)
    return bytes(out)


def test_agrees_with_cryptography_on_random_keys_and_messages():
    rng = __import__("random").Random(12)
    checked = 0
    for _ in range(60):
        key = new_private_key()
        public = bytes.fromhex(public_key_hex(key))
        message = rng.randbytes(rng.randrange(0, 300))
        signature = key.sign(message)
        cases = [
            (public, message, signature),
            (
                public,
                _flip(message, rng.randrange(8 * max(1, len(message)))) if message else b"x",
                signature,
            ),
            (public, message, _flip(signature, rng.randrange(256))),  # R changed
            (public, message, _flip(signature, 256 + rng.randrange(252))),  # S changed
            (_flip(public, rng.randrange(255)), message, signature),  # another key
            (public_key_hex(new_private_key()), message, signature),
        ]
        for pub, msg, sig in cases:
            pub = bytes.fromhex(pub) if isinstance(pub, str) else pub
            assert standalone.ed25519_ok(pub, msg, sig) == _cryptography_ok(pub, msg, sig)
            checked += 1
        assert standalone.ed25519_ok(public, message, signature)
    assert checked == 360


def test_a_non_canonical_s_is_refused_like_cryptography():
    key = load_private_key(RFC8032[0][0])
    public = bytes.fromhex(RFC8032[0][1])
    signature = key.sign(b"m")
    s = int.from_bytes(signature[32:], "little") + standalone.L  # the same point, S >= L
    malleated = signature[:32] + s.to_bytes(32, "little")
    assert standalone.ed25519_ok(public, b"m", signature)
    assert not standalone.ed25519_ok(public, b"m", malleated)
    assert not _cryptography_ok(public, b"m", malleated)
    assert not standalone.ed25519_ok(public[:31], b"m", signature)
    assert not standalone.ed25519_ok(public, b"m", signature[:63])


def test_it_imports_only_the_standard_library():
    tree = ast.parse(STANDALONE.read_text())
    names = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    names |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert names and names <= sys.stdlib_module_names, names


# --- the command line -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site_match():
    records = played_records(
        "complex_partner", "table-12", "22" * 32, ["7f3a9c", "bot", "x", "bot"]
    )
    return with_receipt(records, SITE_KEY)


@pytest.fixture
def records(site_match):
    return copy.deepcopy(site_match[0])


def run(tmp_path, data, *options, process=False):
    path = tmp_path / "records.json"
    if isinstance(data, str):
        path.write_text(data)
    else:
        path.write_text(json.dumps(data))
    argv = [str(path), *map(str, options)]
    if process:  # a real run, isolated from this project
        done = subprocess.run(
            [sys.executable, "-I", str(STANDALONE), *argv],
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.returncode, done.stdout, done.stderr
    out_err = []

    class Capture:
        def __init__(self):
            self.parts = []

        def write(self, text):
            self.parts.append(text)

        def flush(self):
            pass

    out, err = Capture(), Capture()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = standalone.main(argv)
    finally:
        sys.stdout, sys.stderr = saved
    out_err = "".join(out.parts), "".join(err.parts)
    return (code, *out_err)


def test_a_whole_match_with_receipt_key_and_log(tmp_path, site_match):
    records, receipt, signature = site_match
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in match_log((records, receipt, signature))))
    code, out, err = run(tmp_path, records, "--public-key", SITE_PUBLIC, "--log", log, process=True)
    assert (code, err) == (0, ""), err
    assert out.splitlines()[:2] == [
        "verified",
        f"note: receipt signed by key {SITE_ID} (--public-key)",
    ]
    assert "in the log at entry 2; log head " in out and "at size 11" in out


def test_a_directory_and_a_single_record(tmp_path, site_match):
    folder = tmp_path / "match"
    folder.mkdir()
    for record in site_match[0]:
        (folder / f"deal-{record['shuffle']['deal_number']}.json").write_text(json.dumps(record))
    code, out, err = standalone_main(str(folder))
    assert code == 0 and out.startswith("verified\nnote: receipt signature not checked")
    os.remove(folder / "deal-8.json")
    code, out, err = standalone_main(str(folder))
    assert code == 1 and "deals: must be 1..8 once each; missing [8], twice []" in out
    code, out, err = standalone_main(str(folder), "--partial")
    assert code == 0
    code, out, err = run(tmp_path, site_match[0][2])
    assert code == 0 and out.startswith("verified\n")


def standalone_main(*argv):
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = standalone.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_forged_match_is_refused_given_the_saved_receipt(tmp_path, site_match):
    """Issue 12's attack: a match rebuilt from the last revealed seed with another client
    seed, keeping match id and commitment, is refused given the receipt the player saved."""
    records, receipt, signature = site_match
    forged = forged_records(records, ["mallory", "bot", "x", "bot"])
    saved = tmp_path / "receipt.json"
    saved.write_text(json.dumps({"receipt": receipt, "signature": signature}))
    code, out, err = run(tmp_path, forged)  # no receipt: accepted, but only as "cards only"
    assert code == 0 and "cards only, no receipt" in out
    code, out, err = run(tmp_path, forged, "--receipt", saved)
    assert code == 1 and err == "cannot check this record: shuffle.receipt: missing\n"
    stolen = copy.deepcopy(forged)
    for record in stolen:
        record["shuffle"].update(deals=8, receipt=receipt, signature=signature)
    code, out, err = run(tmp_path, stolen, "--receipt", saved, "--public-key", SITE_PUBLIC)
    assert code == 1 and "deal 1: shuffle.client_seeds: differs from the receipt's" in out
    resigned, _, _ = with_receipt(forged, new_private_key())
    code, out, err = run(tmp_path, resigned, "--public-key", SITE_PUBLIC)
    assert (code, err) == (1, "cannot check this record: shuffle.signature: not valid\n")
    code, out, err = run(tmp_path, resigned, "--receipt", saved)
    assert (code, err) == (1, "cannot check this record: --receipt: the records carry another\n")
    honest, _, _ = with_receipt(forged, SITE_KEY)  # the operator re-signs: the log refuses
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in match_log((records, receipt, signature))))
    code, out, err = run(tmp_path, honest, "--public-key", SITE_PUBLIC, "--log", log)
    assert code == 1 and "log: the log holds another receipt for the match (2)" in err


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda e: e.pop(1), "log entry 1: index 2"),
        (
            lambda e: e[1]["body"].update(commitment="cd" * 32),
            "log entry 2: prev is not the hash of entry 1",
        ),
        (lambda e: e.insert(0, e.pop(1)), "log entry 0: index 1"),
    ],
)
def test_log_tampering_is_detected(tmp_path, site_match, change, expected):
    records, receipt, signature = site_match
    entries = match_log((records, receipt, signature))
    change(entries)
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))
    code, out, err = run(tmp_path, records, "--log", log)
    assert code == 1 and out == "" and err == f"cannot check this record: {expected}\n"


def test_a_log_body_with_a_field_more_or_less_is_refused_as_trix_verify_refuses_it(
    tmp_path, site_match
):
    from games.fairness.transparency import KINDS

    assert {k: " ".join(sorted(v)) for k, v in KINDS.items()} == standalone.BODY_FIELDS
    records, receipt, signature = site_match
    entries = match_log((records, receipt, signature))
    for change in (lambda body: body.update(note="extra"), lambda body: body.pop("record_hash")):
        changed = copy.deepcopy(entries)
        change(changed[3]["body"])  # the first deal-record
        for index in range(4, len(changed)):  # chained again: only that body is wrong
            changed[index]["prev"] = standalone.sha256(changed[index - 1])
        log = tmp_path / "log.jsonl"
        log.write_text("".join(json.dumps(e) + "\n" for e in changed))
        code, out, err = run(tmp_path, records, "--log", log)
        assert (code, out) == (1, ""), out
        assert err == (
            "cannot check this record: log entry 3: a deal-record body: deal_number match_id "
            "record_hash\n"
        )


def _set(path, value):
    def change(record):
        *parents, last = path
        target = record
        for key in parents:
            target = target[key]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value

    return change


@pytest.mark.parametrize(
    "change, expected",
    [
        (_set(["shuffle", "deal_number"], 0), "shuffle.deal_number: must be a number 1..8"),
        (_set(["shuffle", "deal_number"], True), "shuffle.deal_number: must be a number 1..8"),
        (_set(["shuffle", "deal_number"], -1), "shuffle.deal_number: must be a number 1..8"),
        (_set(["shuffle", "deal_number"], 2.0), "shuffle.deal_number: must be a number 1..8"),
        (_set(["shuffle", "deal_number"], 9), "shuffle.deal_number: must be a number 1..8"),
        (_set(["shuffle", "deal_number"], KeyError), "shuffle.deal_number: must be a number"),
        (_set(["deal_number"], True), "deal_number: must be the whole number shuffle.deal_number"),
        (_set(["shuffle", "deals"], 0), "shuffle.deals: must be 1..100000"),
        (
            _set(["shuffle", "client_seeds", "4"], "bot"),
            'shuffle.client_seeds: must map exactly "0".."3"',
        ),
        (
            _set(["shuffle", "client_seeds", "1"], ""),
            'shuffle.client_seeds: must map exactly "0".."3"',
        ),
        (
            _set(["shuffle", "client_seeds", "1"], 5),
            'shuffle.client_seeds: must map exactly "0".."3"',
        ),
        (
            _set(["shuffle", "client_seeds"], KeyError),
            'shuffle.client_seeds: must map exactly "0".."3"',
        ),
        (_set(["hands", "4"], []), 'hands: must map exactly "0".."3"'),
        (_set(["hands", "1"], ["2c"] * 13), "hands.1: must be a list of 13 card codes"),
        (_set(["hands"], KeyError), 'hands: must map exactly "0".."3"'),
        (_set(["format"], KeyError), "format: must be 'trix-deal/1'"),
        (_set(["shuffle"], KeyError), "shuffle: missing, so there is no revealed seed to check"),
        (_set(["shuffle", "algorithm"], KeyError), "shuffle.algorithm: must be 'trix-shuffle/1'"),
        (_set(["shuffle", "match_id"], KeyError), "shuffle.match_id: must be 1 to 64 printable"),
        (_set(["shuffle", "match_id"], ""), "shuffle.match_id: must be 1 to 64 printable"),
        (_set(["shuffle", "commitment"], KeyError), "shuffle.commitment: must be 64 lower-case"),
        (_set(["shuffle", "server_seed"], "AB" * 32), "shuffle.server_seed: must be 64 lower-case"),
        (_set(["shuffle", "extra"], 1), "shuffle: unknown field(s) ['extra']"),
        (_set(["options"], []), "options: must be an object"),
        (_set(["owner"], 3.0), "owner: must be a seat 0..3"),
        (_set(["owner"], True), "owner: must be a seat 0..3"),
        (_set(["doubles"], None), "doubles: must be an object keyed by seat"),
        (_set(["shuffle", "signature"], KeyError), "shuffle.signature: must be 128 lower-case hex"),
        (
            _set(["shuffle", "receipt", "deals"], 8.0),
            "shuffle.receipt.deals: must be a whole number",
        ),
        (  # one deal more than the rules play: the last deal (its seed) would never come
            _set(["shuffle", "receipt", "deals"], 9),
            "shuffle.receipt.deals: 9, where complex_partner plays 8",
        ),
        (
            _set(["shuffle", "receipt", "client_seeds", "0"], ""),
            "shuffle.receipt.client_seeds: must map",
        ),
        (
            _set(["shuffle", "receipt", "issued_at"], "now"),
            "shuffle.receipt.issued_at: must be a UTC",
        ),
    ],
)
def test_strict_input_checks_refuse_with_one_line(tmp_path, records, change, expected):
    change(records[1])
    code, out, err = run(tmp_path, records)
    assert (code, out) == (1, ""), out
    assert err.startswith("cannot check this record: record ") and err.count("\n") == 1
    assert err.split(": ", 1)[1].split(": ", 1)[1].startswith(expected), err


@pytest.mark.parametrize("deal_number", [0, -5, True, 10**12])
def test_hostile_deal_numbers_in_a_real_run_give_one_line_no_traceback(
    tmp_path, records, deal_number
):
    records[0]["shuffle"]["deal_number"] = deal_number
    code, out, err = run(tmp_path, records[0], process=True)
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith("cannot check this record: record 1: shuffle.deal_number")


@pytest.mark.parametrize(
    "content",
    ["[" * 100_000 + "]" * 100_000, "[]", "not json", '{"format": "trix-deal/1"}', "3"],
)
def test_unusable_files_are_one_line(tmp_path, content):
    code, out, err = run(tmp_path, content, process=True)
    assert code == 1 and out == "" and err.startswith("cannot check this record:")
    assert "Traceback" not in err and err.count("\n") == 1, err


def test_a_repeated_deal_and_records_of_another_match(tmp_path, records, site_match):
    code, out, _ = run(tmp_path, records + [records[3]])
    assert code == 1 and "deals: must be 1..8 once each; missing [], twice [4]" in out
    other = played_records("complex_partner", "table-13", "33" * 32, ["bot"] * 4)
    other, _, _ = with_receipt(other, SITE_KEY)
    code, out, _ = run(tmp_path, records[:4] + other[4:])
    assert code == 1 and "deal 5: shuffle.match_id differs from deal 1's" in out


def test_a_saved_receipt_alone_or_with_its_signature(tmp_path, site_match):
    records, receipt, signature = site_match
    for saved in (receipt, {"receipt": receipt, "signature": signature}):
        path = tmp_path / "receipt.json"
        path.write_text(json.dumps(saved))
        code, out, err = run(tmp_path, records, "--receipt", path, "--public-key", SITE_PUBLIC)
        assert (code, err) == (0, ""), err
    path.write_text(json.dumps({"receipt": receipt, "signature": "00" * 64}))
    code, _, err = run(tmp_path, records, "--receipt", path)
    assert (code, err) == (1, "cannot check this record: --receipt: another signature\n")


def _log_file(tmp_path, entries, name="log.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path


def test_a_second_receipt_appended_for_the_match_is_refused(tmp_path, site_match):
    """The reviewer's attack: a second match-receipt, signed by the site's key, for a forged
    match under the real match id, appended after the real entries (all left untouched)."""
    from games.fairness.transparency import next_entry

    records, receipt, signature = site_match
    forged = forged_records(records, ["mallory", "bot", "x", "bot"])
    resigned, forged_receipt, forged_signature = with_receipt(forged, SITE_KEY)
    entries = match_log((records, receipt, signature))
    body = {"receipt": forged_receipt, "signature": forged_signature}
    entries.append(
        next_entry(prev=entries[-1], kind="match-receipt", body=body, logged_at=LOGGED_AT)
    )
    log = _log_file(tmp_path, entries)
    code, out, err = run(tmp_path, resigned, "--public-key", SITE_PUBLIC, "--log", log)
    assert (code, out) == (1, "")
    assert err == (
        "cannot check this record: log entry 11: a second match-receipt of 'table-12' "
        "(and entry 2)\n"
    )
    honest = _log_file(tmp_path, entries[:11], "honest.jsonl")
    code, out, err = run(tmp_path, resigned, "--public-key", SITE_PUBLIC, "--log", honest)
    assert (code, out) == (1, "")
    assert err == "cannot check this record: log: the log holds another receipt for the match (2)\n"
    code, out, err = run(tmp_path, records, "--public-key", SITE_PUBLIC, "--log", honest)
    assert (code, err) == (0, ""), err


def test_other_plays_over_the_same_hands_are_refused_by_the_log(tmp_path, site_match):
    """The reviewer's second attack: the real secret and seeds, the same hands, other plays
    and scores; the log's deal-record entries bind every record."""
    records, receipt, signature = site_match
    replayed = played_records(
        "complex_partner", "table-12", "22" * 32, ["7f3a9c", "bot", "x", "bot"], seed=123
    )
    other = copy.deepcopy(records)
    other[0] = {**replayed[0], "shuffle": other[0]["shuffle"]}
    assert other[0]["hands"] == records[0]["hands"] and other[0] != records[0]
    log = _log_file(tmp_path, match_log((records, receipt, signature)))
    code, out, err = run(tmp_path, other, "--public-key", SITE_PUBLIC)
    assert code == 0  # the cards alone cannot tell
    code, out, err = run(tmp_path, other, "--public-key", SITE_PUBLIC, "--log", log)
    assert (code, out) == (1, "deal 1: log: not the record logged for this deal (plays, scores)\n")


def test_a_saved_head(tmp_path, site_match):
    records, receipt, signature = site_match
    entries = match_log((records, receipt, signature))
    log = _log_file(tmp_path, entries)
    head = {"format": "trix-log-head/1", "size": 3, "head": entry_hash(entries[2])}
    saved = tmp_path / "head.json"
    saved.write_text(json.dumps({**head, "signature": sign(head, SITE_KEY)}))
    code, out, err = run(
        tmp_path, records, "--log", log, "--head", saved, "--public-key", SITE_PUBLIC
    )
    assert (code, err) == (0, ""), err
    assert "note: the saved head (size 3) is the head of the log's first 3 entries" in out
    saved.write_text(json.dumps({**head, "signature": sign(head, new_private_key())}))
    code, out, err = run(
        tmp_path, records, "--log", log, "--head", saved, "--public-key", SITE_PUBLIC
    )
    assert (code, err) == (1, "cannot check this record: --head: signature: not valid\n")
    saved.write_text(json.dumps({**head, "head": "ab" * 32}))
    code, out, err = run(tmp_path, records, "--log", log, "--head", saved)
    assert (code, err) == (
        1,
        "cannot check this record: --head: the log's first 3 entries hash to another head\n",
    )
    saved.write_text(json.dumps({**head, "size": 12}))
    code, out, err = run(tmp_path, records, "--log", log, "--head", saved)
    assert err == "cannot check this record: --head: more entries than the log has\n"
    code, out, err = run(tmp_path, records, "--head", saved)
    assert err == "cannot check this record: --head: give the log too (--log FILE)\n"


def test_duplicate_keys_are_refused(tmp_path, records):
    text = json.dumps(records[0])
    code, out, err = run(tmp_path, text[:-1] + ', "owner": 0}')
    assert code == 1 and err.startswith("cannot check this record: JSON: a key given twice")
