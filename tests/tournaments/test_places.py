"""Final places (docs/tournaments.md "Final places"): knockout by round of exit, table place
and match score; Swiss by standing, the final table deciding the top places; ties share."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.fairness import FairnessError
from games.fairness.seating import RoundSeating, UnitResult
from games.fairness.standings import standings
from tests.games.draw_helpers import entrants, run_event
from tournaments.places import competition_places, knockout_places, swiss_places
from tournaments.prizes import check_places


def played(rounds):
    return [(seating, results) for _, _, seating, results in rounds]


@pytest.mark.parametrize("advance", [1, 2])
def test_16_solo_knockout_places(advance):
    tournament = {"format": "knockout", "team_mode": False, "advance": advance}
    _, units, _, rounds = run_event(tournament, entrants(16))
    places = knockout_places(units=units, rounds=played(rounds))
    assert set(places) == set(units)
    check_places(places)
    final_seating, final_results = played(rounds)[-1]
    best = sorted(final_results[0], key=lambda r: (r.place, -r.score))
    assert places[best[0].unit] == 1
    # The finalists hold places 1..4; everyone out in round 1 places below everyone after.
    finalists = set(final_seating.seated())
    assert sorted(places[u] for u in finalists) == [1, 2, 3, 4]
    out_first = set(units) - set(rounds[1][1])
    assert min(places[u] for u in out_first) > max(places[u] for u in set(units) - out_first)


def test_knockout_ties_share_and_byes_are_not_exits():
    units = ["a", "b", "c", "d", "e", "f", "g", "h"]
    r1 = RoundSeating([["a", "b", "c", "d"], ["e", "f", "g", "h"]])
    res1 = [
        [
            UnitResult("a", 1, 9),
            UnitResult("b", 2, 5),
            UnitResult("c", 3, 1),
            UnitResult("d", 4, 0),
        ],
        [
            UnitResult("e", 1, 9),
            UnitResult("f", 2, 5),
            UnitResult("g", 3, 1),
            UnitResult("h", 4, -1),
        ],
    ]
    r2 = RoundSeating([["a", "e", "b", "f"]])
    res2 = [
        [UnitResult("a", 2, 5), UnitResult("e", 1, 8), UnitResult("b", 3, 0), UnitResult("f", 3, 0)]
    ]
    places = knockout_places(units=units, rounds=[(r1, res1), (r2, res2)])
    assert places == {"e": 1, "a": 2, "b": 3, "f": 3, "c": 5, "g": 5, "d": 7, "h": 8}
    teams = ["t1", "t2", "t3"]
    k1 = RoundSeating([["t1", "t2"]], byes=["t3"])
    k2 = RoundSeating([["t3", "t1"]])
    places = knockout_places(
        units=teams,
        rounds=[
            (k1, [[UnitResult("t1", 1, 10), UnitResult("t2", 2, -10)]]),
            (k2, [[UnitResult("t3", 2, -4), UnitResult("t1", 1, 4)]]),
        ],
    )
    assert places == {"t1": 1, "t3": 2, "t2": 3}
    with pytest.raises(FairnessError, match="'zed' played no round"):
        knockout_places(units=[*units, "zed"], rounds=[(r1, res1), (r2, res2)])


def test_13_solo_swiss_places_are_the_standings():
    tournament = {"format": "swiss", "team_mode": False, "rounds": 3, "final": False}
    key, units, _, rounds = run_event(tournament, entrants(13))
    places = swiss_places(key=key, units=units, rounds=played(rounds), team_mode=False)
    table = standings(key=key, units=units, rounds=played(rounds), team_mode=False)
    assert places == {s.unit: s.rank for s in table}


def test_8_teams_swiss_with_a_final():
    tournament = {"format": "swiss", "team_mode": True, "rounds": 3, "final": True}
    key, units, _, rounds = run_event(tournament, entrants(16))
    *swiss, final = played(rounds)
    places = swiss_places(key=key, units=units, rounds=swiss, team_mode=True, final=final)
    check_places(places)
    seating, results = final
    winner = min(results[0], key=lambda r: (r.place, -r.score))
    assert places[winner.unit] == 1
    assert sorted(places[u] for u in seating.seated()) in ([1, 2], [1, 1])
    table = standings(key=key, units=units, rounds=swiss, team_mode=True)
    rest = [s.unit for s in table if s.unit not in seating.seated()]
    assert [places[u] for u in rest] == list(range(3, 9))


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 40), st.booleans(), st.sampled_from(["knockout", "swiss"]))
def test_every_unit_gets_a_place(count, team_mode, kind):
    tournament = (
        {"format": "knockout", "team_mode": team_mode, "advance": 2}
        if kind == "knockout"
        else {"format": "swiss", "team_mode": team_mode, "rounds": 3, "final": True}
    )
    key, units, _, rounds = run_event(tournament, entrants(2 * count if team_mode else count))
    if kind == "knockout":
        places = knockout_places(units=units, rounds=played(rounds))
    else:
        *swiss, final = played(rounds)
        places = swiss_places(key=key, units=units, rounds=swiss, team_mode=team_mode, final=final)
    assert set(places) == set(units)
    check_places(places)


def test_competition_places():
    assert competition_places(["a", "b", "c", "d"], {"a": 1, "b": 2, "c": 2, "d": 3}.get) == {
        "a": 1,
        "b": 2,
        "c": 2,
        "d": 4,
    }
