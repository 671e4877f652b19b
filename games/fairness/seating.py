"""Deterministic tournament seating over four-seat tables: knockout (shoot-out) and Swiss pods,
solo and partnership; standings and their tie-breaks; the ``trix-draw/1`` record and its check.

Pure Python (standard library only), no Django. Every rule here is stated in
``docs/tournaments.md`` (section names in brackets below); the record's bytes and fields are in
``docs/fairness.md`` ("trix-draw/1").

Shapes:

- A *unit* is a string id: an entrant in solo, a team in partnership.
- ``RoundSeating.tables``: solo, each table is 4 unit ids in seat order (None = a bot seat);
  partnership, each table is 2 team ids ``[team at seats 0+2, team at seats 1+3]``.
  ``RoundSeating.byes``: partnership units that sit the round out (solo never has byes).
- A table's results: one ``UnitResult`` per seat (solo, 4; ``unit`` None for a bot seat) or per
  team (partnership, 2), in the table's order. ``place`` is the engine's place at the table
  (solo 1..4 over all four seats, bots included, ties share in competition ranking 1,1,3,4;
  partnership 1 = won, 2 = lost, both 1 on a draw); ``score`` the match total (team total in
  partnership), higher is better.
"""

from __future__ import annotations

import functools
import hmac
import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.fairness.draw import (
    ALGORITHM,
    commitment,
    draw_key,
    draw_order,
    draw_ranks,
    sorted_entrants,
)
from games.fairness.errors import FairnessError
from games.fairness.stream import check_text, seed_bytes

SOLO_SEATS = 4
"""Seats (units) at a solo table."""

TEAM_UNITS = 2
"""Teams (units) at a partnership table: seats 0+2 against seats 1+3."""

SOLO_POINTS = (3, 2, 1, 0)
"""Solo standing points by table place 1..4 [Standing points]."""

TEAM_WIN, TEAM_DRAW, TEAM_LOSS = 2, 1, 0
"""Partnership standing points [Standing points]."""

BYE_POINTS = TEAM_WIN
"""What a partnership bye scores in Swiss: a win's points [Byes]."""

GREEDY_WINDOW = 8
"""Swiss greedy placement looks at the next this many unseated units [Swiss seating]."""

EXACT_ARRANGEMENTS = 2_000
"""Knockout: every row arrangement is tried when there are at most this many (up to 3 tables
of 4) [Knockout seating]."""

REPAIR_TABLES = 3
"""The repair pass swaps units with tables at most this many places away [Swiss seating]."""

MIN_UNITS = 2
"""Fewest units (entrants in solo, teams in partnership) an event can be played with."""

KNOCKOUT, SWISS, FINAL = "knockout", "swiss", "final"
ROUND_KINDS = (KNOCKOUT, SWISS, FINAL)


@dataclass(frozen=True)
class RoundSeating:
    """One round's seating: ``tables`` (see the module docstring) and ``byes`` (unit ids)."""

    tables: list[list[str | None]]
    byes: list[str] = field(default_factory=list)

    def seated(self) -> list[str]:
        """The units at tables, table by table in seat order (bots left out)."""
        return [unit for table in self.tables for unit in table if unit is not None]


@dataclass(frozen=True)
class UnitResult:
    """One seat's (solo) or team's (partnership) result at a table: place and match score.

    ``unit`` is None for a bot seat (solo only).
    """

    unit: str | None
    place: int
    score: int


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


Results = list[list[UnitResult]]
PlayedRound = tuple[RoundSeating, Results]


# --- history ---------------------------------------------------------------------------------


class _History:
    """What earlier rounds say about each unit: who it met, its bot tables, its byes.

    ``met[unit]`` lists the units of every earlier table it sat at (itself included, once per
    table), so ``met[unit].count(other)`` is the number of earlier meetings with ``other``.
    """

    __slots__ = ("met", "bots", "byes")

    def __init__(self, history: Iterable[RoundSeating]) -> None:
        met: defaultdict[str, list[str]] = defaultdict(list)
        bots: dict[str, int] = {}
        byes: dict[str, int] = {}
        for seating in history:
            for table in seating.tables:
                if None in table:
                    units = [u for u in table if u is not None]
                    for unit in units:
                        bots[unit] = bots.get(unit, 0) + 1
                else:
                    units = table
                for unit in units:
                    met[unit].extend(units)
            for unit in seating.byes:
                byes[unit] = byes.get(unit, 0) + 1
        self.met = met
        self.bots = bots
        self.byes = byes

    def contribution(self, unit: str, others: Iterable[str | None]) -> int:
        """Sum of meetings**2 between ``unit`` and each of ``others`` (bots and itself skipped)."""
        seen = self.met.get(unit)
        if not seen:
            return 0
        total = 0
        for other in others:
            if other is not None and other != unit:
                count = seen.count(other)
                if count:
                    total += count * count
        return total

    def table_cost(self, table: Sequence[str | None]) -> int:
        """Sum over pairs at the table of meetings**2 [Swiss seating]."""
        units = [u for u in table if u is not None]
        return sum(self.contribution(u, units[i + 1 :]) for i, u in enumerate(units))


def _all_units(units: Iterable[str], history: Iterable[RoundSeating]) -> list[str]:
    """Every unit of the event: ``units`` and everyone seated or given a bye earlier."""
    everyone = set(units)
    for seating in history:
        everyone.update(seating.seated())
        everyone.update(seating.byes)
    return sorted(everyone)


def _check_units(units: Sequence[str], field_name: str) -> list[str]:
    if isinstance(units, str) or not isinstance(units, Sequence):
        raise FairnessError(f"{field_name} must be a list of unit ids")
    units = list(units)
    for unit in units:  # the fast path of check_text; it names the rule when one fails
        if not (
            type(unit) is str and 0 < len(unit) <= 64 and unit.isascii() and unit.isprintable()
        ):
            check_text(unit, "unit id")
    if len(set(units)) != len(units):
        sorted_entrants(units)  # raises, naming the repeated id
    if not units:
        raise FairnessError(f"{field_name} must not be empty")
    return units


# --- the seating core -----------------------------------------------------------------------


def _solo_sizes(count: int) -> list[int]:
    """Humans per table for ``count`` solo units: ceil(count/4) tables, bots spread one per
    table from the last table backwards (13 -> 4,3,3,3; 5 -> 3,2) [Bots]."""
    tables = math.ceil(count / SOLO_SEATS)
    bots = [0] * tables
    for j in range(tables * SOLO_SEATS - count):
        bots[tables - 1 - j % tables] += 1
    return [SOLO_SEATS - b for b in bots]


def _snake(order: Sequence[str], sizes: Sequence[int]) -> tuple[list[list[str]], dict[str, int]]:
    """Deal ``order`` over tables of ``sizes`` in snake order (row 0 left to right, row 1 right
    to left, ...); returns the tables and each unit's row (its tier) [Knockout seating]."""
    tables: list[list[str]] = [[] for _ in sizes]
    tier: dict[str, int] = {}
    units = iter(order)
    for row in range(max(sizes, default=0)):
        columns = range(len(sizes)) if row % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for t in columns:
            if sizes[t] > row:
                unit = next(units)
                tables[t].append(unit)
                tier[unit] = row
    return tables, tier


def _best_rows(tables: list[list[str]], tier: Mapping[str, int], past: _History) -> None:
    """Knockout, small rounds: try every arrangement of each snake row's units over that row's
    tables and keep the cheapest (ties: the first tried; the snake itself is tried first), in
    place. Only when there are at most EXACT_ARRANGEMENTS arrangements [Knockout seating]."""
    rows: dict[int, list[tuple[int, int]]] = {}
    for t, table in enumerate(tables):
        for seat, unit in enumerate(table):
            rows.setdefault(tier[unit], []).append((t, seat))
    slots = [rows[r] for r in sorted(rows)]
    units = [[tables[t][seat] for t, seat in slot] for slot in slots]
    arrangements = 1
    for slot in slots:
        if len(slot) > SOLO_SEATS * 2:  # 8! alone is too many: no factorial of a huge row
            return
        arrangements *= math.factorial(len(slot))
        if arrangements > EXACT_ARRANGEMENTS:
            return
    best_cost, best = sum(past.table_cost(t) for t in tables), None
    for arrangement in itertools.product(*(itertools.permutations(row) for row in units)):
        trial = [list(t) for t in tables]
        for slot, row in zip(slots, arrangement, strict=True):
            for (t, seat), unit in zip(slot, row, strict=True):
                trial[t][seat] = unit
        cost = sum(past.table_cost(t) for t in trial)
        if cost < best_cost:
            best_cost, best = cost, trial
            if cost == 0:
                break
    if best is not None:
        tables[:] = best


def _greedy(
    order: Sequence[str], sizes: Sequence[int], past: _History
) -> tuple[list[list[str]], list[int]]:
    """Swiss greedy placement: each table, in turn, takes the best-ranked unseated unit, then
    adds, one at a time, the unit among the next GREEDY_WINDOW unseated ones that adds the least
    meeting cost (ties: the better ranked) [Swiss seating]. Returns the tables and their
    meeting costs."""
    tables: list[list[str]] = []
    costs: list[int] = []
    source = iter(order)
    buffer: list[str] = []
    for size in sizes:
        while len(buffer) < GREEDY_WINDOW + 1:
            nxt = next(source, None)
            if nxt is None:
                break
            buffer.append(nxt)
        table = [buffer.pop(0)]
        table_cost = 0
        while len(table) < size:
            best, best_cost = 0, -1
            for i in range(min(GREEDY_WINDOW, len(buffer))):
                cost = past.contribution(buffer[i], table)
                if best_cost < 0 or cost < best_cost:
                    best, best_cost = i, cost
                    if cost == 0:
                        break
            table.append(buffer.pop(best))
            table_cost += best_cost
            if len(buffer) < GREEDY_WINDOW and len(table) < size:
                nxt = next(source, None)
                if nxt is not None:
                    buffer.append(nxt)
        tables.append(table)
        costs.append(table_cost)
    return tables, costs


def _repair(
    tables: list[list[str]],
    costs: list[int],
    past: _History,
    may_swap: Callable[[str, int, str, int], bool],
) -> int:
    """Lower the meeting cost by swaps, in place [Swiss seating] [Knockout seating].

    Tables are visited in order; for a table with a positive cost, every swap of one of its
    units with a unit of a table at most REPAIR_TABLES places away that ``may_swap(a, table_a,
    b, table_b)`` allows is scored by the change in the two tables' costs; the best (ties: the
    earlier table, then seat order) is applied while it lowers the cost. ``costs`` are the
    tables' meeting costs (kept up to date). Returns the number of swaps made.
    """
    swaps = 0
    for t, table in enumerate(tables):
        for _ in range(SOLO_SEATS * 2):  # bounded: each applied swap strictly lowers the cost
            if costs[t] == 0:
                break
            best = None
            low, high = max(0, t - REPAIR_TABLES), min(len(tables), t + REPAIR_TABLES + 1)
            for i, a in enumerate(table):
                rest_a = table[:i] + table[i + 1 :]
                own_a = past.contribution(a, rest_a)
                for u in range(low, high):
                    if u == t:
                        continue
                    other = tables[u]
                    for j, b in enumerate(other):
                        if not may_swap(a, t, b, u):
                            continue
                        rest_b = other[:j] + other[j + 1 :]
                        delta = (
                            past.contribution(b, rest_a)
                            - own_a
                            + past.contribution(a, rest_b)
                            - past.contribution(b, rest_b)
                        )
                        if delta < 0 and (best is None or delta < best[0]):
                            best = (delta, i, u, j)
            if best is None:
                break
            _, i, u, j = best
            table[i], tables[u][j] = tables[u][j], table[i]
            costs[t] = past.table_cost(table)
            costs[u] = past.table_cost(tables[u])
            swaps += 1
    return swaps


def _seat_order(table: Sequence[str], ranks: Mapping[str, int], seats: int) -> list[str | None]:
    """A table's seat order: its units by draw rank, then bot seats (None) [Seat order]."""
    ordered: list[str | None] = sorted(table, key=ranks.__getitem__)
    return ordered + [None] * (seats - len(ordered))


def _seat(
    *,
    key: bytes | str,
    order: Sequence[str],
    team_mode: bool,
    history: Sequence[RoundSeating],
    mode: str,
) -> RoundSeating:
    """Seat ``order`` (best first) by ``mode`` (KNOCKOUT snake, SWISS greedy, FINAL one table)."""
    past = _History(history)
    ranks = draw_ranks(key, _all_units(order, history))
    position = {u: p for p, u in enumerate(order)}
    units = list(order)
    byes: list[str] = []
    if team_mode:
        if len(units) % 2 and mode != FINAL:
            # [Byes]: the lowest-ranked team with the fewest byes so far.
            bye = min(units, key=lambda u: (past.byes.get(u, 0), -position[u]))
            byes.append(bye)
            units.remove(bye)
        groups = [(units, [TEAM_UNITS] * (len(units) // TEAM_UNITS))]
        seats = TEAM_UNITS
    else:
        seats = SOLO_SEATS
        sizes = [len(units)] if mode == FINAL else _solo_sizes(len(units))
        short = [s for s in sizes if s < SOLO_SEATS]
        with_bots = sum(short)
        # [Bots]: who sits with a bot: fewest earlier bot tables, then the lowest ranked.
        chosen = (
            set(sorted(units, key=lambda u: (past.bots.get(u, 0), -position[u]))[:with_bots])
            if with_bots
            else set()
        )
        full = [u for u in units if u not in chosen]
        groups = [
            (full, [SOLO_SEATS] * (len(full) // SOLO_SEATS)),
            ([u for u in units if u in chosen], short),
        ]
    placed: list[tuple[list[str], int]] = []
    tiers: dict[str, int] = {}
    for members, sizes in groups:
        if not sizes:
            continue
        if mode == SWISS:
            placed.extend(zip(*_greedy(members, sizes, past), strict=True))
        else:
            snaked, tier = _snake(members, sizes)
            if mode == KNOCKOUT and past.met:
                _best_rows(snaked, tier, past)
            placed.extend((t, past.table_cost(t) if past.met else 0) for t in snaked)
            tiers.update(tier)
    placed.sort(key=lambda entry: min(position[u] for u in entry[0]))
    tables = [table for table, _ in placed]
    costs = [cost for _, cost in placed]
    if mode != FINAL and any(costs):
        is_short = [len(t) < seats for t in tables]

        def may_swap(a: str, ta: int, b: str, tb: int) -> bool:
            # [Bots]: a swap keeps who sits with a bot unless both have as many bot tables.
            if is_short[ta] != is_short[tb] and past.bots.get(a, 0) != past.bots.get(b, 0):
                return False
            # [Knockout seating]: only within a snake row, so the seeding stays balanced.
            return mode == SWISS or tiers[a] == tiers[b]

        if _repair(tables, costs, past, may_swap):
            tables.sort(key=lambda t: min(position[u] for u in t))
    return RoundSeating(tables=[_seat_order(t, ranks, seats) for t in tables], byes=byes)


def knockout_seating(
    *,
    key: bytes | str,
    round_no: int,
    units: Sequence[str],
    team_mode: bool,
    history: list[RoundSeating],
) -> RoundSeating:
    """Seat one knockout round [Knockout seating].

    ``key``: the draw key (``draw_key``); ``round_no``: 1-based; ``units``: the units still in
    (round 1: the entrants or teams, in any order, seated in draw order; later rounds: the
    advancing order from ``knockout_advancing``); ``history``: the earlier rounds' seatings.
    Solo: ceil(n/4) tables, snake by order, bots where the units do not fill whole tables;
    then units move between tables of their snake row to avoid repeat meetings (every
    arrangement when small, else the repair pass).
    Partnership: tables of two teams, a bye when the number is odd. A round with at most 4
    (solo) or 2 (partnership) units is the final: one table. Raises FairnessError on bad input.
    """
    units = _check_units(units, "units")
    if round_no == 1:
        units = draw_order(key, units)
    final = len(units) <= (TEAM_UNITS if team_mode else SOLO_SEATS)
    return _seat(
        key=key,
        order=units,
        team_mode=team_mode,
        history=history,
        mode=FINAL if final else KNOCKOUT,
    )


def swiss_seating(
    *,
    key: bytes | str,
    round_no: int,
    ranked: Sequence[str],
    team_mode: bool,
    history: list[RoundSeating],
) -> RoundSeating:
    """Seat one Swiss round [Swiss seating].

    ``ranked``: every unit by current standing, best first (``standings``; round 1: the draw
    order); ``history``: the earlier rounds' seatings (meetings, bot tables and byes are
    counted from it). Greedy placement in standing order with a meeting cost of
    ``sum(meetings**2)`` over the pairs at a table, then a local repair pass. Raises
    FairnessError on bad input.
    """
    ranked = _check_units(ranked, "ranked")
    if round_no < 1:
        raise FairnessError("round_no must be 1 or more")
    return _seat(key=key, order=ranked, team_mode=team_mode, history=history, mode=SWISS)


def final_seating(
    *, key: bytes | str, ranked: Sequence[str], team_mode: bool, history: list[RoundSeating]
) -> RoundSeating:
    """The Swiss final table: the top 4 units (solo) or top 2 teams of ``ranked`` at one table,
    in draw-rank seat order (bots fill a solo final of fewer than 4) [Final table]."""
    ranked = _check_units(ranked, "ranked")
    finalists = ranked[: TEAM_UNITS if team_mode else SOLO_SEATS]
    return _seat(key=key, order=finalists, team_mode=team_mode, history=history, mode=FINAL)


# --- points, standings, advancing -------------------------------------------------------------


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
    units = _check_units(units, "units")
    ranks = draw_ranks(key, units)
    points = dict.fromkeys(units, 0)
    score = dict.fromkeys(units, 0)
    for seating, results in rounds:
        if len(results) != len(seating.tables):
            raise FairnessError("results must hold one list per table")
        for table, table_results in zip(seating.tables, results, strict=True):
            if [r.unit for r in table_results] != table:
                raise FairnessError(f"the results of table {_describe(table)} name other units")
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


# --- the schedule: what the next round is ----------------------------------------------------


@dataclass(frozen=True)
class PlannedRound:
    """The next round of an event: ``kind`` (knockout/swiss/final), its input ``order`` and its
    ``seating``."""

    kind: str
    order: list[str]
    seating: RoundSeating


def check_tournament(tournament: Any) -> dict[str, Any]:
    """A validated copy of an event's format parameters [Formats]::

        {"format": "knockout" | "swiss", "team_mode": bool,
         "advance": 1 | 2 (knockout solo), "rounds": R >= 1 (swiss), "final": bool (swiss),
         "bye_points": int (swiss partnership, default 2)}

    Raises FairnessError naming the bad field.
    """
    if not isinstance(tournament, Mapping):
        raise FairnessError("tournament must be an object of format parameters")
    kind = tournament.get("format")
    team_mode = tournament.get("team_mode")
    if kind not in (KNOCKOUT, SWISS):
        raise FairnessError(f"tournament.format must be 'knockout' or 'swiss', got {kind!r}")
    if not isinstance(team_mode, bool):
        raise FairnessError("tournament.team_mode must be true or false")
    clean: dict[str, Any] = {"format": kind, "team_mode": team_mode}
    if kind == KNOCKOUT:
        advance = tournament.get("advance", 2)
        if not team_mode and (isinstance(advance, bool) or advance not in (1, 2)):
            raise FairnessError(f"tournament.advance must be 1 or 2, got {advance!r}")
        clean["advance"] = 1 if team_mode else advance
    else:
        rounds = tournament.get("rounds")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise FairnessError(f"tournament.rounds must be a whole number >= 1, got {rounds!r}")
        final = tournament.get("final", False)
        if not isinstance(final, bool):
            raise FairnessError("tournament.final must be true or false")
        bye_points = tournament.get("bye_points", BYE_POINTS)
        if isinstance(bye_points, bool) or not isinstance(bye_points, int) or bye_points < 0:
            raise FairnessError(f"tournament.bye_points must be an int >= 0, got {bye_points!r}")
        clean.update(rounds=rounds, final=final, bye_points=bye_points)
    return clean


def next_round(
    *,
    key: bytes | str,
    units: Sequence[str],
    tournament: Mapping[str, Any],
    played: Sequence[PlayedRound],
) -> PlannedRound | None:
    """The next round of an event after the ``played`` rounds, or None when it is over.

    ``tournament``: the parameters of ``check_tournament``; ``units``: all units (entrants or
    teams). Swiss: rounds 1..R seated by the standings, then the final table if asked for.
    Knockout: round 1 by the draw, later rounds by ``knockout_advancing``, until the round with
    at most 4 units (solo) or 2 teams (the final) has been played [Formats].
    """
    params = check_tournament(tournament)
    units = _check_units(units, "units")
    team_mode = params["team_mode"]
    if len(units) < MIN_UNITS:
        raise FairnessError(
            f"an event needs at least {MIN_UNITS} {'teams' if team_mode else 'entrants'}"
        )
    history = [seating for seating, _ in played]
    round_no = len(played) + 1
    final_size = TEAM_UNITS if team_mode else SOLO_SEATS
    if params["format"] == SWISS:
        if round_no > params["rounds"] + (1 if params["final"] else 0):
            return None
        ranked = [
            s.unit
            for s in standings(
                key=key,
                units=units,
                rounds=played[: params["rounds"]],
                team_mode=team_mode,
                bye_points=params["bye_points"],
            )
        ]
        if round_no > params["rounds"]:
            seating = final_seating(key=key, ranked=ranked, team_mode=team_mode, history=history)
            return PlannedRound(FINAL, ranked[:final_size], seating)
        seating = swiss_seating(
            key=key, round_no=round_no, ranked=ranked, team_mode=team_mode, history=history
        )
        return PlannedRound(SWISS, ranked, seating)
    if played:
        last_seating, last_results = played[-1]
        if len(last_seating.seated()) + len(last_seating.byes) <= final_size:
            return None
        order = knockout_advancing(
            key=key,
            units=units,
            seating=last_seating,
            results=last_results,
            team_mode=team_mode,
            advance=params["advance"],
        )
    else:
        order = draw_order(key, units)
    seating = knockout_seating(
        key=key, round_no=round_no, units=order, team_mode=team_mode, history=history
    )
    kind = FINAL if len(order) <= final_size else KNOCKOUT
    return PlannedRound(kind, order, seating)


# --- the trix-draw/1 record -------------------------------------------------------------------


def _seating_json(seating: RoundSeating) -> dict[str, Any]:
    return {"tables": [list(t) for t in seating.tables], "byes": list(seating.byes)}


def _results_json(results: Results | None) -> list[list[dict[str, Any]]] | None:
    if results is None:
        return None
    return [
        [{"unit": r.unit, "place": r.place, "score": r.score} for r in table] for table in results
    ]


def build_record(
    *,
    event: str,
    tournament: Mapping[str, Any],
    secret: bytes | str,
    entrants: Mapping[str, str],
    teams: Mapping[str, Sequence[str]] | None = None,
    rounds: Sequence[tuple[str, Sequence[str], RoundSeating, Results | None]] = (),
) -> dict[str, Any]:
    """A ``trix-draw/1`` record (JSON data; fields in ``docs/fairness.md``).

    ``event``: the public tournament id; ``tournament``: format parameters
    (``check_tournament``); ``secret``: the revealed 32-byte draw secret; ``entrants``: entrant
    id -> client seed; ``teams``: partnership team id -> its two entrant ids; ``rounds``: per
    round (kind, input order, seating, results or None while unplayed). Raises FairnessError on
    malformed input (the record is not checked against the draw: ``verify_record`` does that).
    """
    params = check_tournament(tournament)
    ordered = sorted_entrants(list(entrants))
    record: dict[str, Any] = {
        "format": ALGORITHM,
        "event": check_text(event, "event"),
        "tournament": params,
        "commitment": commitment(secret),
        "server_seed": seed_bytes(secret, "draw secret").hex(),
        "entrants": [{"entrant": e, "client_seed": entrants[e]} for e in ordered],
    }
    if params["team_mode"]:
        if teams is None:
            raise FairnessError("a partnership record needs its teams")
        record["teams"] = {t: list(teams[t]) for t in sorted(teams)}
    record["rounds"] = []
    for number, (kind, order, seating, results) in enumerate(rounds, start=1):
        if kind not in ROUND_KINDS:
            raise FairnessError(f"round {number}: kind must be one of {', '.join(ROUND_KINDS)}")
        record["rounds"].append(
            {
                "round": number,
                "kind": kind,
                "order": list(order),
                **_seating_json(seating),
                "results": _results_json(results),
            }
        )
    return record


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise FairnessError(message)


def _parse_results(raw: Any, seating: RoundSeating, team_mode: bool, label: str) -> Results:
    seats = TEAM_UNITS if team_mode else SOLO_SEATS
    _need(
        isinstance(raw, list) and len(raw) == len(seating.tables),
        f"{label}: results must hold one list per table ({len(seating.tables)})",
    )
    parsed: Results = []
    for t, (table, rows) in enumerate(zip(seating.tables, raw, strict=True), start=1):
        where = f"{label}, table {t}"
        _need(
            isinstance(rows, list) and len(rows) == seats,
            f"{where}: results must hold {seats} rows, one per {'team' if team_mode else 'seat'}",
        )
        table_results = []
        for seat, (unit, row) in enumerate(zip(table, rows, strict=True)):
            _need(isinstance(row, dict), f"{where}: result {seat} must be an object")
            _need(
                row.get("unit") == unit,
                f"{where}: result {seat} names {row.get('unit')!r} but seat {seat} holds {unit!r}",
            )
            place, score = row.get("place"), row.get("score")
            _need(
                isinstance(place, int) and not isinstance(place, bool) and 1 <= place <= seats,
                f"{where}: result {seat} place must be from 1 to {seats}",
            )
            _need(
                isinstance(score, int) and not isinstance(score, bool),
                f"{where}: result {seat} score must be an integer",
            )
            table_results.append(UnitResult(unit, place, score))
        places = sorted(r.place for r in table_results)
        _need(
            all(p == 1 + sum(q < p for q in places) for p in places),
            f"{where}: places {places} are not a ranking (tied places share, e.g. 1, 1, 3, 4)",
        )
        parsed.append(table_results)
    return parsed


def _describe(table: Sequence[str | None]) -> str:
    return "[" + ", ".join("bot" if u is None else u for u in table) + "]"


def verify_record(record: Any) -> dict[str, Any]:
    """Check a ``trix-draw/1`` record; returns a summary, raises FairnessError naming the first
    difference (the round and table where a seating differs).

    Checks: SHA-256(server_seed) equals the commitment; the entrants are sorted, unique, with
    client seeds (and in partnership form teams of two); the key from those; then every round
    in turn: its kind, its input order (recomputed from the earlier rounds' results), its tables
    and byes (recomputed by the seating rules) and its results (one per seat/team, naming the
    seated unit, places a ranking). Only the last round may lack results. Summary:
    ``{"event", "format", "team_mode", "entrants", "units", "rounds", "played"}``.
    """
    _need(isinstance(record, dict), "record: must be a JSON object")
    _need(
        record.get("format") == ALGORITHM,
        f"format: expected {ALGORITHM!r}, the record has {record.get('format')!r}",
    )
    event = check_text(record.get("event"), "event")
    params = check_tournament(record.get("tournament"))
    server_seed = seed_bytes(record.get("server_seed", ""), "server_seed")
    expected = commitment(server_seed)
    stated = record.get("commitment")
    _need(
        isinstance(stated, str) and hmac.compare_digest(expected, stated.lower()),
        f"server_seed does not match commitment: SHA-256 of the seed is {expected}",
    )
    rows = record.get("entrants")
    _need(isinstance(rows, list) and rows, "entrants: must be a non-empty list")
    seeds: dict[str, str] = {}
    listed: list[str] = []
    for i, row in enumerate(rows):
        _need(
            isinstance(row, dict) and isinstance(row.get("entrant"), str),
            f"entrants[{i}]: must be an object with entrant and client_seed",
        )
        listed.append(row["entrant"])
        seeds[row["entrant"]] = row.get("client_seed")
    ordered = sorted_entrants(listed)
    _need(listed == ordered, "entrants: must be sorted by id")
    key = draw_key(secret=server_seed, event=event, entrants=ordered, client_seeds=seeds)
    team_mode = params["team_mode"]
    if team_mode:
        teams = record.get("teams")
        _need(isinstance(teams, dict) and teams, "teams: a partnership record needs its teams")
        members: list[str] = []
        for team, pair in teams.items():
            _need(
                isinstance(pair, list) and len(pair) == 2,
                f"teams.{team}: must list its two entrants",
            )
            members.extend(pair)
        _need(
            sorted(members) == ordered,
            "teams: every entrant must be in exactly one team, and every team member an entrant",
        )
        units = sorted_entrants(list(teams))
    else:
        units = ordered
    raw_rounds = record.get("rounds")
    _need(isinstance(raw_rounds, list), "rounds: must be a list")
    played: list[PlayedRound] = []
    for number, raw in enumerate(raw_rounds, start=1):
        label = f"round {number}"
        _need(isinstance(raw, dict), f"{label}: must be an object")
        _need(raw.get("round") == number, f"{label}: its round field says {raw.get('round')!r}")
        plan = next_round(key=key, units=units, tournament=params, played=played)
        _need(plan is not None, f"{label}: the event was over after round {number - 1}")
        tables = raw.get("tables")
        _need(isinstance(tables, list), f"{label}: tables must be a list")
        for t, want in enumerate(plan.seating.tables, start=1):
            have = tables[t - 1] if t - 1 < len(tables) else None
            _need(
                have is not None, f"{label}, table {t}: missing; the draw seats {_describe(want)}"
            )
            _need(
                have == want,
                f"{label}, table {t}: the record seats "
                f"{_describe(have) if isinstance(have, list) else repr(have)}, "
                f"the draw seats {_describe(want)}",
            )
        _need(
            len(tables) == len(plan.seating.tables),
            f"{label}, table {len(plan.seating.tables) + 1}: not in the draw "
            f"(the draw seats {len(plan.seating.tables)} tables)",
        )
        _need(
            raw.get("byes") == plan.seating.byes,
            f"{label}: byes {raw.get('byes')!r} differ from the draw's {plan.seating.byes!r}",
        )
        _need(
            raw.get("kind") == plan.kind,
            f"{label}: kind {raw.get('kind')!r} differs from the schedule's {plan.kind!r}",
        )
        order = raw.get("order")
        if order != plan.order:
            mine = order if isinstance(order, list) else []
            at = next(
                (i for i, unit in enumerate(plan.order) if i >= len(mine) or mine[i] != unit),
                len(plan.order),
            )
            have = mine[at] if at < len(mine) else None
            want = plan.order[at] if at < len(plan.order) else None
            raise FairnessError(
                f"{label}: input order differs at position {at + 1} "
                f"(the record has {have!r}, the earlier results give {want!r})"
            )
        if raw.get("results") is None:
            _need(number == len(raw_rounds), f"{label}: has no results but a later round follows")
            break
        played.append(
            (plan.seating, _parse_results(raw["results"], plan.seating, team_mode, label))
        )
    return {
        "event": event,
        "format": params["format"],
        "team_mode": team_mode,
        "entrants": len(ordered),
        "units": len(units),
        "rounds": len(raw_rounds),
        "played": len(played),
    }
