"""A logged ``match-payout`` reconciled with the match's deal records (docs/fairness.md, "The
daily archive"): deals -> result -> payout.

The rule: a refund gives every stake back and the house nothing; a payout by the result is
the pot rule's split (``games.engine.pots.split_pot``, ``docs/rules.md`` "Stakes and pots")
of the logged stakes by the places the records give (``games.engine.results.outcome`` of
their replayed totals), with the house fee the entry logged. A match with a record of every
deal has its places from the totals; one that stopped before its last deal ended by a seat
leaving, which ranks last: the log does not say which seat left, so the payout must be the
split for one of them, and the note names it. Pure Python and the rules engine (no Django).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.fairness.errors import FairnessError
from games.fairness.table_results import replayed
from games.fairness.verify import rules_of


def _seats(amounts: Mapping[str, int]) -> dict[int, int]:
    return {int(seat): amount for seat, amount in amounts.items()}


def _paid(payouts: Mapping[int, int]) -> dict[int, int]:
    return {seat: amount for seat, amount in payouts.items() if amount}


def reconcile(
    entry: Mapping[str, Any], receipt: Mapping[str, Any] | None, records: Sequence[dict[str, Any]]
) -> str:
    """Check the ``match-payout`` log ``entry`` against the match's ``receipt`` (its rules
    and deal count; None when the match never started) and its deal ``records`` (deal
    order, every one the log holds of the match: none when it ended during its first deal).
    Returns the note line; raises FairnessError naming the entry and what differs."""
    from games.engine.pots import InvalidSplit, split_pot
    from games.engine.results import outcome

    body = entry["body"]
    match_id, where = body["match_id"], f"log entry {entry['index']}"
    stakes, paid, fee = _seats(body["stakes"]), _seats(body["payouts"]), body["house_fee"]
    pot = sum(stakes.values())
    if body["reason"] == "refund":
        if _paid(paid) != stakes or fee:
            raise FairnessError(
                f"{where}: the refund of match {match_id!r} does not give every stake back "
                "and the house nothing"
            )
        return f"match {match_id!r}: {pot} refunded, every stake back"
    options = rules_of(receipt["variant"], receipt["options"]) if receipt else None
    if options is None:
        raise FairnessError(
            f"{where}: match {match_id!r} was paid by its result, but the log holds no receipt "
            "of it that names rules the engine plays"
        )
    totals, first_out = {s: 0 for s in range(4)}, None
    if records:
        totals, first_out, _ = replayed(records)
    deals = receipt["deals"]
    leavers: list[int | None] = [None] if len(records) == deals else [0, 1, 2, 3]
    for leaver in leavers:
        result = outcome(
            totals,
            partnership=options.partnership,
            partner_tie=options.partner_tie,
            last_trix_first_out=first_out,
            forfeit=leaver,
            deals_played=len(records),
        )
        places = {int(s): p for s, p in result["placements"].items()}
        try:
            split = split_pot(
                pot, stakes, places, options.partnership, forfeit=leaver, house_fee=fee
            )
        except InvalidSplit as error:
            raise FairnessError(f"{where}: match {match_id!r}: {error}") from None
        if _paid(split.payouts) == _paid(paid) and split.house_fee == fee:
            ended = (
                f"its {deals} deals"
                if leaver is None
                else f"{len(records)} of its {deals} deals, then seat {leaver} left"
            )
            return (
                f"match {match_id!r}: the payout of {pot} (house fee {fee}) is the split by "
                f"the places of {ended}"
            )
    told = "its places" if leavers == [None] else "its places with any one seat leaving"
    raise FairnessError(
        f"{where}: the payout of match {match_id!r} is not the pot rule's split by {told}: "
        f"paid {dict(sorted(_paid(paid).items()))} of stakes {dict(sorted(stakes.items()))}"
    )
