"""Whole matches between bots, for the ``trix simulate`` command and the benchmarks.

Deals come from a dealer: a callable ``(match_index, deal_number) -> (hands, shuffle)``
where ``hands`` are four 13-card masks and ``shuffle`` is the deal's verifiable-shuffle data
for its record (or None). :func:`seeded_dealer` is a plain seeded shuffle for speed runs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, make_bot
from .match import (
    PHASE_CHOOSE,
    PHASE_DEAL,
    PHASE_DOUBLE,
    PHASE_MATCH_OVER,
    PHASE_PLAY,
    MatchState,
    choose_contract,
    deal_hands,
    double,
    new_match,
    pass_turn,
    play,
)
from .observation import observe
from .options import Options
from .results import team_of

Dealer = Callable[[int, int], tuple[list[int], dict[str, Any] | None]]


def seeded_dealer(seed: int) -> Dealer:
    """A dealer drawing every deal from one ``random.Random(seed)`` (not for money)."""
    rng = random.Random(seed)
    deck = list(range(52))

    def dealer(match_index: int, deal_number: int):
        rng.shuffle(deck)
        hands = [0, 0, 0, 0]
        for i, c in enumerate(deck):
            hands[i & 3] |= 1 << c
        return hands, None

    return dealer


def bot_step(state: MatchState, bots: list[Bot], rng: random.Random) -> None:
    """Let the seat on turn act (while doubling simultaneously, every seat still to answer):
    each bot decides on its seat's observation (:func:`.observation.observe`)."""
    phase = state.phase
    if phase == PHASE_PLAY:  # the common case, without building the to_act list
        seat = state.deal.turn
        decision = bots[seat].decide(observe(state, seat), rng)
        if decision[0] == "play":
            play(state, seat, decision[1])
        else:
            pass_turn(state, seat)
        return
    for seat in state.to_act():
        decision = bots[seat].decide(observe(state, seat), rng)
        kind = decision[0]
        if kind == "play":
            play(state, seat, decision[1])
        elif kind == "pass":
            pass_turn(state, seat)
        elif kind == "double":
            double(state, seat, decision[1])
        else:
            choose_contract(state, seat, decision[1])
        if phase not in (PHASE_DOUBLE, PHASE_CHOOSE):
            break


def play_match(
    options: Options,
    bots: list[Bot],
    rng: random.Random,
    dealer: Dealer,
    match_index: int = 0,
    on_deal_end: Callable[[MatchState, dict[str, Any] | None, int], None] | None = None,
) -> MatchState:
    """Play one whole match between four bots; return the finished state.

    ``on_deal_end(state, shuffle, match_index)`` is called after every deal (its record is
    ``state.records[-1]``)."""
    state = new_match(options)
    shuffle = None
    records = 0
    while True:
        phase = state.phase
        if phase == PHASE_DEAL:
            hands, shuffle = dealer(match_index, state.deal_number + 1)
            deal_hands(state, hands)
            continue
        if phase == PHASE_MATCH_OVER:
            break
        bot_step(state, bots, rng)
        if on_deal_end is not None and len(state.records) != records:
            records = len(state.records)
            on_deal_end(state, shuffle, match_index)
    return state


@dataclass
class Summary:
    """Results over many matches: per seat and per team."""

    variant: str
    bots: list[str]
    matches: int = 0
    deals: int = 0
    seconds: float = 0.0
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    firsts: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])
    team_wins: dict[str, int] = field(default_factory=lambda: {"0+2": 0, "1+3": 0})
    draws: int = 0

    def add(self, state: MatchState) -> None:
        result = state.result
        self.matches += 1
        self.deals += len(state.records)
        for s in range(4):
            self.totals[s] += state.totals[s]
        if "teams" in result:
            if result["winner"] is None:
                self.draws += 1
            else:
                self.team_wins[result["winner"]] += 1
        else:
            winners = [s for s in range(4) if result["placements"][str(s)] == 1]
            for s in winners:
                self.firsts[s] += 1 / len(winners)

    def to_json(self) -> dict[str, Any]:
        n = max(self.matches, 1)
        out: dict[str, Any] = {
            "variant": self.variant,
            "bots": {str(s): self.bots[s] for s in range(4)},
            "matches": self.matches,
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            "matches_per_second": round(self.matches / self.seconds, 1) if self.seconds else None,
            "deals_per_second": round(self.deals / self.seconds, 1) if self.seconds else None,
            "seats": {
                str(s): {
                    "bot": self.bots[s],
                    "mean_total": round(self.totals[s] / n, 2),
                    "firsts": round(self.firsts[s], 2),
                }
                for s in range(4)
            },
        }
        if self.variant.endswith("_partner"):
            out["teams"] = {
                team: {
                    "bots": "+".join(self.bots[int(x)] for x in team.split("+")),
                    "wins": self.team_wins[team],
                    "win_rate": round(self.team_wins[team] / n, 4),
                    "mean_total": round(sum(self.totals[int(x)] for x in team.split("+")) / n, 2),
                }
                for team in ("0+2", "1+3")
            }
            out["draws"] = self.draws
        return out


def simulate(
    options: Options,
    bot_kinds: list[str],
    matches: int,
    seed: int,
    dealer: Dealer | None = None,
    on_deal_end: Callable[[MatchState, dict[str, Any] | None, int], None] | None = None,
) -> Summary:
    """Play ``matches`` whole matches between bots (one kind per seat) from ``seed``."""
    if len(bot_kinds) != 4:
        raise ValueError("give one bot kind per seat (4), or one for all")
    bots = [make_bot(k) for k in bot_kinds]
    rng = random.Random(seed)
    dealer = dealer or seeded_dealer(seed)
    summary = Summary(options.variant, list(bot_kinds))
    start = time.perf_counter()
    for i in range(matches):
        summary.add(play_match(options, bots, rng, dealer, i, on_deal_end))
    summary.seconds = time.perf_counter() - start
    return summary


__all__ = ["Summary", "bot_step", "play_match", "seeded_dealer", "simulate", "team_of"]
