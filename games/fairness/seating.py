"""Deterministic tournament seating over four-seat tables: knockout (shoot-out) and Swiss pods,
solo and partnership, and the shapes of a round and its results.

Pure Python (standard library only), no Django. Every rule here is stated in
``docs/tournaments.md`` (section names in brackets below); the standings are in
``games.fairness.standings``, the round schedule in ``games.fairness.schedule``, the
``trix-draw/1`` record and its check in ``games.fairness.draw_record``.

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

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from games.fairness.draw import draw_order, draw_ranks, sorted_entrants
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_text

SOLO_SEATS = 4
"""Seats (units) at a solo table."""

TEAM_UNITS = 2
"""Teams (units) at a partnership table: seats 0+2 against seats 1+3."""

GREEDY_WINDOW = 8
"""Swiss greedy placement looks at the next this many unseated units [Swiss seating]."""

EXACT_ARRANGEMENTS = 2_000
"""Knockout: every row arrangement is tried when there are at most this many (up to 3 tables
of 4) [Knockout seating]."""

REPAIR_TABLES = 3
"""The repair pass swaps units with tables at most this many places away [Swiss seating]."""

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


def check_units(units: Sequence[str], field_name: str) -> list[str]:
    """``units`` as a list of unit ids; raises FairnessError naming ``field_name`` when it is not
    a non-empty list of distinct short printable ASCII ids."""
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


def describe_table(table: Sequence[str | None]) -> str:
    """A table's units for a message: ``[a, bot, c, d]``."""
    return "[" + ", ".join("bot" if u is None else u for u in table) + "]"


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


def _groups(
    order: Sequence[str],
    team_mode: bool,
    mode: str,
    past: _History,
    position: Mapping[str, int],
) -> tuple[list[tuple[list[str], list[int]]], int, list[str]]:
    """Who is seated together before the tables are drawn: ``(groups, seats, byes)``, each
    group its members and the sizes of its tables, ``seats`` a full table's units (two teams,
    or four players) and ``byes`` the units left out of the round."""
    units = list(order)
    byes: list[str] = []
    if team_mode:
        if len(units) % 2 and mode != FINAL:
            # [Byes]: the lowest-ranked team with the fewest byes so far.
            bye = min(units, key=lambda u: (past.byes.get(u, 0), -position[u]))
            byes.append(bye)
            units.remove(bye)
        return [(units, [TEAM_UNITS] * (len(units) // TEAM_UNITS))], TEAM_UNITS, byes
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
    return groups, SOLO_SEATS, byes


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
    groups, seats, byes = _groups(order, team_mode, mode, past, position)
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
    units = check_units(units, "units")
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
    ranked = check_units(ranked, "ranked")
    if round_no < 1:
        raise FairnessError("round_no must be 1 or more")
    return _seat(key=key, order=ranked, team_mode=team_mode, history=history, mode=SWISS)


def final_seating(
    *, key: bytes | str, ranked: Sequence[str], team_mode: bool, history: list[RoundSeating]
) -> RoundSeating:
    """The Swiss final table: the top 4 units (solo) or top 2 teams of ``ranked`` at one table,
    in draw-rank seat order (bots fill a solo final of fewer than 4) [Final table]."""
    ranked = check_units(ranked, "ranked")
    finalists = ranked[: TEAM_UNITS if team_mode else SOLO_SEATS]
    return _seat(key=key, order=finalists, team_mode=team_mode, history=history, mode=FINAL)
