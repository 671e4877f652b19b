"""A day's auditor archive (``/fairness/archive/DAY.zip``, docs/fairness.md section 12): the
cost of building it on the site and of ``trix verify ARCHIVE.zip``, by the number of matches
played that day.

Usage (from the repository root)::

    .venv/bin/python benchmarks/archive.py [--matches 5,20]

``BENCH_DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/trix_archive_bench``)
names a scratch database: dropped, created and migrated for each size. For each size, that
many free tables of four rules bots are played to their end on 10 January 2026 (the clock
moved there in this process, ``time_machine``; ``services.wake`` as the worker calls it), and
one table is made on the 11th (the entry after the day). Then, on the 12th: the archive of
the 10th built (``games.fairness_archive.daily_archive``: wall and this process's CPU time,
database statements, bytes), and checked (``games.fairness.verify_archive.check``, what
``trix verify`` runs: wall and CPU time). Prints one line per size and the load average.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The benchmarks' environment (scratch keys, an in-memory broker, no bot delay) is
# benchmarks/state_poll.py's, set when it is imported; this one's database is its own.
from benchmarks.state_poll import load_line  # noqa: E402

DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/trix_archive_bench"
)
os.environ["DATABASE_URL"] = DB_URL


def fresh_database() -> None:
    import psycopg

    base, _, name = DB_URL.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def at(text: str):
    import time_machine

    return time_machine.travel(datetime.fromisoformat(text).replace(tzinfo=UTC), tick=False)


def play_day(matches: int) -> None:
    """``matches`` bot matches played on 2026-01-10, a table made on the 11th."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Table

    user, _ = get_user_model().objects.get_or_create(username="archive-bench")
    with at("2026-01-10T08:00:00"):
        for _ in range(matches):
            table = services.create_table(user=user, variant="complex", stake=0, options={})
            for seat in range(4):
                services.seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
            while (row := Table.objects.get(pk=table.pk)).status == "playing":
                services.wake(table_id=table.pk, version=row.version)
    with at("2026-01-11T08:00:00"):
        services.create_table(user=user, variant="complex", stake=0, options={})


def measure(matches: int) -> str:
    from django.core.management import call_command
    from django.db import connection, connections
    from django.test.utils import CaptureQueriesContext

    from games import fairness_archive, signing
    from games.fairness import archive, verify_archive
    from games.fairness.receipt import load_public_key

    connections.close_all()
    fresh_database()
    call_command("migrate", verbosity=0)
    play_day(matches)
    with at("2026-01-12T00:00:00"), CaptureQueriesContext(connection) as queries:
        wall, cpu = time.perf_counter(), time.process_time()
        data = fairness_archive.daily_archive("2026-01-10")
        built = time.perf_counter() - wall, time.process_time() - cpu
    key = load_public_key(signing.current().public_bytes().hex())
    wall, cpu = time.perf_counter(), time.process_time()
    problems, notes = verify_archive.check(archive.read(io.BytesIO(data)), key)
    checked = time.perf_counter() - wall, time.process_time() - cpu
    assert problems == [], problems
    deals = sum(len(records) for records in archive.read(io.BytesIO(data)).records.values())
    return (
        f"{matches:>4} matches ({deals} deal records, {len(data):,} bytes): built in "
        f"{built[0] * 1000:,.0f} ms wall, {built[1] * 1000:,.0f} ms CPU, "
        f"{len(queries.captured_queries)} statements; checked in {checked[0] * 1000:,.0f} ms "
        f"wall, {checked[1] * 1000:,.0f} ms CPU"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", default="5,20", help="matches a day, comma-separated")
    args = parser.parse_args()
    import django

    django.setup()
    before = os.getloadavg()
    for matches in (int(n) for n in args.matches.split(",")):
        print(measure(matches), flush=True)
    print(load_line(before, os.getloadavg()))


if __name__ == "__main__":
    main()
