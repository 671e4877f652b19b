"""CPU per delivered message in one ASGI web process holding many live streams (issue 15):
what writing each table's new versions to its watchers costs the process that holds them,
with no worker, no broker and no bots' turns running beside it.

Usage (from the repository root)::

    .venv/bin/python benchmarks/stream_delivery.py [--watchers 2000] [--tables 20]
        [--rate 40] [--seconds 20]

``BENCH_DATABASE_URL`` as for ``benchmarks/state_poll.py``, whose set-up this shares: tables
of four bots, advanced one change at a time by ``services.wake`` in a second process, so
each change is committed and notified (``LISTEN/NOTIFY``) as a worker's is. One uvicorn
process (the production units' command, one worker) serves the site;
``benchmarks/live_clients.py`` holds ``--watchers`` anonymous spectators' streams
(``GET /api/tables/{id}/stream/``), spread evenly over ``--tables`` tables, in a process of
its own. Once every watcher has its first answer, the tables change ``--rate`` times a second
in turn for ``--seconds``.

Prints the web process's CPU per delivered message (its CPU seconds from the first change
to a second after the last, over every message every watcher received), its RSS per held
connection (with the watchers minus before them, over ``--watchers``), commit → every
watcher of the table p50/p99 (a version's events' ``created_at``, written just before the
commit, to its arrival at the last of its watchers), and the load average. Run it on a quiet
machine, and compare two versions of the code side by side in one session.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import state_poll  # noqa: E402  (sets the environment: the scratch database, the settings)

from benchmarks import site as stack  # noqa: E402  (its helpers: wait_http, group_usage, spread)

ROOT = state_poll.ROOT
PORT = int(os.environ.get("BENCH_PORT", "8793"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=2000, help="spectators' streams held")
    parser.add_argument("--tables", type=int, default=20, help="tables watched and changed")
    parser.add_argument("--rate", type=float, default=40, help="table changes per second")
    parser.add_argument("--seconds", type=float, default=20, help="how long the tables change")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by the children
    state_poll.ensure_database()
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from games.models import Table, TableEvent, TableStatus

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="stream-delivery-bench")
    tables = [state_poll.new_table(user) for _ in range(args.tables)]
    connection.close()

    env = {
        **os.environ,
        "TRIX_WAITS_PER_CLIENT": "100000",  # every watcher is one address (127.0.0.1)
        "PYTHONPATH": str(ROOT),
    }
    work = Path(tempfile.mkdtemp(prefix="stream-delivery-"))
    web = subprocess.Popen(
        [
            sys.executable, "-m", "uvicorn", "trix_site.asgi:application", "--host",
            "127.0.0.1", "--port", str(PORT), "--log-level", "warning", "--no-access-log",
            "--backlog", "4096", "--timeout-graceful-shutdown", "5",
            "--limit-concurrency", str(2 * args.watchers + 500),
        ],
        cwd=ROOT, env=env, stdout=open(work / "web.log", "wb"), stderr=subprocess.STDOUT,
        start_new_session=True,  # a process group of its own: stack.group_usage reads it
    )  # fmt: skip
    clients = None
    ctx = multiprocessing.get_context("spawn")
    requests, answers = ctx.Queue(), ctx.Queue()
    advancer = ctx.Process(target=state_poll.advancer, args=(requests, answers), daemon=True)
    advancer.start()
    try:
        stack.wait_http(timeout=60, port=PORT)
        _, rss_before = stack.group_usage(web.pid)
        per_table = [args.watchers // args.tables] * args.tables
        for i in range(args.watchers % args.tables):
            per_table[i] += 1
        config = {
            "port": PORT,
            "transport": "sse",
            "watchers": [[t, n] for t, n in zip(tables, per_table, strict=True)],
            "humans": [],
            "out": str(work / "clients-out.json"),
        }
        (work / "clients.json").write_text(json.dumps(config))
        clients = subprocess.Popen(
            [sys.executable, str(ROOT / "benchmarks" / "live_clients.py"),
             str(work / "clients.json")],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=open(work / "clients.log", "wb"),
        )  # fmt: skip
        connected = clients.stdout.readline().decode().split()
        time.sleep(2)  # the first answers written, the process quiet
        _, rss_held = stack.group_usage(web.pid)

        load_before = os.getloadavg()
        cpu_start, _ = stack.group_usage(web.pid)
        t0 = time.time()
        start = time.monotonic()
        changes = 0
        while time.monotonic() - start < args.seconds:
            table_id = tables[changes % len(tables)]
            requests.put(table_id)
            answers.get()
            changes += 1
            pause = start + changes / args.rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        t1 = time.time()
        time.sleep(1)  # the last change delivered
        cpu_end, _ = stack.group_usage(web.pid)
        load_after = os.getloadavg()
        clients.stdin.write(b"stop\n")
        clients.stdin.flush()
        clients.wait(60)
        figures = json.loads((work / "clients-out.json").read_text())

        committed: dict[tuple[int, int], float] = {}
        for t, v, at in TableEvent.objects.filter(
            table_id__in=tables, created_at__gte=_aware(t0), created_at__lt=_aware(t1 + 1)
        ).values_list("table_id", "version", "created_at"):
            committed[t, v] = max(committed.get((t, v), 0.0), at.timestamp())
        playing = Table.objects.filter(pk__in=tables, status=TableStatus.PLAYING).count()
    finally:
        requests.put(None)
        advancer.join(10)
        if clients is not None and clients.poll() is None:
            clients.kill()
        web.terminate()
        try:
            web.wait(20)
        except subprocess.TimeoutExpired:
            web.kill()

    watchers_of = dict(zip(tables, per_table, strict=True))
    every, short = [], 0
    for t, v, _first, last, n in figures["seen"]:
        if (t, v) not in committed:
            continue
        if n < watchers_of[t]:
            short += 1
            continue
        every.append((last - committed[t, v]) * 1000)
    messages = sum(n for _, n in figures["per_second"])
    cpu = cpu_end - cpu_start
    print(
        f"stream delivery: one uvicorn process, {connected[1]} of {connected[2]} watchers "
        f"connected over {args.tables} tables, {changes} changes in {t1 - t0:.1f} s "
        f"({changes / (t1 - t0):.1f}/s), {playing} tables still playing"
    )
    print(
        f"  {messages} messages delivered, web CPU {cpu:.2f} s: "
        f"{cpu * 1000 / max(1, messages):.4f} ms per delivered message"
    )
    print(f"  RSS per held connection: {(rss_held - rss_before) / 1024 / args.watchers:.1f} KiB")
    print(
        f"  commit -> every watcher: {stack.spread(every)}; {short} versions short of a "
        f"watcher; reconnects {figures['reconnects']}, errors {figures['errors']}, "
        f"refused answers by status {figures['refused'] or 'none'}"
    )
    print(state_poll.load_line(load_before, load_after))


def _aware(ts: float):
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ts, UTC)


if __name__ == "__main__":
    main()
