"""Verifiable-shuffle speed on one core: trix-shuffle/1 shuffles per second, and deal records
verified per second (cards only, as the standalone verifier does, and with the engine replay).

Run: ``.venv/bin/python benchmarks/fairness.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.options import Options  # noqa: E402
from games.engine.simulate import simulate  # noqa: E402
from games.fairness import shuffle, verify_record  # noqa: E402
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


if __name__ == "__main__":
    main()
