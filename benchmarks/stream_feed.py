"""CPU per new version of a table's live stream, in one process (no web server, no worker,
no broker): what one web process's feed (``games.live.hub.Feed``) does for each change of a
table its spectators watch.

Usage (from the repository root)::

    .venv/bin/python benchmarks/stream_feed.py [--changes 400] [--tables 4] [--watchers 1]
        [--profile]

``BENCH_DATABASE_URL`` as for ``benchmarks/state_poll.py`` (whose set-up this shares: tables of
four bots advanced one change at a time by ``services.wake`` in a second process). After each
change the feed's work runs as the feed runs it in the hub's thread, timed in CPU of this
process (PostgreSQL's side not counted): read the table's version and compute the spectators'
answer after their previous version (:meth:`games.live.sources.Source.catch_up`), encoded once for
``--watchers`` anonymous watchers. Prints CPU milliseconds and database statements per
version, and the load average; ``--profile`` adds cProfile's top functions.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import multiprocessing
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import state_poll  # noqa: E402  (sets the environment: the scratch database, the settings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=400, help="table changes to deliver")
    parser.add_argument("--tables", type=int, default=4, help="tables played in turn")
    parser.add_argument("--watchers", type=int, default=1, help="spectators of each table")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    args = parser.parse_args()

    state_poll.ensure_database()
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser
    from django.core.management import call_command
    from django.db import connection

    from games.live.sources import TABLES
    from games.live.watchers import Mailbox, Watcher
    from games.models import Table, TableStatus

    call_command("migrate", verbosity=0)
    ctx = multiprocessing.get_context("spawn")
    requests, answers = ctx.Queue(), ctx.Queue()
    other = ctx.Process(target=state_poll.advancer, args=(requests, answers), daemon=True)
    other.start()
    user, _ = get_user_model().objects.get_or_create(username="stream-feed-bench")
    loop = asyncio.new_event_loop()

    def watchers_of(version: int | None) -> list[Watcher]:
        return [Watcher(AnonymousUser(), version, Mailbox(10_000)) for _ in range(args.watchers)]

    def deliver(table_id: int, watchers: list[Watcher]) -> None:
        current, deliveries = TABLES.catch_up(table_id, watchers)
        for d in deliveries:
            d.watcher.version = d.version
            d.watcher.queue.put_nowait(d.data)

    tables = [state_poll.new_table(user) for _ in range(args.tables)]
    watching = {t: watchers_of(None) for t in tables}
    for table_id in tables:  # warm up: the first answer loads everything
        deliver(table_id, watching[table_id])

    def count(execute, sql, params, many, context):
        count.n += 1
        return execute(sql, params, many, context)

    count.n = 0
    profile = cProfile.Profile() if args.profile else None
    load_before = os.getloadavg()
    cpu = 0.0
    done = 0
    while done < args.changes:
        for i, table_id in enumerate(tables):
            status = Table.objects.values_list("status", flat=True).get(pk=table_id)
            if status != TableStatus.PLAYING:
                tables[i] = table_id = state_poll.new_table(user)
                watching[table_id] = watchers_of(None)
                deliver(table_id, watching[table_id])
                continue
            requests.put(table_id)
            answers.get()
            with connection.execute_wrapper(count):
                if profile:
                    profile.enable()
                start = time.process_time()
                deliver(table_id, watching[table_id])
                cpu += time.process_time() - start
                if profile:
                    profile.disable()
            for w in watching[table_id]:
                w.queue.clear()
            done += 1
    load_after = os.getloadavg()
    requests.put(None)
    other.join()
    loop.close()
    print(
        f"live stream feed, {done} table changes ({args.tables} tables of four bots, "
        f"{args.watchers} spectator(s) each)"
    )
    print(f"  {cpu * 1000 / done:.2f} ms CPU, {count.n / done:.2f} statements per version")
    print(state_poll.load_line(load_before, load_after))
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(35)


if __name__ == "__main__":
    main()
