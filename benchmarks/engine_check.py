"""Testing one action at deal 20 of a ``trix`` match: ``check(state, action)`` against what a
web request did before it, ``apply`` on a deep copy of the whole match state.

Run: ``.venv/bin/python benchmarks/engine_check.py``. Prints, in microseconds, the best of 7
repeats of this process's CPU time per call (the least disturbed by other processes) for a
legal play and an illegal one (another seat's card).
"""

from __future__ import annotations

import copy
import platform
import random
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import IllegalAction, apply, check, legal_actions  # noqa: E402
from games.engine.bots import make_bot  # noqa: E402
from games.engine.match import PHASE_DEAL, PHASE_PLAY, deal_hands, new_match  # noqa: E402
from games.engine.observation import observe  # noqa: E402
from games.engine.options import Options  # noqa: E402
from games.engine.simulate import bot_step, seeded_dealer  # noqa: E402

DEAL = 20
CARDS_PLAYED = 10


def state_at_deal(number: int, seed: int = 1):
    """A ``trix`` match (20 deals) played by ``rules`` bots up to ``CARDS_PLAYED`` plays
    into deal ``number`` (with this seed, deal 20 is the layout)."""
    rng = random.Random(seed)
    dealer = seeded_dealer(seed)
    bots = [make_bot("rules")] * 4
    state = new_match(Options(variant="trix"))
    while True:
        if state.phase == PHASE_DEAL:
            deal_hands(state, dealer(0, state.deal_number + 1)[0])
            continue
        if state.deal_number == number and state.phase == PHASE_PLAY:
            if len(state.deal.plays) >= CARDS_PLAYED:
                return state
        bot_step(state, bots, rng)


def per_call_us(fn, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=7, timer=time.process_time)) / number * 1e6


def main() -> None:
    state = state_at_deal(DEAL)
    seat = state.to_act()[0]
    legal = make_bot("rules").act(observe(state, seat), random.Random(0))
    assert legal in legal_actions(state, seat)
    other = (seat + 1) % 4
    illegal = {"type": "play", "seat": other, "card": legal_actions(state, seat)[0]["card"]}

    def old(action):
        try:
            apply(copy.deepcopy(state), action, emit=False)
        except IllegalAction:
            pass

    def new(action):
        try:
            check(state, action)
        except IllegalAction:
            pass

    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    print(
        f"deal {state.deal_number} of a trix match ({state.deal.contract}), "
        f"{len(state.log_actions)} seat actions in the log"
    )
    print(f"{'action':<8} {'deepcopy+apply µs':>18} {'check µs':>10} {'ratio':>8}")
    for name, action in (("legal", legal), ("illegal", illegal)):
        a = per_call_us(lambda action=action: old(action), 200)
        b = per_call_us(lambda action=action: new(action), 20000)
        print(f"{name:<8} {a:>18.1f} {b:>10.2f} {a / b:>7.0f}x")


if __name__ == "__main__":
    main()
