"""Nothing withheld: `--partial` with `--log` refuses a match's first records when the log
holds more deal records of that match (naming them), in `trix verify` and in the standalone
verifier alike; without the log it says that completeness was not checked
(docs/fairness.md, "Grouping records into a match; completeness")."""

import contextlib
import copy
import io
import json

import pytest

from games.engine.cli import main as trix
from games.fairness import verify_match
from games.fairness.receipt import load_private_key, public_key_hex
from tests.games.fairness_helpers import (
    RFC8032_TEST1_SECRET,
    load_standalone,
    match_log,
    played_records,
    with_receipt,
)

standalone = load_standalone()
SITE_KEY = load_private_key(RFC8032_TEST1_SECRET)
SITE_PUBLIC = public_key_hex(SITE_KEY)
SEEDS = ["7f3a9c", "bot", "Zm9v", "bot"]


@pytest.fixture(scope="module")
def site_match():
    """(records, receipt, signature) of an 8-deal match as the site issues it."""
    records = played_records("complex_partner", "table-12", bytes(range(32)).hex(), SEEDS)
    return with_receipt(records, SITE_KEY)


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def _log(tmp_path, records, receipt, signature):
    """The log as the site has it when ``records`` are every deal that ended so far."""
    path = tmp_path / "log.jsonl"
    entries = match_log((records, receipt, signature))
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    return str(path)


def trix_verify(tmp_path, records, *options):
    out, err = io.StringIO(), io.StringIO()
    code = trix(["verify", _write(tmp_path, "given.json", records), *options], out, err)
    return code, out.getvalue(), err.getvalue()


def standalone_verify(tmp_path, records, *options):
    out, err = io.StringIO(), io.StringIO()
    argv = [_write(tmp_path, "given.json", records), *options]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = standalone.main(argv)
    return code, out.getvalue(), err.getvalue()


WITHHELD = (
    "the log holds deal records 6, 7, 8 of match 'table-12' that were not given: a "
    "verification of part of a match that the log shows finished is refused"
)


# --- a finished match: its first records are refused, all of them verify ----------------------


def test_trix_verify_refuses_the_first_records_of_a_finished_match(tmp_path, site_match):
    records, receipt, signature = site_match
    log = _log(tmp_path, records, receipt, signature)
    code, out, err = trix_verify(tmp_path, records[:5], "--partial", "--log", log)
    assert (code, out) == (1, "")
    assert f"log: {WITHHELD}" in err.splitlines(), err


def test_the_standalone_verifier_refuses_the_first_records_of_a_finished_match(
    tmp_path, site_match
):
    records, receipt, signature = site_match
    log = _log(tmp_path, records, receipt, signature)
    code, out, err = standalone_verify(tmp_path, records[:5], "--partial", "--log", log)
    assert code == 1 and f"log: {WITHHELD}" in out.splitlines(), out + err


def test_verify_match_names_the_withheld_deals(site_match):
    records, receipt, signature = site_match
    log = match_log((records, receipt, signature))
    problems = verify_match(records[:5], partial=True, log=log, replay=False)
    assert problems == [f"log: {WITHHELD}"]


def test_records_withheld_from_the_middle_of_a_running_match_are_named(tmp_path, site_match):
    """The log holds deals 1..6 (deal 7 being played): giving 1..4 withholds 5 and 6."""
    records, receipt, signature = site_match
    log = _log(tmp_path, records[:6], receipt, signature)
    line = (
        "log: the log holds deal records 5, 6 of match 'table-12' that were not given: "
        "--partial accepts a match's first deals only when they are every deal record the "
        "log holds of it"
    )
    code, _, err = trix_verify(tmp_path, records[:4], "--partial", "--log", log)
    assert code == 1 and line in err.splitlines(), err
    code, out, _ = standalone_verify(tmp_path, records[:4], "--partial", "--log", log)
    assert code == 1 and line in out.splitlines(), out


def test_every_record_of_a_finished_match_verifies_in_both(tmp_path, site_match):
    records, receipt, signature = site_match
    log = _log(tmp_path, records, receipt, signature)
    options = ("--log", log, "--public-key", SITE_PUBLIC)
    code, out, err = trix_verify(tmp_path, records, *options)
    assert (code, err) == (0, "") and out.startswith("verified: 8 deal records\n")
    code, out, err = standalone_verify(tmp_path, records, *options)
    assert (code, err) == (0, "") and out.startswith("verified\n")
    for verify in (trix_verify, standalone_verify):  # --partial given all of them: the same
        code, out, err = verify(tmp_path, list(reversed(records)), "--partial", *options)
        assert (code, err) == (0, ""), err


# --- a running match: its records so far verify with --partial and the log ------------------


def test_a_running_matchs_records_verify_with_partial_and_the_log(tmp_path, site_match):
    records, receipt, signature = site_match
    log = _log(tmp_path, records[:5], receipt, signature)
    note = (
        "note: --partial: deals 1-5 of 8; the log holds no other deal record of match "
        "'table-12': nothing it logged was withheld (only a payout or a bots' seed entry in "
        "the log says the match ended)"
    )
    options = ("--partial", "--log", log, "--public-key", SITE_PUBLIC)
    code, out, err = trix_verify(tmp_path, records[:5], *options)
    assert (code, err) == (0, "") and note in out.splitlines(), out
    code, out, err = standalone_verify(tmp_path, records[:5], *options)
    assert (code, err) == (0, "") and note in out.splitlines(), out


def test_partial_without_the_log_says_completeness_was_not_checked(tmp_path, site_match):
    records = copy.deepcopy(site_match[0][:5])
    note = (
        "note: --partial: only the first deals were required (1-5 of 8); completeness could "
        "not be checked without the log (--log): later records of this match may exist and "
        "be withheld"
    )
    code, out, err = trix_verify(tmp_path, records, "--partial")
    assert (code, err) == (0, "") and note in out.splitlines(), out
    code, out, err = standalone_verify(tmp_path, records, "--partial")
    assert (code, err) == (0, "") and note in out.splitlines(), out


def test_partial_for_one_record_says_it_was_not_used(tmp_path, site_match):
    record = site_match[0][2]
    note = "note: --partial: not used: one record is checked alone, not as a match"
    for verify in (trix_verify, standalone_verify):
        code, out, err = verify(tmp_path, record, "--partial")
        assert (code, err) == (0, "") and note in out.splitlines(), out
