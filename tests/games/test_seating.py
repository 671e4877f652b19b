"""Tournament seating (docs/tournaments.md): knockout and Swiss, solo and partnership; bots,
byes, the cut line, standings and tie-breaks; table-driven events and Hypothesis properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.fairness import FairnessError
from games.fairness.draw import draw_key, draw_order, draw_ranks
from games.fairness.schedule import next_round
from games.fairness.seating import RoundSeating, UnitResult, knockout_seating, swiss_seating
from games.fairness.standings import knockout_advancing, standings, table_points
from tests.games.draw_helpers import SECRET, entrants, run_event

KEY = draw_key(secret=SECRET, event="t:1", entrants=list(entrants(40)), client_seeds=entrants(40))


def sizes(seating: RoundSeating) -> list[int]:
    return [sum(u is not None for u in table) for table in seating.tables]


def repeat_pairs(rounds) -> list[int]:
    """Per round, pairs at a table that met in an earlier round."""
    met: set[frozenset] = set()
    out = []
    for _, _, seating, _ in rounds:
        pairs = [
            frozenset((a, b))
            for table in seating.tables
            for i, a in enumerate(table)
            for b in table[i + 1 :]
            if a is not None and b is not None
        ]
        out.append(sum(p in met for p in pairs))
        met.update(pairs)
    return out


def bot_rule_holds(rounds) -> bool:
    """[Bots]: whoever sits with a bot has had no more bot tables than anyone who does not."""
    count: dict[str, int] = {}
    for _, order, seating, _ in rounds:
        with_bot = {u for t in seating.tables if None in t for u in t if u is not None}
        others = set(order) - with_bot
        if with_bot and others:
            if max(count.get(u, 0) for u in with_bot) > min(count.get(u, 0) for u in others):
                return False
        for u in with_bot:
            count[u] = count.get(u, 0) + 1
    return True


# --- points ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "place, team_mode, tied, points",
    [
        (1, False, 1, 3),
        (2, False, 1, 2),
        (3, False, 1, 1),
        (4, False, 1, 0),
        (1, False, 2, 2),  # (3 + 2) // 2
        (1, False, 3, 2),  # (3 + 2 + 1) // 3
        (1, False, 4, 1),  # 6 // 4
        (2, False, 3, 1),  # (2 + 1 + 0) // 3
        (3, False, 2, 0),  # (1 + 0) // 2
        (1, True, 1, 2),
        (1, True, 2, 1),
        (2, True, 1, 0),
    ],
)
def test_table_points(place, team_mode, tied, points):
    assert table_points(place, team_mode, tied) == points


@pytest.mark.parametrize(
    "place, team_mode, tied",
    [(0, False, 1), (5, False, 1), (3, False, 3), (3, True, 1), (2, True, 2)],
)
def test_table_points_refuses_places_off_the_table(place, team_mode, tied):
    with pytest.raises(FairnessError):
        table_points(place, team_mode, tied)


def test_standings_tie_breaks_in_order():
    """Points, then match score, then opponents' points, then the draw."""
    units = ["a", "b", "c", "d", "e", "f", "g", "h"]
    seating = RoundSeating([["a", "b", "c", "d"], ["e", "f", "g", "h"]])
    results = [
        [
            UnitResult("a", 1, 50),
            UnitResult("b", 2, 10),
            UnitResult("c", 3, 0),
            UnitResult("d", 4, -60),
        ],
        [
            UnitResult("e", 1, 50),
            UnitResult("f", 1, 50),
            UnitResult("g", 3, -40),
            UnitResult("h", 4, -60),
        ],
    ]
    table = standings(key=KEY, units=units, rounds=[(seating, results)], team_mode=False)
    by_unit = {s.unit: s for s in table}
    assert [by_unit[u].points for u in units] == [3, 2, 1, 0, 2, 2, 1, 0]
    assert by_unit["a"].rank == 1
    # b, e, f have 2 points; e and f scored 50 > b's 10; e vs f: opponents' points
    # (e: 2+1+0 = 3, f: 2+1+0 = 3) tie, so the draw decides.
    ranks = draw_ranks(KEY, units)
    first, second = sorted(["e", "f"], key=ranks.__getitem__)
    assert [s.unit for s in table[1:4]] == [first, second, "b"]
    assert by_unit["e"].opponents_points == 3 and by_unit["b"].opponents_points == 4
    # c (1 point, score 0) before g (1 point, score -40); d vs h: -60 each, opponents 6 vs 5.
    assert [s.unit for s in table[4:]] == ["c", "g", "d", "h"]
    assert [s.rank for s in table] == list(range(1, 9))


def test_bye_scores_a_win_and_opponents_count_zero_for_bots():
    seating = RoundSeating([["t1", "t2"]], byes=["t3"])
    results = [[UnitResult("t1", 1, 30), UnitResult("t2", 2, -30)]]
    table = standings(
        key=KEY, units=["t1", "t2", "t3"], rounds=[(seating, results)], team_mode=True
    )
    assert {s.unit: s.points for s in table} == {"t1": 2, "t2": 0, "t3": 2}
    assert [s.unit for s in table] == ["t1", "t3", "t2"]  # score 30 > 0
    solo = RoundSeating([["a", "b", "c", None]])
    res = [
        [
            UnitResult("a", 2, 1),
            UnitResult("b", 3, 0),
            UnitResult("c", 4, -1),
            UnitResult(None, 1, 9),
        ]
    ]
    table = standings(key=KEY, units=["a", "b", "c"], rounds=[(solo, res)], team_mode=False)
    assert {s.unit: (s.points, s.opponents_points) for s in table} == {
        "a": (2, 1),
        "b": (1, 2),
        "c": (0, 3),
    }


# --- table-driven events ---------------------------------------------------------------------


def test_13_solo_swiss_bots_spread_and_rotate():
    tournament = {"format": "swiss", "team_mode": False, "rounds": 4, "final": False}
    _, _, _, rounds = run_event(tournament, entrants(13))
    assert [kind for kind, *_ in rounds] == ["swiss"] * 4
    for _, order, seating, _ in rounds:
        assert sorted(sizes(seating), reverse=True) == [4, 3, 3, 3]
        assert sorted(seating.seated()) == sorted(order) and seating.byes == []
    assert bot_rule_holds(rounds)
    # Round 1: the 4 drawn first sit at the full table; round 2 all four sit with a bot.
    first_full = set(rounds[0][2].tables[0])
    assert first_full == set(rounds[0][1][:4])
    round2_full = next(t for t in rounds[1][2].tables if None not in t)
    assert not first_full & set(round2_full)
    # Repeats only where forced (round 2's full table needs 4 of the 9 who sat in 3 tables).
    assert repeat_pairs(rounds)[0] == 0


def test_16_solo_swiss_has_no_repeat_meetings():
    tournament = {"format": "swiss", "team_mode": False, "rounds": 5, "final": True}
    _, units, _, rounds = run_event(tournament, entrants(16))
    assert [kind for kind, *_ in rounds] == ["swiss"] * 5 + ["final"]
    assert repeat_pairs(rounds[:5]) == [0, 0, 0, 0, 0]
    final_kind, finalists, final, _ = rounds[-1]
    assert len(final.tables) == 1 and sorted(final.tables[0]) == sorted(finalists)


@pytest.mark.parametrize("advance, shape", [(2, [4, 2, 1]), (1, [4, 1])])
def test_16_solo_knockout(advance, shape):
    tournament = {"format": "knockout", "team_mode": False, "advance": advance}
    key, units, _, rounds = run_event(tournament, entrants(16))
    assert [len(s.tables) for _, _, s, _ in rounds] == shape
    assert [kind for kind, *_ in rounds] == ["knockout"] * (len(shape) - 1) + ["final"]
    assert rounds[0][1] == draw_order(key, units)
    for (_, _, seating, results), (_, nxt, _, _) in zip(rounds, rounds[1:], strict=False):
        assert len(nxt) == advance * len(seating.tables)
        for table_results in results:  # the table's best `advance` by place go on
            best = sorted(table_results, key=lambda r: r.place)[:advance]
            assert {r.unit for r in best} <= set(nxt)
    assert all(None not in t for _, _, s, _ in rounds for t in s.tables)
    if advance == 2:
        assert repeat_pairs(rounds)[1] == 0  # round 2 separates round-1 table-mates


def test_13_solo_knockout_bots_never_advance():
    tournament = {"format": "knockout", "team_mode": False, "advance": 2}
    _, _, _, rounds = run_event(tournament, entrants(13), salt="bots")
    assert [sizes(s) for _, _, s, _ in rounds][0] == [4, 3, 3, 3]
    assert [len(o) for _, o, _, _ in rounds] == [13, 8, 4]
    for _, order, _, _ in rounds:
        assert None not in order
    # Round 2: 8 units, two from each round-1 table, over 2 tables: the row arrangement
    # search separates every pair of round-1 table-mates.
    for salt in ("a", "b", "c", "d"):
        assert repeat_pairs(run_event(tournament, entrants(13), salt=salt)[3])[1] == 0


@pytest.mark.parametrize(
    "count, tournament, tables, byes",
    [
        (8, {"format": "swiss", "team_mode": True, "rounds": 3, "final": True}, [4, 4, 4, 1], 0),
        (8, {"format": "knockout", "team_mode": True}, [4, 2, 1], 0),
        (7, {"format": "swiss", "team_mode": True, "rounds": 5, "final": False}, [3] * 5, 1),
        (7, {"format": "knockout", "team_mode": True}, [3, 2, 1], None),
    ],
)
def test_partnership_events(count, tournament, tables, byes):
    _, units, _, rounds = run_event(tournament, entrants(2 * count))
    assert [len(s.tables) for _, _, s, _ in rounds] == tables
    for _, order, seating, _ in rounds:
        assert all(len(t) == 2 and None not in t for t in seating.tables)
        assert sorted(seating.seated() + seating.byes) == sorted(order)
        if byes is not None and len(seating.tables) > 1:
            assert len(seating.byes) == byes
    if tournament["format"] == "swiss" and count % 2:
        # A different team each round, the lowest ranked without one.
        given = [s.byes[0] for _, _, s, _ in rounds]
        assert len(set(given)) == len(given)
        for (_, order, seating, _), earlier in zip(rounds, range(len(rounds)), strict=True):
            unbyed = [u for u in order if u not in given[:earlier]]
            assert seating.byes == [unbyed[-1]]
        assert repeat_pairs(rounds) == [0] * len(rounds)
    if tournament["format"] == "knockout" and count == 7:
        assert len(rounds[0][2].byes) == 1 and rounds[0][2].byes[0] in rounds[1][1]


def test_the_cut_line_tie_goes_to_the_score_then_the_draw():
    units = ["a", "b", "c", "d", "e", "f", "g", "h"]
    seating = RoundSeating([["a", "b", "c", "d"], ["e", "f", "g", "h"]])
    results = [
        # b and c tie for second: c scored more and goes on.
        [
            UnitResult("a", 1, 90),
            UnitResult("b", 2, 10),
            UnitResult("c", 2, 20),
            UnitResult("d", 4, 0),
        ],
        # f and g tie for second with the same score: the better drawn goes on.
        [
            UnitResult("e", 1, 90),
            UnitResult("f", 2, 10),
            UnitResult("g", 2, 10),
            UnitResult("h", 4, 0),
        ],
    ]
    ranks = draw_ranks(KEY, units)
    drawn = min("f", "g", key=ranks.__getitem__)
    out = knockout_advancing(
        key=KEY, units=units, seating=seating, results=results, team_mode=False, advance=2
    )
    assert set(out) == {"a", "c", "e", drawn}
    # Table winners first, then the seconds, each by draw rank.
    assert out == sorted(["a", "e"], key=ranks.__getitem__) + sorted(
        ["c", drawn], key=ranks.__getitem__
    )


def test_a_bot_placed_first_does_not_take_a_place():
    units = ["a", "b", "c"]
    seating = RoundSeating([["a", "b", "c", None]])
    results = [
        [
            UnitResult("a", 3, 0),
            UnitResult("b", 2, 5),
            UnitResult("c", 4, -5),
            UnitResult(None, 1, 9),
        ]
    ]
    out = knockout_advancing(
        key=KEY, units=units, seating=seating, results=results, team_mode=False, advance=2
    )
    assert out == ["b", "a"]


def test_knockout_round_one_ignores_the_given_order():
    units = [f"p{i:03d}" for i in range(1, 11)]
    a = knockout_seating(key=KEY, round_no=1, units=units, team_mode=False, history=[])
    b = knockout_seating(key=KEY, round_no=1, units=units[::-1], team_mode=False, history=[])
    assert a == b and sizes(a) == [4, 3, 3]


def test_bad_input_is_refused():
    with pytest.raises(FairnessError, match="listed twice"):
        swiss_seating(key=KEY, round_no=1, ranked=["a", "a"], team_mode=False, history=[])
    with pytest.raises(FairnessError, match="must not be empty"):
        swiss_seating(key=KEY, round_no=1, ranked=[], team_mode=False, history=[])
    with pytest.raises(FairnessError, match="tournament.format"):
        next_round(key=KEY, units=["a"], tournament={"format": "x", "team_mode": False}, played=[])
    with pytest.raises(FairnessError, match="at least 2 teams"):
        next_round(
            key=KEY, units=["t1"], tournament={"format": "knockout", "team_mode": True}, played=[]
        )
    with pytest.raises(FairnessError, match="advance must be 1 or 2"):
        next_round(
            key=KEY,
            units=["a"],
            tournament={"format": "knockout", "team_mode": False, "advance": 3},
            played=[],
        )


# --- properties ---------------------------------------------------------------------------------

formats = st.one_of(
    st.builds(
        lambda team, k: {"format": "knockout", "team_mode": team, "advance": k},
        st.booleans(),
        st.sampled_from([1, 2]),
    ),
    st.builds(
        lambda team, r, f: {"format": "swiss", "team_mode": team, "rounds": r, "final": f},
        st.booleans(),
        st.integers(1, 5),
        st.booleans(),
    ),
)


@settings(max_examples=60, deadline=None)
@given(formats, st.integers(2, 45), st.text("abc", min_size=1, max_size=3))
def test_every_round_seats_every_unit_once(tournament, count, salt):
    team_mode = tournament["team_mode"]
    players = entrants(2 * count if team_mode else count)
    _, units, _, rounds = run_event(tournament, players, salt=salt, tie_every=2)
    has_final = tournament["format"] == "knockout" or tournament["final"]
    assert (rounds[-1][0] == "final") == has_final
    final_size = 2 if team_mode else 4
    for kind, order, seating, _ in rounds:
        seated = seating.seated()
        assert sorted(seated + seating.byes) == sorted(order)  # once each
        assert len(set(seated + seating.byes)) == len(order)
        if team_mode:
            assert all(len(t) == 2 and None not in t for t in seating.tables)
            assert len(seating.byes) == (len(order) % 2 if kind != "final" else 0)
        else:
            assert all(len(t) == 4 for t in seating.tables) and seating.byes == []
            tables = math.ceil(len(order) / 4)
            assert len(seating.tables) == tables
            bots = [4 - n for n in sizes(seating)]
            assert sum(bots) == 4 * tables - len(order)  # bots only where needed
            if tables >= sum(bots):
                assert max(bots) <= 1
        if kind == "final":
            assert len(seating.tables) == 1 and len(order) <= final_size
    if not team_mode:
        assert bot_rule_holds([r for r in rounds if r[0] != "final"])
    # Deterministic: the same inputs give the same rounds.
    assert run_event(tournament, players, salt=salt, tie_every=2)[3] == rounds


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 60), st.integers(2, 4), st.booleans())
def test_swiss_keeps_repeats_rare(count, played_rounds, team_mode):
    """Repeat meetings appear only when the field is too small to avoid them."""
    tournament = {
        "format": "swiss",
        "team_mode": team_mode,
        "rounds": played_rounds,
        "final": False,
    }
    _, units, _, rounds = run_event(tournament, entrants(2 * count if team_mode else count))
    repeats = repeat_pairs(rounds)
    assert repeats[0] == 0
    if count >= 24:
        assert repeats[1] == 0
