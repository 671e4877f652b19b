"""A tournament's progress from its stored rows: the bridge between the database and the
pure seating rules (``games.fairness.seating``, ``.standings``, ``.schedule``,
``tournaments.places``, ``tournaments.prizes``). Reads only; the services write what these return.

Shapes: a *unit* is ``"E<entry id>"`` (solo) or ``"T<team id>"`` (partnership). A recorded
``RoundTable.result`` is ``{"results": [{"unit", "place", "score"}, ...], "no_show":
[unit, ...], "disqualified": [unit, ...]}``: one row per seat (solo, ``unit`` None for a bot)
or per team (partnership, seats 0+2 then 1+3), in the table's order, places after the
penalties (``docs/tournaments.md``, "No-shows and disqualification";
``games.fairness.table_results.table_result`` makes it).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.fairness import draw_record as rules_record
from games.fairness import schedule as rules_schedule
from games.fairness import seating as rules
from games.fairness import standings as rules_standings
from games.fairness.table_results import TableMatch, rank


def parameters(t: Any) -> dict[str, Any]:
    """The format parameters of a tournament as ``schedule.check_tournament`` takes them."""
    if t.format == rules.KNOCKOUT:
        return {"format": rules.KNOCKOUT, "team_mode": t.team_mode, "advance": t.advance}
    return {
        "format": rules.SWISS,
        "team_mode": t.team_mode,
        "rounds": t.rounds,
        "final": t.final_table,
    }


def units_of(t: Any) -> list[str]:
    """Every unit of a started tournament, from its published entrant list (sorted ids)."""
    if t.team_mode:
        return sorted({e["team"] for e in t.entrants if e["team"]})
    return sorted(e["entrant"] for e in t.entrants)


def seating_of(rnd: Any) -> rules.RoundSeating:
    return rules.RoundSeating(
        tables=[list(x) for x in rnd.seating["tables"]], byes=list(rnd.seating["byes"])
    )


def results_of(rt: Any) -> list[rules.UnitResult]:
    return [rules.UnitResult(r["unit"], r["place"], r["score"]) for r in rt.result["results"]]


def played(rounds: Sequence[tuple[Any, Sequence[Any]]]) -> list[rules.PlayedRound]:
    """The rounds whose every table is recorded, as ``(RoundSeating, results per table)``."""
    out = []
    for rnd, tables in rounds:
        if not tables and not rnd.seating["tables"]:
            out.append((seating_of(rnd), []))
            continue
        if not tables or any(rt.result is None for rt in tables):
            break
        out.append((seating_of(rnd), [results_of(rt) for rt in tables]))
    return out


def next_round(
    *, tournament: Any, rounds: Sequence[tuple[Any, Sequence[Any]]]
) -> rules_schedule.PlannedRound | None:
    """The next round of a running tournament after its recorded rounds (None: it is over):
    ``schedule.next_round`` on the draw key, every unit and the recorded results."""
    return rules_schedule.next_round(
        key=bytes.fromhex(tournament.draw_key),
        units=units_of(tournament),
        tournament=parameters(tournament),
        played=played(rounds),
    )


def standings(*, tournament: Any, rounds: Sequence[tuple[Any, Sequence[Any]]]) -> list:
    """Every unit's ``standings.Standing`` after the recorded rounds (Swiss rounds only, as the
    schedule counts them; the final table is placed by ``places``)."""
    done = played(rounds)
    if tournament.format == rules.SWISS:
        done = done[: tournament.rounds]
    return rules_standings.standings(
        key=bytes.fromhex(tournament.draw_key),
        units=units_of(tournament),
        rounds=done,
        team_mode=tournament.team_mode,
    )


def draw_record(
    *,
    tournament: Any,
    rounds: Sequence[tuple[Any, Sequence[Any]]],
    matches: Mapping[int, TableMatch] | None = None,
) -> dict:
    """The tournament's ``trix-draw/1`` record (after the reveal): every round so far with
    its input order, seating and results (None for the round still playing) and, for a
    round whose every table is in ``matches`` (by table id), its tables' matches."""
    matches = matches or {}
    teams: dict[str, list[str]] = {}
    for e in tournament.entrants:
        if e["team"]:
            teams.setdefault(e["team"], []).append(e["entrant"])
    out_rounds, out_matches = [], []
    for rnd, tables in rounds:
        done = tables and all(rt.result is not None for rt in tables)
        bound = done and all(rt.table_id in matches for rt in tables)
        out_matches.append([matches[rt.table_id] for rt in tables] if bound else None)
        out_rounds.append(
            (
                rnd.kind,
                rnd.seating.get("order", []),
                seating_of(rnd),
                [results_of(rt) for rt in tables] if done else None,
            )
        )
    return rules_record.build_record(
        event=tournament.ref,
        tournament=parameters(tournament),
        secret=tournament.draw_seed,
        entrants={e["entrant"]: e["client_seed"] for e in tournament.entrants},
        teams={t: sorted(m) for t, m in teams.items()} if tournament.team_mode else None,
        rounds=out_rounds,
        matches=out_matches,
    )


def final_places(
    *, tournament: Any, rounds: Sequence[tuple[Any, Sequence[Any]]], disqualified: Collection[str]
) -> dict[str, int]:
    """Final place of every unit (ties share): ``tournaments.places`` by the format, then
    the ``disqualified`` units (the site passes the never-played ones too) moved below
    everyone, all sharing one place, the first after the others (``docs/tournaments.md``
    [Final places]: "sharing the last places", as at a table)."""
    from tournaments import places as rules_places

    key = bytes.fromhex(tournament.draw_key)
    units = units_of(tournament)
    done = played(rounds)
    if tournament.format == rules.KNOCKOUT:
        found = rules_places.knockout_places(units=units, rounds=done)
    else:
        swiss = done[: tournament.rounds]
        final = done[tournament.rounds] if len(done) > tournament.rounds else None
        found = rules_places.swiss_places(
            key=key, units=units, rounds=swiss, team_mode=tournament.team_mode, final=final
        )
    keys = [(1, 0) if u in disqualified else (0, found[u]) for u in units]
    return dict(zip(units, rank(keys), strict=True))


def prizes(
    *,
    pool: int,
    table_bps: Sequence[int],
    places: Mapping[str, int],
    members: Mapping[str, Sequence[int]],
    disqualified: Collection[str],
) -> dict[int, int]:
    """Prize per entry id (minor units): ``pool`` (the escrow less the house fee) split by
    ``table_bps`` over the final places of the units that are not disqualified
    (``tournaments.prizes.split_prizes``: ties share the places they span); a team's prize is
    halved between its two members, an odd unit to the member who registered first. Sums to
    ``pool`` whenever any unit may be paid."""
    from tournaments.prizes import split_prizes

    eligible = {u: p for u, p in places.items() if u not in disqualified}
    if pool <= 0 or not eligible:
        return {}
    per_unit = split_prizes(pool=pool, table_bps=list(table_bps), places=eligible)
    out: dict[int, int] = {}
    for unit, amount in per_unit.items():
        ids = sorted(members.get(unit, ()))
        if not ids:
            continue
        share, odd = divmod(amount, len(ids))
        for i, entry_id in enumerate(ids):
            out[entry_id] = share + (1 if i < odd else 0)
    return out
