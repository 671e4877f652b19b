"""Final places of every unit of a finished tournament. Pure Python, no Django.

Rules in ``docs/tournaments.md`` ("Final places"). Places are a competition ranking: units
whose keys are equal share the place and the next place skips (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from games.fairness.errors import FairnessError
from games.fairness.seating import PlayedRound
from games.fairness.standings import BYE_POINTS, standings


def competition_places(units: Sequence[str], key: Callable[[str], Hashable]) -> dict[str, int]:
    """Unit -> place, ordering by ``key`` (smaller is better); equal keys share a place."""
    ordered = sorted(units, key=key)
    places: dict[str, int] = {}
    for index, unit in enumerate(ordered):
        if index and key(unit) == key(ordered[index - 1]):
            places[unit] = places[ordered[index - 1]]
        else:
            places[unit] = index + 1
    return places


def knockout_places(*, units: Sequence[str], rounds: Sequence[PlayedRound]) -> dict[str, int]:
    """Final place of every unit of a played knockout [Final places].

    ``units``: every unit; ``rounds``: every round as (seating, results), the final last. A
    unit's exit round is the last round it played; later exits place better; within an exit
    round, by its place at its table, then its match score in that round (higher first); equal
    keys share. Raises FairnessError if a unit never played or a round lacks results.
    """
    exit_key: dict[str, tuple[int, int, int]] = {}
    for number, (seating, results) in enumerate(rounds, start=1):
        if results is None or len(results) != len(seating.tables):
            raise FairnessError(f"round {number} has no results for every table")
        for unit in seating.byes:
            exit_key[unit] = (-number, 1, 0)
        for table_results in results:
            for r in table_results:
                if r.unit is not None:
                    exit_key[r.unit] = (-number, r.place, -r.score)
    missing = sorted(set(units) - set(exit_key))
    if missing:
        raise FairnessError(f"unit {missing[0]!r} played no round")
    return competition_places(list(units), exit_key.__getitem__)


def swiss_places(
    *,
    key: bytes | str,
    units: Sequence[str],
    rounds: Sequence[PlayedRound],
    team_mode: bool,
    bye_points: int = BYE_POINTS,
    final: PlayedRound | None = None,
) -> dict[str, int]:
    """Final place of every unit of a played Swiss event [Final places].

    ``rounds``: the Swiss rounds as (seating, results); ``final``: the final table's round, if
    the event had one. Without a final, the place is the standing rank (``standings``: its
    tie-breaks end with the seating draw, so no two units share). With one, the finalists take
    places 1..4 (solo) or 1..2 (teams) by their final table place, then their score in the
    final (equal keys share), and everyone else follows in standing order.
    """
    ranked = [
        s.unit
        for s in standings(
            key=key, units=units, rounds=rounds, team_mode=team_mode, bye_points=bye_points
        )
    ]
    if final is None:
        return {unit: rank for rank, unit in enumerate(ranked, start=1)}
    seating, results = final
    if results is None or len(results) != len(seating.tables) or len(seating.tables) != 1:
        raise FairnessError("the final must be one table with results")
    final_key = {r.unit: (r.place, -r.score) for r in results[0] if r.unit is not None}
    places = competition_places(list(final_key), final_key.__getitem__)
    rest = [unit for unit in ranked if unit not in final_key]
    places.update({unit: len(final_key) + i for i, unit in enumerate(rest, start=1)})
    return places
