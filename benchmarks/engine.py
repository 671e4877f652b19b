"""Engine speed: random-bot deals per second for each contract, and whole ``complex_partner``
matches per second, on one core (this process only).

Run: ``.venv/bin/python benchmarks/engine.py [--seconds S]``. When the ``open-spiel`` package
is installed (``pip install -e .[bench]``), it also plays OpenSpiel's Hearts with random moves
in the same run and prints our deals/s divided by theirs.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import make_bot  # noqa: E402
from games.engine.match import (  # noqa: E402
    PHASE_CHOOSE,
    choose_contract,
    deal_hands,
    new_match,
)
from games.engine.options import Options  # noqa: E402
from games.engine.simulate import bot_step, play_match, seeded_dealer  # noqa: E402


def deals_per_second(contract: str, seconds: float, seed: int = 1) -> tuple[float, int]:
    """Random bots play single deals of ``contract`` for about ``seconds``."""
    variant = "complex" if contract == "complex" else "trix"
    options = Options(variant=variant)
    bots = [make_bot("random")] * 4
    rng = random.Random(seed)
    dealer = seeded_dealer(seed)
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            state = new_match(options)
            deal_hands(state, dealer(0, 1)[0])
            if state.phase == PHASE_CHOOSE:
                choose_contract(state, state.owner, contract)
            while not state.records:
                bot_step(state, bots, rng)
            n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start), n


def matches_per_second(seconds: float, seed: int = 1) -> tuple[float, int, int]:
    options = Options(variant="complex_partner")
    bots = [make_bot("random")] * 4
    rng = random.Random(seed)
    dealer = seeded_dealer(seed)
    n = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = play_match(options, bots, rng, dealer, n)
        n += 1
        deals += len(state.records)
    elapsed = time.perf_counter() - start
    return n / elapsed, n, deals


def openspiel_hearts(seconds: float, seed: int = 1) -> float | None:
    """OpenSpiel's Hearts (C++ core) with uniformly random moves, driven from Python."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    print(f"{'contract':<10} {'deals/s':>10} {'deals':>8}")
    for contract in ("king", "queens", "diamonds", "ltoosh", "trix", "complex"):
        rate, n = deals_per_second(contract, args.seconds)
        print(f"{contract:<10} {rate:>10.0f} {n:>8}")
    mps, n, deals = matches_per_second(args.seconds)
    print(f"complex_partner matches/s: {mps:.1f} ({n} matches, {deals} deals, random bots)")
    if openspiel_hearts(0.01) is None:
        print("open-spiel not installed: pip install -e .[bench] to compare with its Hearts")
        return
    # Interleaved short slices, so that load from other processes hits both sides alike.
    rounds = 8
    slice_s = max(args.seconds / 4, 0.25)
    ratios: dict[str, list[float]] = {"ltoosh": [], "complex": []}
    theirs_all = []
    for _ in range(rounds):
        theirs = openspiel_hearts(slice_s)
        theirs_all.append(theirs)
        for contract in ratios:
            ratios[contract].append(deals_per_second(contract, slice_s)[0] / theirs)
    print(f"OpenSpiel hearts (random moves): {median(theirs_all):.0f} deals/s (median of {rounds})")
    for contract, values in ratios.items():
        print(
            f"  ours/theirs, {contract} (13 tricks like Hearts): median {median(values):.2f}, "
            f"range {min(values):.2f}-{max(values):.2f} over {rounds} interleaved rounds"
        )


if __name__ == "__main__":
    main()
