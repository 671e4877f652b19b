"""Helpers for the seating tests: deterministic stand-in match results and whole events
played through ``next_round``, and the example record of ``docs/example-draw.json``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from games.fairness.draw import draw_key
from games.fairness.draw_record import build_record
from games.fairness.schedule import next_round
from games.fairness.seating import SOLO_SEATS, RoundSeating, UnitResult

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "example-draw.json"
SECRET = bytes(range(32))


def ranking(scores: list[int]) -> list[int]:
    """Competition ranking of scores, higher first (1, 1, 3, 4)."""
    return [1 + sum(other > mine for other in scores) for mine in scores]


def play(seating: RoundSeating, team_mode: bool, salt: str, tie_every: int = 0):
    """Stand-in results: each seat's (team's) score from SHA-256(salt, table, seat)."""
    results = []
    for t, table in enumerate(seating.tables):
        scores = []
        for seat, unit in enumerate(table):
            digest = hashlib.sha256(f"{salt}/{t}/{seat}/{unit}".encode()).digest()
            scores.append(int.from_bytes(digest[:2], "big") % 400 - 200)
        if tie_every and t % tie_every == 0:
            scores[1] = scores[0]
        if team_mode:
            places = (
                [1, 1] if scores[0] == scores[1] else [1 if s == max(scores) else 2 for s in scores]
            )
        else:
            places = ranking(scores)
        results.append([UnitResult(u, p, s) for u, p, s in zip(table, places, scores, strict=True)])
    return results


def entrants(count: int, prefix: str = "p") -> dict[str, str]:
    """``count`` entrant ids with client seeds."""
    return {f"{prefix}{i:03d}": f"seed-{i}" for i in range(1, count + 1)}


def teams_of(players: dict[str, str]) -> dict[str, list[str]]:
    ids = sorted(players)
    return {f"t{i // 2 + 1:02d}": ids[i : i + 2] for i in range(0, len(ids), 2)}


def run_event(
    tournament: dict,
    players: dict[str, str],
    *,
    event: str = "tournament:1",
    secret: bytes = SECRET,
    salt: str = "x",
    tie_every: int = 0,
):
    """Play a whole event through ``next_round``: returns (key, units, rounds) with rounds as
    (kind, order, seating, results)."""
    team_mode = tournament["team_mode"]
    key = draw_key(secret=secret, event=event, entrants=list(players), client_seeds=players)
    teams = teams_of(players) if team_mode else None
    units = sorted(teams) if team_mode else sorted(players)
    rounds, played = [], []
    while True:
        plan = next_round(key=key, units=units, tournament=tournament, played=played)
        if plan is None:
            break
        results = play(plan.seating, team_mode, f"{salt}/{len(played)}", tie_every)
        played.append((plan.seating, results))
        rounds.append((plan.kind, plan.order, plan.seating, results))
        assert len(rounds) < 40
    return key, units, teams, rounds


def example_record() -> dict:
    """13 solo entrants, 3 Swiss rounds: the record in docs/example-draw.json."""
    tournament = {"format": "swiss", "team_mode": False, "rounds": 3, "final": False}
    players = entrants(13)
    _, _, _, rounds = run_event(tournament, players, event="tournament:example")
    assert all(len(table) == SOLO_SEATS for _, _, s, _ in rounds for table in s.tables)
    return build_record(
        event="tournament:example",
        tournament=tournament,
        secret=SECRET,
        entrants=players,
        rounds=rounds,
    )


def compact_json(value, indent: int = 0, width: int = 96) -> str:
    """JSON with every object or list that fits in ``width`` characters on one line."""
    flat = json.dumps(value)
    if len(flat) + indent <= width or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k)}: {compact_json(v, indent + 1, width)}" for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if not any(isinstance(v, dict | list) for v in value):  # scalars: as many a line as fit
        lines, line = [], ""
        for v in value:
            piece = json.dumps(v)
            if line and len(pad) + len(line) + len(piece) + 2 > width:
                lines.append(line + ",")
                line = ""
            line += (", " if line else "") + piece
        lines.append(line)
        return "[\n" + "\n".join(pad + x for x in lines) + "\n" + " " * indent + "]"
    items = [pad + compact_json(v, indent + 1, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
