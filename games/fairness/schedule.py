"""The schedule of a tournament: its format parameters and what the next round is.

Pure Python (standard library only). The formats are in ``docs/tournaments.md`` [Formats].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.fairness.draw import draw_order
from games.fairness.errors import FairnessError
from games.fairness.seating import (
    FINAL,
    KNOCKOUT,
    SOLO_SEATS,
    SWISS,
    TEAM_UNITS,
    PlayedRound,
    RoundSeating,
    check_units,
    final_seating,
    knockout_seating,
    swiss_seating,
)
from games.fairness.standings import BYE_POINTS, knockout_advancing, standings

MIN_UNITS = 2
"""Fewest units (entrants in solo, teams in partnership) an event can be played with."""


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
    units = check_units(units, "units")
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
