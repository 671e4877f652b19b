"""The ``trix-draw/1`` record of a tournament's seating draw: building it and checking it.

Pure Python (standard library only). The record's bytes and fields are in ``docs/fairness.md``
("trix-draw/1"); the rules it is checked against in ``docs/tournaments.md``.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping, Sequence
from typing import Any

from games.fairness.draw import ALGORITHM, commitment, draw_key, sorted_entrants
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_text, seed_bytes
from games.fairness.schedule import PlannedRound, check_tournament, next_round
from games.fairness.seating import (
    ROUND_KINDS,
    SOLO_SEATS,
    TEAM_UNITS,
    PlayedRound,
    Results,
    RoundSeating,
    UnitResult,
    describe_table,
)
from games.fairness.table_results import TableMatch, parse_matches


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
    matches: Sequence[Sequence[TableMatch] | None] = (),
) -> dict[str, Any]:
    """A ``trix-draw/1`` record (JSON data; fields in ``docs/fairness.md``).

    ``event``: the public tournament id; ``tournament``: format parameters
    (``check_tournament``); ``secret``: the revealed 32-byte draw secret; ``entrants``: entrant
    id -> client seed; ``teams``: partnership team id -> its two entrant ids; ``rounds``: per
    round (kind, input order, seating, results or None while unplayed); ``matches``: per
    round with results, each table's match (``table_results.TableMatch``; a round left out
    or None names none). Raises FairnessError on malformed input (the record is not checked
    against the draw: ``verify_record`` does that).
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
        tables = matches[number - 1] if number <= len(matches) else None
        if results is not None and tables is not None:
            record["rounds"][-1]["matches"] = [m.json() for m in tables]
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


def _checked_key(record: dict[str, Any], event: str) -> tuple[bytes, list[str]]:
    """The draw key and the sorted entrant ids of ``record``, after checking its server seed
    against its commitment and its entrant list (sorted, unique, with client seeds)."""
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
    return key, ordered


def _team_units(record: dict[str, Any], ordered: list[str]) -> list[str]:
    """A partnership record's team ids, sorted, after checking that its teams are pairs that
    hold every entrant exactly once."""
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
    return sorted_entrants(list(teams))


def _check_tables(raw: dict[str, Any], plan: PlannedRound, label: str) -> None:
    """A recorded round's tables and byes are the draw's, table by table."""
    tables = raw.get("tables")
    _need(isinstance(tables, list), f"{label}: tables must be a list")
    for t, want in enumerate(plan.seating.tables, start=1):
        have = tables[t - 1] if t - 1 < len(tables) else None
        _need(
            have is not None, f"{label}, table {t}: missing; the draw seats {describe_table(want)}"
        )
        _need(
            have == want,
            f"{label}, table {t}: the record seats "
            f"{describe_table(have) if isinstance(have, list) else repr(have)}, "
            f"the draw seats {describe_table(want)}",
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


def _check_order(raw: dict[str, Any], plan: PlannedRound, label: str) -> None:
    """A recorded round's kind and input order are the schedule's; names the first position
    where the order differs."""
    _need(
        raw.get("kind") == plan.kind,
        f"{label}: kind {raw.get('kind')!r} differs from the schedule's {plan.kind!r}",
    )
    order = raw.get("order")
    if order == plan.order:
        return
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


def verify_record(record: Any) -> dict[str, Any]:
    """Check a ``trix-draw/1`` record; returns a summary, raises FairnessError naming the first
    difference (the round and table where a seating differs).

    Checks: SHA-256(server_seed) equals the commitment; the entrants are sorted, unique, with
    client seeds (and in partnership form teams of two); the key from those; then every round
    in turn: its kind, its input order (recomputed from the earlier rounds' results), its tables
    and byes (recomputed by the seating rules) and its results (one per seat/team, naming the
    seated unit, places a ranking) and, where it names them, its tables' matches (one per
    table, ``table_results.parse_matches``). Only the last round may lack results. Summary:
    ``{"event", "format", "team_mode", "entrants", "units", "rounds", "played", "bound",
    "over"}`` (``bound``: the tables naming their match; ``over``: every round has results
    and the rules seat no further round: the event was played to its end).
    """
    _need(isinstance(record, dict), "record: must be a JSON object")
    _need(
        record.get("format") == ALGORITHM,
        f"format: expected {ALGORITHM!r}, the record has {record.get('format')!r}",
    )
    event = check_text(record.get("event"), "event")
    params = check_tournament(record.get("tournament"))
    key, ordered = _checked_key(record, event)
    team_mode = params["team_mode"]
    units = _team_units(record, ordered) if team_mode else ordered
    raw_rounds = record.get("rounds")
    _need(isinstance(raw_rounds, list), "rounds: must be a list")
    played: list[PlayedRound] = []
    bound = 0
    for number, raw in enumerate(raw_rounds, start=1):
        label = f"round {number}"
        _need(isinstance(raw, dict), f"{label}: must be an object")
        _need(raw.get("round") == number, f"{label}: its round field says {raw.get('round')!r}")
        plan = next_round(key=key, units=units, tournament=params, played=played)
        _need(plan is not None, f"{label}: the event was over after round {number - 1}")
        _check_tables(raw, plan, label)
        _check_order(raw, plan, label)
        if raw.get("results") is None:
            _need(number == len(raw_rounds), f"{label}: has no results but a later round follows")
            _need("matches" not in raw, f"{label}: names matches but has no results")
            break
        if "matches" in raw:
            bound += len(parse_matches(raw["matches"], plan.seating.tables, label))
        played.append(
            (plan.seating, _parse_results(raw["results"], plan.seating, team_mode, label))
        )
    over = len(played) == len(raw_rounds) and (
        next_round(key=key, units=units, tournament=params, played=played) is None
    )
    return {
        "event": event,
        "format": params["format"],
        "team_mode": team_mode,
        "entrants": len(ordered),
        "units": len(units),
        "rounds": len(raw_rounds),
        "played": len(played),
        "bound": bound,
        "over": over,
    }
