"""Tournament speed on one core.

``--seating``: the seating of one Swiss round (``games.fairness.seating.swiss_seating``) for
4,096 and 65,536 solo entrants after a realistic history (5 earlier Swiss rounds seated by the
same code, with stand-in results and standings). Prints the wall and CPU time of the seating
call and of the standings before it (the draw order is cached between them), and the number
of repeat meetings (pairs at a table of the new round that met before). Aim (issue 11):
65,536 entrants seated in under 2 s.

Run: ``.venv/bin/python benchmarks/tournament.py --seating [--sizes 4096,65536] [--rounds 5]``.
(A site mode, rounds opened on PostgreSQL, is to be added beside it.)
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.fairness.draw import draw_key, draw_order  # noqa: E402
from games.fairness.seating import (  # noqa: E402
    RoundSeating,
    UnitResult,
    standings,
    swiss_seating,
)


def stand_in_results(seating: RoundSeating, rng: random.Random) -> list[list[UnitResult]]:
    """Random match totals per seat (bots too), places by competition ranking."""
    results = []
    for table in seating.tables:
        scores = [rng.randrange(-200, 200) for _ in table]
        places = [1 + sum(o > s for o in scores) for s in scores]
        results.append([UnitResult(u, p, s) for u, p, s in zip(table, places, scores, strict=True)])
    return results


def repeat_meetings(seating: RoundSeating, history: list[RoundSeating]) -> int:
    """Pairs seated together in ``seating`` that already met in ``history``."""
    met: set[tuple[str, str]] = set()
    for past in history:
        for table in past.tables:
            units = sorted(u for u in table if u is not None)
            met.update((a, b) for i, a in enumerate(units) for b in units[i + 1 :])
    repeats = 0
    for table in seating.tables:
        units = sorted(u for u in table if u is not None)
        repeats += sum((a, b) in met for i, a in enumerate(units) for b in units[i + 1 :])
    return repeats


def bench_seating(count: int, earlier_rounds: int) -> dict:
    rng = random.Random(count)
    entrants = [f"u{i:06d}" for i in range(count)]
    seeds = {e: f"c{i}" for i, e in enumerate(entrants)}
    key = draw_key(secret=bytes(32), event="bench:1", entrants=entrants, client_seeds=seeds)
    history: list[RoundSeating] = []
    played = []
    ranked = draw_order(key, entrants)
    for round_no in range(1, earlier_rounds + 1):
        seating = swiss_seating(
            key=key, round_no=round_no, ranked=ranked, team_mode=False, history=history
        )
        history.append(seating)
        played.append((seating, stand_in_results(seating, rng)))
        ranked = [
            s.unit for s in standings(key=key, units=entrants, rounds=played, team_mode=False)
        ]
    start, cpu = time.perf_counter(), time.process_time()
    ranked = [s.unit for s in standings(key=key, units=entrants, rounds=played, team_mode=False)]
    standings_time = time.perf_counter() - start, time.process_time() - cpu
    start, cpu = time.perf_counter(), time.process_time()
    seating = swiss_seating(
        key=key, round_no=earlier_rounds + 1, ranked=ranked, team_mode=False, history=history
    )
    seating_time = time.perf_counter() - start, time.process_time() - cpu
    return {
        "seating_s": seating_time,
        "standings_s": standings_time,
        "tables": len(seating.tables),
        "repeats": repeat_meetings(seating, history),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seating", action="store_true", help="time Swiss seating")
    parser.add_argument("--sizes", default="4096,65536")
    parser.add_argument("--rounds", type=int, default=5, help="earlier rounds of history")
    args = parser.parse_args()
    if not args.seating:
        parser.error("choose a mode: --seating")
    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    for count in (int(s) for s in args.sizes.split(",")):
        row = bench_seating(count, args.rounds)
        print(
            f"Swiss round {args.rounds + 1}, {count:>6,} entrants, {row['tables']:>6,} tables: "
            f"seating {row['seating_s'][0]:.3f} s (cpu {row['seating_s'][1]:.3f} s), "
            f"standings {row['standings_s'][0]:.3f} s (cpu {row['standings_s'][1]:.3f} s), "
            f"repeat meetings {row['repeats']}"
        )


if __name__ == "__main__":
    main()
