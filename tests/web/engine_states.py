"""Matches driven by the real engine to a chosen point, and the state API's answer for a seat.

The table page renders ``games.engine.observation.view``; these build real views (no hand-written
JSON) so the page's rendering can be checked phase by phase.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import apply, new_match, observe, view
from games.engine.bots import RulesBot
from games.engine.cards import codes_of
from games.engine.simulate import seeded_dealer


def deal(state, seed: int = 7) -> None:
    hands, _ = seeded_dealer(seed)(0, state.deal_number + 1)
    apply(state, {"type": "deal", "hands": {str(s): codes_of(hands[s]) for s in range(4)}})


def bot_step(state, rng: random.Random) -> None:
    seat = state.to_act()[0]
    apply(state, RulesBot().act(observe(state, seat), rng))


def match_at(
    *,
    variant: str = "complex_partner",
    contract: str | None = None,
    stop: str = "play",
    plays: int = 0,
    seed: int = 7,
):
    """A match dealt with ``seed``; the owner picks ``contract``; stop in phase ``stop``
    (``choose``, ``double`` or ``play``) after ``plays`` bot moves in play."""
    state = new_match({"variant": variant})
    deal(state, seed)
    rng = random.Random(seed)
    if stop == "choose":
        return state
    apply(state, {"type": "contract", "seat": state.owner, "contract": contract})
    if stop == "double":
        return state
    while state.phase == "double":
        apply(state, {"type": "double", "seat": state.to_act()[0], "cards": []})
    for _ in range(plays):
        bot_step(state, rng)
    return state


def table_json(
    table_id: int, variant: str, *, me: int | None, names=None, stake=500, status="playing"
) -> dict[str, Any]:
    names = names or ["Ana", "Bot 2", "Bot 3", "Bot 4"]
    seats = []
    for s in range(4):
        human = s == 0
        seats.append(
            {
                "seat": s,
                "kind": "human" if human else "bot",
                "name": names[s],
                "user_id": 1 if human else None,
                "bot": None if human else "rules",
                "staked": stake if human else 0,
                "is_me": s == me,
            }
        )
    return {
        "id": table_id,
        "variant": variant,
        "options": {"variant": variant},
        "stake": stake,
        "status": status,
        "created_by": {"id": 1, "name": names[0]},
        "created_at": "",
        "version": 1,
        "seats": seats,
        "commitment": "ab" * 32,
        "result": None,
    }


def state_answer(state, table: dict, seat: int | None, version: int = 5, events=()) -> dict:
    return {
        "version": version,
        "table": table,
        "view": view(state, seat),
        "events": list(events),
        "my_seat": seat,
        "deadline": None,
        "server_time": "2025-01-01T00:00:00Z",
    }
