"""Issue 12 on the verifying side: records carrying the match-start receipt, the forged-match
attack, completeness of a match, the transparency log's inclusion check, and the new options
of `trix verify` (--public-key, --log, --commitment, --client-seed, --partial)."""

import copy
import io
import json

import pytest

from games.engine.cli import main as trix
from games.fairness import verify_match, verify_record
from games.fairness.errors import FairnessError
from games.fairness.receipt import (
    load_private_key,
    load_public_key,
    new_private_key,
    public_key_hex,
    sign,
)
from games.fairness.transparency import entry_hash, next_entry, verify_log
from tests.games.fairness_helpers import (
    LOGGED_AT,
    RFC8032_TEST1_SECRET,
    forged_records,
    match_log,
    played_records,
    with_receipt,
)

SITE_KEY = load_private_key(RFC8032_TEST1_SECRET)
SITE_PUBLIC = public_key_hex(SITE_KEY)
SECRET = bytes(range(32)).hex()
SEEDS = ["7f3a9c", "bot", "Zm9v", "bot"]  # seat 0 and seat 2 are people ("Seat 1", "Seat 3")
FORGED_SEEDS = ["mallory", "bot", "Zm9v", "bot"]
COMMIT_FIELDS = ("match_id", "algorithm", "commitment", "deals")


@pytest.fixture(scope="module")
def site_match():
    """(records, receipt, signature) of an 8-deal match as the site issues it."""
    records = played_records("complex_partner", "table-12", SECRET, SEEDS)
    for record in records:
        record["match"] = 12
        record["deal_number"] = record["shuffle"]["deal_number"]
    return with_receipt(records, SITE_KEY)


@pytest.fixture(scope="module")
def forged(site_match):
    """The forged match: from the real match's last revealed seed, other client seeds."""
    records, _, _ = site_match
    return forged_records(records, FORGED_SEEDS)


@pytest.fixture
def records(site_match):
    return copy.deepcopy(site_match[0])


def run(tmp_path, data, *options):
    path = tmp_path / "records.json"
    path.write_text(json.dumps(data))
    out, err = io.StringIO(), io.StringIO()
    code = trix(["verify", str(path), *options], out, err)
    return code, out.getvalue(), err.getvalue()


def log_file(tmp_path, entries, name="log.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    return str(path)


# --- a site match with its receipt verifies ------------------------------------------------


def test_a_match_with_its_receipt_verifies_with_every_option(tmp_path, site_match):
    records, receipt, signature = site_match
    assert verify_match(records, public_key=load_public_key(SITE_PUBLIC)) == []
    log = log_file(tmp_path, match_log((records, receipt, signature)))
    code, out, err = run(
        tmp_path,
        records,
        "--public-key",
        SITE_PUBLIC,
        "--log",
        log,
        "--commitment",
        receipt["commitment"].upper(),
        "--client-seed",
        "0=7f3a9c",
        "--client-seed",
        "2=Zm9v",
    )
    assert (code, err) == (0, ""), err
    lines = out.splitlines()
    assert lines[0] == "verified: 8 deal records"
    assert "note: receipt signatures valid under key " in lines[1]
    assert any(line.startswith("note: receipt ") and "at entry 2" in line for line in lines)
    assert any("log of 11 entries, head " in line for line in lines)


def test_public_key_from_a_file_or_the_sites_public_key_json(tmp_path, site_match):
    records = site_match[0]
    raw = tmp_path / "key.hex"
    raw.write_text(SITE_PUBLIC + "\n")
    served = tmp_path / "public-key.json"
    served.write_text(json.dumps({"algorithm": "ed25519", "public_key": SITE_PUBLIC}))
    for key in (raw, served):
        code, out, err = run(tmp_path, records, "--public-key", str(key))
        assert (code, err) == (0, ""), err


def test_a_single_record_with_its_receipt(tmp_path, site_match):
    records, receipt, signature = site_match
    log = log_file(tmp_path, match_log((records, receipt, signature)))
    code, out, err = run(tmp_path, records[3], "--public-key", SITE_PUBLIC, "--log", log)
    assert (code, err) == (0, "") and out.startswith("verified\n")
    code, out, err = run(tmp_path, records[3])
    assert code == 0
    assert "note: receipt signatures not checked: give --public-key" in out


# --- the forged-match attack -----------------------------------------------------------------


def test_the_forged_match_is_self_consistent_without_a_receipt(forged, site_match):
    """The attack of issue 12: from the last revealed seed anyone builds another match under
    the real commitment and match id that passes every check a record can make on itself."""
    real = site_match[0]
    assert [r["shuffle"]["commitment"] for r in forged] == [
        r["shuffle"]["commitment"] for r in real
    ]
    assert forged[0]["hands"] != real[0]["hands"]
    assert verify_match(forged) == []


def test_forged_records_are_refused_without_a_receipt_when_a_key_or_log_is_given(tmp_path, forged):
    code, out, err = run(tmp_path, forged, "--public-key", SITE_PUBLIC)
    assert code == 1 and out == ""
    assert "deal 1: shuffle.receipt: missing (a record from before receipts)" in err


def test_forged_records_carrying_the_real_receipt_are_refused(tmp_path, forged, site_match):
    _, receipt, signature = site_match
    stolen, _, _ = with_receipt(forged, SITE_KEY)
    for record in stolen:
        record["shuffle"]["receipt"], record["shuffle"]["signature"] = receipt, signature
    problems = verify_match(stolen, public_key=load_public_key(SITE_PUBLIC))
    assert (
        "deal 1: shuffle.client_seeds: {'0': 'mallory', '1': 'bot', '2': 'Zm9v', '3': 'bot'}"
        " differs from the receipt's {'0': '7f3a9c', '1': 'bot', '2': 'Zm9v', '3': 'bot'}"
        in (problems)
    )
    code, out, err = run(tmp_path, stolen, "--public-key", SITE_PUBLIC)
    assert code == 1 and out == "" and "differs from the receipt's" in err
    assert all("Traceback" not in line for line in err.splitlines())


def test_forged_records_with_a_receipt_signed_by_another_key_are_refused(tmp_path, forged):
    resigned, _, _ = with_receipt(forged, new_private_key())
    assert verify_match(resigned) == []  # no key given: the signature is not checked ...
    code, out, err = run(tmp_path, resigned, "--public-key", SITE_PUBLIC)
    assert code == 1 and out == ""  # ... the site's key refuses it
    assert "deal 1: shuffle.signature: the signature does not match the site's public key" in err


def test_a_match_the_operator_resigned_is_refused_by_the_log_and_the_players_inputs(
    tmp_path, forged, site_match
):
    """The operator holds the signing key and can sign a new receipt for the forged match:
    the log (written at the real start) and what the player saw and sent still refuse it."""
    records, receipt, signature = site_match
    resigned, _, _ = with_receipt(forged, SITE_KEY)
    code, out, err = run(tmp_path, resigned, "--public-key", SITE_PUBLIC)
    assert code == 0  # a valid signature: the key alone cannot tell
    log = log_file(tmp_path, match_log((records, receipt, signature)))
    code, out, err = run(tmp_path, resigned, "--log", log)
    assert code == 1 and "log: the log holds another receipt for match 'table-12' (entry 2)" in err
    code, out, err = run(tmp_path, resigned, "--client-seed", "0=7f3a9c")
    assert code == 1
    assert "shuffle.client_seeds.0: 'mallory' is not the client seed you sent, '7f3a9c'" in err


def test_a_record_whose_rules_differ_from_the_receipt_is_refused(records):
    records[0]["options"] = {"doubling": "sequential"}
    problems = verify_record(records[0], replay=False)
    assert any(p.startswith("variant/options: the record's rules differ") for p in problems)


@pytest.mark.parametrize(
    "tamper, expected",
    [
        (lambda s: s.update(deals=9), "shuffle.deals: 9 differs from the receipt's 8"),
        (lambda s: s.update(match_id="table-13"), "shuffle.match_id: 'table-13' differs"),
        (lambda s: s.pop("signature"), "shuffle.signature: signature must be 128"),
        (lambda s: s["receipt"].pop("issued_at"), "shuffle.receipt: receipt: missing issued_at"),
        (lambda s: s["receipt"].update(deals=8.0), "shuffle.receipt: receipt.deals must be"),
        (lambda s: s.update(receipt=[]), "shuffle.receipt: receipt must be a JSON object"),
    ],
)
def test_receipt_field_mismatches(records, tamper, expected):
    tamper(records[1]["shuffle"])
    problems = verify_record(records[1], replay=False, public_key=load_public_key(SITE_PUBLIC))
    assert any(p.startswith(expected) for p in problems), problems


# --- completeness ------------------------------------------------------------------------------


def test_a_dropped_last_deal_is_refused_unless_partial(tmp_path, records):
    problems = verify_match(records[:7])
    assert any(p.startswith("deal 8: missing from the match's records") for p in problems)
    code, out, err = run(tmp_path, records[:5])
    assert code == 1 and "deals 6-8: missing from the match's records (it has 8 deals" in err
    code, out, err = run(tmp_path, records[:5], "--partial")
    assert code == 0 and "note: --partial: only the first deals were required" in out
    code, out, err = run(tmp_path, records[:2] + records[3:5], "--partial")
    assert code == 1 and "deal 3: missing" in err


def test_a_repeated_deal_is_refused(records):
    problems = verify_match(records + [copy.deepcopy(records[4])])
    assert "deal 5: 2 records carry this deal number" in problems


def test_a_reordered_deal_is_refused_and_list_order_does_not_matter(records):
    assert verify_match(list(reversed(records))) == []
    swapped = copy.deepcopy(records)
    a, b = swapped[2], swapped[3]
    a["shuffle"]["deal_number"], b["shuffle"]["deal_number"] = 4, 3
    a["deal_number"], b["deal_number"] = 4, 3
    problems = verify_match(swapped, replay=False)
    assert any(p.startswith("deal 4: shuffle.server_seed does not match") for p in problems)
    assert any(p.startswith("deal 3: shuffle.server_seed does not match") for p in problems)


@pytest.mark.parametrize(
    "value, expected",
    [
        (0, "shuffle.deal_number: deal number must be from 1"),
        (-3, "shuffle.deal_number: deal number must be from 1"),
        (True, "shuffle.deal_number: deal number must be an integer"),
        (2.0, "shuffle.deal_number: deal number must be an integer"),
        (9, "shuffle.deal_number: must be at most shuffle.deals (8)"),
    ],
)
def test_deal_numbers_must_be_ints_in_range(records, value, expected):
    records[1]["shuffle"]["deal_number"] = value
    records[1]["deal_number"] = value
    problems = verify_match(records, replay=False)
    assert any(expected in p for p in problems), problems


def test_the_records_deal_number_must_equal_the_shuffles(records):
    records[2]["deal_number"] = 2
    assert "deal_number: 2 differs from shuffle.deal_number 3" in verify_record(
        records[2], replay=False
    )


def test_every_record_of_a_match_carries_the_same_receipt(records):
    other, _, _ = with_receipt(records, SITE_KEY, issued_at="2026-12-01T11:00:00Z")
    mixed = records[:4] + other[4:]
    problems = verify_match(mixed, replay=False)
    assert "deal 5: shuffle.receipt differs from deal 1's" in problems
    assert "deal 5: shuffle.signature differs from deal 1's" in problems
    old = copy.deepcopy(records)
    for key in ("receipt", "signature", "deals"):
        old[7]["shuffle"].pop(key)
    assert "deal 8: shuffle.receipt differs from deal 1's" in verify_match(old, replay=False)


def test_a_directory_of_two_matches_is_grouped_by_match_and_commitment(tmp_path, site_match):
    other = played_records("complex", "table-13", "11" * 32, ["bot", "abc", "bot", "bot"])
    other, _, _ = with_receipt(other, SITE_KEY)
    folder = tmp_path / "records"
    folder.mkdir()
    for record in site_match[0] + other:
        name = f"{record['shuffle']['match_id']}-deal-{record['shuffle']['deal_number']}.json"
        (folder / name).write_text(json.dumps(record))
    out, err = io.StringIO(), io.StringIO()
    assert trix(["verify", str(folder), "--public-key", SITE_PUBLIC], out, err) == 0, err
    assert out.getvalue().startswith("verified: 16 deal records\n")
    (folder / "table-13-deal-8.json").unlink()
    out, err = io.StringIO(), io.StringIO()
    assert trix(["verify", str(folder)], out, err) == 1
    assert err.getvalue().startswith("match table-13: deal 8: missing")


# --- the log --------------------------------------------------------------------------------------


def _removed(entries):
    return entries[:1] + entries[2:]


def _changed(entries):
    entries[1]["body"]["commitment"] = "cd" * 32
    return entries


def _reordered(entries):
    entries[0], entries[1] = entries[1], entries[0]
    return entries


def _rechained(entries):
    """Entry 1 changed and every later prev recomputed: the chain holds, the head differs."""
    entries[1]["body"]["commitment"] = "cd" * 32
    for i in range(2, len(entries)):
        entries[i]["prev"] = entry_hash(entries[i - 1])
    return entries


@pytest.mark.parametrize(
    "tamper, expected",
    [
        (_removed, "--log: log entry 1: has index 2 (an entry is missing or moved)"),
        (_changed, "--log: log entry 2: prev is not the hash of entry 1"),
        (_reordered, "--log: log entry 0: has index 1 (an entry is missing or moved)"),
    ],
)
def test_log_tampering_is_refused(tmp_path, site_match, tamper, expected):
    records, receipt, signature = site_match
    entries = tamper(match_log((records, receipt, signature)))
    code, out, err = run(tmp_path, records, "--log", log_file(tmp_path, entries))
    assert (code, out, err) == (1, "", expected + "\n")


def test_a_rechained_log_shows_another_head(tmp_path, site_match):
    records, receipt, signature = site_match
    code, out, _ = run(
        tmp_path, records, "--log", log_file(tmp_path, match_log((records, receipt, signature)))
    )
    honest = [line for line in out.splitlines() if "head" in line]
    entries = _rechained(match_log((records, receipt, signature)))
    code, out, _ = run(tmp_path, records, "--log", log_file(tmp_path, entries))
    assert code == 0  # a consistent log: only a head saved earlier exposes the rewrite
    assert [line for line in out.splitlines() if "head" in line] != honest


def test_a_receipt_logged_with_another_signature_or_without_its_commitment(tmp_path, site_match):
    records, receipt, signature = site_match
    entries = match_log((receipt, sign({"other": 1}, SITE_KEY)))
    code, _, err = run(tmp_path, records, "--log", log_file(tmp_path, entries))
    assert code == 1 and "holds this receipt with another signature" in err
    entries = match_log((records, receipt, signature))
    entries[0]["body"]["deals"] = 20
    for i in range(1, len(entries)):
        entries[i]["prev"] = entry_hash(entries[i - 1])
    code, _, err = run(tmp_path, records, "--log", log_file(tmp_path, entries))
    assert code == 1 and err == (
        "--log: log entry 2: the match-receipt of match 'table-12' has no match-commitment "
        "entry before it with its commitment, algorithm and deal count\n"
    )


def test_an_unreadable_log_is_one_line(tmp_path, site_match):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"index": 0}\nnot json\n')
    code, out, err = run(tmp_path, site_match[0], "--log", str(bad))
    assert (code, out) == (1, "") and err == "--log: log line 2: not JSON\n"
    code, out, err = run(tmp_path, site_match[0], "--log", str(tmp_path / "missing.jsonl"))
    assert code == 1 and err.startswith("--log: cannot read") and err.count("\n") == 1


# --- the player's inputs and malformed option values -------------------------------------------


def test_the_commitment_the_player_saw(tmp_path, records):
    code, out, err = run(tmp_path, records, "--commitment", "ab" * 32)
    assert code == 1 and out == ""
    assert err.splitlines()[0] == (
        f"deal 1: shuffle.commitment: {records[0]['shuffle']['commitment']} is not the "
        f"commitment you saw, {'ab' * 32}"
    )


@pytest.mark.parametrize(
    "options, expected",
    [
        (["--client-seed", "4=abc"], "--client-seed '4=abc': give SEAT=TEXT; seats are 0..3"),
        (["--client-seed", "abc"], "--client-seed 'abc': give SEAT=TEXT"),
        (["--client-seed", "0="], "--client-seed 0 must be 1 to 64 characters"),
        (["--client-seed", "1=a", "--client-seed", "1=b"], "--client-seed: seat 1 is given twice"),
        (["--commitment", "xyz"], "--commitment must be 64 lower-case hex digits"),
        (["--public-key", "not a key"], "--public-key: the public key must be 64 hex digits"),
    ],
)
def test_malformed_option_values_exit_2_with_one_line(tmp_path, records, options, expected):
    code, out, err = run(tmp_path, records, *options)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(expected), err


def test_the_seat_hint_names_the_table_pages_numbering(tmp_path, records):
    _, _, err = run(tmp_path, records, "--client-seed", "4=Zm9v")
    assert "the table page's Seat 1..4 is record seat 0..3" in err


def test_old_records_are_refused_when_a_key_or_log_is_given(tmp_path, site_match, records):
    for record in records:
        for key in ("receipt", "signature", "deals"):
            record["shuffle"].pop(key)
    code, out, _ = run(tmp_path, records)
    assert code == 0 and "8 record(s) without a receipt" in out
    log = log_file(tmp_path, match_log(site_match[1:]))
    for options in (["--public-key", SITE_PUBLIC], ["--log", log]):
        code, out, err = run(tmp_path, records, *options)
        assert code == 1 and out == "" and "shuffle.receipt: missing" in err


# --- a log head saved earlier ---------------------------------------------------------------------


def _saved_head(tmp_path, entries, key=SITE_KEY):
    from games.fairness.transparency import log_head, verify_log

    payload = log_head(len(entries), verify_log(entries))
    path = tmp_path / "log-head.json"
    path.write_text(json.dumps({**payload, "signature": sign(payload, key)}))
    return str(path)


def test_a_saved_head_of_an_earlier_log_is_a_prefix_of_the_log_now(tmp_path, site_match):
    records, receipt, signature = site_match
    entries = match_log((records, receipt, signature))
    saved = _saved_head(tmp_path, entries[:2])  # saved when the log had two entries
    log = log_file(tmp_path, entries)
    code, out, err = run(
        tmp_path, records, "--log", log, "--head", saved, "--public-key", SITE_PUBLIC
    )
    assert (code, err) == (0, ""), err
    assert "note: the saved head (size 2) is the head of the log's first 2 entries" in out


def test_a_saved_head_exposes_a_rewritten_or_shortened_log(tmp_path, site_match):
    records, receipt, signature = site_match
    saved = _saved_head(tmp_path, match_log((records, receipt, signature)))
    rewritten = log_file(tmp_path, _rechained(match_log((records, receipt, signature))))
    code, out, err = run(tmp_path, records, "--log", rewritten, "--head", saved)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("--head: the log's first 11 entries hash to ")
    assert err.endswith("the log was rewritten\n")
    shortened = log_file(tmp_path, match_log((records, receipt, signature))[:2])
    code, out, err = run(tmp_path, records, "--log", shortened, "--head", saved)
    assert code == 1
    assert (
        err
        == "--head: the saved head covers 11 entries, the log has only 2: entries were removed\n"
    )


def test_a_saved_head_signed_by_another_key_and_head_without_log(tmp_path, site_match):
    records, receipt, signature = site_match
    entries = match_log((records, receipt, signature))
    saved = _saved_head(tmp_path, entries, key=new_private_key())
    log = log_file(tmp_path, entries)
    code, _, err = run(
        tmp_path, records, "--log", log, "--head", saved, "--public-key", SITE_PUBLIC
    )
    assert code == 1 and err.startswith("--head: signature: the signature does not match")
    code, _, err = run(tmp_path, records, "--head", saved)
    assert (code, err) == (2, "--head: give the log too (--log FILE)\n")


# --- a second receipt appended for a match; plays and scores bound by the log --------------


def _append(entries, kind, body):
    from games.fairness.transparency import next_entry

    entries.append(next_entry(prev=entries[-1], kind=kind, body=body, logged_at=LOGGED_AT))
    return entries


def test_a_second_receipt_appended_for_the_match_is_refused(tmp_path, forged, site_match):
    """The reviewer's attack: an ordinary append of a second match-receipt (signed by the
    site's key) for a forged match under the real match id; earlier entries untouched."""
    records, receipt, signature = site_match
    resigned, forged_receipt, forged_signature = with_receipt(forged, SITE_KEY)
    entries = match_log((records, receipt, signature))
    _append(entries, "match-receipt", {"receipt": forged_receipt, "signature": forged_signature})
    with pytest.raises(FairnessError) as refused:
        verify_log(entries)
    assert str(refused.value) == (
        "log entry 11: a second match-receipt of match 'table-12' (the log holds one at entry "
        "2): the log admits one"
    )
    log = log_file(tmp_path, entries)
    code, out, err = run(tmp_path, resigned, "--log", log, "--public-key", SITE_PUBLIC)
    assert (code, out) == (1, "") and err.startswith("--log: log entry 11: a second match-receipt")
    saved = _saved_head(tmp_path, entries[:11])
    code, out, err = run(tmp_path, resigned, "--log", log, "--head", saved)
    assert code == 1 and "a second match-receipt of match 'table-12'" in err
    honest = log_file(tmp_path, entries[:11], "honest.jsonl")
    code, out, err = run(tmp_path, records, "--log", honest, "--public-key", SITE_PUBLIC)
    assert (code, err) == (0, "")  # the real match still verifies


@pytest.mark.parametrize(
    "kind, body, first",
    [
        ("match-commitment", lambda r: {k: r[k] for k in COMMIT_FIELDS}, 0),
        (
            "deal-record",
            lambda r: {"match_id": "table-12", "deal_number": 3, "record_hash": "ee" * 32},
            5,
        ),
        (
            "draw-commitment",
            lambda r: {
                "event": "tournament:1",
                "algorithm": "trix-draw/1",
                "commitment": "ab" * 32,
            },
            1,
        ),
    ],
)
def test_the_log_admits_one_entry_per_kind_and_subject(site_match, kind, body, first):
    records, receipt, signature = site_match
    entries = _append(match_log((records, receipt, signature)), kind, body(receipt))
    with pytest.raises(FairnessError, match=rf"log entry 11: a second {kind} .*entry {first}\)"):
        verify_log(entries)


def test_a_draw_key_twice_is_refused():
    entries = []
    for _ in range(2):
        body = {"event": "t:1", "commitment": "ab" * 32, "server_seed": "cd" * 32}
        entries.append(
            next_entry(
                prev=entries[-1] if entries else None,
                kind="draw-key",
                body={**body, "entrants_hash": "ef" * 32},
                logged_at=LOGGED_AT,
            )
        )
    with pytest.raises(FairnessError, match="log entry 1: a second draw-key of event 't:1'"):
        verify_log(entries)


def _other_plays(site_match):
    """The reviewer's second attack: deal 1 with the real secret, seeds and hands, replayed
    with other plays (another bot seed): other contract choices, tricks and scores."""
    records, receipt, signature = site_match
    replayed = played_records("complex_partner", "table-12", SECRET, SEEDS, seed=123)
    forged = copy.deepcopy(records)
    first = {**replayed[0], "match": 12, "deal_number": 1}
    first["shuffle"] = forged[0]["shuffle"]
    assert first["hands"] == forged[0]["hands"] and first != forged[0]
    forged[0] = first
    return forged


def test_other_plays_over_the_same_hands_are_refused_by_the_log(tmp_path, site_match):
    records, receipt, signature = site_match
    forged = _other_plays(site_match)
    assert verify_match(forged, public_key=load_public_key(SITE_PUBLIC)) == []  # unbound
    log = log_file(tmp_path, match_log((records, receipt, signature)))
    code, out, err = run(tmp_path, forged, "--log", log, "--public-key", SITE_PUBLIC)
    assert (code, out) == (1, "")
    assert err.startswith("deal 1: log: the record hashes to ")
    assert "not to the record_hash of entry 3" in err and err.count("\n") == 1
    code, out, err = run(tmp_path, forged[0], "--log", log)
    assert code == 1 and "deal 1: log: the record hashes to " in err
    code, out, err = run(tmp_path, records, "--log", log)
    assert code == 0 and "note: 8 record(s) each the deal-record logged for its deal" in out
    bare = log_file(tmp_path, match_log((receipt, signature)), "bare.jsonl")
    code, out, err = run(tmp_path, records, "--log", bare)
    assert code == 1 and "deal 1: log: no deal-record entry of match 'table-12' deal 1" in err


# --- strict inputs of trix verify -------------------------------------------------------------


def test_an_upper_case_server_seed_is_refused(tmp_path, records):
    records[2]["shuffle"]["server_seed"] = records[2]["shuffle"]["server_seed"].upper()
    code, out, err = run(tmp_path, records)
    assert (code, out) == (1, "")
    assert "deal 3: shuffle.server_seed: must be 64 lower-case hex digits" in err


def test_duplicate_json_keys_are_refused(tmp_path, site_match):
    records, receipt, signature = site_match
    path = tmp_path / "record.json"
    text = json.dumps(records[0])
    path.write_text(text[:-1] + ', "owner": 0}')
    out, err = io.StringIO(), io.StringIO()
    assert trix(["verify", str(path)], out, err) == 1
    assert err.getvalue() == (
        f"invalid JSON: {path}: the key 'owner' is given twice in one object\n"
    )
    lines = [json.dumps(e) for e in match_log((records, receipt, signature))]
    lines[1] = lines[1][:-1] + ', "kind": "draw-key"}'
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(lines) + "\n")
    code, out, err = run(tmp_path, records, "--log", str(log))
    assert (code, err) == (1, "--log: log line 2: the key 'kind' is given twice in one object\n")


def test_a_public_key_file_that_does_not_exist_is_named(tmp_path, records):
    code, out, err = run(tmp_path, records, "--public-key", "/nonexistent/key.json")
    assert (code, out) == (2, "")
    assert err.startswith("--public-key: /nonexistent/key.json: no such file (and not a key")


@pytest.mark.parametrize("variant", ["trix", "complex", "complex_partner", "trix_partner"])
def test_records_of_every_variant_hash_without_a_float(variant):
    """The site hashes each record when its deal ends (deal-record): no float may be in it."""
    from games.fairness.canonical import sha256_hex
    from tests.games.fairness_helpers import simulated_records

    for record in simulated_records(variant, 5):
        assert len(sha256_hex({**record, "match": 1, "deal_number": 1})) == 64
