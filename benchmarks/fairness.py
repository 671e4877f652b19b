"""Verifiable-shuffle speed on one core: trix-shuffle/1 shuffles per second, deal records
verified per second (cards only, as the standalone verifier does, and with the engine replay),
and a whole match's bot moves replayed from its bot seed (``games.fairness.bot_play``: what
``trix verify --log`` adds once the match ended).

Run: ``.venv/bin/python benchmarks/fairness.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import bot_action  # noqa: E402
from games.engine.cards import CODES  # noqa: E402
from games.engine.match import apply, new_match  # noqa: E402
from games.engine.options import Options  # noqa: E402
from games.engine.simulate import simulate  # noqa: E402
from games.fairness import bot_play, shuffle, verify_record  # noqa: E402
from games.fairness.simulation import simulation_dealer  # noqa: E402


def rate(work, seconds: float) -> float:
    """Calls of ``work(i)`` per second over about ``seconds``."""
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            work(n)
            n += 1
    return n / (time.perf_counter() - start)


def bot_match(variant: str, seed: str) -> list[dict]:
    """The records of a whole match of ``variant``: seats 1..3 rules bots from ``seed``,
    seat 0 a random player."""
    import random

    state = new_match(Options.from_dict({"variant": variant}))
    deck_rng = random.Random(seed)
    while state.phase != "over":
        if state.phase == "deal":
            deck = list(CODES)
            deck_rng.shuffle(deck)
            hands = {str(s): deck[13 * s : 13 * s + 13] for s in range(4)}
            apply(state, {"type": "deal", "hands": hands}, emit=False)
            continue
        seat = state.to_act()[0]
        kind = "random" if seat == 0 else "rules"
        apply(state, bot_action(state, seat, kind, seed if seat else "person"), emit=False)
    return state.records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()

    seeds = ["alice", "bot", "bob", "bot"]
    shuffles = rate(lambda i: shuffle("ab" * 32, seeds, "bench", i + 1), args.seconds)

    options = Options.from_dict({"variant": "complex_partner"})
    records: list[dict] = []
    dealer = simulation_dealer(1, options.deals_per_match)
    simulate(
        options,
        ["rules"] * 4,
        10,
        1,
        dealer,
        lambda state, shuffle_object, _: records.append(
            {**state.records[-1], "shuffle": shuffle_object}
        ),
    )
    cards = rate(lambda i: verify_record(records[i % len(records)], replay=False), args.seconds)
    full = rate(lambda i: verify_record(records[i % len(records)]), args.seconds)

    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    print(f"trix-shuffle/1 shuffles:             {shuffles:10,.0f} /s")
    print(f"records verified, cards only:        {cards:10,.0f} /s")
    print(f"records verified, cards and replay:  {full:10,.0f} /s")
    kinds = {1: "rules", 2: "rules", 3: "rules"}
    block = bot_play.build(kinds, "b0" * 16)
    match = bot_match("trix", "b0" * 16)
    checked = bot_play.check_bot_moves(match, block, "b0" * 16)["checked"]
    start = time.perf_counter()
    runs = 0
    while time.perf_counter() - start < args.seconds:
        bot_play.check_bot_moves(match, block, "b0" * 16)
        runs += 1
    per_match = (time.perf_counter() - start) / runs
    print(
        f"bot moves replayed, {len(match)}-deal trix match, 3 rules bots "
        f"({checked} decisions): {per_match * 1000:7.1f} ms per match"
    )


if __name__ == "__main__":
    main()
