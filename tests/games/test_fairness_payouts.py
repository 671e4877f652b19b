"""Payout entries of the transparency log (``match-payout``, ``event-payout``; docs/fairness.md
section 11): a log holding them still verifies, with ``trix verify``'s ``verify_log`` and the
standalone verifier; a payout that makes or loses money, pays a non-staker, or comes twice
for one match is refused by both."""

from __future__ import annotations

import copy
import json

import pytest

from games.fairness import transparency
from games.fairness.errors import FairnessError
from tests.games.fairness_helpers import (
    LOGGED_AT,
    RFC8032_TEST1_SECRET,
    load_standalone,
    match_log,
    played_records,
    with_receipt,
)

standalone = load_standalone()

MATCH_PAYOUT = {
    "match_id": "table-12",
    "reason": "result",
    "transaction": 5318,
    "stakes": {"0": 500, "1": 500, "3": 500},
    "payouts": {"1": 1050, "3": 450},
    "house_fee": 0,
}
EVENT_PAYOUT = {
    "event": "tournament:1",
    "reason": "result",
    "transaction": 5320,
    "stakes": {"E1": 100, "E2": 100, "E3": 100, "E4": 100},
    "payouts": {"E3": 180, "E1": 108, "E4": 72},
    "house_fee": 40,
}


@pytest.fixture(scope="module")
def site_match():
    from games.fairness.receipt import load_private_key

    records = played_records("complex", "table-12", "22" * 32, ["7f3a9c", "bot", "x", "bot"])
    return with_receipt(records, load_private_key(RFC8032_TEST1_SECRET))


def _with(entries, *payouts):
    """``entries`` followed by the payout entries ``(kind, body)``, chained."""
    entries = copy.deepcopy(entries)
    for kind, body in payouts:
        entries.append(
            transparency.next_entry(prev=entries[-1], kind=kind, body=body, logged_at=LOGGED_AT)
        )
    return entries


def _standalone(entries, site_match):
    import json

    records, receipt, signature = site_match
    lines = [json.dumps(e) for e in entries]
    return standalone.check_log(standalone.read_log(lines), receipt, signature, records)


def test_a_log_with_payouts_verifies_with_both_verifiers(site_match):
    log = _with(
        match_log(site_match), ("match-payout", MATCH_PAYOUT), ("event-payout", EVENT_PAYOUT)
    )
    assert transparency.verify_log(log) == transparency.entry_hash(log[-1])
    problems, note = _standalone(log, site_match)
    heads = standalone.read_log([json.dumps(e) for e in log])[2]
    assert problems == [] and heads[-1] == transparency.entry_hash(log[-1])
    assert transparency.entry_key("match-payout", MATCH_PAYOUT) == "table-12"
    assert transparency.entry_key("event-payout", EVENT_PAYOUT) == "tournament:1"


def test_a_refund_pays_every_stake_back():
    refund = {**MATCH_PAYOUT, "reason": "refund", "payouts": MATCH_PAYOUT["stakes"]}
    transparency.check_payout(refund)
    with pytest.raises(FairnessError, match="a refund gives each staker its stake"):
        transparency.check_payout({**refund, "payouts": {"0": 500, "1": 1000}})


@pytest.mark.parametrize(
    "kind, change, expected",
    [
        ("match-payout", {"payouts": {"1": 1051, "3": 450}}, "the stakes \\(1500\\) are not"),
        ("event-payout", {"house_fee": 41}, "the stakes \\(400\\) are not"),
        ("match-payout", {"payouts": {"2": 1050, "3": 450}}, "payouts to 2, who staked nothing"),
        ("match-payout", {"stakes": {"4": 1500}, "payouts": {}}, "'4' is not a seat 0..3"),
        ("match-payout", {"payouts": {"1": 1500.0}}, "payouts.1 must be a whole number"),
        ("event-payout", {"stakes": {}, "payouts": {}, "house_fee": 0}, "at least one staker"),
        ("match-payout", {"transaction": "5318"}, "transaction must be a whole number"),
        ("match-payout", {"reason": "bonus"}, "reason must be one of result, refund"),
        ("event-payout", {"house_fee": -1}, "house_fee must be a whole number"),
    ],
)
def test_a_malformed_payout_is_refused(kind, change, expected):
    body = {**(MATCH_PAYOUT if kind == "match-payout" else EVENT_PAYOUT), **change}
    with pytest.raises(FairnessError, match=expected):
        transparency.next_entry(prev=None, kind=kind, body=body, logged_at=LOGGED_AT)


@pytest.mark.parametrize(
    "change",
    [
        {"payouts": {"1": 1051, "3": 450}},
        {"payouts": {"2": 1050, "3": 450}},
        {"payouts": {"1": 1050, "3": 450.0}},
        {"house_fee": -1, "payouts": {"1": 1051, "3": 450}},
    ],
)
def test_the_standalone_refuses_a_payout_that_does_not_add_up(site_match, change):
    log = match_log(site_match)
    bad = {**MATCH_PAYOUT, **change}
    log.append(
        {
            "index": len(log),
            "prev": transparency.entry_hash(log[-1]),
            "kind": "match-payout",
            "body": bad,
            "logged_at": LOGGED_AT,
        }
    )
    with pytest.raises(standalone.Refused, match="its stakes are not its payouts and fee"):
        _standalone(log, site_match)


def test_a_second_payout_of_a_match_is_refused(site_match):
    again = {**MATCH_PAYOUT, "transaction": 5400}
    log = _with(match_log(site_match), ("match-payout", MATCH_PAYOUT), ("match-payout", again))
    index = len(log) - 1
    with pytest.raises(FairnessError, match=f"log entry {index}: a second match-payout of match"):
        transparency.verify_log(log)
    with pytest.raises(standalone.Refused, match=f"log entry {index}: a second match-payout"):
        _standalone(log, site_match)
