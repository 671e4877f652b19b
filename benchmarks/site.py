"""The whole stack under load: PostgreSQL, a Redis broker, the web server (gunicorn), two
Celery workers (and one beat), 50 tables of four bots playing at once for a fixed time, and
10 API clients polling table states over HTTP.

Each API client watches one table (``--tables-per-client``) the way the table page does: it
long-polls ``GET /api/tables/{id}/state/?since=VERSION&wait=5`` (answered as soon as there is
a newer version) and notes when each version first reaches it. ``--tables-per-client 5`` has
the 10 clients watch all 50 tables (one connection per table); ``--poll-wait 0`` makes them
poll their tables in turn as fast as they are answered instead.

Prints: actions applied per second; p50/p99 from an action's submission (a bot's turn falling
due) to its appearance in a polling client's state; database statements per action (worker
side); the load average before and after.

    .venv/bin/pip install -e ".[serve]"     # gunicorn
    .venv/bin/python benchmarks/site.py [--tables 50] [--seconds 60] [--clients 10]
        [--tables-per-client 1] [--poll-wait 5] [--bot-delay 0.05] [--pool prefork]
        [--concurrency 2] [--database-url URL] [--broker-url URL]

Each table is a closed loop: a bot acts ``--bot-delay`` seconds after the previous change was
applied, so 50 tables can offer at most 50 / delay actions per second. The default delay keeps
that ceiling (1000/s) far above the target, so the figure measures the stack, not the bots;
the output prints the ceiling beside the measurement.

Needs PostgreSQL and Redis; the database (default ``trix_bench``, or ``BENCH_DATABASE_URL``)
is dropped and created, the Redis DB (default 2, ``BENCH_BROKER_URL``) flushed. Target
(2 cores): >= 200 actions/s and p99 < 250 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/trix_bench")
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/2")
PORT = int(os.environ.get("BENCH_PORT", "8791"))


def env(bot_delay: float) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": DB,
        "CELERY_BROKER_URL": BROKER,
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "0",  # served over plain HTTP
        "DJANGO_SECRET_KEY": "benchmark-only-not-a-secret",
        "TRIX_SEED_KEY": "5e" * 32,  # benchmark-only keys, public
        "TRIX_SIGNING_KEY": "51" * 32,
        "DATABASE_CONN_MAX_AGE": "60",
        "DJANGO_SETTINGS_MODULE": "trix_site.settings",
        "TRIX_BOT_DELAY": str(bot_delay),
        "TRIX_DEAL_PAUSE": "0.5",
        "TRIX_SWEEP_SECONDS": "2",
        # Every client of the benchmark polls from 127.0.0.1, logged out: one address, so
        # the per-client cap on long polls would answer most of them at once.
        "TRIX_WAITS_PER_CLIENT": "1000",
        "PYTHONPATH": str(ROOT),
    }


def reset_database(e: dict[str, str]) -> None:
    name = DB.rsplit("/", 1)[1]
    admin = DB.rsplit("/", 1)[0] + "/postgres"
    for sql in (f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name}"):
        subprocess.run(["psql", admin, "-q", "-c", sql], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=e, check=True)
    import redis

    redis.Redis.from_url(BROKER).flushdb()


def start(cmd: list[str], e: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=e,
        stdout=open(log, "wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_http(timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
            conn.request("GET", "/api/tables/?status=open")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("web server did not start")


def create_tables(n: int) -> list[int]:
    """Tables of four bots through the services (set-up, not measured)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import services

    # A creator per table: they all wait open until the end (TRIX_MAX_OPEN_TABLES per creator).
    users = [get_user_model().objects.get_or_create(username=f"bench-{i}")[0] for i in range(n)]
    ids = []
    for user in users:
        table = services.create_table(user=user, variant="complex_partner", stake=0, options={})
        for seat in range(3):
            services.seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
        ids.append(table.pk)
    # The fourth bots last and all at once, so the tables start together.
    for user, table_id in zip(users, ids, strict=True):
        services.seat_bot(user=user, table_id=table_id, seat=3, bot="rules")
    return ids


class Poller(threading.Thread):
    """One API client's poll loop over some tables: notes when each version first appears.

    With ``wait`` > 0 it long-polls one table (``since`` = the version it has, held open by the
    server until there is a newer one), as the table page does; an API client watching five
    tables runs five of these. With ``wait`` = 0 it polls its tables in turn as fast as it is
    answered (the server's busiest case: every poll is answered at once)."""

    def __init__(self, tables: list[int], stop: threading.Event, wait: float = 0.0):
        super().__init__(daemon=True)
        self.tables = tables
        self.stop = stop
        self.wait = wait
        self.since = dict.fromkeys(tables, 0)
        self.seen: dict[tuple[int, int], float] = {}
        self.requests = 0
        self.errors = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10 + self.wait)
        while not self.stop.is_set():
            for table_id in self.tables:
                try:
                    conn.request(
                        "GET",
                        f"/api/tables/{table_id}/state/?since={self.since[table_id]}"
                        f"&wait={self.wait:g}",
                    )
                    response = conn.getresponse()
                    body = response.read()
                    now = time.time()
                except (OSError, http.client.HTTPException):
                    self.errors += 1
                    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10 + self.wait)
                    continue
                self.requests += 1
                if response.status != 200:
                    self.errors += 1
                    continue
                data = json.loads(body)
                for event in data["events"]:
                    self.seen.setdefault((table_id, event["version"]), now)
                self.since[table_id] = data["version"]


def main() -> None:
    global DB, BROKER, PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=10, help="API clients")
    parser.add_argument(
        "--tables-per-client",
        type=int,
        default=1,
        help="tables each client watches (a player or spectator watches one; 0: share all "
        "the tables out among the clients)",
    )
    parser.add_argument("--bot-delay", type=float, default=0.05, help="seconds a bot waits")
    parser.add_argument("--concurrency", type=int, default=2, help="processes per worker")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn processes")
    parser.add_argument(
        "--web-threads",
        type=int,
        default=0,
        help="threads per gunicorn process (0: enough "
        "for every long poll to be held at once in one process, plus 8)",
    )
    parser.add_argument(
        "--pool",
        default="prefork",
        choices=["prefork", "solo", "threads"],
        help="Celery worker pool",
    )
    parser.add_argument(
        "--poll-wait",
        type=float,
        default=5.0,
        help="long-poll seconds (one connection per watched table); 0: poll tables in turn",
    )
    parser.add_argument("--database-url", default=DB, help="dropped and created")
    parser.add_argument("--broker-url", default=BROKER, help="its Redis DB is flushed")
    parser.add_argument("--port", type=int, default=PORT)
    args = parser.parse_args()
    DB, BROKER, PORT = args.database_url, args.broker_url, args.port
    load_before = os.getloadavg()

    e = env(args.bot_delay)
    os.environ.update({k: v for k, v in e.items() if k != "PYTHONPATH"})
    sys.path.insert(0, str(ROOT))
    reset_database(e)
    logs = Path(tempfile.mkdtemp(prefix="trix-bench-"))
    per = args.tables_per_client or max(1, args.tables // args.clients)
    if per * args.clients > args.tables:
        parser.error("--clients x --tables-per-client is more than --tables")
    connections = args.clients * per if args.poll_wait > 0 else args.clients
    web_threads = args.web_threads or connections + 8
    py = sys.executable
    procs = [
        start(
            [
                py,
                "-m",
                "gunicorn",
                "trix_site.wsgi",
                "-b",
                f"127.0.0.1:{PORT}",
                "-k",
                "gthread",
                "-w",
                str(args.web_workers),
                "--threads",
                str(web_threads),
                "--log-level",
                "warning",
            ],
            e,
            logs / "web.log",
        ),
    ]
    for i in range(2):
        cmd = [
            py,
            "-m",
            "celery",
            "-A",
            "benchmarks.site_worker",
            "worker",
            "-P",
            args.pool,
            "-c",
            str(args.concurrency),
            "-l",
            "warning",
            "-n",
            f"bench{i}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        if i == 0:
            cmd += ["-B", "-s", str(logs / "beat-schedule")]
        procs.append(start(cmd, e, logs / f"worker{i}.log"))
    try:
        time.sleep(2)
        if procs[0].poll() is not None:
            raise RuntimeError("web server failed:\n" + (logs / "web.log").read_text()[-2000:])
        wait_http()
        time.sleep(3)  # workers ready
        import redis

        r = redis.Redis.from_url(BROKER)
        tables = create_tables(args.tables)
        stop = threading.Event()
        watched = [tables[i * per : (i + 1) * per] for i in range(args.clients)]
        if args.poll_wait > 0:
            pollers = [Poller([t], stop, args.poll_wait) for mine in watched for t in mine]
        else:
            pollers = [Poller(mine, stop) for mine in watched]
        for p in pollers:
            p.start()
        time.sleep(2)  # warm-up: deals dealt, caches filled
        from django.db import connection
        from django.utils import timezone

        from games.models import ActionStatus, Table, TableAction, TableStatus

        t0, q0, k0 = (
            timezone.now(),
            int(r.get("bench:queries") or 0),
            int(r.get("bench:tasks") or 0),
        )
        time.sleep(args.seconds)
        t1, q1, k1 = (
            timezone.now(),
            int(r.get("bench:queries") or 0),
            int(r.get("bench:tasks") or 0),
        )
        time.sleep(1.0)  # let pollers see the last actions
        stop.set()
        for p in pollers:
            p.join(15 + args.poll_wait)
        acts = list(
            TableAction.objects.filter(
                applied_at__gte=t0, applied_at__lt=t1, status=ActionStatus.APPLIED
            ).values_list("table_id", "version", "submitted_at")
        )
        seen: dict[tuple[int, int], float] = {}
        for p in pollers:
            seen.update(p.seen)
        latencies = [
            (seen[(tid, version + 1)] - submitted.timestamp()) * 1000
            for tid, version, submitted in acts
            if (tid, version + 1) in seen
        ]
        elapsed = (t1 - t0).total_seconds()
        finished = Table.objects.filter(status=TableStatus.FINISHED).count()
        connection.close()
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]

    polls = sum(p.requests for p in pollers)
    load_after = os.getloadavg()
    ceiling = args.tables / args.bot_delay if args.bot_delay > 0 else float("inf")
    print(
        f"tables: {args.tables} four-bot (complex_partner), bot delay {args.bot_delay}s; "
        f"2 workers x {args.concurrency} ({args.pool} pool); "
        f"gunicorn {args.web_workers}x{web_threads} threads; {args.clients} API clients "
        f"watching {per} table{'s' if per > 1 else ''} each ({args.clients * per} of "
        f"{args.tables}), "
        + (
            f"long-polling (wait {args.poll_wait:g} s, one connection per table)"
            if args.poll_wait > 0
            else "polling their tables in turn (wait 0)"
        )
    )
    print(
        f"bot-delay ceiling: {args.tables} tables / {args.bot_delay} s = {ceiling:.0f} actions/s "
        f"at most (the measurement is the stack's capacity while well below it)"
    )
    print(f"measured: {elapsed:.1f} s; matches finished: {finished}")
    print(f"actions applied: {len(acts)} -> {len(acts) / elapsed:.1f} actions/s")
    if latencies:
        print(
            f"submission -> visible to a poller: p50 {pct(50):.0f} ms, p99 {pct(99):.0f} ms "
            f"(n={len(latencies)}; max {latencies[-1]:.0f} ms)"
        )
    print(
        f"worker DB queries per action: {(q1 - q0) / max(1, len(acts)):.1f} statements, "
        f"besides BEGIN/COMMIT ({(k1 - k0) / max(1, len(acts)):.2f} tasks per action)"
    )
    print(f"polls: {polls} ({polls / elapsed:.0f}/s), errors {sum(p.errors for p in pollers)}")
    before, after = (" ".join(f"{x:.2f}" for x in load) for load in (load_before, load_after))
    print(f"load average (1/5/15 min) before: {before}; after: {after}")
    # The ledger after the run: every invariant of ledger_check (issue 5).
    check = subprocess.run(
        [sys.executable, "manage.py", "ledger_check"], cwd=ROOT, env=e, capture_output=True
    )
    print(f"ledger_check after the run: {'passed' if check.returncode == 0 else 'FAILED'}")
    if check.returncode:
        print(check.stdout.decode() + check.stderr.decode())


if __name__ == "__main__":
    main()
