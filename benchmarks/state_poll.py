"""CPU per answered state poll, in one process (no web server, no worker, no broker).

Usage (from the repository root)::

    .venv/bin/python benchmarks/state_poll.py [--changes 400] [--tables 4]

``BENCH_DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/trix_state_poll_bench``)
names a scratch database: created if missing and migrated; the benchmark only adds rows.

Tables of four bots are advanced one change at a time by ``services.wake`` (the worker's
function) in a second process, as a worker would (so this process's state cache learns of the
change from the database; wake-up tasks go to an in-memory broker nobody reads). After each
change, a spectator asks ``GET /api/tables/{id}/state/?since=<previous version>`` of the
site's WSGI application (as gunicorn calls it: the middleware, DRF and the JSON rendering
included, HTTP parsing not) and then polls once
more with nothing new (``since`` = the version it got, ``wait=0``), as a polling page does.

Prints, for both kinds of poll: CPU milliseconds per poll (this process only: PostgreSQL's
side is not counted) and database statements per poll; and the load average. CPU time per
request does not depend on other load on a shared machine the way wall time does.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from wsgiref.util import setup_testing_defaults

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/trix_state_poll_bench"
)
os.environ.update(
    DATABASE_URL=DB_URL,
    CELERY_BROKER_URL="memory://",
    DJANGO_SETTINGS_MODULE="trix_site.settings",
    DJANGO_DEBUG="0",
    DJANGO_HTTPS="0",
    DJANGO_SECRET_KEY="benchmark-only-not-a-secret",
    TRIX_SEED_KEY="5e" * 32,  # benchmark-only keys, public
    TRIX_SIGNING_KEY="51" * 32,
    DATABASE_CONN_MAX_AGE="60",
    TRIX_BOT_DELAY="0",
    TRIX_DEAL_PAUSE="0",
    # Every client of these benchmarks reads from 127.0.0.1, logged out: one address, so the
    # read limits (docs/limits.md) would answer most reads 429. They measure serving reads;
    # benchmarks/long_poll_flood.py measures the limits.
    TRIX_READ_RATE="100000/second",
    TRIX_READ_ADDRESS_RATE="100000/second",
)


def load_line(before: tuple[float, ...], after: tuple[float, ...]) -> str:
    """The load averages (``os.getloadavg()``) before and after a run, as the benchmarks print
    them."""
    return (
        "load average before/after: "
        + " ".join(f"{x:.2f}" for x in before)
        + " / "
        + " ".join(f"{x:.2f}" for x in after)
    )


def ensure_database() -> None:
    import psycopg

    base, _, name = DB_URL.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def new_table(user) -> int:
    from games import services

    table = services.create_table(user=user, variant="complex_partner", stake=0, options={})
    for seat in range(4):
        services.seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
    return table.pk


def advancer(requests, answers) -> None:
    """The second process: ``services.wake`` each table id it is sent, at its version."""
    import django

    django.setup()
    from games import services
    from games.models import Table

    for table_id in iter(requests.get, None):
        version = Table.objects.values_list("version", flat=True).get(pk=table_id)
        services.wake(table_id=table_id, version=version)
        answers.put(table_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=400, help="table changes to poll")
    parser.add_argument("--tables", type=int, default=4, help="tables played in turn")
    args = parser.parse_args()

    ensure_database()
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application
    from django.db import connection

    from games.models import Table, TableStatus

    call_command("migrate", verbosity=0)
    ctx = multiprocessing.get_context("spawn")
    requests, answers = ctx.Queue(), ctx.Queue()
    other = ctx.Process(target=advancer, args=(requests, answers), daemon=True)
    other.start()
    user, _ = get_user_model().objects.get_or_create(username="state-poll-bench")
    tables = [new_table(user) for _ in range(args.tables)]
    since = dict.fromkeys(tables, 0)
    app = get_wsgi_application()

    def poll(table_id: int, query: str = "") -> dict:
        environ = {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": f"/api/tables/{table_id}/state/",
            "QUERY_STRING": query,
            "HTTP_HOST": "127.0.0.1",
        }
        setup_testing_defaults(environ)
        status = []
        body = b"".join(app(environ, lambda s, headers, exc_info=None: status.append(s)))
        assert status[0].startswith("200"), body[:500]
        return json.loads(body)

    for table_id in tables:  # warm up: the first poll loads everything
        since[table_id] = poll(table_id)["version"]

    def count(execute, sql, params, many, context):
        count.n += 1
        return execute(sql, params, many, context)

    count.n = 0
    load_before = os.getloadavg()
    cpu = {"changed": 0.0, "unchanged": 0.0}
    queries = {"changed": 0, "unchanged": 0}
    done = 0
    while done < args.changes:
        for i, table_id in enumerate(tables):
            if (
                Table.objects.values_list("status", flat=True).get(pk=table_id)
                != TableStatus.PLAYING
            ):
                tables[i] = table_id = new_table(user)
                since[table_id] = poll(table_id)["version"]
                continue
            requests.put(table_id)
            answers.get()
            for kind in ("changed", "unchanged"):
                with connection.execute_wrapper(count):
                    start = time.process_time()
                    body = poll(table_id, f"since={since[table_id]}&wait=0")
                    cpu[kind] += time.process_time() - start
                queries[kind] += count.n
                count.n = 0
                since[table_id] = body["version"]
            done += 1
    load_after = os.getloadavg()
    requests.put(None)
    other.join()
    print(f"state polls of {done} table changes ({args.tables} tables of four bots, spectator)")
    for kind in ("changed", "unchanged"):
        print(
            f"  {kind:9} poll: {cpu[kind] * 1000 / done:.2f} ms CPU, "
            f"{queries[kind] / done:.2f} statements per poll"
        )
    print(load_line(load_before, load_after))


if __name__ == "__main__":
    main()
