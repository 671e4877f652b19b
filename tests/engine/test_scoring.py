"""Table-driven scoring tests: every contract, early end and doubled-card case of
``docs/rules.md`` ("Default rules"; ``self_double`` from 000, 003 and 004), each on
hand-crafted hands so the expected points are exact."""

from __future__ import annotations

import pytest

from games.engine import InvalidRecord, replay_record
from games.engine.cards import CODES
from games.engine.record import start_deal

from .helpers import build_hands, complete, make_record, scores, suit_hands


def tricks_with_points(record):
    """(leader, taker, points per seat) of each trick the record's plays complete."""
    deal = start_deal(record)
    out = []
    for item in record["plays"]:
        c = CODES.index(item)
        deal.check_play(deal.turn, c)
        before = list(deal.scores)
        done = deal.play(c)
        if done is not None:
            leader, _, taker = done[:3]
            points = {s: deal.scores[s] - before[s] for s in range(4)}
            out.append((leader, taker, {s: p for s, p in points.items() if p}))
    return out, deal


def nonzero(d):
    return {s: v for s, v in d.items() if v}


# -- King of Hearts ----------------------------------------------------------------------------

# Hearts in trick 1: seat 0 leads 2H; seat 2 holds the K♥.
KING_TAKEN_BY_3 = build_hands({0: "H:2", 1: "H:3", 2: "H:K", 3: "H:A"})
# Seat 2 takes its own K♥ on seat 0's lead.
KING_TAKEN_BY_2 = build_hands({0: "H:2A", 1: "H:3", 2: "H:K", 3: "H:4"})
# Seat 2 leads its own K♥ (owner 2) and takes it.
KING_LED_BY_2 = build_hands({0: "H:3A", 1: "H:4", 2: "H:K", 3: "H:2"})

KING_CASES = [
    # id, hands, owner, plays, doubles, self_double, expected scores
    ("undoubled", KING_TAKEN_BY_3, 0, "2H 3H KH AH", {}, "leader_gains", {3: -75}),
    (
        "doubler-not-taker",
        KING_TAKEN_BY_3,
        0,
        "2H 3H KH AH",
        {2: "KH"},
        "leader_gains",
        {3: -150, 2: 75},
    ),
    (
        "doubler-takes-on-another's-lead/leader_gains",
        KING_TAKEN_BY_2,
        0,
        "2H 3H KH 4H",
        {2: "KH"},
        "leader_gains",
        {2: -150, 0: 75},
    ),
    (
        "doubler-takes-on-another's-lead/single_penalty",
        KING_TAKEN_BY_2,
        0,
        "2H 3H KH 4H",
        {2: "KH"},
        "single_penalty",
        {2: -75},
    ),
    (
        "doubler-takes-on-another's-lead/double_no_gain",
        KING_TAKEN_BY_2,
        0,
        "2H 3H KH 4H",
        {2: "KH"},
        "double_no_gain",
        {2: -150},
    ),
    (
        "doubler-takes-on-own-lead/leader_gains",
        KING_LED_BY_2,
        2,
        "KH 2H 3H 4H",
        {2: "KH"},
        "leader_gains",
        {2: -75},
    ),
    (
        "doubler-takes-on-own-lead/single_penalty",
        KING_LED_BY_2,
        2,
        "KH 2H 3H 4H",
        {2: "KH"},
        "single_penalty",
        {2: -75},
    ),
    (
        "doubler-takes-on-own-lead/double_no_gain",
        KING_LED_BY_2,
        2,
        "KH 2H 3H 4H",
        {2: "KH"},
        "double_no_gain",
        {2: -150},
    ),
    # The owner doubling is allowed too (000: "the owner included").
    (
        "owner-doubles",
        build_hands({0: "H:K", 1: "H:A", 2: "H:2", 3: "H:3"}),
        0,
        "KH AH 2H 3H",
        {0: "KH"},
        "leader_gains",
        {1: -150, 0: 75},
    ),
]


@pytest.mark.parametrize(
    "hands, owner, plays, doubles, self_double, expected",
    [c[1:] for c in KING_CASES],
    ids=[c[0] for c in KING_CASES],
)
def test_king_of_hearts(hands, owner, plays, doubles, self_double, expected):
    options = {} if self_double == "leader_gains" else {"self_double": self_double}
    record = make_record(
        "king", hands, plays, owner=owner, doubles=doubles, options=options, variant="trix"
    )
    assert nonzero(scores(record)) == expected
    # The deal ends with the K♥ trick: nothing may follow it.
    extra = make_record("king", hands, plays + " 5C", owner=owner, doubles=doubles, options=options)
    with pytest.raises(InvalidRecord, match="play 4: the deal is over"):
        replay_record(extra)


def test_king_scores_only_the_king_and_ends_with_its_trick():
    # Trick 1 takes a queen and diamonds (worth nothing in king); trick 2 takes the K♥.
    hands = build_hands(
        {0: "C:2 H:3 D:2", 1: "C:3 H:K", 2: "C:Q H:4", 3: "C:A H:2 D:A"},
    )
    plays = "2C 3C QC AC 2H 3H KH 4H"
    result = replay_record(make_record("king", hands, plays))
    assert nonzero({int(s): v for s, v in result["scores"].items()}) == {1: -75}
    assert [t["taker"] for t in result["tricks"]] == [3, 1]


def test_king_discarded_onto_another_trick():
    hands = build_hands({0: "C:2", 1: "H:K", 2: "C:3", 3: "C:A"}, voids={1: "C"})
    record = make_record("king", hands, "2C KH 3C AC", doubles={1: "KH"})
    assert nonzero(scores(record)) == {3: -150, 1: 75}


# -- Queens ------------------------------------------------------------------------------------


def test_queens_all_four_in_one_trick_ends_the_deal():
    hands = build_hands({0: "C:Q", 1: "D:Q", 2: "H:Q", 3: "S:Q"}, voids={1: "C", 2: "C", 3: "C"})
    record = make_record("queens", hands, "QC QD QH QS")
    assert nonzero(scores(record)) == {0: -100}
    with pytest.raises(InvalidRecord, match="play 4: the deal is over"):
        replay_record({**record, "plays": record["plays"] + ["2C"]})


def test_queens_deal_ends_with_the_trick_of_the_fourth_queen():
    hands = build_hands(
        {0: "C:Q H:2", 1: "D:Q H:3", 2: "C:2 H:Q", 3: "C:3 H:A S:Q"},
        voids={1: "C", 3: "D"},
    )
    # Trick 1 (seat 0 leads QC, seat 1 discards QD): seat 0 takes two queens. Trick 2 (seat 0
    # leads 2H): seat 3 takes QH with AH. Trick 3: seat 3 leads QS; the trick that takes it,
    # the fourth queen, ends the deal.
    plays = "QC QD 2C 3C 2H 3H QH AH QS"
    partial = make_record("queens", hands, plays)
    full = complete(partial)
    result = replay_record(full)
    s = {int(k): v for k, v in result["scores"].items()}
    assert sum(s.values()) == -100
    assert s[0] == -50 and s[3] <= -25  # QC and QD; QH
    assert result["tricks"][1]["taker"] == 3
    last = result["tricks"][-1]
    assert "QS" in last["cards"]
    assert len(full["plays"]) == 4 * len(result["tricks"]) < 52


# Seat 0 leads the Q♦; seats 1 and 2 (void in diamonds) discard their doubled queens; seat 3
# (void too) discards the Q♣. Seat 0 takes all four on its own lead; the deal ends.
TWO_DOUBLERS = build_hands({0: "D:Q", 1: "H:Q", 2: "S:Q", 3: "C:Q"}, voids={1: "D", 2: "D", 3: "D"})


@pytest.mark.parametrize("self_double", ["leader_gains", "single_penalty", "double_no_gain"])
def test_two_doubled_queens_from_two_doublers_in_one_trick(self_double):
    options = {} if self_double == "leader_gains" else {"self_double": self_double}
    record = make_record(
        "queens", TWO_DOUBLERS, "QD QH QS QC", doubles={1: "QH", 2: "QS"}, options=options
    )
    # Neither doubler takes: the taker pays double for each, each doubler gains 25.
    assert nonzero(scores(record)) == {0: -150, 1: 25, 2: 25}


# Seat 0 leads 2S; seat 1 (void in spades) discards its doubled Q♥; seat 2 takes with its own
# doubled Q♠; seat 3 follows low.
DOUBLER_TAKES_OTHER = build_hands({0: "S:2", 1: "H:Q", 2: "S:Q", 3: "S:3"}, voids={1: "S", 3: "H"})


@pytest.mark.parametrize(
    "self_double, expected",
    [
        ("leader_gains", {2: -100, 1: 25, 0: 25}),
        ("single_penalty", {2: -75, 1: 25}),
        ("double_no_gain", {2: -100, 1: 25}),
    ],
)
def test_doubler_takes_own_queen_and_another_doublers_queen(self_double, expected):
    options = {} if self_double == "leader_gains" else {"self_double": self_double}
    record = make_record(
        "queens", DOUBLER_TAKES_OTHER, "2S QH QS 3S", doubles={1: "QH", 2: "QS"}, options=options
    )
    tricks, _ = tricks_with_points(record)
    assert tricks == [(0, 2, expected)]


# -- Diamonds ----------------------------------------------------------------------------------


def test_diamonds_ends_with_the_thirteenth_diamond():
    hands = build_hands(
        {0: "D:2345", 1: "D:6789", 2: "D:TJQKA"}, voids={0: "D", 1: "D", 2: "D", 3: "D"}
    )
    assert hands[3] == [r + "S" for r in "23456789TJQKA"]
    plays = "2D 6D TD 2S  JD 3S 3D 7D  QD 4S 4D 8D  KD 5S 5D 9D  AD 6S 2C JC"
    record = make_record("diamonds", hands, plays)
    result = replay_record(record)
    assert nonzero({int(s): v for s, v in result["scores"].items()}) == {2: -130}
    assert len(result["tricks"]) == 5
    with pytest.raises(InvalidRecord, match="play 20: the deal is over"):
        replay_record({**record, "plays": record["plays"] + ["3C"]})


def test_diamonds_score_ten_each_and_nothing_else():
    # Trick 1 holds the K♥, a queen and two diamonds: only the diamonds count.
    hands = build_hands({0: "C:2 D:3", 1: "C:Q", 2: "D:4 H:K", 3: "C:A"}, voids={2: "C"})
    partial = make_record("diamonds", hands, "2C QC KH AC")
    tricks, _ = tricks_with_points(partial)
    assert tricks == [(0, 3, {})]
    full = complete(partial)
    result = replay_record(full)
    total = sum(result["scores"].values())
    assert total == -130
    for s, v in result["scores"].items():
        taken = sum(
            sum(1 for c in t["cards"] if c[1] == "D")
            for t in result["tricks"]
            if t["taker"] == int(s)
        )
        assert v == -10 * taken


# -- Ltoosh ------------------------------------------------------------------------------------


@pytest.mark.parametrize("owner", [0, 2])
def test_ltoosh_owner_leading_a_suit_nobody_else_holds_takes_all_13(owner):
    record = complete(make_record("ltoosh", suit_hands(), [], owner=owner))
    result = replay_record(record)
    assert nonzero({int(s): v for s, v in result["scores"].items()}) == {owner: -195}
    assert len(result["tricks"]) == 13


def test_ltoosh_minus_fifteen_per_trick_all_thirteen_played():
    hands = build_hands({0: "C:2 H:K S:Q D:Q"})
    result = replay_record(complete(make_record("ltoosh", hands, [])))
    assert len(result["tricks"]) == 13
    for s, v in result["scores"].items():
        assert v == -15 * sum(1 for t in result["tricks"] if t["taker"] == int(s))


# -- Complex -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "doubles, expected",
    [
        ({}, {0: -500}),
        # Seat 0 takes everything: 150 more for the doubled K♥ and three doubled queens.
        ({2: "KH QH", 1: "QD", 3: "QS"}, {0: -650, 1: 25, 2: 100, 3: 25}),
    ],
)
def test_complex_all_thirteen_tricks_to_the_owner(doubles, expected):
    for variant in ("complex", "complex_partner"):
        record = complete(
            make_record("complex", suit_hands(), [], variant=variant, doubles=doubles)
        )
        result = replay_record(record)
        assert len(result["tricks"]) == 13
        assert nonzero({int(s): v for s, v in result["scores"].items()}) == expected
    assert result["teams"] == {"0+2": expected[0] + expected.get(2, 0), "1+3": 50 if doubles else 0}


# Complex trick 1: seat 0 leads 2C, seat 1 (void in clubs) discards the Q♦, seat 3 takes.
QD_DISCARD = build_hands({0: "C:2", 1: "D:Q", 2: "C:3", 3: "C:A"}, voids={1: "C"})
# Complex trick 1: seat 1 (owner) leads its Q♦, nobody else holds a diamond.
QD_LED = build_hands({1: "D:Q"}, voids={0: "D", 2: "D", 3: "D"})

COMPLEX_QD_CASES = [
    ("undoubled", QD_DISCARD, 0, "2C QD 3C AC", {}, "leader_gains", {3: -15 - 35}),
    ("doubled", QD_DISCARD, 0, "2C QD 3C AC", {1: "QD"}, "leader_gains", {3: -15 - 60, 1: 25}),
    ("own-lead/undoubled", QD_LED, 1, None, {}, "leader_gains", {1: -15 - 35}),
    ("own-lead/leader_gains", QD_LED, 1, None, {1: "QD"}, "leader_gains", {1: -15 - 60 + 25}),
    ("own-lead/single_penalty", QD_LED, 1, None, {1: "QD"}, "single_penalty", {1: -15 - 35}),
    ("own-lead/double_no_gain", QD_LED, 1, None, {1: "QD"}, "double_no_gain", {1: -15 - 60}),
]


@pytest.mark.parametrize(
    "hands, owner, plays, doubles, self_double, expected",
    [c[1:] for c in COMPLEX_QD_CASES],
    ids=[c[0] for c in COMPLEX_QD_CASES],
)
def test_complex_queen_of_diamonds(hands, owner, plays, doubles, self_double, expected):
    options = {} if self_double == "leader_gains" else {"self_double": self_double}
    if plays is None:
        # The owner leads Q♦; the others (void in diamonds) play their lowest cards.
        plays = "QD " + " ".join(hands[(owner + i) % 4][0] for i in (1, 2, 3))
    record = make_record(
        "complex",
        hands,
        plays,
        owner=owner,
        variant="complex",
        doubles=doubles,
        options=options,
    )
    tricks, _ = tricks_with_points(record)
    assert tricks[0][2] == expected
    # The whole deal: -500 (less under double_no_gain when the doubler takes its own).
    total = sum(scores(complete(record)).values())
    lost = 25 if self_double == "double_no_gain" and owner == 1 and doubles else 0
    assert total == -500 - lost


def test_complex_king_and_queens_and_diamonds_add_up_in_one_trick():
    # Seat 0 leads 2H, seat 1 plays K♥, seats 2 and 3 (void in hearts) discard Q♠ and Q♦:
    # seat 1 takes -15 -75 -25 -35.
    hands = build_hands({0: "H:2", 1: "H:K", 2: "S:Q", 3: "D:Q"}, voids={2: "H", 3: "H"})
    record = make_record("complex", hands, "2H KH QS QD", variant="complex")
    tricks, _ = tricks_with_points(record)
    assert tricks == [(0, 1, {1: -15 - 75 - 25 - 35})]


# -- Trix (the layout) -------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["trix", "trix_partner", "complex", "complex_partner"])
@pytest.mark.parametrize("owner, order", [(0, [0, 1, 2, 3]), (2, [2, 3, 0, 1])])
def test_trix_places_and_the_end_when_three_are_out(variant, owner, order):
    record = complete(make_record("trix", suit_hands(), [], owner=owner, variant=variant))
    # Each seat lays one of its own suit per turn: the first to start goes out first, and
    # the deal ends as soon as three are out, the fourth still holding one card.
    assert len(record["plays"]) == 51
    result = replay_record(record)
    assert result["order"] == order
    expected = dict(zip(order, (200, 150, 100, 50), strict=True))
    assert {int(s): v for s, v in result["scores"].items()} == expected
    if variant.endswith("_partner"):
        assert sum(result["teams"].values()) == 500
    with pytest.raises(InvalidRecord, match="play 51: the deal is over"):
        replay_record({**record, "plays": record["plays"] + ["pass"]})


def test_trix_pass_without_a_playable_card():
    # Seat 0 (owner) holds no jack: it must pass first; seat 1 holds J♣ and J♦.
    hands = {
        0: [r + "C" for r in "23456789TQKA"] + ["2D"],
        1: ["JC"] + [r + "D" for r in "3456789TJQKA"],
        2: [r + "H" for r in "23456789TJQKA"],
        3: [r + "S" for r in "23456789TJQKA"],
    }
    record = complete(make_record("trix", hands, []))
    assert record["plays"][0] == "pass"
    result = replay_record(record)
    assert sorted(result["scores"].values()) == [50, 100, 150, 200]
    assert len(result["order"]) == 4
    # Passing when a card is playable is refused, as is playing a card that does not fit.
    with pytest.raises(InvalidRecord, match="play 1: seat 1: cannot pass holding a playable"):
        replay_record(make_record("trix", hands, ["pass", "pass"]))
    with pytest.raises(InvalidRecord, match="play 0: seat 0: TC cannot go on the layout now"):
        replay_record(make_record("trix", hands, ["TC"]))


# -- Doubles scored per team (double_scoring: team) ---------------------------------------------

TEAM = {"double_scoring": "team"}


@pytest.mark.parametrize(
    "hands, owner, plays, doubles, options, expected",
    [
        # Seat 2 doubles the K♥ and its partner, seat 0, takes it on seat 3's lead ("not
        # sold"): seat 0 pays double and the other team gains, through the leader (seat 3).
        (
            build_hands({0: "H:A", 1: "H:3", 2: "H:K", 3: "H:4"}),
            3,
            "4H AH 3H KH",
            {2: "KH"},
            TEAM,
            {0: -150, 3: 75},
        ),
        # The same trick scored seat by seat (the default): the doubler gains from its partner.
        (
            build_hands({0: "H:A", 1: "H:3", 2: "H:K", 3: "H:4"}),
            3,
            "4H AH 3H KH",
            {2: "KH"},
            {},
            {0: -150, 2: 75},
        ),
        # Seat 1 leads, seat 2 takes its own doubled K♥: "not sold"; the leader (an opponent)
        # gains, as by default.
        (
            build_hands({0: "H:3", 1: "H:2", 2: "H:K", 3: "H:4"}),
            1,
            "2H KH 4H 3H",
            {2: "KH"},
            TEAM,
            {2: -150, 1: 75},
        ),
        # Seat 2 leads its own doubled K♥ and takes it: "not sold"; -150, and seat 3 (the seat
        # after the leader) gains 75, where by default the doubler nets -75.
        (
            build_hands({0: "H:3", 1: "H:4", 2: "H:K", 3: "H:2"}),
            2,
            "KH 2H 3H 4H",
            {2: "KH"},
            TEAM,
            {2: -150, 3: 75},
        ),
        # "Sold": an opponent (seat 3) takes seat 2's doubled K♥: as by default.
        (
            build_hands({0: "H:2", 1: "H:3", 2: "H:K", 3: "H:A"}),
            0,
            "2H 3H KH AH",
            {2: "KH"},
            TEAM,
            {3: -150, 2: 75},
        ),
        # double_scoring team decides the doubler's own card over self_double.
        (
            build_hands({0: "H:3", 1: "H:4", 2: "H:K", 3: "H:2"}),
            2,
            "KH 2H 3H 4H",
            {2: "KH"},
            {**TEAM, "self_double": "single_penalty"},
            {2: -150, 3: 75},
        ),
    ],
    ids=[
        "partner-takes",
        "partner-takes/seat",
        "self-on-opponent-lead",
        "self-led",
        "sold",
        "over-self_double",
    ],
)
def test_team_scored_doubles(hands, owner, plays, doubles, options, expected):
    record = make_record(
        "king",
        hands,
        plays,
        owner=owner,
        variant="trix_partner",
        doubles=doubles,
        options=options,
    )
    got = scores(record)
    assert nonzero(got) == expected
    assert sum(got.values()) == -75  # doubling never changes the deal's total


def test_team_scored_doubles_are_seat_by_seat_in_solo():
    hands = build_hands({0: "H:A", 1: "H:3", 2: "H:K", 3: "H:4"})
    record = make_record(
        "king", hands, "4H AH 3H KH", owner=3, variant="trix", doubles={2: "KH"}, options=TEAM
    )
    assert nonzero(scores(record)) == {0: -150, 2: 75}


def test_team_scored_doubled_queen_of_diamonds_in_complex():
    # Seat 1 leads the doubled Q♦ and its partner seat 3 takes it with the K♦ ("not sold"):
    # seat 3 pays -60 for it (-50 queen, -10 diamond), -30 for the other diamonds and -15 for
    # the trick; seat 2 (the seat after the leader, an opponent) gains 25.
    hands = build_hands({0: "D:2", 1: "D:Q", 2: "D:3", 3: "D:K"})
    record = make_record(
        "complex",
        hands,
        "QD 3D KD 2D",
        owner=1,
        variant="complex_partner",
        doubles={1: "QD"},
        options=TEAM,
    )
    tricks, _ = tricks_with_points(record)
    assert tricks == [(1, 3, {3: -15 - 60 - 30, 2: 25})]
