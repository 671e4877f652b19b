"""One client flooding the web tier with long polls (issue 13, item 5), with and without the
per-client cap on waits (``TRIX_WAITS_PER_CLIENT``, ``games/waits.py``).

Starts gunicorn (gthread, ``--web-workers`` x ``--threads``) on PostgreSQL with a Redis cache
(``TRIX_CACHE_URL``: the count shared by the processes), creates one open table, then for each
cap and each number of attackers: the attackers (threads of this process, one address,
logged out) long-poll the table in a loop (``since`` = its version, ``wait=30``: held
``TRIX_STATE_WAIT_MAX``), and a victim sends a plain ``GET /api/tables/{id}/`` every 0.2 s,
timing each. Prints the victim's p50/p90/max and how many attacker polls were answered.

    .venv/bin/pip install -e ".[serve]"     # gunicorn
    .venv/bin/python benchmarks/long_poll_flood.py [--attackers 0 32 64] [--caps 1000 4]
        [--seconds 12] [--web-workers 2] [--threads 8] [--database-url URL] [--cache-url URL]

The database (default ``trix_flood_bench``, or ``BENCH_DATABASE_URL``) is dropped and created;
the cache's Redis DB (default 2, ``BENCH_CACHE_URL``) is flushed. A cap of 1000 is "no cap".
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/trix_flood_bench")
CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/2")
PORT = int(os.environ.get("BENCH_PORT", "8792"))


def env(db: str, cache: str, cap: int) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": db,
        "TRIX_CACHE_URL": cache,
        "CELERY_BROKER_URL": cache,  # nothing is sent: the table stays open
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only-not-a-secret",
        "DATABASE_CONN_MAX_AGE": "60",
        "DJANGO_SETTINGS_MODULE": "trix_site.settings",
        "TRIX_WAITS_PER_CLIENT": str(cap),
        "TRIX_VAR_DIR": tempfile.mkdtemp(prefix="trix-flood-"),
    }


def get(path: str, conn: http.client.HTTPConnection | None = None) -> float:
    """Seconds ``GET path`` took (a new connection unless ``conn``)."""
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
    began = time.monotonic()
    try:
        conn.request("GET", path)
        conn.getresponse().read()
    finally:
        if own:
            conn.close()
    return time.monotonic() - began


def run(table: int, version: int, attackers: int, seconds: float) -> dict:
    stop = threading.Event()
    answered = [0]

    def attack():
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
        while not stop.is_set():
            try:
                get(f"/api/tables/{table}/state/?since={version}&wait=30", conn)
                answered[0] += 1
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)

    threads = [threading.Thread(target=attack, daemon=True) for _ in range(attackers)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    took = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        took.append(get(f"/api/tables/{table}/"))
        time.sleep(0.2)
    stop.set()
    for t in threads:  # each ends after its poll in flight (at most TRIX_STATE_WAIT_MAX)
        t.join(60)
    took.sort()
    return {
        "victim requests": len(took),
        "p50 ms": round(1000 * statistics.median(took), 1),
        "p90 ms": round(1000 * took[max(0, int(0.9 * len(took)) - 1)], 1),
        "max ms": round(1000 * took[-1], 1),
        "attacker polls answered": answered[0],
    }


def main() -> None:
    global PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attackers", type=int, nargs="+", default=[0, 32, 64])
    parser.add_argument("--caps", type=int, nargs="+", default=[1000, 4])
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--database-url", default=DB, help="dropped and created")
    parser.add_argument("--cache-url", default=CACHE, help="its Redis DB is flushed")
    parser.add_argument("--port", type=int, default=PORT)
    args = parser.parse_args()
    PORT = args.port
    name, admin = args.database_url.rsplit("/", 1)[1], args.database_url.rsplit("/", 1)[0]
    for sql in (f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name}"):
        subprocess.run(["psql", f"{admin}/postgres", "-q", "-c", sql], check=True)
    e = env(args.database_url, args.cache_url, 4)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=e, check=True)
    made = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n"
         "from django.contrib.auth import get_user_model\n"
         "from games import services\n"
         "u = get_user_model().objects.create_user('flood-owner')\n"
         "t = services.create_table(user=u, variant='trix')\n"
         "print(t.pk, t.version)"],
        cwd=ROOT, env=e, check=True, capture_output=True, text=True,
    )  # fmt: skip
    table, version = (int(x) for x in made.stdout.split())
    import redis

    print(f"machine: {os.cpu_count()} cores, gunicorn gthread {args.web_workers} x "
          f"{args.threads} threads; load average at start: {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"{'cap':>5} {'attackers':>9} {'p50 ms':>8} {'p90 ms':>8} {'max ms':>9} {'polls':>7}")
    for cap in args.caps:
        redis.Redis.from_url(args.cache_url).flushdb()
        log = Path(tempfile.mkdtemp(prefix="trix-flood-")) / "web.log"
        web = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "trix_site.wsgi", "-b", f"127.0.0.1:{PORT}",
             "-k", "gthread", "-w", str(args.web_workers), "--threads", str(args.threads),
             "--log-level", "warning"],
            cwd=ROOT, env=env(args.database_url, args.cache_url, cap), stdout=open(log, "wb"),
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            end = time.monotonic() + 30
            while True:
                try:
                    get(f"/api/tables/{table}/")
                    break
                except OSError:
                    if time.monotonic() > end:
                        raise RuntimeError("gunicorn did not start:\n" + log.read_text()) from None
                    time.sleep(0.2)
            for attackers in args.attackers:
                r = run(table, version, attackers, args.seconds)
                print(f"{cap:>5} {attackers:>9} {r['p50 ms']:>8} {r['p90 ms']:>8} "
                      f"{r['max ms']:>9} {r['attacker polls answered']:>7}")  # fmt: skip
        finally:
            os.killpg(web.pid, signal.SIGTERM)
            try:
                web.wait(40)
            except subprocess.TimeoutExpired:
                os.killpg(web.pid, signal.SIGKILL)
                web.wait()
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
