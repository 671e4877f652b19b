"""A table's recorded result (no Django): places after no-shows and disqualifications, and
the knockout cut at a tie (match score, then the seating draw)."""

from __future__ import annotations

from games.fairness.draw import draw_order
from games.fairness.seating import RoundSeating, UnitResult
from games.fairness.standings import knockout_advancing
from games.fairness.table_results import table_result

KEY = bytes(range(32))
UNITS = ["E1", "E2", "E3", "E4"]


def result(placements, scores, **extra):
    return {
        "placements": {str(s): p for s, p in enumerate(placements)},
        "scores": {str(s): v for s, v in enumerate(scores)},
        "forfeit": None,
        "deals_played": 8,
        **extra,
    }


def rows(recorded):
    return [(r["unit"], r["place"], r["score"]) for r in recorded["results"]]


def test_places_follow_the_engine_with_bots_in_between():
    got = table_result(
        units=["E1", None, "E2", "E3"], result=result([2, 1, 3, 4], [10, 50, 0, -60]),
        team_mode=False, no_show_seats=set(), disqualified=set(),
    )  # fmt: skip
    assert rows(got) == [("E1", 2, 10), (None, 1, 50), ("E2", 3, 0), ("E3", 4, -60)]


def test_no_show_and_disqualified_share_the_last_places():
    got = table_result(
        units=UNITS, result=result([1, 2, 3, 4], [90, 10, 0, -100]), team_mode=False,
        no_show_seats={0}, disqualified={"E2"},
    )  # fmt: skip
    assert rows(got) == [("E1", 3, 90), ("E2", 3, 10), ("E3", 1, 0), ("E4", 2, -100)]
    assert got["no_show"] == ["E1"] and got["disqualified"] == ["E2"]


def test_a_cancelled_table_places_everyone_first():
    got = table_result(
        units=UNITS, result=None, team_mode=False, no_show_seats=set(), disqualified=set()
    )
    assert [r["place"] for r in got["results"]] == [1, 1, 1, 1]


def test_partnership_a_penalised_team_loses():
    res = result([1, 2, 1, 2], [60, 20, 40, 10], teams={"0+2": 100, "1+3": 30}, winner="0+2")
    got = table_result(
        units=["T1", "T2", "T1", "T2"], result=res, team_mode=True, no_show_seats={2},
        disqualified=set(),
    )  # fmt: skip
    assert rows(got) == [("T1", 2, 100), ("T2", 1, 30)]


def test_a_tie_at_the_cut_line_goes_to_the_match_score_then_the_draw():
    seating = RoundSeating(tables=[UNITS])
    # Seats 1 and 2 tie for the second place; k = 2: the higher match score advances.
    recorded = table_result(
        units=UNITS, result=result([1, 2, 2, 4], [80, 15, 20, -115]), team_mode=False,
        no_show_seats=set(), disqualified=set(),
    )  # fmt: skip
    results = [[UnitResult(r["unit"], r["place"], r["score"]) for r in recorded["results"]]]
    advancing = knockout_advancing(
        key=KEY, units=UNITS, seating=seating, results=results, team_mode=False, advance=2
    )
    assert sorted(advancing) == ["E1", "E3"]
    # The same score too: the seating draw decides (the unit drawn first).
    recorded = table_result(
        units=UNITS, result=result([1, 2, 2, 4], [80, 20, 20, -120]), team_mode=False,
        no_show_seats=set(), disqualified=set(),
    )  # fmt: skip
    results = [[UnitResult(r["unit"], r["place"], r["score"]) for r in recorded["results"]]]
    advancing = knockout_advancing(
        key=KEY, units=UNITS, seating=seating, results=results, team_mode=False, advance=2
    )
    order = draw_order(KEY, UNITS)
    second = min(("E2", "E3"), key=order.index)
    assert sorted(advancing) == sorted(["E1", second])


def test_disqualified_and_never_played_units_share_the_last_final_place():
    """docs/tournaments.md [Final places]: every disqualified unit and every unit that never
    played share the last places, whatever their places at the tables were."""
    from types import SimpleNamespace

    from tournaments.progress import final_places

    units = [f"E{i}" for i in range(1, 9)]
    t = SimpleNamespace(
        draw_key=KEY.hex(), team_mode=False, format="knockout", rounds=0,
        entrants=[{"entrant": u, "team": None} for u in units],
    )  # fmt: skip
    round1 = SimpleNamespace(seating={"tables": [units[:4], units[4:]], "byes": []})
    final = SimpleNamespace(seating={"tables": [["E1", "E2", "E5", "E6"]], "byes": []})

    def recorded(seats, places):
        rows = [{"unit": u, "place": p, "score": 0} for u, p in zip(seats, places, strict=True)]
        return SimpleNamespace(result={"results": rows})

    rounds = [
        (round1, [recorded(units[:4], [1, 2, 3, 4]), recorded(units[4:], [1, 2, 3, 4])]),
        (final, [recorded(["E1", "E2", "E5", "E6"], [1, 2, 3, 4])]),
    ]
    # E3 was disqualified (third at its table), E8 never showed up (last at its table).
    got = final_places(tournament=t, rounds=rounds, disqualified={"E3", "E8"})
    assert [got[u] for u in ("E1", "E2", "E5", "E6", "E7", "E4")] == [1, 2, 3, 4, 5, 6]
    assert got["E3"] == got["E8"] == 7
