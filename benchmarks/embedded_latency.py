"""How fast a move reaches the other seats on the embedded default (``./dev run``: SQLite, the
SQLite-backed Celery broker, one solo worker with its beat, Django's runserver).

Starts that set-up in a scratch directory (``TRIX_VAR_DIR``: its own database and broker
file), seats four players at a free table without timers, and plays moves through the API:
each move is the first legal action of the seat to act, ``POST …/actions/``, then another seat
long-polls ``GET …/state/?since=V&wait=5`` (as the table page does) until the new version is
there. Prints p50/p95/max of POST → new version seen by the other seat, in milliseconds.

    .venv/bin/python benchmarks/embedded_latency.py [--moves 100] [--port 8792]

Environment passed to the site (e.g. ``CELERY_BROKER_URL=sqla+sqlite:///…`` for the plain
kombu transport, ``TRIX_BROKER_POLL=1``) is used as given; ``DATABASE_URL`` is ignored (the
embedded default is SQLite).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def site_env(var: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    if not e.get("CELERY_BROKER_URL", "").startswith(("sqla+", "sqlite")):
        e.pop("CELERY_BROKER_URL", None)  # the embedded default, as ./dev run
    e.update(
        {
            "TRIX_VAR_DIR": str(var),
            "DJANGO_DEBUG": "1",  # as ./dev run
            "DJANGO_SETTINGS_MODULE": "trix_site.settings",
        }
    )
    return e


def start(cmd: list[str], e: dict[str, str], log: Path) -> subprocess.Popen:
    out = open(log, "wb")  # noqa: SIM115 (kept open for the process)
    return subprocess.Popen(
        cmd, cwd=ROOT, env=e, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def setup(e: dict[str, str]) -> tuple[int, list[str]]:
    """Migrate, create four players and a free table without timers, seat them; the table id
    and each seat's session cookie (made as Django's test client's force_login makes one)."""
    code = r"""
import json
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from games import services
users, cookies = [], []
for i in range(4):
    u = get_user_model().objects.create_user(username=f"bench{i}", password="x")
    s = SessionStore()
    s[SESSION_KEY] = str(u.pk)
    s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    s[HASH_SESSION_KEY] = u.get_session_auth_hash()
    s.save()
    users.append(u)
    cookies.append(s.session_key)
options = {"choose_timer": 0, "double_timer": 0, "play_timer": 0}
table = services.create_table(user=users[0], variant="complex_partner", stake=0, options=options)
for i, u in enumerate(users):
    services.take_seat(user=u, table_id=table.pk, seat=i, client_seed=f"seed-{i}")
print(json.dumps({"table": table.pk, "cookies": cookies}))
"""
    py = sys.executable
    subprocess.run([py, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=e, check=True)
    out = subprocess.run(
        [py, "manage.py", "shell", "-c", code], cwd=ROOT, env=e, check=True, capture_output=True
    ).stdout
    data = json.loads(out.decode().strip().splitlines()[-1])
    return data["table"], data["cookies"]


class Client:
    def __init__(self, port: int, session: str):
        self.port = port
        self.csrf = secrets.token_hex(16)
        self.headers = {
            "Cookie": f"sessionid={session}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Content-Type": "application/json",
            "Referer": f"http://127.0.0.1:{port}/",
        }
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        try:
            self.conn.request(method, path, body=data, headers=self.headers)
            r = self.conn.getresponse()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.conn.request(method, path, body=data, headers=self.headers)
            r = self.conn.getresponse()
        return r.status, json.loads(r.read() or b"null")


def wait_http(port: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/api/tables/")
            if c.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("the site did not answer")


def play(table: int, clients: list[Client], moves: int) -> tuple[list[float], list[float]]:
    """Play ``moves`` moves; per move, ms from POST to the new version seen by another seat,
    and ms the POST itself took."""
    base = f"/api/tables/{table}/state/"
    latencies: list[float] = []
    posts: list[float] = []
    end = time.monotonic() + 60 + moves * 5
    version = 0
    while len(latencies) < moves and time.monotonic() < end:
        status, state = clients[0].call("GET", f"{base}?since={version}&wait=5")
        if state["table"]["status"] != "playing" or state["view"] is None:
            if state["table"]["status"] == "finished":
                break
            version = state["version"]
            continue
        version = state["version"]
        to_act = state["view"]["to_act"]
        if not to_act:  # between deals: wait for the deal
            continue
        seat = to_act[0]
        _, mine = clients[seat].call("GET", base)
        if mine["version"] != version or not mine["view"]["legal"]:
            version = mine["version"] if mine["version"] != version else version
            continue
        action = {k: v for k, v in mine["view"]["legal"][0].items() if k != "seat"}
        other = clients[(seat + 1) % 4]
        t0 = time.perf_counter()
        status, answer = clients[seat].call(
            "POST",
            f"/api/tables/{table}/actions/",
            {"id": str(uuid.uuid4()), "version": version, "action": action},
        )
        if status != 202:
            raise SystemExit(f"action refused: {status} {answer}")
        posted = time.perf_counter()
        status, seen = other.call("GET", f"{base}?since={version}&wait=5")
        t1 = time.perf_counter()
        if seen["version"] > version:
            latencies.append((t1 - t0) * 1000)
            posts.append((posted - t0) * 1000)
        version = seen["version"]
    return latencies, posts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_PORT", "8792")))
    args = parser.parse_args()
    var = Path(tempfile.mkdtemp(prefix="trix-embedded-"))
    e = site_env(var)
    table, cookies = setup(e)
    py = sys.executable
    worker = start(
        [py, "-m", "celery", "-A", "trix_site", "worker", "-l", "warning", "--pool=solo", "-B"],
        e,
        var / "worker.log",
    )
    web = start(
        [py, "manage.py", "runserver", "--noreload", f"127.0.0.1:{args.port}"], e, var / "web.log"
    )
    try:
        wait_http(args.port)
        clients = [Client(args.port, c) for c in cookies]
        load = os.getloadavg()[0]
        latencies, posts = play(table, clients, args.moves)
    finally:
        for proc in (web, worker):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in (web, worker):
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    if not latencies:
        raise SystemExit(f"no move measured (logs in {var})")
    latencies.sort()
    posts.sort()

    def p95(values: list[float]) -> float:
        return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]

    print(
        f"broker: {e.get('CELERY_BROKER_URL', 'default')}; moves: {len(latencies)}; "
        f"load average at start: {load:.1f}"
    )
    print(
        f"POST -> new version seen by another seat: p50 {statistics.median(latencies):.0f} ms, "
        f"p95 {p95(latencies):.0f} ms, max {latencies[-1]:.0f} ms"
    )
    print(
        f"of which the POST's own answer: p50 {statistics.median(posts):.0f} ms, "
        f"p95 {p95(posts):.0f} ms"
    )


if __name__ == "__main__":
    main()
