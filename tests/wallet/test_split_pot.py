"""split_pot: every case of issue 5 and docs/rules.md "Stakes and pots" (seed 000), table-driven."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wallet.errors import InvalidSplit, LedgerError
from wallet.settlement import house_fee_for, split_pot

ALL4 = {0: 100, 1: 100, 2: 100, 3: 100}

# (id, stakes, placements, team_mode, kwargs, expected payouts, refunded, house_fee)
CASES = [
    # --- solo, all four stake
    (
        "four stakers",
        ALL4,
        {0: 1, 1: 2, 2: 3, 3: 4},
        False,
        {},
        {0: 240, 1: 120, 2: 40, 3: 0},
        False,
        0,
    ),
    (
        "four stakers, order by place not seat",
        ALL4,
        {0: 4, 1: 3, 2: 1, 3: 2},
        False,
        {},
        {0: 0, 1: 40, 2: 240, 3: 120},
        False,
        0,
    ),
    # --- three stakers and a bot: the bot takes no share, stakers ranked among themselves
    (
        "three stakers, bot wins",
        {0: 100, 2: 100, 3: 100},
        {0: 2, 1: 1, 2: 3, 3: 4},
        False,
        {},
        {0: 210, 2: 90, 3: 0},
        False,
        0,
    ),
    (
        "three stakers, bot last",
        {0: 100, 1: 100, 2: 100},
        {0: 3, 1: 1, 2: 2, 3: 4},
        False,
        {},
        {0: 0, 1: 210, 2: 90},
        False,
        0,
    ),
    # --- two stakers: 100% to the best placed
    ("two stakers", {1: 50, 3: 50}, {0: 1, 1: 4, 2: 2, 3: 3}, False, {}, {1: 0, 3: 100}, False, 0),
    (
        "two stakers tied",
        {1: 50, 3: 50},
        {0: 1, 1: 2, 2: 4, 3: 2},
        False,
        {},
        {1: 50, 3: 50},
        False,
        0,
    ),
    # --- ties at every place (four stakers)
    (
        "tie for first",
        ALL4,
        {0: 1, 1: 1, 2: 3, 3: 4},
        False,
        {},
        {0: 180, 1: 180, 2: 40, 3: 0},
        False,
        0,
    ),
    (
        "tie for second",
        ALL4,
        {0: 1, 1: 2, 2: 2, 3: 4},
        False,
        {},
        {0: 240, 1: 80, 2: 80, 3: 0},
        False,
        0,
    ),
    (
        "tie for third (last)",
        ALL4,
        {0: 1, 1: 2, 2: 3, 3: 3},
        False,
        {},
        {0: 240, 1: 120, 2: 20, 3: 20},
        False,
        0,
    ),
    (
        "three tied first",
        ALL4,
        {0: 1, 1: 1, 2: 1, 3: 4},
        False,
        {},
        {0: 134, 1: 133, 2: 133, 3: 0},
        False,
        0,
    ),
    (
        "three tied second",
        ALL4,
        {0: 2, 1: 2, 2: 1, 3: 2},
        False,
        {},
        {0: 53, 1: 53, 2: 241, 3: 53},
        False,
        0,
    ),  # the odd unit goes to the best placed
    ("all four tied", ALL4, {0: 1, 1: 1, 2: 1, 3: 1}, False, {}, ALL4, False, 0),
    (
        "two pairs tied",
        ALL4,
        {0: 3, 1: 1, 2: 3, 3: 1},
        False,
        {},
        {0: 20, 1: 180, 2: 20, 3: 180},
        False,
        0,
    ),
    # --- ties with three stakers
    (
        "three stakers tie first",
        {0: 100, 1: 100, 2: 100},
        {0: 1, 1: 1, 2: 3, 3: 4},
        False,
        {},
        {0: 150, 1: 150, 2: 0},
        False,
        0,
    ),
    (
        "three stakers tie second",
        {0: 100, 1: 100, 2: 100},
        {0: 2, 1: 2, 2: 1, 3: 4},
        False,
        {},
        {0: 45, 1: 45, 2: 210},
        False,
        0,
    ),
    # --- amounts that do not divide evenly: leftovers to best placed, then seat order
    (
        "70/30 of 101",
        {0: 34, 1: 33, 2: 34},
        {0: 3, 1: 1, 2: 2, 3: 4},
        False,
        {},
        {0: 0, 1: 71, 2: 30},
        False,
        0,
    ),
    (
        "60/30/10 of 7",
        {0: 1, 1: 2, 2: 2, 3: 2},
        {0: 1, 1: 2, 2: 3, 3: 4},
        False,
        {},
        {0: 5, 1: 2, 2: 0, 3: 0},
        False,
        0,
    ),
    (
        "tied first of 401, seat order",
        {0: 101, 1: 100, 2: 100, 3: 100},
        {0: 2, 1: 1, 2: 4, 3: 1},
        False,
        {},
        {0: 40, 1: 181, 2: 0, 3: 180},
        False,
        0,
    ),
    (
        "all tied, 10 among 3",
        {0: 3, 1: 3, 2: 4},
        {0: 1, 1: 1, 2: 1, 3: 4},
        False,
        {},
        {0: 4, 1: 3, 2: 3},
        False,
        0,
    ),
    (
        "pot of 1 between two",
        {0: 1, 2: 0 + 1},
        {0: 2, 1: 1, 2: 2, 3: 4},
        False,
        {},
        {0: 1, 2: 1},
        False,
        0,
    ),
    # --- partnership (0+2 against 1+3)
    (
        "partnership win",
        ALL4,
        {0: 1, 1: 3, 2: 1, 3: 3},
        True,
        {},
        {0: 200, 1: 0, 2: 200, 3: 0},
        False,
        0,
    ),
    (
        "partnership win, odd pot",
        {0: 100, 1: 100, 2: 100, 3: 101},
        {0: 3, 1: 1, 2: 3, 3: 1},
        True,
        {},
        {0: 0, 1: 201, 2: 0, 3: 200},
        False,
        0,
    ),
    (
        "partnership draw refunds",
        {0: 100, 1: 70, 2: 100, 3: 100},
        {0: 1, 1: 1, 2: 1, 3: 1},
        True,
        {},
        {0: 100, 1: 70, 2: 100, 3: 100},
        True,
        0,
    ),
    (
        "partner is a bot, its team wins",
        {0: 100, 1: 100, 3: 100},
        {0: 1, 1: 3, 2: 1, 3: 3},
        True,
        {},
        {0: 300, 1: 0, 3: 0},
        False,
        0,
    ),
    (
        "partner is a bot, other team wins",
        {0: 100, 1: 100, 3: 100},
        {0: 3, 1: 1, 2: 3, 3: 1},
        True,
        {},
        {0: 0, 1: 150, 3: 150},
        False,
        0,
    ),
    (
        "winning team has no staker",
        {1: 100, 3: 100},
        {0: 1, 1: 3, 2: 1, 3: 3},
        True,
        {},
        {1: 100, 3: 100},
        True,
        0,
    ),
    # --- fewer than two stakers
    ("one staker refunded", {2: 100}, {0: 1, 1: 2, 2: 3, 3: 4}, False, {}, {2: 100}, True, 0),
    ("no staker", {}, {0: 1, 1: 2, 2: 3, 3: 4}, False, {}, {}, True, 0),
    ("one staker, partnership", {0: 100}, {0: 1, 1: 3, 2: 1, 3: 3}, True, {}, {0: 100}, True, 0),
    # --- forfeit (leave_paid_table, seed 004): the leaver ranks last
    (
        "forfeit, engine ranked leaver last",
        ALL4,
        {0: 4, 1: 1, 2: 2, 3: 3},
        False,
        {"forfeit": 0},
        {0: 0, 1: 240, 2: 120, 3: 40},
        False,
        0,
    ),
    (
        "forfeit by the points leader",
        ALL4,
        {0: 1, 1: 2, 2: 3, 3: 4},
        False,
        {"forfeit": 0},
        {0: 0, 1: 240, 2: 120, 3: 40},
        False,
        0,
    ),
    (
        "forfeit, others keep ties",
        ALL4,
        {0: 1, 1: 1, 2: 3, 3: 4},
        False,
        {"forfeit": 3},
        {0: 180, 1: 180, 2: 40, 3: 0},
        False,
        0,
    ),
    (
        "forfeit, three stakers",
        {0: 100, 1: 100, 2: 100},
        {0: 1, 1: 2, 2: 3, 3: 4},
        False,
        {"forfeit": 1},
        {0: 210, 1: 0, 2: 90},
        False,
        0,
    ),
    (
        "forfeit in partnership loses for the team",
        ALL4,
        {0: 1, 1: 1, 2: 1, 3: 1},
        True,
        {"forfeit": 2},
        {0: 0, 1: 200, 2: 0, 3: 200},
        False,
        0,
    ),
    # --- house fee in basis points, only from won pots
    (
        "house fee 2.5%",
        ALL4,
        {0: 1, 1: 2, 2: 3, 3: 4},
        False,
        {"house_fee_bps": 250},
        {0: 234, 1: 117, 2: 39, 3: 0},
        False,
        10,
    ),
    (
        "house fee partnership",
        ALL4,
        {0: 1, 1: 3, 2: 1, 3: 3},
        True,
        {"house_fee_bps": 125},
        {0: 198, 1: 0, 2: 197, 3: 0},
        False,
        5,
    ),
    (
        "no house fee on a draw",
        ALL4,
        {0: 1, 1: 1, 2: 1, 3: 1},
        True,
        {"house_fee_bps": 500},
        ALL4,
        True,
        0,
    ),
    (
        "no house fee on a lone staker",
        {0: 100},
        {0: 1, 1: 2, 2: 3, 3: 4},
        False,
        {"house_fee_bps": 500},
        {0: 100},
        True,
        0,
    ),
]


@pytest.mark.parametrize(
    "stakes,placements,team_mode,kwargs,payouts,refunded,fee",
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_split_pot(stakes, placements, team_mode, kwargs, payouts, refunded, fee):
    pot = sum(stakes.values())
    split = split_pot(pot, stakes, placements, team_mode, **kwargs)
    assert split.payouts == payouts
    assert split.refunded is refunded
    assert split.house_fee == fee
    assert sum(split.payouts.values()) + split.house_fee == pot


def test_engine_result_shape_with_string_keys_is_not_accepted_silently():
    # The services convert JSON string keys to ints; split_pot itself wants ints.
    with pytest.raises(InvalidSplit):
        split_pot(200, {"0": 100, "1": 100}, {"0": 1, "1": 2}, False)


BAD = [
    ("pot is not the sum of stakes", 150, {0: 100, 1: 100}, {0: 1, 1: 2}, False, {}),
    ("negative stake", 0, {0: 100, 1: -100}, {0: 1, 1: 2}, False, {}),
    ("zero stake", 100, {0: 100, 1: 0}, {0: 1, 1: 2}, False, {}),
    ("float stake", 200.0, {0: 100.0, 1: 100}, {0: 1, 1: 2}, False, {}),
    ("bool stake", 2, {0: True, 1: True}, {0: 1, 1: 2}, False, {}),
    ("seat out of range", 200, {0: 100, 4: 100}, {0: 1, 4: 2}, False, {}),
    ("staker without a place", 200, {0: 100, 1: 100}, {0: 1}, False, {}),
    ("place out of range", 200, {0: 100, 1: 100}, {0: 0, 1: 5}, False, {}),
    ("partners placed apart", 200, {0: 100, 1: 100}, {0: 1, 1: 3, 2: 3, 3: 1}, True, {}),
    ("forfeit of an unknown seat", 200, {0: 100, 1: 100}, {0: 1, 1: 2}, False, {"forfeit": 3}),
    ("house fee above 100%", 200, {0: 100, 1: 100}, {0: 1, 1: 2}, False, {"house_fee_bps": 10001}),
    ("negative pot", -1, {}, {0: 1}, False, {}),
]


@pytest.mark.parametrize(
    "pot,stakes,placements,team_mode,kwargs", [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_split_pot_refuses_bad_input(pot, stakes, placements, team_mode, kwargs):
    with pytest.raises(InvalidSplit) as excinfo:
        split_pot(pot, stakes, placements, team_mode, **kwargs)
    assert isinstance(excinfo.value, LedgerError)
    assert str(excinfo.value)


def test_house_fee_rounds_down():
    assert house_fee_for(999, 100) == 9
    assert house_fee_for(0, 500) == 0
    assert house_fee_for(1000, 10_000) == 1000


def _competition_ranks(scores: dict[int, int]) -> dict[int, int]:
    return {s: 1 + sum(1 for o in scores.values() if o > v) for s, v in scores.items()}


@given(
    scores=st.fixed_dictionaries({s: st.integers(-3, 3) for s in range(4)}),
    stakes=st.dictionaries(st.sampled_from(range(4)), st.integers(1, 10**9), max_size=4),
    team_mode=st.booleans(),
    forfeit=st.one_of(st.none(), st.sampled_from(range(4))),
    fee=st.integers(0, 10_000),
)
def test_split_pot_properties(scores, stakes, team_mode, forfeit, fee):
    if team_mode:
        scores[2], scores[3] = scores[0], scores[1]
    placements = _competition_ranks(scores)
    pot = sum(stakes.values())
    split = split_pot(pot, stakes, placements, team_mode, forfeit=forfeit, house_fee_bps=fee)
    # every unit paid, none created, nobody negative, only stakers paid
    assert sum(split.payouts.values()) + split.house_fee == pot
    assert set(split.payouts) == set(stakes)
    assert all(v >= 0 for v in split.payouts.values())
    if split.refunded:
        assert split.payouts == stakes and split.house_fee == 0
    elif not team_mode:
        # equal stakes: better placed never gets less (forfeit moves the leaver last)
        ranks = {s: (s == forfeit, placements[s]) for s in stakes}
        if len(set(stakes.values())) == 1:
            for a in stakes:
                for b in stakes:
                    if ranks[a] < ranks[b]:
                        assert split.payouts[a] >= split.payouts[b]
