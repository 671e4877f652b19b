"""The pot rule: how a staked table's pot is split by the match's places. Pure Python; the
ledger pays by it (``wallet.settlement``) and ``trix verify`` reconciles a logged payout with
the match's records by it (``games.fairness.settlements``).

Source: ``docs/rules.md`` "Stakes and pots", from seed ``000_99eaae97bc5f03eb.txt``
(stakes, 100% / 70-30 / 60-30-10, draws refunded); the forfeit rule
(``leave_paid_table``) from seed ``004``. Money is in integer minor units.

Inputs come straight from a table and the engine's match result:

- ``stakes``: seat (0..3) -> amount staked; bots never stake, so they are absent.
- ``placements``: seat -> place, 1 best, shared by ties in standard competition
  ranking (1, 1, 3, 4). In partnership the engine gives the winning team place 1
  and the losers place 3, and a draw place 1 to everyone (``partner_tie: draw``;
  under ``last_trix_first_out`` the engine has already broken the tie).
- ``forfeit``: the seat that left a paid table, if any; it (and in partnership its
  partner) ranks last whatever the placements say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


class InvalidSplit(ValueError):
    """Stakes, places or a house fee that do not describe one finished match's pot."""


#: Share of the pot, in percent, for each staker position in solo play (seed 000).
SOLO_SHARES: dict[int, tuple[int, ...]] = {
    2: (100, 0),
    3: (70, 30, 0),
    4: (60, 30, 10, 0),
}
SEATS = (0, 1, 2, 3)
BASIS_POINTS = 10_000


@dataclass(frozen=True)
class Split:
    """The outcome of a split.

    ``payouts`` maps every staking seat to what it receives (0 included);
    ``house_fee`` is the house's cut; ``refunded`` says every stake went back.
    Always ``sum(payouts.values()) + house_fee == pot``.
    """

    payouts: dict[int, int]
    house_fee: int = 0
    refunded: bool = False
    reason: str = field(default="", compare=False)


def house_fee_for(pot: int, house_fee_bps: int) -> int:
    """The house's cut of a won pot: ``pot * bps / 10000`` rounded down (minor units)."""
    if not isinstance(house_fee_bps, int) or not 0 <= house_fee_bps <= BASIS_POINTS:
        raise InvalidSplit(
            f"house fee must be 0..{BASIS_POINTS} basis points, got {house_fee_bps!r}"
        )
    return pot * house_fee_bps // BASIS_POINTS


def split_pot(
    pot: int,
    stakes: Mapping[int, int],
    placements: Mapping[int, int],
    team_mode: bool,
    *,
    forfeit: int | None = None,
    house_fee_bps: int = 0,
    house_fee: int | None = None,
) -> Split:
    """Split ``pot`` (the sum of ``stakes``) among the staking seats by placement.

    Solo: stakers are ranked by place; two stakers 100%, three 70/30, four
    60/30/10, the last staker nothing. Tied stakers share the percentages of the
    positions they span evenly. Partnership: the winning team's stakers split
    the pot evenly. Every stake is refunded (no house fee) on a partnership draw,
    when fewer than two seats staked, or when the winning team has no staker.
    Leftover units go one at a time to the best-placed shares first, then by
    seat number. A house fee of ``house_fee_bps`` basis points is taken from a
    won pot before it is split (``house_fee``, minor units, instead: the fee a payout
    logged, for a verifier that reconciles it).

    Returns a :class:`Split`; raises :class:`InvalidSplit` when the
    pot is not the sum of the stakes, a stake is not a positive int, a seat is
    not 0..3, a staker has no place, places are out of 1..4, or partners differ.
    """
    _validate(pot, stakes, placements, team_mode, forfeit)
    places = _apply_forfeit(dict(placements), forfeit, team_mode)
    stakers = sorted(stakes)

    if len(stakers) < 2:
        return _refund(stakes, "fewer than two seats staked")
    if team_mode:
        winners_place = min(places.values())
        winning_seats = [s for s in SEATS if places.get(s) == winners_place]
        if len(winning_seats) == len(places):
            return _refund(stakes, "draw")
        winning_stakers = [s for s in stakers if s in winning_seats]
        if not winning_stakers:
            return _refund(stakes, "the winning team has no staker")
        fee = _fee(pot, house_fee_bps, house_fee)
        payouts = dict.fromkeys(stakers, 0)
        # Equal shares: one group, every member equally placed, so seat order decides.
        for seat, amount in share_out(pot - fee, [(winning_stakers, 1)], places).items():
            payouts[seat] = amount
        return Split(payouts=payouts, house_fee=fee)

    fee = _fee(pot, house_fee_bps, house_fee)
    percents = SOLO_SHARES[len(stakers)]
    ordered = sorted(stakers, key=lambda s: (places[s], s))
    groups: list[tuple[list[int], int]] = []
    position = 0
    while position < len(ordered):
        place = places[ordered[position]]
        members = [s for s in ordered if places[s] == place]
        span = percents[position : position + len(members)]
        groups.append((members, sum(span)))
        position += len(members)
    payouts = dict.fromkeys(stakers, 0)
    payouts.update(share_out(pot - fee, groups, places, total_weight=100))
    return Split(payouts=payouts, house_fee=fee)


def share_out(
    amount: int,
    groups: list[tuple[list[int], int]],
    places: Mapping[int, int],
    total_weight: int | None = None,
) -> dict[int, int]:
    """Give each group ``weight / total_weight`` of ``amount``, evenly among its members.

    Every member's exact share is ``amount * weight / (total_weight * len(members))``;
    each gets the floor, and the units left over go one at a time to members in
    order of (place, seat) -- best placed first, then seat order -- among the
    members with a positive share. The result sums exactly to ``amount``.
    """
    if total_weight is None:
        total_weight = sum(weight for _, weight in groups)
    payouts: dict[int, int] = {}
    receivers: list[int] = []
    for members, weight in groups:
        denominator = total_weight * len(members)
        for seat in members:
            payouts[seat] = amount * weight // denominator
            if weight > 0:
                receivers.append(seat)
    leftover = amount - sum(payouts.values())
    receivers.sort(key=lambda s: (places[s], s))
    # leftover < number of members with a fractional share <= len(receivers)
    for seat in receivers[:leftover]:
        payouts[seat] += 1
    assert sum(payouts.values()) == amount
    return payouts


def _fee(pot: int, house_fee_bps: int, house_fee: int | None) -> int:
    if house_fee is None:
        return house_fee_for(pot, house_fee_bps)
    if not _is_int(house_fee) or not 0 <= house_fee <= pot:
        raise InvalidSplit(f"house fee must be 0..{pot} minor units, got {house_fee!r}")
    return house_fee


def _refund(stakes: Mapping[int, int], reason: str) -> Split:
    return Split(payouts=dict(stakes), house_fee=0, refunded=True, reason=reason)


def _apply_forfeit(places: dict[int, int], forfeit: int | None, team_mode: bool) -> dict[int, int]:
    """Rank the leaver (and in partnership the leaver's partner) last, others by place."""
    if forfeit is None:
        return places
    if team_mode:
        losers = {forfeit, (forfeit + 2) % 4}
        return {seat: 3 if seat in losers else 1 for seat in places}
    ordered = sorted(places, key=lambda s: (s == forfeit, places[s]))
    keys = {s: (s == forfeit, places[s]) for s in places}
    ranked: dict[int, int] = {}
    for index, seat in enumerate(ordered):
        earlier = ordered[index - 1] if index else None
        ranked[seat] = (
            ranked[earlier] if earlier is not None and keys[earlier] == keys[seat] else index + 1
        )
    return ranked


def _validate(
    pot: object,
    stakes: Mapping[int, int],
    placements: Mapping[int, int],
    team_mode: bool,
    forfeit: int | None,
) -> None:
    if not _is_int(pot) or pot < 0:
        raise InvalidSplit(f"pot must be a non-negative int of minor units, got {pot!r}")
    for seat, amount in stakes.items():
        if seat not in SEATS:
            raise InvalidSplit(f"seat must be 0..3, got {seat!r}")
        if not _is_int(amount) or amount <= 0:
            raise InvalidSplit(f"seat {seat} stake must be a positive int, got {amount!r}")
        if seat not in placements:
            raise InvalidSplit(f"staking seat {seat} has no place")
    for seat, place in placements.items():
        if seat not in SEATS:
            raise InvalidSplit(f"seat must be 0..3, got {seat!r}")
        if not _is_int(place) or not 1 <= place <= 4:
            raise InvalidSplit(f"seat {seat} place must be 1..4, got {place!r}")
    if sum(stakes.values()) != pot:
        raise InvalidSplit(f"pot {pot} is not the sum of the stakes {sum(stakes.values())}")
    if forfeit is not None and forfeit not in placements:
        raise InvalidSplit(f"forfeiting seat {forfeit!r} has no place")
    if team_mode:
        for seat in (0, 1):
            partner = seat + 2
            if seat in placements and partner in placements:
                if placements[seat] != placements[partner]:
                    raise InvalidSplit(f"partners {seat} and {partner} have different places")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
