"""Commit first (docs/fairness.md, section 7a): each person's client seed enters the log as a
``seat-seed`` entry after the match's commitment, and the receipt names both entries
(``commitment_entry``, ``seed_entries``). The log, `trix verify` and the standalone verifier
refuse a seed logged before its commitment or after its receipt, a receipt naming entries the
log does not hold there, and a rewritten match that turns a bot seat into a person's; the
genuine match verifies with a note saying the commitment came first."""

import contextlib
import io
import json

import pytest

from games.engine.cli import main as trix
from games.fairness.canonical import sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.receipt import (
    build_receipt,
    check_receipt,
    load_private_key,
    public_key_hex,
    sign,
)
from games.fairness.transparency import next_entry, verify_log
from tests.games.fairness_helpers import (
    ISSUED_AT,
    LOGGED_AT,
    RFC8032_TEST1_SECRET,
    carrying,
    forged_records,
    load_standalone,
    played_records,
)

standalone = load_standalone()
SITE_KEY = load_private_key(RFC8032_TEST1_SECRET)
SITE_PUBLIC = public_key_hex(SITE_KEY)
SECRET = bytes(range(32)).hex()
SEEDS = ["7f3a9c", "bot", "Zm9v", "bot"]  # seats 0 and 2 are people, 1 and 3 bots


def _receipt(records, seeds, bots, order):
    first = records[0]
    shuffle = first["shuffle"]
    from games.engine.options import Options

    options = Options.from_dict({**first["options"], "variant": first["variant"]})
    return build_receipt(
        match_id=shuffle["match_id"],
        algorithm=shuffle["algorithm"],
        commitment=shuffle["commitment"],
        deals=options.deals_per_match,
        variant=first["variant"],
        options=options.to_dict(),
        client_seeds=seeds,
        issued_at=ISSUED_AT,
        bots=bots,
        order=order,
    )


def _log(records, receipt, signature, seat_seeds):
    """The log as the site writes it: the commitment, then ``seat_seeds`` (``(kind, body)``
    entries, in order), the receipt, one deal-record per record. Written without the
    appends' checks, so a forger's log can be written too (``verify_log`` judges it)."""
    entries: list[dict] = []

    def add(kind, body):
        prev = entries[-1] if entries else None
        entries.append(next_entry(prev=prev, kind=kind, body=body, logged_at=LOGGED_AT))

    fields = ("match_id", "algorithm", "commitment", "deals")
    add("match-commitment", {field: receipt[field] for field in fields})
    for kind, body in seat_seeds:
        add(kind, body)
    add("match-receipt", {"receipt": receipt, "signature": signature})
    for record in records:
        number = record["shuffle"]["deal_number"]
        body = {"match_id": receipt["match_id"], "deal_number": number}
        add("deal-record", {**body, "record_hash": sha256_hex(record)})
    return entries


def _seed(seat, seed, source="player", match_id="table-12"):
    body = {"match_id": match_id, "seat": seat, "client_seed": seed, "source": source}
    return ("seat-seed", body)


@pytest.fixture(scope="module")
def site_match():
    """(records, receipt, signature, log) of a match as the site issues it now: seats 0
    and 2 people whose seeds were logged at entries 1 and 2, after the commitment (0)."""
    records = played_records("complex_partner", "table-12", SECRET, SEEDS)
    receipt = _receipt(records, SEEDS, [1, 3], (0, {"0": 1, "2": 2}))
    records, receipt, signature = carrying(records, receipt, sign(receipt, SITE_KEY))
    log = _log(records, receipt, signature, [_seed(0, "7f3a9c"), _seed(2, "Zm9v", "server")])
    return records, receipt, signature, log


def _files(tmp_path, records, log):
    given = tmp_path / "given.json"
    given.write_text(json.dumps(records))
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in log))
    return str(given), str(path)


def _both(tmp_path, records, log):
    """(trix verify's (code, out, err), the standalone's) with the key and the log."""
    given, path = _files(tmp_path, records, log)
    options = ["--public-key", SITE_PUBLIC, "--log", path]
    out, err = io.StringIO(), io.StringIO()
    code = trix(["verify", given, *options], out, err)
    mine = (code, out.getvalue(), err.getvalue())
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = standalone.main([given, *options])
    return mine, (code, out.getvalue(), err.getvalue())


def test_the_genuine_match_verifies_with_the_commit_first_note(tmp_path, site_match):
    records, _, _, log = site_match
    verify_log(log)
    (code, out, err), (s_code, s_out, s_err) = _both(tmp_path, records, log)
    assert (code, err) == (0, ""), err
    assert (
        "match 'table-12': commit first: its commitment (log entry 0) came before every "
        "person's client seed (seat 0: entry 1; seat 2: entry 2); the server made the seed of "
        "seat 2 (its player sent none)" in out
    )
    assert (s_code, s_err) == (0, ""), s_err
    assert "commit first: the commitment (entry 0) came before each seed" in s_out
    assert "the server made the seed of seat 2" in s_out


def test_without_the_log_the_note_says_the_order_is_unchecked(tmp_path, site_match):
    records = site_match[0]
    given, _ = _files(tmp_path, records, site_match[3])
    out, err = io.StringIO(), io.StringIO()
    assert trix(["verify", given, "--public-key", SITE_PUBLIC], out, err) == 0, err.getvalue()
    assert "give --log to see them there" in out.getvalue()


def test_a_seed_logged_before_its_commitment_is_refused(tmp_path, site_match):
    records, receipt, signature, log = site_match
    receipt = {**receipt, "commitment_entry": 2, "seed_entries": {"0": 3, "2": 4}}
    records, receipt, signature = carrying(records, receipt, sign(receipt, SITE_KEY))
    # The seeds first, then the commitment: rebuilt by hand in that order.
    entries: list[dict] = []
    for kind, body in [
        _seed(0, "7f3a9c"),
        _seed(2, "Zm9v", "server"),
    ]:
        prev = entries[-1] if entries else None
        entries.append(next_entry(prev=prev, kind=kind, body=body, logged_at=LOGGED_AT))
    rest = _log(records, receipt, signature, [])
    for entry in rest:
        prev = entries[-1]
        entries.append(
            next_entry(prev=prev, kind=entry["kind"], body=entry["body"], logged_at=LOGGED_AT)
        )
    with pytest.raises(FairnessError, match="before its match-commitment"):
        verify_log(entries)
    (code, _, err), (s_code, _, s_err) = _both(tmp_path, records, entries)
    assert code == 1 and "before its match-commitment" in err
    assert s_code == 1 and "before its commitment" in s_err


def test_a_seed_logged_after_the_receipt_is_refused(tmp_path, site_match):
    records, receipt, signature, log = site_match
    late = next_entry(prev=log[-1], kind="seat-seed", body=_seed(1, "x")[1], logged_at=LOGGED_AT)
    with pytest.raises(FairnessError, match="after its receipt"):
        verify_log([*log, late])
    (code, _, err), (s_code, _, s_err) = _both(tmp_path, records, [*log, late])
    assert code == 1 and "after its receipt" in err
    assert s_code == 1 and "after its receipt" in s_err


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ((0, {"0": 2, "2": 1}), "names entry 2 for seat 0"),  # the two swapped
        ((1, {"0": 2, "2": 3}), "names commitment entry 1"),
    ],
)
def test_a_receipt_naming_entries_the_log_does_not_hold_there_is_refused(
    tmp_path, site_match, order, message
):
    records, receipt, _, log = site_match
    receipt = {**receipt, "commitment_entry": order[0], "seed_entries": order[1]}
    records, receipt, signature = carrying(records, receipt, sign(receipt, SITE_KEY))
    entries = _log(records, receipt, signature, [_seed(0, "7f3a9c"), _seed(2, "Zm9v", "server")])
    with pytest.raises(FairnessError, match=message):
        verify_log(entries)
    (code, _, err), (s_code, _, s_err) = _both(tmp_path, records, entries)
    assert code == 1 and message in err
    assert s_code == 1 and "log entry 3:" in s_err


def test_a_bot_seat_rewritten_as_a_persons_is_refused_by_the_seed_entries(tmp_path, site_match):
    """The operator rewrites the finished match from its receipt on: seat 1, a bot, becomes a
    person with the seed ``x``; the new receipt names seat 1 a person, so it must name a
    seat-seed entry of seat 1 before it, which the log up to the receipt does not hold."""
    records, receipt, _, log = site_match
    seeds = [SEEDS[0], "x", *SEEDS[2:]]
    forged = forged_records(records, seeds)
    for order in [(0, {"0": 1, "1": 2, "2": 2}), (0, {"0": 1, "1": 1, "2": 2})]:
        resigned = {
            **receipt,
            "client_seeds": {str(s): seed for s, seed in enumerate(seeds)},
            "bots": [3],
            "commitment_entry": order[0],
            "seed_entries": order[1],
        }
        forged_set, resigned, signature = carrying(forged, resigned, sign(resigned, SITE_KEY))
        kept = [(e["kind"], e["body"]) for e in log[1:3]]  # the real seat-seed entries
        entries = _log(forged_set, resigned, signature, kept)
        with pytest.raises(FairnessError, match="for seat 1's client seed"):
            verify_log(entries)
        (code, _, err), (s_code, _, s_err) = _both(tmp_path, forged_set, entries)
        assert code == 1 and "seat 1's client seed" in err
        assert s_code == 1 and "no seat-seed of seat 1" in s_err


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seed_entries": {"0": 1, "1": 2, "2": 3}}, "exactly the seats that are not bots"),
        ({"seed_entries": {"0": 1}}, "exactly the seats that are not bots"),
        ({"seed_entries": {"0": 0, "2": 2}}, "seed_entries.0 must be a log index after"),
        ({"commitment_entry": -1}, "commitment_entry must be a log index"),
        ({"commitment_entry": True}, "commitment_entry must be a log index"),
        ({"seed_entries": {"0": 1.0, "2": 2}}, "seed_entries.0 must be a log index after"),
    ],
)
def test_a_malformed_order_is_refused(site_match, changes, message):
    receipt = {**site_match[1], **changes}
    with pytest.raises(FairnessError, match=message):
        check_receipt(receipt)
    with pytest.raises(standalone.Refused):
        standalone.check_receipt(receipt)


def test_the_order_comes_with_bots():
    receipt = _receipt(
        played_records("complex_partner", "table-12", SECRET, SEEDS)[:1], SEEDS, [1, 3], None
    )
    receipt.pop("bots")
    receipt.update({"commitment_entry": 0, "seed_entries": {"0": 1, "2": 2}})
    with pytest.raises(FairnessError, match="come together"):
        check_receipt(receipt)


def test_a_receipt_without_the_order_verifies_with_a_note_saying_so(tmp_path):
    records = played_records("complex_partner", "table-12", SECRET, SEEDS)
    receipt = _receipt(records, SEEDS, [1, 3], None)
    records, receipt, signature = carrying(records, receipt, sign(receipt, SITE_KEY))
    log = _log(records, receipt, signature, [])
    (code, out, err), (s_code, s_out, _) = _both(tmp_path, records, log)
    assert code == 0, err
    assert "the receipt does not show that its commitment came before the client seeds" in out
    assert s_code == 0
    assert "does not show that its commitment came before the client seeds" in s_out
