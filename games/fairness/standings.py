"""Tournament standings over the rounds played: table points, tie-breaks, the knockout cut.

Pure Python (standard library only). The rules are in ``docs/tournaments.md`` (section names in
brackets); the shapes of a round and its results in ``games.fairness.seating``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.fairness.draw import draw_ranks
from games.fairness.errors import FairnessError
from games.fairness.seating import (
    SOLO_SEATS,
    TEAM_UNITS,
    PlayedRound,
    Results,
    RoundSeating,
    UnitResult,
    check_units,
    describe_table,
)

SOLO_POINTS = (3, 2, 1, 0)
"""Solo standing points by table place 1..4 [Standing points]."""

TEAM_WIN, TEAM_DRAW, TEAM_LOSS = 2, 1, 0
"""Partnership standing points [Standing points]."""

BYE_POINTS = TEAM_WIN
"""What a partnership bye scores in Swiss: a win's points [Byes]."""


@dataclass(frozen=True)
class Standing:
    """A unit's standing: points, match score total, opponents' points, draw rank (1 = drawn
    first) and ``rank`` (1-based position after every tie-break, unique) [Standings]."""

    unit: str
    points: int
    score: int
    opponents_points: int
    draw_rank: int
    rank: int


def table_points(place: int, team_mode: bool, tied: int = 1) -> int:
    """Standing points for a table place [Standing points].

    Solo: 3/2/1/0 for places 1..4; ``tied`` units sharing ``place`` share the points of the
    places they span, rounded down (two tied first: (3+2)//2 = 2). Partnership (``place`` 1 or
    2 among the two teams): a win 2, a draw (both place 1, ``tied`` = 2) 1, a loss 0. Raises
    FairnessError for a place or tie outside the table.
    """
    seats = TEAM_UNITS if team_mode else SOLO_SEATS
    if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= seats:
        raise FairnessError(f"place must be from 1 to {seats}, got {place!r}")
    if isinstance(tied, bool) or not isinstance(tied, int) or not 1 <= tied <= seats - place + 1:
        raise FairnessError(f"{tied!r} units cannot share place {place} at a table of {seats}")
    if team_mode:
        if place == 2:
            return TEAM_LOSS
        return TEAM_DRAW if tied == 2 else TEAM_WIN
    return sum(SOLO_POINTS[place - 1 : place - 1 + tied]) // tied


@functools.lru_cache(maxsize=64)
def _points_by_place(places: tuple[int, ...], team_mode: bool) -> tuple[int, ...]:
    """``table_points`` of each seat of a table whose places are ``places``."""
    return tuple(table_points(p, team_mode, places.count(p)) for p in places)


def standings(
    *,
    key: bytes | str,
    units: Sequence[str],
    rounds: Sequence[PlayedRound],
    team_mode: bool,
    bye_points: int = BYE_POINTS,
) -> list[Standing]:
    """Every unit's standing, best first [Standings].

    ``units``: all units of the event; ``rounds``: played rounds as (seating, results), results
    per table in the table's order. Points: ``table_points`` per table, ``bye_points`` per bye.
    Order: points, then match score total, then opponents' points (the sum, over every table a
    unit sat at, of the other units' current points; bots count 0), then the seating draw.
    Raises FairnessError for a result naming a unit not seated there or a bad place.
    """
    units = check_units(units, "units")
    ranks = draw_ranks(key, units)
    points = dict.fromkeys(units, 0)
    score = dict.fromkeys(units, 0)
    for seating, results in rounds:
        if len(results) != len(seating.tables):
            raise FairnessError("results must hold one list per table")
        for table, table_results in zip(seating.tables, results, strict=True):
            if [r.unit for r in table_results] != table:
                raise FairnessError(
                    f"the results of table {describe_table(table)} name other units"
                )
            earned = _points_by_place(tuple([r.place for r in table_results]), team_mode)
            for unit, gain, r in zip(table, earned, table_results, strict=True):
                if unit is not None:
                    points[unit] += gain
                    score[unit] += r.score
        for unit in seating.byes:
            points[unit] += bye_points
    opp = dict.fromkeys(units, 0)
    for seating, _ in rounds:
        for table in seating.tables:
            present = [u for u in table if u is not None]
            total = sum(points[u] for u in present)
            for u in present:
                opp[u] += total - points[u]
    ordered = sorted(units, key=lambda u: (-points[u], -score[u], -opp[u], ranks[u]))
    return [
        Standing(u, points[u], score[u], opp[u], ranks[u], rank)
        for rank, u in enumerate(ordered, start=1)
    ]


def table_order(results: Sequence[UnitResult], ranks: Mapping[str, int]) -> list[UnitResult]:
    """A table's units (bots left out) best first: place, then match score (higher first),
    then draw rank [Knockout cut]."""
    return sorted(
        (r for r in results if r.unit is not None),
        key=lambda r: (r.place, -r.score, ranks[r.unit]),
    )


def knockout_advancing(
    *,
    key: bytes | str,
    units: Sequence[str],
    seating: RoundSeating,
    results: Results,
    team_mode: bool,
    advance: int,
) -> list[str]:
    """The units advancing from a knockout round, in the next round's order [Knockout cut].

    ``units``: all units of the event (for draw ranks); ``advance``: solo ``k`` (1 or 2; the
    top ``k`` units of each table by ``table_order``); partnership the winning team (``advance``
    ignored) and byes advance. Order: by position at their table (byes count as 1st), then draw
    rank. Bots never advance.
    """
    if not team_mode and advance not in (1, 2):
        raise FairnessError(f"advance must be 1 or 2 in solo, got {advance!r}")
    keep = 1 if team_mode else advance
    ranks = draw_ranks(key, units)
    tiers: list[tuple[int, int, str]] = [(0, ranks[u], u) for u in seating.byes]
    for table_results in results:
        for position, r in enumerate(table_order(table_results, ranks)[:keep]):
            tiers.append((position, ranks[r.unit], r.unit))
    return [u for _, _, u in sorted(tiers)]
