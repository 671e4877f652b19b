"""Tournament speed on one core.

``--seating``: the seating of one Swiss round (``games.fairness.seating.swiss_seating``) for
4,096 and 65,536 solo entrants after a realistic history (5 earlier Swiss rounds seated by the
same code, with stand-in results and standings). Prints the wall and CPU time of the seating
call and of the standings before it (the draw order is cached between them), and the number
of repeat meetings (pairs at a table of the new round that met before). Aim (issue 11):
65,536 entrants seated in under 2 s.

Run: ``.venv/bin/python benchmarks/tournament.py --seating [--sizes 4096,65536] [--rounds 5]``.

``--site``: a whole event on the production stack: PostgreSQL (a scratch database, default
``trix_tournament_bench``, or ``BENCH_DATABASE_URL``: dropped and created), a Redis broker
(DB 3, ``BENCH_BROKER_URL``: flushed) and a Celery worker with its beat, as
``benchmarks/site.py`` starts them. ``--entrants`` (256) funded players register for a solo
Swiss event of ``--rounds`` (2) rounds; it starts and the worker opens round 1 (64 tables of
four people). Every seat is driven by the timeout rules (one-second timers scaled by
``--timer-scale``, default 1: about one action a second per table, as bots play), so the
tables load the worker as a real event would. After
``--play-seconds`` one player per table leaves (a forfeit ends that match, as the table rules
say), the tables one after another over ``--end-spread`` seconds; the worker records each
result and, when the last table of the round has ended, opens the next round. Printed per
round: from the last table's end (its ``finished_at``) to every table of the next round
created (their latest ``created_at``) and to the benchmark seeing the round open. Then the
cost of the live page's answer (what the one long poll returns: read anew, and from the
per-process cache every other watcher at that version gets) in wall and CPU time per call,
and ``ledger_check``. Aim (issue 11):
the next round open within 1 s of the last table ending.

Run: ``.venv/bin/python benchmarks/tournament.py --site [--entrants 256] [--rounds 2]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.fairness.draw import draw_key, draw_order  # noqa: E402
from games.fairness.seating import RoundSeating, UnitResult, swiss_seating  # noqa: E402
from games.fairness.standings import standings  # noqa: E402


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


SITE_DB = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/trix_tournament_bench"
)
SITE_BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/3")


def bench_site(args: argparse.Namespace) -> None:
    """The ``--site`` mode (module docstring)."""
    import tempfile
    from datetime import timedelta

    import benchmarks.site as stack

    stack.DB, stack.BROKER = SITE_DB, SITE_BROKER
    e = {
        **stack.env(0.05),
        "TRIX_TIMER_SCALE": str(args.timer_scale),
        "TRIX_TOURNAMENT_SWEEP_SECONDS": "2",
    }
    os.environ.update(e)
    stack.reset_database(e)
    var = Path(tempfile.mkdtemp(prefix="trix-tournament-bench-"))
    worker = stack.start(
        [sys.executable, "-m", "celery", "-A", "trix_site", "worker", "-B", "--loglevel=warning",
         "--concurrency", str(args.concurrency), "-s", str(var / "beat")],
        e, var / "worker.log",
    )  # fmt: skip
    try:
        _run_event(args, timedelta)
    finally:
        import signal as signals

        os.killpg(worker.pid, signals.SIGTERM)
        worker.wait(timeout=30)
        print(f"worker log: {var / 'worker.log'}")


def _run_event(args: argparse.Namespace, timedelta) -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db.models import Max
    from django.utils import timezone

    from accounts.kyc import DemoKycProvider
    from accounts.services import start_verification
    from games import services as games
    from games.models import Seat, Table
    from tournaments import selectors
    from tournaments import services as events
    from tournaments.models import Round, Status
    from wallet import services as wallet
    from wallet.checks import run_checks

    users = get_user_model()
    staff = users.objects.create_user(username="bench-staff", is_staff=True)
    now = timezone.now()
    t = events.create_tournament(
        by=staff, name="Benchmark cup", format="swiss", variant="complex", rounds=args.rounds,
        options={"choose_timer": 1, "double_timer": 1, "play_timer": 1},
        capacity=args.entrants, min_entrants=4, entry_fee=100, house_fee_bps=1000,
        prize_bps=[5000, 3000, 2000], review_seconds=0,
        no_show_without_action=False,  # the timer plays every seat: nobody moves themself
        registration_opens_at=now - timedelta(minutes=1),
        registration_closes_at=now + timedelta(hours=1), starts_at=now + timedelta(hours=2),
    )  # fmt: skip
    players = []
    for i in range(args.entrants):
        user = users.objects.create_user(username=f"bench-{i:04d}")
        start_verification(user=user, provider=DemoKycProvider())  # an entry fee needs it
        wallet.deposit(user=user, amount=1_000, key=f"bench-deposit:{user.pk}")
        events.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")
        players.append(user)
    print(f"{args.entrants} entrants registered; starting (load {os.getloadavg()[0]:.1f})")
    events.start(tournament_id=t.pk, by=staff, reason="benchmark")
    ended_at = ended_mono = None
    for number in range(1, args.rounds + 1):
        tables = _wait_round(Round, Table, number, t.pk, args.entrants)
        seen = time.monotonic()
        if ended_at is not None:
            opened = Table.objects.filter(pk__in=tables).aggregate(m=Max("created_at"))["m"]
            print(
                f"round {number}: {len(tables)} tables; last table of round {number - 1} "
                f"ended -> every table of round {number} created: "
                f"{(opened - ended_at).total_seconds() * 1000:.0f} ms; "
                f"-> seen open by the benchmark: {(seen - ended_mono) * 1000:.0f} ms"
            )
        else:
            print(f"round 1: {len(tables)} tables open")
        if number == 2 or args.rounds == 1:
            _poll_cost(selectors, t.pk, args.poll_calls)
        time.sleep(args.play_seconds)
        leavers = list(Seat.objects.filter(table_id__in=tables, seat=0).select_related("user"))
        gap = args.end_spread / max(1, len(leavers))
        for seat in leavers:
            games.leave(user=seat.user, table_id=seat.table_id)
            time.sleep(gap)
        _wait(
            lambda ids=tables: not Table.objects.filter(pk__in=ids, status="playing").exists(), 120
        )
        ended_mono = time.monotonic()
        ended_at = Table.objects.filter(pk__in=tables).aggregate(m=Max("finished_at"))["m"]
    _wait(lambda: Round.objects.get(tournament_id=t.pk, number=args.rounds).status == "finished"
          and events.advance(tournament_id=t.pk).status in (Status.REVIEW, Status.FINISHED),
          60)  # fmt: skip
    events.pay_prizes(tournament_id=t.pk)
    t.refresh_from_db()
    problems = {name: found for name, found in run_checks().items() if found}
    print(f"tournament {t.status}; pool {t.pool}, house fee {t.house_fee}; "
          f"ledger_check: {'passed' if not problems else problems}")  # fmt: skip


def _wait(predicate, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.02)
    raise RuntimeError("timed out")


def _wait_round(Round, Table, number: int, tournament_id: int, entrants: int) -> list[int]:
    """The table ids of round ``number`` once it is open (polled every 20 ms)."""
    found: list[int] = []

    def opened() -> bool:
        rnd = Round.objects.filter(tournament_id=tournament_id, number=number).first()
        if rnd is None or rnd.status == "opening":
            return False
        found[:] = list(rnd.tables.values_list("table_id", flat=True))
        return len(found) == len(rnd.seating["tables"])

    _wait(opened, 300)
    return found


def _poll_cost(selectors, tournament_id: int, calls: int) -> None:
    """Wall and CPU time per call of the live page's answer: read anew (what the first
    watcher woken by a change costs: ``_live_page``, bracket and standings) and from the
    per-process cache (what every other watcher at that version costs)."""
    from tournaments.selectors import live_answer

    version = selectors.live_version(tournament_id)
    for label, read in (
        ("read anew", lambda: live_answer._live_page(tournament_id, version)),
        ("cached", lambda: selectors.live_page(tournament_id=tournament_id)),
    ):
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            read()
        wall = (time.perf_counter() - start) / calls * 1000
        used = (time.process_time() - cpu) / calls * 1000
        print(f"live answer {label}, {calls} calls while round 2 plays: "
              f"{wall:.1f} ms wall, {used:.1f} ms CPU per call")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seating", action="store_true", help="time Swiss seating")
    parser.add_argument("--site", action="store_true", help="a whole event on the stack")
    parser.add_argument("--sizes", default="4096,65536")
    parser.add_argument("--rounds", type=int, default=None, help="seating: earlier rounds "
                        "of history (5); site: Swiss rounds (2)")  # fmt: skip
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--play-seconds", type=float, default=10.0)
    parser.add_argument("--end-spread", type=float, default=3.0)
    parser.add_argument("--timer-scale", type=float, default=1.0)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--poll-calls", type=int, default=50)
    args = parser.parse_args()
    if args.seating == args.site:
        parser.error("choose one mode: --seating or --site")
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    if args.site:
        args.rounds = args.rounds or 2
        bench_site(args)
        return
    args.rounds = args.rounds or 5
    print("seating on one core")
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
