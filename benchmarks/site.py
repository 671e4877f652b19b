"""The whole stack under load: PostgreSQL, a Redis broker, the web server (uvicorn, ASGI, or
gunicorn, WSGI), two Celery workers for the tables (solo: one process each, one per core, as
``trix-worker@.service``; and one beat; people's actions are applied by the web request), 50
tables of four bots playing at once for a fixed time, 10 API clients watching table states
over HTTP, and optionally thousands of watchers and scripted human players.

Each API client watches one table (``--tables-per-client``) the way the table page does:
with uvicorn it holds the table's Server-Sent Events stream (``GET
/api/tables/{id}/stream/?since=VERSION``, a message ``id: <version>`` per new version); with
gunicorn it long-polls ``GET /api/tables/{id}/state/?since=VERSION&wait=5`` (answered as soon
as there is a newer version). It notes when each version first reaches it.
``--tables-per-client 5`` has the 10 clients watch all 50 tables (one connection per table);
``--poll-wait 0`` makes them poll their tables in turn as fast as they are answered instead.

``--watchers N`` adds N spectators spread evenly over the bot tables, run by
``benchmarks/live_clients.py`` in ``--watcher-processes`` processes of their own (so their load
does not skew the measuring client); ``--tournament-watchers M`` of them watch one tournament's
live page instead (its one stream, ``GET /api/tournaments/{id}/stream/?patches=1`` as the page
asks: a whole answer, then each version's patch): a free Swiss event
open for registration with ``--tournament-entrants`` entrants, where one more person registers
every ``--tournament-every`` seconds during the run (each registration is a new live version:
the entrants' list and count on the page); ``--human-seats K`` adds K tables where a scripted person
sits with three bots and acts through the API (reads its state, posts a legal action), with
an anonymous watcher of the same table as another seat's client. Under uvicorn the streams
and the rest are served by processes of their own, as production's proxy splits them
(``trix-web-streams@.service``, ``trix-web.service``): ``--workers`` (2) hold the streams,
each on a port of its own with every stream of a key sent to one of them (by ``key % N``; the
proxy's hash also gives each key one process; ``--no-route-streams``: one group on one port,
as before 2026-12-03), and ``--api-workers`` (1, on port + 1) take the people's POSTs;
``--api-workers 0`` serves everything from one group, as before 2026-12-02.

Prints: actions applied per second; p50/p99 from an action's submission (a bot's turn falling
due) to its appearance in a watching client's state; database statements per action (worker
side); with watchers: p99 from a version's commit (its events' ``created_at``, written by the
worker just before the commit; one clock, one machine) to its delivery to EVERY watcher of its
table (and the spread from the first watcher to the last), versions that missed a watcher,
memory per held connection (RSS of the web processes with the watchers minus without them,
over N) and CPU per delivered update (the web processes' CPU seconds over the deliveries to
every client); with tournament watchers: p50/p99 from the start of a registration (before
its transaction, so an upper bound on its commit) and from its return (just after the commit)
to its version reaching every watcher of the page, and registrations that missed one; with
human seats: p50/p99 from the POST to the other seat's client seeing the version it made; the
load average before and after; ``ledger_check`` at the end.

    .venv/bin/pip install -e ".[serve]"     # gunicorn; uvicorn[standard] for --server uvicorn
    .venv/bin/python benchmarks/site.py [--server uvicorn|gunicorn] [--workers 2] [--api-workers 1]
        [--tables 50] [--seconds 60] [--clients 10] [--tables-per-client 1] [--poll-wait 5]
        [--watchers 0] [--watcher-processes 2] [--tournament-watchers 0]
        [--tournament-entrants 64] [--tournament-every 1] [--human-seats 0] [--human-think 0.05]
        [--bot-delay 0.05] [--pool solo] [--concurrency 2]
        [--database-url URL] [--broker-url URL]

``--server gunicorn --tables-per-client 5`` reproduces the runs before issue 15 (older
figures: ``git show 3906737:README.md``). The default server is uvicorn once the site has its
ASGI application and the stream (``trix_site/asgi.py``, the ``table-stream`` URL), gunicorn before.

Each table is a closed loop: a bot acts ``--bot-delay`` seconds after the previous change was
applied, so 50 tables can offer at most 50 / delay actions per second. The default delay keeps
that ceiling (1000/s) far above the target, so the figure measures the stack, not the bots;
the output prints the ceiling beside the measurement.

Needs PostgreSQL and Redis; the database (default ``trix_bench``, or ``BENCH_DATABASE_URL``)
is dropped and created, the Redis DB (default 2, ``BENCH_BROKER_URL``) flushed. The open-files
limit is raised to its hard limit (5,000 watchers are 10,000 sockets on this machine). Targets
(2 cores, issue 15): >= 300 actions/s and p99 < 150 ms with 10 clients watching all 50 tables;
>= 5,000 watchers, p99 < 250 ms to every watcher; a person's POST to another seat p99 < 100 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import resource
import shlex
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
        # the per-client cap on long polls would answer most of them at once, and the read
        # limits most reads 429 (docs/limits.md; benchmarks/long_poll_flood.py measures them).
        "TRIX_WAITS_PER_CLIENT": "100000",
        "TRIX_READ_RATE": "100000/second",
        "TRIX_READ_ADDRESS_RATE": "100000/second",
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


def start(cmd: list[str], e: dict[str, str], log: Path, nice: int = 0) -> subprocess.Popen:
    """``cmd`` in a session of its own, its output in ``log``, ``nice`` added to its CPU
    niceness (as ``Nice=`` in a systemd unit)."""
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=e,
        stdout=open(log, "wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
    )


def wait_http(timeout: float = 30, port: int | None = None) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port or PORT, timeout=2)
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


def create_human_tables(k: int, think: float) -> list[dict]:
    """``k`` tables where a person sits at seat 0 with three bots, each person logged in by a
    session made here (set-up, not measured): the specs of ``benchmarks/live_clients.py``."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils.crypto import get_random_string

    from games import services

    specs = []
    for i in range(k):
        user = get_user_model().objects.get_or_create(username=f"bench-human-{i}")[0]
        table = services.create_table(user=user, variant="complex_partner", stake=0, options={})
        services.take_seat(user=user, table_id=table.pk, seat=0)
        for seat in (1, 2, 3):
            services.seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        specs.append(
            {
                "user": user,
                "table": table.pk,
                "session": session.session_key,
                "csrf": get_random_string(32),
                "think": think,
            }
        )
    return specs


def create_tournament(entrants: int, spare: int):
    """A free Swiss event open for registration with ``entrants`` registered (set-up, not
    measured), and ``spare`` more players who register during the run: (id, spare users)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tournaments import services as events

    users = get_user_model()
    staff = users.objects.create_user(username="bench-staff", is_staff=True)
    now = timezone.now()
    t = events.create_tournament(
        by=staff, name="Benchmark cup", format="swiss", variant="complex", rounds=3,
        capacity=entrants + spare, min_entrants=4, prize_bps=[5000, 3000, 2000],
        registration_opens_at=now - timedelta(minutes=1),
        registration_closes_at=now + timedelta(hours=1), starts_at=now + timedelta(hours=2),
    )  # fmt: skip
    people = [users.objects.create_user(username=f"bench-entrant-{i}") for i in range(entrants)]
    for user in people:
        events.register(tournament_id=t.pk, by=user)
    later = [users.objects.create_user(username=f"bench-late-{i}") for i in range(spare)]
    return t.pk, later


class Registrar(threading.Thread):
    """One registration in the tournament every ``every`` seconds (the tournament's live page
    changes): notes each new live version with the moment its registration began."""

    def __init__(self, tournament_id: int, users: list, every: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.tournament_id, self.users, self.every, self.stop = tournament_id, users, every, stop
        self.began: dict[int, float] = {}  # live version -> time.time() before its registration
        self.took: dict[int, float] = {}  # live version -> seconds its registration took

    def run(self) -> None:
        from django.db import connection

        from tournaments import selectors
        from tournaments import services as events

        try:
            for user in self.users:
                if self.stop.wait(self.every):
                    return
                at = time.time()
                events.register(tournament_id=self.tournament_id, by=user)
                returned = time.time()  # its transaction committed just before
                version = selectors.live_version(self.tournament_id)
                self.began[version], self.took[version] = at, returned - at
        finally:
            connection.close()


def has_stream() -> bool:
    """Whether the site serves the tables' Server-Sent Events stream (issue 15) over ASGI."""
    from django.urls import NoReverseMatch, reverse

    if not (ROOT / "trix_site" / "asgi.py").exists():
        return False
    try:
        reverse("table-stream", args=[1])
    except NoReverseMatch:
        try:
            from django.urls import resolve

            resolve("/api/tables/1/stream/")
        except Exception:
            return False
    return True


def group_pids(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (a server and its workers)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                out.append(int(entry))
    return out


def stop_groups(procs: list[subprocess.Popen], grace: float = 20.0) -> None:
    """TERM every process of each one's group (a server, or the shell running the routed
    streams' processes, which exits at once while they shut down), wait up to ``grace``
    seconds for the groups to be gone, then KILL what is left."""
    for proc in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
    end = time.monotonic() + grace
    while time.monotonic() < end:
        for proc in procs:
            proc.poll()  # (reaped: a zombie stays in its group)
        if not any(group_pids(proc.pid) for proc in procs):
            return
        time.sleep(0.2)
    for proc in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def machine_usage(parts: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of each part of the run (``parts``: name -> process groups), of
    PostgreSQL's and Redis's processes (by name: every one on the machine, so run it on a quiet
    one; a backend that exits within the window takes its CPU with it), of this script (its
    API clients), and the machine's idle time (``/proc/stat``), to tell where the two cores
    went."""
    out = {name: sum(group_usage(g)[0] for g in groups) for name, groups in parts.items()}
    tick = os.sysconf("SC_CLK_TCK")
    by_name = {"postgres": 0.0, "redis-server": 0.0}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                head, tail = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)
            except OSError:
                continue
            name = head.split("(", 1)[1]
            if name in by_name:
                fields = tail.split()
                by_name[name] += (int(fields[11]) + int(fields[12])) / tick
    out["PostgreSQL"], out["Redis"] = by_name["postgres"], by_name["redis-server"]
    mine = os.times()
    out["this script (API clients)"] = mine.user + mine.system
    out["idle"] = int(Path("/proc/stat").read_text().split("\n", 1)[0].split()[4]) / tick
    return out


def group_usage(pgid: int) -> tuple[float, int]:
    """CPU seconds (user + system) and RSS bytes of process group ``pgid``, now."""
    tick, page = os.sysconf("SC_CLK_TCK"), os.sysconf("SC_PAGE_SIZE")
    cpu, rss = 0.0, 0
    for pid in group_pids(pgid):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        rss += int(fields[21]) * page
    return cpu, rss


class Poller(threading.Thread):
    """One API client's watch over some tables: notes when each version first appears.

    ``stream``: it holds one table's Server-Sent Events stream (``id: V`` delivers every
    version after the last one it had; a dropped stream reconnects with ``Last-Event-ID``).
    Else with ``wait`` > 0 it long-polls one table (``since`` = the version it has, held open
    by the server until there is a newer one), as the table page did before issue 15; an API
    client watching five tables runs five of these. With ``wait`` = 0 it polls its tables in
    turn as fast as it is answered (the server's busiest case: every poll is answered at
    once)."""

    def __init__(
        self,
        tables: list[int],
        stop: threading.Event,
        wait: float = 0.0,
        stream: bool = False,
        port: int | None = None,
    ):
        super().__init__(daemon=True)
        self.tables = tables
        self.port = port or PORT
        self.stop = stop
        self.wait = wait
        self.stream = stream
        self.since = dict.fromkeys(tables, 0)
        self.seen: dict[tuple[int, int], float] = {}
        self.requests = 0
        self.errors = 0
        self.refused: dict[int, int] = {}  # HTTP status -> answers other than 200 and 204
        self.over: set[int] = set()  # tables whose stream answered 204: nothing more to come
        self.per_second: dict[int, int] = {}

    def _refused(self, status: int) -> None:
        self.refused[status] = self.refused.get(status, 0) + 1

    def _saw(self, table_id: int, after: int, upto: int, now: float) -> None:
        for version in range(after + 1, upto + 1):
            self.seen.setdefault((table_id, version), now)
        self.per_second[int(now)] = self.per_second.get(int(now), 0) + 1

    def run(self) -> None:
        if self.stream:
            while not self.stop.is_set() and self.tables[0] not in self.over:
                self._stream(self.tables[0])
            return
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
                    self._refused(response.status)
                    continue
                data = json.loads(body)
                for event in data["events"]:
                    self.seen.setdefault((table_id, event["version"]), now)
                self.per_second[int(now)] = self.per_second.get(int(now), 0) + 1
                self.since[table_id] = data["version"]

    def _stream(self, table_id: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Accept": "text/event-stream"}
        if self.since[table_id]:
            headers["Last-Event-ID"] = str(self.since[table_id])
        try:
            conn.request("GET", f"/api/tables/{table_id}/stream/", headers=headers)
            response = conn.getresponse()
            self.requests += 1
            if response.status == 204:  # the match is over and this client has its end
                self.over.add(table_id)
                return
            if response.status != 200:
                self.errors += 1
                self._refused(response.status)
                time.sleep(0.5)
                return
            while not self.stop.is_set():
                line = response.readline()
                if not line:
                    break
                if line.startswith(b"id:"):
                    version = int(line[3:])
                    if version > self.since[table_id]:
                        self._saw(table_id, self.since[table_id], version, time.time())
                        self.since[table_id] = version
        except (OSError, http.client.HTTPException, ValueError):
            self.errors += 1
            time.sleep(0.2)
        finally:
            conn.close()


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of sorted ``values`` (nearest rank below)."""
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def spread(values: list[float]) -> str:
    values.sort()
    if not values:
        return "none measured"
    return (
        f"p50 {pct(values, 50):.0f} ms, p99 {pct(values, 99):.0f} ms "
        f"(n={len(values)}; max {values[-1]:.0f} ms)"
    )


def server_command(
    args, py: str, web_threads: int, connections: int, port: int = 0, workers: int = 0
) -> list[str]:
    port, workers = port or PORT, workers or args.workers
    if args.server == "gunicorn":
        return [
            py, "-m", "gunicorn", "trix_site.wsgi", "-b", f"127.0.0.1:{PORT}", "-k", "gthread",
            "-w", str(args.workers), "--threads", str(web_threads), "--log-level", "warning",
        ]  # fmt: skip
    # uvicorn: --limit-concurrency counts connections and tasks per process (above it: 503);
    # the backlog is the kernel's accept queue (capped by net.core.somaxconn); held streams
    # would keep it from stopping without a graceful-shutdown timeout.
    return [
        py, "-m", "uvicorn", "trix_site.asgi:application", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(workers), "--log-level", "warning",
        "--no-access-log", "--backlog", "4096", "--timeout-keep-alive", "30",
        "--timeout-graceful-shutdown", "5",
        "--limit-concurrency", str(max(1000, 2 * connections // max(1, workers) + 500)),
    ]  # fmt: skip


def stream_ports(args) -> list[int]:
    """The ports the streams are served on: the web group's (``PORT``), or with
    ``--route-streams`` one per streams process (``PORT``, then ``PORT + 2`` on: ``PORT + 1`` is
    the API's)."""
    if not getattr(args, "route_streams", False):
        return [PORT]
    return [PORT] + [PORT + 1 + i for i in range(1, args.workers)]


def stream_port(key: int, ports: list[int]) -> int:
    """The port a key's streams go to: ``key % N``, one process per key as the proxy's
    ``hash $uri consistent`` gives (docs/operations.md), though nginx splits the keys
    differently (tables 1-50 over two processes: 23 and 27, not 25 and 25);
    ``live_clients.port_of`` is the same rule."""
    return ports[abs(key) % len(ports)]


def web_command(args, py: str, web_threads: int, connections: int) -> list[str]:
    """The streams' web server: one group of ``--workers`` processes on ``PORT``, or with
    ``--route-streams`` one process per port (:func:`stream_ports`), run together under one
    shell (one process group: its CPU and memory are the web's)."""
    ports = stream_ports(args)
    if len(ports) == 1:
        return server_command(args, py, web_threads, connections)
    # (each may hold every connection: a key's watchers all go to one process)
    commands = [shlex.join(server_command(args, py, web_threads, connections, p, 1)) for p in ports]
    return ["bash", "-c", " & ".join(commands) + " & wait -n"]  # one gone: the shell ends


def start_clients(config: dict, logs: Path, name: str, e: dict[str, str]) -> subprocess.Popen:
    path = logs / f"{name}.json"
    path.write_text(json.dumps(config))
    return subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "live_clients.py"), str(path)],
        cwd=ROOT,
        env=e,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=open(logs / f"{name}.log", "wb"),
        start_new_session=True,
    )


def main() -> None:
    global DB, BROKER, PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--server",
        choices=["uvicorn", "gunicorn"],
        default=None,
        help="web server (default: uvicorn where the site has its stream)",
    )
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
    parser.add_argument(
        "--watchers",
        type=int,
        default=0,
        help="spectators spread over the bot tables (separate processes)",
    )
    parser.add_argument("--watcher-processes", type=int, default=2)
    parser.add_argument(
        "--tournament-watchers",
        type=int,
        default=0,
        help="of the --watchers, how many watch one tournament's live page",
    )
    parser.add_argument(
        "--tournament-entrants", type=int, default=64, help="registered before the run"
    )
    parser.add_argument(
        "--tournament-every",
        type=float,
        default=1.0,
        help="seconds between registrations during the run (each a new live version)",
    )
    parser.add_argument(
        "--human-seats",
        type=int,
        default=0,
        help="extra tables with a scripted person and three bots",
    )
    parser.add_argument(
        "--human-think",
        type=float,
        default=0.05,
        help="seconds a scripted person waits before acting",
    )
    parser.add_argument("--bot-delay", type=float, default=0.05, help="seconds a bot waits")
    parser.add_argument(
        "--concurrency", type=int, default=2, help="processes (threads) per worker; not solo"
    )
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=0,
        help="niceness added to the tables' workers (bot turns, timers); the web server keeps "
        "its own (default 0: all equal, as deploy/systemd)",
    )
    parser.add_argument(
        "--workers",
        "--web-workers",
        dest="workers",
        type=int,
        default=2,
        help="web server processes",
    )
    parser.add_argument(
        "--api-workers",
        type=int,
        default=None,
        help="uvicorn processes of their own (port + 1) for every request but the streams, as "
        "production's proxy routes /api/*/stream/ to trix-web-streams@ and the rest to "
        "trix-web.service (docs/operations.md): the people's POSTs go there (default 1 "
        "under uvicorn; 0: one group of --workers serves everything, as before 2026-12-02)",
    )
    parser.add_argument(
        "--route-streams",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the streams' --workers processes each on a port of its own (uvicorn --workers 1, "
        "as the trix-web-streams@ instances), every stream of a table or tournament sent to "
        "one of them by its id, as the proxy's hash rule sends them (docs/operations.md): "
        "each change is read and answered in one process, not in each (default under "
        "uvicorn; --no-route-streams: one group of --workers processes on one port, as before "
        "2026-12-03)",
    )
    parser.add_argument(
        "--web-threads",
        type=int,
        default=0,
        help="threads per gunicorn process (0: enough "
        "for every long poll to be held at once in one process, plus 8)",
    )
    parser.add_argument(
        "--pool",
        default="solo",
        choices=["prefork", "solo", "threads"],
        help="the two tables' workers' Celery pool (solo: one process each, -c 1, as "
        "trix-worker@.service runs one per core: two on the benchmarks' 2-core machine)",
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
    if args.watchers < 0 or not 0 <= args.tournament_watchers <= args.watchers:
        parser.error(
            f"--tournament-watchers ({args.tournament_watchers}) counts some of the --watchers "
            f"({args.watchers}), neither negative"
        )
    if args.tournament_watchers and not (
        args.tournament_every >= 0.1 and args.tournament_entrants >= 0
    ):  # not (>=): NaN refused too
        parser.error("--tournament-every is at least 0.1 s, --tournament-entrants at least 0")
    per = args.tables_per_client or max(1, args.tables // args.clients)
    if per * args.clients > args.tables:  # before anything is reset or started
        parser.error("--clients x --tables-per-client is more than --tables")
    DB, BROKER, PORT = args.database_url, args.broker_url, args.port
    load_before = os.getloadavg()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by every process

    e = env(args.bot_delay)
    os.environ.update({k: v for k, v in e.items() if k != "PYTHONPATH"})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    stream = has_stream()
    if args.server is None:
        args.server = "uvicorn" if stream else "gunicorn"
    stream = stream and args.server == "uvicorn"
    if args.server == "uvicorn" and not (ROOT / "trix_site" / "asgi.py").exists():
        parser.error("--server uvicorn needs trix_site/asgi.py (issue 15's stream)")
    if args.api_workers is None:
        args.api_workers = 1 if args.server == "uvicorn" else 0
    if args.api_workers < 0 or (args.api_workers and args.server != "uvicorn"):
        parser.error("--api-workers is 0 or more, with --server uvicorn")
    if args.route_streams is None:
        args.route_streams = stream and args.api_workers > 0
    if args.route_streams and not (stream and args.api_workers):
        parser.error("--route-streams is for uvicorn's streams, with --api-workers 1 or more")
    reset_database(e)
    logs = Path(tempfile.mkdtemp(prefix="trix-bench-"))
    connections = args.clients * per if (args.poll_wait > 0 or stream) else args.clients
    connections += args.watchers + 2 * args.human_seats
    web_threads = args.web_threads or args.clients * per + args.watchers + 2 * args.human_seats + 8
    py = sys.executable
    ports = stream_ports(args)
    procs = [start(web_command(args, py, web_threads, connections), e, logs / "web.log")]
    api_port = PORT + 1 if args.api_workers else PORT
    api_procs = []
    if args.api_workers:  # the people's POSTs: every request but the streams
        command = server_command(args, py, web_threads, 100, api_port, args.api_workers)
        api_procs.append(start(command, e, logs / "web-api.log"))
    workers = [["-n", f"bench{i}@%h"] for i in range(2)]
    # solo: one task at a time and one message held (-c 1), as trix-worker@.service; Celery
    # would otherwise take the machine's core count, and prefetch that many messages.
    concurrency = 1 if args.pool == "solo" else args.concurrency
    for i, extra in enumerate(workers):
        cmd = [
            py, "-m", "celery", "-A", "benchmarks.site_worker", "worker",
            "-P", args.pool, "-c", str(concurrency),
            "-l", "warning", *extra, "--without-gossip", "--without-mingle",
            "--without-heartbeat",
        ]  # fmt: skip
        if i == 0:
            cmd += ["-B", "-s", str(logs / "beat-schedule")]
        procs.append(start(cmd, e, logs / f"worker{i}.log", args.worker_nice))
    children: list[subprocess.Popen] = []
    try:
        time.sleep(2)
        if procs[0].poll() is not None:
            raise RuntimeError("web server failed:\n" + (logs / "web.log").read_text()[-2000:])
        for port in ports:
            wait_http(port=port)
        if api_procs:
            wait_http(port=api_port)
        time.sleep(3)  # workers ready
        import redis

        r = redis.Redis.from_url(BROKER)
        humans = create_human_tables(args.human_seats, args.human_think)
        tables = create_tables(args.tables)
        stop = threading.Event()
        tournament_id, registrar = None, None
        if args.tournament_watchers:
            spare = int(args.seconds / args.tournament_every) + 2
            tournament_id, late = create_tournament(args.tournament_entrants, spare)
            registrar = Registrar(tournament_id, late, args.tournament_every, stop)
        watched = [tables[i * per : (i + 1) * per] for i in range(args.clients)]
        if stream:
            pollers = [
                Poller([t], stop, stream=True, port=stream_port(t, ports))
                for mine in watched
                for t in mine
            ]
        elif args.poll_wait > 0:
            pollers = [Poller([t], stop, args.poll_wait) for mine in watched for t in mine]
        else:
            pollers = [Poller(mine, stop) for mine in watched]
        for p in pollers:
            p.start()
        transport = "sse" if stream else "poll"
        if humans:
            specs = [{k: v for k, v in h.items() if k != "user"} for h in humans]
            for spec in specs:
                spec["post_port"] = api_port
            config = {"port": PORT, "ports": ports, "transport": transport, "watchers": [],
                      "humans": specs, "out": str(logs / "humans-out.json")}  # fmt: skip
            children.append(start_clients(config, logs, "humans", e))
        time.sleep(2)  # warm-up: deals dealt, caches filled
        web_pgid = procs[0].pid
        cpu_idle, rss_without = group_usage(web_pgid)
        per_table: dict[int, int] = dict.fromkeys(tables, 0)
        if args.watchers:
            nproc = max(1, args.watcher_processes)
            shares: list[list[list[int]]] = [[] for _ in range(nproc)]
            at_tables = args.watchers - args.tournament_watchers
            watched_keys = list(tables)
            if tournament_id is not None:  # a tournament's key: its id, negative
                watched_keys.append(-tournament_id)
            for i, table_id in enumerate(watched_keys):
                if table_id < 0:
                    n = args.tournament_watchers
                else:
                    n = at_tables // len(tables) + (i < at_tables % len(tables))
                per_table[table_id] = n
                for j in range(nproc):  # each table's watchers spread over the processes
                    part = n // nproc + (j < n % nproc)
                    if part:
                        shares[j].append([table_id, part])
            for j, share in enumerate(shares):
                config = {"port": PORT, "ports": ports, "transport": transport, "watchers": share,
                          "humans": [], "out": str(logs / f"watchers{j}-out.json")}  # fmt: skip
                children.append(start_clients(config, logs, f"watchers{j}", e))
            connect_start, answered = time.monotonic(), 0
            for child in children[-nproc:]:
                line = child.stdout.readline().split()
                if not line or line[0] != b"connected":
                    raise RuntimeError(f"watchers did not connect: {line}")
                answered += int(line[1])
            connect_seconds = time.monotonic() - connect_start
            time.sleep(2)
        cpu_watch, rss_with = group_usage(web_pgid)
        from django.db import connection
        from django.utils import timezone

        from games.models import ActionStatus, Table, TableAction, TableEvent, TableStatus

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            )
            pg_connections = cursor.fetchone()[0]
        t0, q0, k0 = (
            timezone.now(),
            int(r.get("bench:queries") or 0),
            int(r.get("bench:tasks") or 0),
        )
        parts = {
            "web": [web_pgid, *(p.pid for p in api_procs)],
            "workers": [p.pid for p in procs[1:]],
            "watchers' and people's processes": [c.pid for c in children],
        }
        usage0 = machine_usage(parts)
        cpu0 = group_usage(web_pgid)[0]
        if registrar is not None:
            registrar.start()
        time.sleep(args.seconds)
        cpu1 = group_usage(web_pgid)[0]
        usage1 = machine_usage(parts)
        t1, q1, k1 = (
            timezone.now(),
            int(r.get("bench:queries") or 0),
            int(r.get("bench:tasks") or 0),
        )
        time.sleep(1.0)  # let clients see the last actions
        stop.set()
        figures = []
        for child in children:
            child.stdin.write(b"stop\n")
            child.stdin.flush()
        for child in children:
            child.wait(60)
        for path in sorted(logs.glob("*-out.json")):
            figures.append((path.name, json.loads(path.read_text())))
        for p in pollers:
            p.join(15 + args.poll_wait)
        if registrar is not None:
            registrar.join(30)
        first_over = (
            Table.objects.filter(pk__in=tables, finished_at__gte=t0, finished_at__lt=t1)
            .order_by("finished_at")
            .values_list("finished_at", flat=True)
            .first()
        )
        while_all_played = TableAction.objects.filter(
            applied_at__gte=t0,
            applied_at__lt=first_over or t1,
            status=ActionStatus.APPLIED,
            table_id__in=tables,
        ).count()
        acts = list(
            TableAction.objects.filter(
                applied_at__gte=t0, applied_at__lt=t1, status=ActionStatus.APPLIED
            ).values_list(
                "table_id", "version", "submitted_at", "source", "applied_version", "applied_at"
            )
        )
        bot_tables = set(tables)
        committed = dict(
            (((t, v), at.timestamp()) for t, v, at in TableEvent.objects.filter(
                created_at__gte=t0, created_at__lt=t1, table_id__in=bot_tables
            ).values_list("table_id", "version", "created_at"))
        )  # fmt: skip
        human_posts = [post for name, fig in figures for post in fig["posts"]]
        human_applied = {
            str(pk): (version, submitted.timestamp(), applied.timestamp())
            for pk, version, submitted, applied in TableAction.objects.filter(
                pk__in=[post[0] for post in human_posts], status=ActionStatus.APPLIED
            ).values_list("pk", "applied_version", "submitted_at", "applied_at")
        }
        seen: dict[tuple[int, int], float] = {}
        for p in pollers:
            seen.update(p.seen)
        bot_seen = [
            (submitted.timestamp(), applied.timestamp(), seen[(tid, version + 1)])
            for tid, version, submitted, _, _, applied in acts
            if (tid, version + 1) in seen and tid in bot_tables
        ]
        latencies = [(at_seen - due) * 1000 for due, _, at_seen in bot_seen]
        due_applied = [(applied - due) * 1000 for due, applied, _ in bot_seen]
        applied_seen = [(at_seen - applied) * 1000 for _, applied, at_seen in bot_seen]
        elapsed = (t1 - t0).total_seconds()
        finished = Table.objects.filter(status=TableStatus.FINISHED).count()
        connection.close()
    finally:
        for child in children:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
        stop_groups(procs + api_procs)
    latencies.sort()
    polls = sum(p.requests for p in pollers)
    load_after = os.getloadavg()
    ceiling = args.tables / args.bot_delay if args.bot_delay > 0 else float("inf")
    if args.server == "gunicorn":
        server = f"gunicorn {args.workers}x{web_threads} threads"
    else:
        server = f"uvicorn {args.workers} processes"
        if args.route_streams:
            server += " (one port each; each table's streams to one, by its id)"
        if args.api_workers:
            server += f" for the streams + {args.api_workers} for the rest (the people's POSTs)"
    how = (
        "holding each table's event stream (SSE)"
        if stream
        else f"long-polling (wait {args.poll_wait:g} s, one connection per table)"
        if args.poll_wait > 0
        else "polling their tables in turn (wait 0)"
    )
    print(
        f"tables: {args.tables} four-bot (complex_partner), bot delay {args.bot_delay}s; "
        f"2 workers x {concurrency} ({args.pool} pool, "
        f"nice {args.worker_nice}); {server}; "
        f"{args.clients} API clients "
        f"watching {per} table{'s' if per > 1 else ''} each ({args.clients * per} of "
        f"{args.tables}), {how}"
    )
    print(
        f"bot-delay ceiling: {args.tables} tables / {args.bot_delay} s = {ceiling:.0f} actions/s "
        f"at most (the measurement is the stack's capacity while well below it)"
    )
    bot_acts = [a for a in acts if a[0] in bot_tables]
    print(f"measured: {elapsed:.1f} s; matches finished: {finished}")
    print(
        f"actions applied: {len(acts)} -> {len(acts) / elapsed:.1f} actions/s "
        f"({len(bot_acts)} at the bot tables)"
    )
    if first_over is not None:
        played = max((first_over - t0).total_seconds(), 1e-9)
        print(
            f"  while all {len(tables)} bot tables played (the first match ended after "
            f"{played:.1f} s): {while_all_played / played:.1f} actions/s"
        )
    if latencies:
        print(f"turn due -> visible to a client: {spread(latencies)}")
        print(
            f"  of which: due -> applied by a worker (applied_at): {spread(due_applied)}; "
            f"-> seen by the client: {spread(applied_seen)}"
        )
    print(
        f"worker DB queries per action: {(q1 - q0) / max(1, len(acts)):.1f} statements, "
        f"besides BEGIN/COMMIT ({(k1 - k0) / max(1, len(acts)):.2f} tasks per action)"
    )
    refused: dict[str, int] = {}
    for counts in [p.refused for p in pollers] + [fig.get("refused", {}) for _, fig in figures]:
        for status, n in counts.items():
            refused[str(status)] = refused.get(str(status), 0) + n
    print(
        f"polls/streams opened: {polls}, errors {sum(p.errors for p in pollers)}, "
        f"streams ended with their match {sum(len(p.over) for p in pollers)}; answers "
        f"refused (every client, by HTTP status): {refused or 'none'}"
    )
    window = range(int(t0.timestamp()), int(t1.timestamp()))
    delivered = sum(n for p in pollers for sec, n in p.per_second.items() if sec in window)
    if args.watchers:
        to_all, first_to_last, missed = [], [], 0
        merged: dict[tuple[int, int], list] = {}
        for name, fig in figures:
            if not name.startswith("watchers"):
                continue
            delivered += sum(n for sec, n in fig["per_second"] if int(sec) in window)
            for t, v, first, last, n in fig["seen"]:
                m = merged.setdefault((t, v), [first, last, 0])
                m[0], m[1], m[2] = min(m[0], first), max(m[1], last), m[2] + n
        for key, at in committed.items():
            m = merged.get(key)
            if m is None or m[2] < per_table.get(key[0], 0):
                missed += 1
                continue
            to_all.append((m[1] - at) * 1000)
            first_to_last.append((m[1] - m[0]) * 1000)
        errors = sum(fig["errors"] for name, fig in figures if name.startswith("watchers"))
        page = ""
        if registrar is not None:
            page = f" and {args.tournament_watchers} on one tournament's live page"
        print(
            f"watchers: {args.watchers - args.tournament_watchers} over {len(tables)} tables"
            f"{page} in {args.watcher_processes} processes ({transport}), {answered} had their "
            f"first answer within {connect_seconds:.1f} s; connection errors {errors}"
        )
        print(f"version committed -> delivered to every watcher of its table: {spread(to_all)}")
        print(f"first watcher -> last watcher of a table: {spread(first_to_last)}")
        print(f"versions that did not reach every watcher: {missed} of {len(committed)}")
        if registrar is not None:
            to_page, page_missed, took, page_spread, from_commit = [], 0, [], [], []
            began = {v: at for v, at in registrar.began.items() if at < t1.timestamp()}
            for version, at in began.items():
                m = merged.get((-tournament_id, version))
                if m is None or m[2] < args.tournament_watchers:
                    page_missed += 1
                    continue
                to_page.append((m[1] - at) * 1000)
                took.append(registrar.took[version] * 1000)
                from_commit.append((m[1] - at - registrar.took[version]) * 1000)
                page_spread.append((m[1] - m[0]) * 1000)
            print(
                f"tournament page: {len(began)} registrations (one every "
                f"{args.tournament_every:g} s, {args.tournament_entrants} entrants before): "
                f"registration begun -> delivered to every watcher of the page: "
                f"{spread(to_page)}; registrations that did not reach every watcher: "
                f"{page_missed} of {len(began)}"
            )
            print(
                f"  of which the registration itself (begun -> returned, its commit within): "
                f"{spread(took)}; first watcher -> last watcher of the page: {spread(page_spread)}"
            )
            print(
                f"  registration returned (just after its commit) -> every watcher of the page: "
                f"{spread(from_commit)}"
            )
        print(
            f"memory per held connection: {(rss_with - rss_without) / args.watchers / 1024:.1f}"
            f" KiB (web RSS {rss_without / 2**20:.0f} MiB without, {rss_with / 2**20:.0f} MiB "
            f"with the watchers)"
        )
    if delivered:
        print(
            f"web CPU: {cpu1 - cpu0:.1f} s over {elapsed:.0f} s, {delivered} updates delivered "
            f"-> {(cpu1 - cpu0) / delivered * 1000:.3f} ms CPU per delivered update"
        )
    window = max(elapsed, 1e-9)
    shares = ", ".join(f"{name} {(usage1[name] - usage0[name]) / window:.2f}" for name in usage0)
    print(f"CPU over the window, in cores (of {os.cpu_count()}): {shares}")
    serving = ("web", "workers", "PostgreSQL", "Redis")
    spent = sum(usage1[name] - usage0[name] for name in serving)
    print(
        f"CPU per action applied (web, workers, PostgreSQL and Redis): "
        f"{spent / max(1, len(acts)) * 1000:.2f} ms ({spent:.1f} s over {len(acts)} actions)"
    )
    if humans:
        latency, lost, stages, slowest = [], 0, ([], [], []), []
        other = {}
        for _, fig in figures:
            other.update({(t, v): at for t, v, at in fig["other_seat"]})
        refused, why = 0, {}
        for action_id, table_id, at, status, error in human_posts:
            if not t0.timestamp() <= at < t1.timestamp():
                continue
            if status != 202:
                refused += 1
                why[error[:60]] = why.get(error[:60], 0) + 1
            version, submitted, applied = human_applied.get(action_id, (None, 0, 0))
            if version is None or (table_id, version) not in other:
                lost += 1
                continue
            seen_at = other[(table_id, version)]
            latency.append((seen_at - at) * 1000)
            parts = (submitted - at, applied - submitted, seen_at - applied)
            slowest.append((seen_at - at, at, *parts))
            for stage, ms in zip(stages, parts, strict=True):
                stage.append(ms * 1000)
        print(
            f"human seats: {args.human_seats} (think {args.human_think} s): POST -> another "
            f"seat's client: {spread(latency)}; not seen or not applied: {lost} (not 202: "
            f"{refused}{': ' if why else ''}{why or ''})"
        )
        print(
            "  of which: POST -> received by the web process (submitted_at): "
            f"{spread(stages[0])}; -> applied (applied_at): {spread(stages[1])}; "
            f"-> seen by the other seat: {spread(stages[2])}"
        )
        slowest.sort(reverse=True)
        if slowest:
            print(
                "  the slowest (their 1 %, at least 3; posted at, UTC): "
                + "; ".join(
                    f"{total * 1000:.0f} ms at {time.strftime('%H:%M:%S', time.gmtime(at))}"
                    f".{int(at * 1000) % 1000:03d} = {a * 1000:.0f} + {b * 1000:.0f} + "
                    f"{c * 1000:.0f}"
                    for total, at, a, b, c in slowest[: max(3, len(slowest) // 100)]
                )
            )
    print(f"PostgreSQL connections during the run: {pg_connections} (max_connections: check)")
    before, after = (" ".join(f"{x:.2f}" for x in load) for load in (load_before, load_after))
    print(f"load average (1/5/15 min) before: {before}; after: {after}")
    print(f"logs: {logs}")
    # The ledger after the run: every invariant of ledger_check (issue 5).
    check = subprocess.run(
        [sys.executable, "manage.py", "ledger_check"], cwd=ROOT, env=e, capture_output=True
    )
    print(f"ledger_check after the run: {'passed' if check.returncode == 0 else 'FAILED'}")
    if check.returncode:
        print(check.stdout.decode() + check.stderr.decode())


if __name__ == "__main__":
    main()
