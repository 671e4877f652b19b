"""Auditors' checks: verify_record, verify_match, the payloads, `trix verify` and the
standalone verifier, on records of matches the engine really played."""

import copy
import io
import json
import subprocess
import sys

import pytest

from games.engine.cli import main as trix
from games.fairness import (
    deal_verification,
    match_verification,
    verify_cli,
    verify_match,
    verify_record,
)
from games.fairness.simulation import simulation_dealer
from tests.games.fairness_helpers import REPO, STANDALONE, load_standalone, simulated_records


@pytest.fixture(scope="module")
def complex_match():
    return simulated_records("complex_partner", seed=11)


@pytest.fixture(scope="module")
def trix_match():
    return simulated_records("trix", seed=12)


@pytest.fixture
def record(complex_match):
    return copy.deepcopy(complex_match[2])


def _flip_hex(value: str) -> str:
    return ("1" if value[0] == "0" else "0") + value[1:]


def _cli(path, stdin_text=None):
    out, err = io.StringIO(), io.StringIO()
    code = verify_cli(str(path), out, err, io.StringIO(stdin_text or ""))
    return code, out.getvalue(), err.getvalue()


def _standalone(tmp_path, record):
    path = tmp_path / "standalone.json"
    path.write_text(json.dumps(record))
    result = subprocess.run(
        [sys.executable, "-I", str(STANDALONE), str(path)], capture_output=True, text=True
    )
    return result.returncode, result.stdout


# --- records of played matches verify ---------------------------------------------------


def test_every_record_of_played_matches_verifies(complex_match, trix_match):
    assert len(complex_match) == 8 and len(trix_match) == 20
    for record in complex_match + trix_match:
        assert verify_record(record) == []
    assert verify_match(complex_match) == []
    assert verify_match(list(reversed(trix_match))) == []


NO_RECEIPT_NOTE = "note: cards only, no receipt: nothing binds the client seeds to the match start"
CLI_NO_RECEIPT = (
    "note: 1 record(s) without a receipt (from before receipts): cards and plays only, "
    "nothing binds their client seeds to the match start"
)


def test_the_standalone_verifier_accepts_them(tmp_path, complex_match):
    for record in complex_match:
        assert _standalone(tmp_path, record) == (0, f"verified\n{NO_RECEIPT_NOTE}\n")
    assert load_standalone().verify(complex_match[0]) == []


def test_the_simulation_dealer_is_reproducible():
    a = simulation_dealer(5, 8)(0, 1)
    b = simulation_dealer(5, 8)(0, 1)
    assert a == b and a[1]["match_id"] == "sim-5-1"
    assert simulation_dealer(5, 8)(1, 1)[1]["commitment"] != a[1]["commitment"]


# --- tampering ----------------------------------------------------------------------------


def test_tampered_card_names_both_hands_and_the_cards(record, tmp_path):
    a, b = record["hands"]["0"][4], record["hands"]["3"][7]
    record["hands"]["0"][4], record["hands"]["3"][7] = b, a
    problems = verify_record(record)
    assert f"hands.0: the record has {b} where the shuffle dealt {a}" in problems
    assert f"hands.3: the record has {a} where the shuffle dealt {b}" in problems
    assert _standalone(tmp_path, record)[0] == 1


def test_a_card_replaced_by_a_duplicate_is_named(record):
    original = record["hands"]["1"][0]
    record["hands"]["1"][0] = record["hands"]["2"][0]
    problems = verify_record(record, replay=False)
    assert problems[0].startswith(f"hands.1: the record has {record['hands']['2'][0]}")
    assert problems[0].endswith(f"where the shuffle dealt {original}")


def test_tampered_client_seed_fails(record, tmp_path):
    record["shuffle"]["client_seeds"]["2"] = "bot."
    problems = verify_record(record)
    assert problems[0].startswith("hands: no seat holds the hand dealt by this")
    assert "shuffle.client_seeds" in problems[0]
    assert all(f"hands.{seat}:" in " ".join(problems) for seat in range(4))
    assert not any("commitment" in line for line in problems)
    assert _standalone(tmp_path, record)[0] == 1


def test_tampered_seed_fails_on_the_commitment(record, tmp_path):
    record["shuffle"]["server_seed"] = _flip_hex(record["shuffle"]["server_seed"])
    problems = verify_record(record)
    assert problems[0].startswith("shuffle.server_seed does not match shuffle.commitment")
    assert record["shuffle"]["commitment"] in problems[0]
    assert any(line.startswith("hands: ") for line in problems)
    assert _standalone(tmp_path, record)[0] == 1


def test_tampered_commitment_fails(record, tmp_path):
    record["shuffle"]["commitment"] = _flip_hex(record["shuffle"]["commitment"])
    problems = verify_record(record)
    assert problems == [problems[0]]
    assert problems[0].startswith("shuffle.server_seed does not match shuffle.commitment")
    assert "SHA-256 applied 3 times" in problems[0]
    assert _standalone(tmp_path, record)[0] == 1


def test_tampered_deal_number_fails(record):
    record["shuffle"]["deal_number"] = 4
    problems = verify_record(record)
    assert problems[0].startswith("shuffle.server_seed does not match shuffle.commitment")


def test_an_earlier_seed_of_the_chain_does_not_pass_for_a_later_deal(complex_match):
    record = copy.deepcopy(complex_match[3])
    record["shuffle"]["server_seed"] = complex_match[2]["shuffle"]["server_seed"]
    assert any("does not match shuffle.commitment" in p for p in verify_record(record))


def test_tampered_plays_are_named_by_the_engine(record, tmp_path):
    record["plays"][0], record["plays"][1] = record["plays"][1], record["plays"][0]
    problems = verify_record(record)
    assert len(problems) == 1 and problems[0].startswith("replay: play ")
    # The standalone verifier checks the cards only: it still accepts this record.
    assert _standalone(tmp_path, record)[0] == 0


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        (lambda r: r.pop("shuffle"), "shuffle: the record has no shuffle object"),
        (lambda r: r["shuffle"].update(algorithm="trix-shuffle/9"), "shuffle.algorithm: "),
        (lambda r: r["shuffle"].update(server_seed="xyz"), "shuffle.server_seed: server seed"),
        (lambda r: r["shuffle"].pop("commitment"), "shuffle.commitment: missing"),
        (lambda r: r["shuffle"].update(deal_number="3"), "shuffle.deal_number: deal number"),
        (lambda r: r["shuffle"].update(match_id=""), "shuffle.match_id: match id must be 1"),
        (lambda r: r["shuffle"]["client_seeds"].pop("3"), "shuffle.client_seeds: must map"),
        (lambda r: r["shuffle"]["client_seeds"].update({"1": 5}), "shuffle.client_seeds.1: "),
        (lambda r: r.update(hands=[]), "hands: must map each seat"),
        (lambda r: r["shuffle"].update(note="x"), "shuffle: unknown field(s) note"),
        (lambda r: r["shuffle"]["client_seeds"].update({"4": "bot"}), "shuffle.client_seeds: "),
        (lambda r: r["shuffle"]["client_seeds"].update({"2": ""}), "shuffle.client_seeds.2: "),
        (lambda r: r["shuffle"].update(deals=0), "shuffle.deals: deal count must be from 1"),
        (lambda r: r["shuffle"].update(deals=True), "shuffle.deals: deal count must be an int"),
        (lambda r: r.update(format="trix-deal/0"), "format: expected 'trix-deal/1'"),
    ],
)
def test_malformed_records_are_mismatches_not_crashes(record, tamper, expected):
    tamper(record)
    problems = verify_record(record)
    assert problems and problems[0].startswith(expected), problems


@pytest.mark.parametrize("value", [None, [], "text", 3])
def test_a_record_that_is_not_an_object(value):
    assert verify_record(value) == ["record: must be a JSON object"]


# --- a whole match --------------------------------------------------------------------------


def test_match_client_seeds_must_agree_across_deals(complex_match):
    records = copy.deepcopy(complex_match)
    records[5]["shuffle"]["client_seeds"]["1"] = "other"
    problems = verify_match(records)
    assert "deal 6: shuffle.client_seeds.1 'other' differs from deal 1's 'bot'" in problems
    assert any(p.startswith("deal 6: hands: ") for p in problems)


def test_match_records_from_another_match_are_named(complex_match, trix_match):
    problems = verify_match(complex_match[:3] + trix_match[3:4])
    assert any(p.startswith("deal 4: shuffle.match_id 'sim-12-1' differs") for p in problems)
    assert any(p.startswith("deal 4: shuffle.commitment") for p in problems)


def test_match_gaps_and_repeats_are_named(complex_match):
    records = [complex_match[0], complex_match[2], copy.deepcopy(complex_match[2])]
    problems = verify_match(records)
    assert "deal 3: 2 records carry this deal number" in problems
    assert any(p.startswith("deal 2: missing from the match's records") for p in problems)
    assert verify_match([]) == ["records: expected a non-empty list of deal records"]


# --- payloads for the public page and API --------------------------------------------------


def test_deal_verification_payload(complex_match):
    record = complex_match[0]
    payload = deal_verification(record)
    shuffle_object = record["shuffle"]
    assert payload["verified"] is True and payload["mismatches"] == []
    for field in ("algorithm", "match_id", "deal_number", "commitment", "server_seed"):
        assert payload[field] == shuffle_object[field]
    assert payload["client_seeds"] == shuffle_object["client_seeds"]
    assert payload["commitment_matches"] is True
    assert len(payload["deck"]) == 52
    assert {s: sorted(h) for s, h in payload["hands"].items()} == {
        s: sorted(h) for s, h in record["hands"].items()
    }
    assert set(payload["result"]["scores"]) == {"0", "1", "2", "3"}
    json.dumps(payload)


def test_deal_verification_payload_of_a_tampered_record(record):
    record["shuffle"]["commitment"] = _flip_hex(record["shuffle"]["commitment"])
    payload = deal_verification(record)
    assert payload["verified"] is False and payload["commitment_matches"] is False
    assert payload["mismatches"][0].startswith("shuffle.server_seed does not match")


def test_match_verification_payload(complex_match):
    from games.fairness import MatchShuffle

    public = {"commitment": complex_match[0]["shuffle"]["commitment"], "deals": 8}
    payload = match_verification(list(reversed(complex_match)), public)
    assert payload["verified"] is True
    assert [d["deal_number"] for d in payload["deals"]] == list(range(1, 9))
    other = MatchShuffle.create("m-x", 8).public()
    payload = match_verification(complex_match, other)
    assert payload["verified"] is False
    assert (
        "deal 1: shuffle.commitment differs from the match's published commitment"
        in (payload["mismatches"])
    )
    assert match_verification([], other) == {
        "match": other,
        "deals": [],
        "verified": True,
        "mismatches": [],
    }


# --- the command line ------------------------------------------------------------------------


def test_verify_cli_on_a_file_stdin_a_list_and_a_directory(tmp_path, complex_match):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(complex_match[0]))
    assert _cli(path) == (0, f"verified\n{CLI_NO_RECEIPT}\n", "")
    assert _cli("-", json.dumps(complex_match[1])) == (0, f"verified\n{CLI_NO_RECEIPT}\n", "")
    listing = tmp_path / "match.json"
    listing.write_text(json.dumps(complex_match))
    eight = CLI_NO_RECEIPT.replace("1 record(s)", "8 record(s)")
    assert _cli(listing) == (0, f"verified: 8 deal records\n{eight}\n", "")
    folder = tmp_path / "records"
    folder.mkdir()
    for number, record in enumerate(complex_match, start=1):
        (folder / f"deal-{number:02d}.json").write_text(json.dumps(record))
    assert _cli(folder) == (0, f"verified: 8 deal records\n{eight}\n", "")


def test_verify_cli_reads_a_directory_of_downloads_of_any_shape(
    tmp_path, complex_match, trix_match
):
    """An auditor's folder as the site serves things: one match's "all records" list file,
    another match's records one file each, and a tournament's seating draw: each match is
    checked as a whole, the draw by its own rules; a changed draw is refused by name."""
    folder = tmp_path / "day"
    folder.mkdir()
    (folder / "table-1-records.json").write_text(json.dumps(complex_match))
    for number, record in enumerate(trix_match, start=1):
        (folder / f"deal-{number:02d}.json").write_text(json.dumps(record))
    draw = json.loads((REPO / "docs" / "example-draw.json").read_text())
    (folder / "draw.json").write_text(json.dumps(draw))
    code, out, err = _cli(folder)
    assert (code, err) == (0, ""), err
    assert out.startswith(f"verified: {len(complex_match) + len(trix_match)} deal records\n")
    changed = copy.deepcopy(draw)
    changed["rounds"][0]["tables"][0] = list(reversed(draw["rounds"][0]["tables"][0]))
    (folder / "draw.json").write_text(json.dumps(changed))
    code, out, err = _cli(folder)
    assert code == 1 and err.startswith("draw.json: trix-draw/1: round 1, table 1: "), err
    (folder / "draw.json").write_text(json.dumps(draw))
    tampered = copy.deepcopy(complex_match)
    tampered[2]["shuffle"]["client_seeds"]["0"] = "mallory"
    (folder / "table-1-records.json").write_text(json.dumps(tampered))
    code, _, err = _cli(folder)
    assert code == 1 and "hands: no seat holds the hand dealt by this" in err, err


def test_verify_cli_prints_the_mismatch_and_exits_1(tmp_path, record):
    record["shuffle"]["client_seeds"]["0"] = "mallory"
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    code, out, err = _cli(path)
    assert code == 1 and out == ""
    assert err.splitlines()[0].startswith("hands: no seat holds the hand dealt by this")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "invalid JSON: "),
        (None, "cannot read "),
        (b"\xff\xfe{}", "cannot read "),
        ("[]", "records: expected a non-empty list"),
    ],
)
def test_verify_cli_bad_input(tmp_path, content, expected):
    path = tmp_path / "deal.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    code, out, err = _cli(path)
    assert code == 1 and out == "" and err.startswith(expected)


def test_trix_verify_command(tmp_path, complex_match, record):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(complex_match[0]))
    record["shuffle"]["server_seed"] = _flip_hex(record["shuffle"]["server_seed"])
    bad.write_text(json.dumps(record))
    out, err = io.StringIO(), io.StringIO()
    assert trix(["verify", str(good)], out, err) == 0
    assert out.getvalue() == f"verified\n{CLI_NO_RECEIPT}\n"
    out, err = io.StringIO(), io.StringIO()
    assert trix(["verify", str(bad)], out, err) == 1
    assert "shuffle.server_seed does not match shuffle.commitment" in err.getvalue()


def test_trix_verify_runs_without_django(tmp_path, complex_match):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(complex_match[0]))
    code = (
        "import sys; from games.engine.cli import main; rc = main(['verify', sys.argv[1]]); "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django']; sys.exit(rc)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"verified\n{CLI_NO_RECEIPT}\n"


@pytest.mark.parametrize(
    "content",
    ['{"format": "trix-deal/1"}', "not json", '{"shuffle": {"algorithm": "trix-shuffle/1"}}'],
)
def test_standalone_verifier_refuses_a_record_it_cannot_check_without_a_traceback(
    tmp_path, content
):
    # Found by a new user: docs/example-deal.json (no shuffle block) gave a KeyError traceback.
    from tests.games.fairness_helpers import STANDALONE

    path = tmp_path / "record.json"
    path.write_text(content)
    result = subprocess.run(
        [sys.executable, str(STANDALONE), str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert result.stderr.startswith("cannot check this record:"), result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
