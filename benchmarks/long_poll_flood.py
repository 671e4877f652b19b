"""One address flooding the site with long polls, and what another client sees meanwhile: the
read limits (``TRIX_READ_RATE``, ``TRIX_READ_ADDRESS_RATE``) and the long-poll cap
(``TRIX_WAITS_PER_CLIENT``, whose instant answer says ``Retry-After``); docs/limits.md,
docs/performance.md.

Starts its own server on loopback (uvicorn, ASGI, as production: ``--workers``, or gunicorn
gthread with ``--server gunicorn``) on PostgreSQL with a Redis cache (``TRIX_CACHE_URL``: the
counts shared by the processes), creates one open table, then alternates ``--rounds`` times a
quiet phase and a flooded phase of ``--seconds`` each. In both, a victim (``127.0.0.1``) sends
a plain ``GET /api/tables/{id}/`` every 0.2 s and times each. In a flooded phase, ``--flooders``
clients of one other address (``127.0.0.2``, logged out, no session: threads of a process of
their own, so their loop does not slow the victim's timing) poll the table's state as the table
page does (``?since=VERSION``, held up to 3 s): the default ``--flooder page`` waits what a
``Retry-After`` says (the cap's instant answer, a 429; up to a fifth more at random) and 0.4 s
after an answer with nothing new; ``--flooder hostile`` ignores both and polls again at once.
Prints the victim's p50 quiet and flooded (each over every round), their ratio, and what the
flooders were answered.

    .venv/bin/pip install -e ".[serve]"     # uvicorn, gunicorn
    .venv/bin/python benchmarks/long_poll_flood.py [--flooders 64] [--flooder page|hostile]
        [--rounds 2] [--seconds 12] [--workers 2] [--server uvicorn|gunicorn]
        [--database-url URL] [--cache-url URL] [--env NAME=VALUE ...]

The database (default ``trix_flood_bench``, or ``BENCH_DATABASE_URL``) is dropped and created;
the cache's Redis DB (default 2, ``BENCH_CACHE_URL``) is flushed before each phase. ``--env``
sets a site setting (e.g. ``TRIX_READ_RATE=100000/second`` for the site without read limits).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/trix_flood_bench")
CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/2")
PORT = int(os.environ.get("BENCH_PORT", "8792"))
VICTIM, FLOODER = "127.0.0.1", "127.0.0.2"  # two addresses of the loopback


def env(db: str, cache: str, extra: dict[str, str]) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": db,
        "TRIX_CACHE_URL": cache,
        "CELERY_BROKER_URL": cache,  # nothing is sent: the table stays open
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "0",  # plain http on loopback
        "DJANGO_SECRET_KEY": "benchmark-only-not-a-secret",
        "TRIX_SEED_KEY": "5e" * 32,
        "TRIX_SIGNING_KEY": "51" * 32,
        "DATABASE_CONN_MAX_AGE": "60",
        "DJANGO_SETTINGS_MODULE": "trix_site.settings",
        "TRIX_VAR_DIR": tempfile.mkdtemp(prefix="trix-flood-"),
        **extra,
    }


def connect(address: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", PORT, timeout=60, source_address=(address, 0))


def get(path: str, conn: http.client.HTTPConnection) -> http.client.HTTPResponse:
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    return response


def flood(table: int, version: int, flooders: int, hostile: bool, stop, counts) -> None:
    """``flooders`` threads polling the table's state as the page does (or, ``hostile``, as
    fast as they are answered); ``counts``: [held or new, answered at once by the cap, 429]."""
    lock = threading.Lock()

    def one():
        conn = connect(FLOODER)
        since = version
        while not stop.is_set():
            try:
                began = time.monotonic()
                r = get(f"/api/tables/{table}/state/?since={since}", conn)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = connect(FLOODER)
                continue
            after = r.getheader("Retry-After")
            kind = 2 if r.status == 429 else 1 if after else 0
            with lock:
                counts[kind] += 1
            if hostile:
                continue
            if after:  # as the page: the wait it says, up to a fifth more (web/static/web/api.js)
                stop.wait(int(after) * (1 + random.random() / 5))
            elif time.monotonic() - began < 0.3:  # nothing new, answered at once
                stop.wait(0.4)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(flooders)]
    for t in threads:
        t.start()
    stop.wait()
    for t in threads:
        t.join(10)


def victim(table: int, seconds: float) -> list[float]:
    """Seconds each ``GET /api/tables/{id}/`` took, one every 0.2 s (a new connection each)."""
    took = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        conn = connect(VICTIM)
        began = time.monotonic()
        try:
            r = get(f"/api/tables/{table}/", conn)
            assert r.status == 200, r.status
        finally:
            conn.close()
        took.append(time.monotonic() - began)
        time.sleep(0.2)
    return took


def phase(table: int, version: int, args, flooded: bool) -> tuple[list[float], list[int]]:
    import redis

    redis.Redis.from_url(args.cache_url).flushdb()
    if not flooded:
        return victim(table, args.seconds), [0, 0, 0]
    ctx = multiprocessing.get_context("fork")
    stop, counts = ctx.Event(), ctx.Array("l", 3)
    child = ctx.Process(
        target=flood, args=(table, version, args.flooders, args.flooder == "hostile", stop, counts)
    )
    child.start()
    time.sleep(2.0)  # the flood under way
    took = victim(table, args.seconds)
    stop.set()
    child.join(30)
    return took, list(counts)


def server(args, e: dict[str, str], log: Path) -> subprocess.Popen:
    py = sys.executable
    if args.server == "gunicorn":
        cmd = [
            py, "-m", "gunicorn", "trix_site.wsgi", "-b", f"127.0.0.1:{PORT}", "-k", "gthread",
            "-w", str(args.workers), "--threads", "8", "--log-level", "warning",
        ]  # fmt: skip
    else:
        cmd = [
            py, "-m", "uvicorn", "trix_site.asgi:application", "--host", "127.0.0.1",
            "--port", str(PORT), "--workers", str(args.workers), "--no-proxy-headers",
            "--log-level", "warning", "--no-access-log", "--timeout-graceful-shutdown", "5",
        ]  # fmt: skip
    return subprocess.Popen(
        cmd, cwd=ROOT, env=e, stdout=open(log, "wb"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip


def p50_ms(values: list[float]) -> float:
    return 1000 * statistics.median(values)


def main() -> None:
    global PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flooders", type=int, default=64)
    parser.add_argument("--flooder", choices=["page", "hostile"], default="page")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--workers", type=int, default=2, help="web processes")
    parser.add_argument("--server", choices=["uvicorn", "gunicorn"], default="uvicorn")
    parser.add_argument("--database-url", default=DB, help="dropped and created")
    parser.add_argument("--cache-url", default=CACHE, help="its Redis DB is flushed")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--env", nargs="*", default=[], help="NAME=VALUE site settings")
    args = parser.parse_args()
    PORT = args.port
    extra = dict(pair.split("=", 1) for pair in args.env)
    name, admin = args.database_url.rsplit("/", 1)[1], args.database_url.rsplit("/", 1)[0]
    for sql in (f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name}"):
        subprocess.run(["psql", f"{admin}/postgres", "-q", "-c", sql], check=True)
    e = env(args.database_url, args.cache_url, extra)
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
    log = Path(tempfile.mkdtemp(prefix="trix-flood-")) / "web.log"
    web = server(args, e, log)
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"{started}; machine: {os.cpu_count()} cores, {args.server} {args.workers} processes; "
        f"{args.flooders} flooders ({args.flooder}) from one address; "
        f"settings: {extra or 'defaults'}; load average at start: {os.getloadavg()[0]:.1f}"
    )  # fmt: skip
    quiet, flooded, answers = [], [], [0, 0, 0]
    try:
        end = time.monotonic() + 60
        while True:
            try:
                get(f"/api/tables/{table}/", connect(VICTIM))
                break
            except OSError:
                if time.monotonic() > end:
                    raise RuntimeError("the server did not start:\n" + log.read_text()) from None
                time.sleep(0.2)
        for n in range(args.rounds):
            for is_flooded in (False, True):
                took, counts = phase(table, version, args, is_flooded)
                (flooded if is_flooded else quiet).extend(took)
                answers = [a + b for a, b in zip(answers, counts, strict=True)]
                print(
                    f"round {n + 1} {'flooded' if is_flooded else 'quiet  '}: victim p50 "
                    f"{p50_ms(took):.1f} ms, p90 {1000 * sorted(took)[int(0.9 * len(took))]:.1f}"
                    f" ms (n={len(took)}); flooders answered: held or new {counts[0]}, "
                    f"at once by the cap {counts[1]}, 429 {counts[2]}"
                )  # fmt: skip
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        try:
            web.wait(40)
        except subprocess.TimeoutExpired:
            os.killpg(web.pid, signal.SIGKILL)
            web.wait()
    seconds = args.rounds * args.seconds
    print(
        f"victim p50 quiet {p50_ms(quiet):.1f} ms, flooded {p50_ms(flooded):.1f} ms: ratio "
        f"{p50_ms(flooded) / p50_ms(quiet):.2f}; flooders answered in {seconds:.0f} s flooded "
        f"(+2 s each round before the victim): held or new {answers[0]}, at once by the cap "
        f"{answers[1]}, 429 {answers[2]}; load average at end: {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
