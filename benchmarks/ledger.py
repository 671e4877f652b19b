"""Ledger speed on PostgreSQL: ledger transactions/s and settled pots/s, 1..N concurrent clients.

Usage (from the repository root)::

    .venv/bin/python benchmarks/ledger.py [--clients 1 2 4] [--seconds 10]

``BENCH_DATABASE_URL`` (default ``postgres://postgres@127.0.0.1:5432/trix_wallet_bench``)
names a scratch database: it is created if missing and migrated; the benchmark only
adds rows. Each client is its own process with its own connection and its own four
players, so the figures measure the ledger, not contention on one wallet.

- transactions/s: each client alternates ``stake`` and ``refund`` (one ledger
  transaction each: lock two accounts, check the key, write two entries).
- pots/s: each client plays whole pots: four ``stake`` calls, ``split_pot`` and
  ``settle_match`` (five ledger transactions per pot), with a house fee of 0 and of
  250 bps (every fee locks the one house account: the shared hot row).

Also prints the CPU time per ledger transaction (the client process plus its
PostgreSQL backend, read from /proc when the server is local) and the rate the
machine's cores would allow at that cost, a figure that does not depend on other
load on a shared machine. Ends with ``ledger_check`` over the whole database.

Runs with ``DJANGO_DEBUG=0`` unless set (as in production: no query log kept per
statement). Before measuring it runs ``VACUUM ANALYZE`` on the ledger's tables: the
scratch database only grows, and on a server without autovacuum (this project's test
machines) it would otherwise keep no statistics and pile up dead row versions.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import platform
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trix_site.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-not-a-secret")
os.environ.setdefault("TRIX_SEED_KEY", "5e" * 32)  # benchmark-only keys, public
os.environ.setdefault("TRIX_SIGNING_KEY", "51" * 32)
DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/trix_wallet_bench"
)
os.environ["DATABASE_URL"] = DB_URL


def ensure_database() -> None:
    import psycopg

    base, _, name = DB_URL.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> None:
    import django

    django.setup()


def make_players(tag: str, n: int = 4):
    from django.contrib.auth import get_user_model

    from accounts.kyc import DemoKycProvider
    from accounts.services import start_verification
    from wallet import services
    from wallet.payments import DemoProvider

    users = []
    for i in range(n):
        user = get_user_model().objects.create_user(username=f"bench-{tag}-{i}")
        start_verification(user=user, provider=DemoKycProvider())  # staking needs it
        services.deposit(
            user=user,
            amount=10**12,
            key=f"bench:{tag}:dep:{i}",
            provider=DemoProvider(limit=10**12),
        )
        users.append(user)
    return users


def client(kind: str, seconds: float, fee_bps: int, barrier, results) -> None:
    setup_django()
    from django.db import connection

    from wallet import services

    tag = uuid.uuid4().hex[:10]
    users = make_players(tag)
    result = {"placements": {"0": 1, "1": 2, "2": 3, "3": 4}, "forfeit": None}
    seats = dict(enumerate(users))
    backend = _backend_pid(connection)
    barrier.wait()
    cpu0 = time.process_time() + _proc_cpu(backend)
    done = 0
    txns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        table = f"table:b{tag}-{done}"
        if kind == "tx":
            services.stake(user=users[0], table_ref=table, amount=100, key=f"{table}:s")
            services.refund(user=users[0], table_ref=table, key=f"{table}:r")
            txns += 2
        else:
            for seat, user in seats.items():
                services.stake(user=user, table_ref=table, amount=100, key=f"{table}:s{seat}")
            services.settle_match(
                table_ref=table,
                seat_users=seats,
                result=result,
                team_mode=False,
                key=f"{table}:settle",
                house_fee_bps=fee_bps,
            )
            txns += 5
        done += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() + _proc_cpu(backend) - cpu0
    connection.close()
    results.put((done, txns, elapsed, cpu))


def _backend_pid(connection) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _proc_cpu(pid: int) -> float:
    """CPU seconds used so far by a local process (the client's PostgreSQL backend); 0 if remote."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(kind: str, clients: int, seconds: float, fee_bps: int = 0) -> tuple[float, float, float]:
    from django.db import connections

    connections.close_all()
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(clients)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=client, args=(kind, seconds, fee_bps, barrier, results))
        for _ in range(clients)
    ]
    for p in procs:
        p.start()
    got = [results.get() for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode:
            raise SystemExit(f"a client failed (exit {p.exitcode})")
    wall = max(r[2] for r in got)
    txns = sum(r[1] for r in got)
    cpu_ms_per_tx = 1000 * sum(r[3] for r in got) / txns
    return sum(r[0] for r in got) / wall, txns / wall, cpu_ms_per_tx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()

    ensure_database()
    setup_django()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg_version = cursor.fetchone()[0]
        cursor.execute("SHOW autovacuum")
        autovacuum = cursor.fetchone()[0]
        for table in ("wallet_account", "wallet_transaction", "wallet_entry"):
            cursor.execute(f"VACUUM ANALYZE {table}")
    connection.close()

    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    print(
        f"machine: {os.cpu_count()} cores, {mem_gib:.0f} GiB, Python {platform.python_version()}, "
        f"PostgreSQL {pg_version} (autovacuum {autovacuum}); {args.seconds:g} s per run; "
        f"DEBUG {'on' if settings.DEBUG else 'off'}"
    )
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print(
        f"{'workload':<30} {'clients':>7} {'per second':>11} {'ledger tx/s':>12} "
        f"{'CPU ms/tx':>10} {'idle est. tx/s':>15}"
    )
    cores = os.cpu_count() or 1

    def line(label, clients, per_second, tx, cpu_ms):
        estimate = 1000 * cores / cpu_ms if cpu_ms else float("nan")
        print(
            f"{label:<30} {clients:>7} {per_second:>11,.0f} {tx:>12,.0f} "
            f"{cpu_ms:>10.2f} {estimate:>15,.0f}"
        )

    for clients in args.clients:
        _, tx, cpu_ms = run("tx", clients, args.seconds)
        line("stake/refund transactions", clients, tx, tx, cpu_ms)
    for fee in (0, 250):
        for clients in args.clients:
            pots, tx, cpu_ms = run("pots", clients, args.seconds, fee)
            line(f"settled pots (fee {fee} bps)", clients, pots, tx, cpu_ms)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    print(
        "CPU ms/tx: client process + its PostgreSQL backend per ledger transaction; "
        "idle est.: cores / CPU per transaction, the rate if nothing else ran."
    )

    from io import StringIO

    out = StringIO()
    call_command("ledger_check", stdout=out)
    print(out.getvalue().strip().splitlines()[-1])


if __name__ == "__main__":
    main()
