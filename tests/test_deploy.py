"""The production recipe's systemd units (``deploy/systemd``; docs/operations.md): web, worker
and beat are restarted whenever they exit and never given up on, run the commands the recipe
shows, and the watchdog restarts the worker and the beat when ``manage.py health --stuck``
fails; the recipe's nginx rules route the streams and limit each address."""

from __future__ import annotations

import contextlib
import http.client
import http.server
import json
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "deploy" / "systemd"
RECIPE = (ROOT / "docs" / "operations.md").read_text()


def _keys(unit: str) -> dict[str, str]:
    out = {}
    for line in (UNITS / unit).read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            out[key.strip()] = value.strip()
    return out


@pytest.mark.parametrize(
    "unit, command",
    [
        (
            "trix-web.service",
            "uvicorn trix_site.asgi:application --workers 4 --loop uvloop --http httptools"
            " --no-proxy-headers --timeout-graceful-shutdown 10 --host 0.0.0.0 --port 8000",
        ),
        (
            "trix-web-streams@.service",
            "uvicorn trix_site.asgi:application --workers 1 --loop uvloop --http httptools"
            " --no-proxy-headers --timeout-graceful-shutdown 10 --host 0.0.0.0 --port %i",
        ),
        ("trix-worker@.service", "celery -A trix_site worker -P solo -c 1 -n tables%i@%H -l info"),
        ("trix-beat.service", "celery -A trix_site beat -l info"),
    ],
)
def test_each_service_restarts_always_and_runs_the_recipes_command(unit, command):
    keys = _keys(unit)
    assert keys["Restart"] == "always"
    assert keys["StartLimitIntervalSec"] == "0"  # never stop restarting it
    assert keys["ExecStart"].endswith("/.venv/bin/" + command)
    assert f"`{command}`" in RECIPE and f"`{unit}`" in RECIPE
    assert keys["EnvironmentFile"] == "/etc/trix/trix.env"


def test_the_watchdog_restarts_a_stuck_worker_and_beat():
    keys = _keys("trix-watchdog.service")
    assert "manage.py health --stuck ||" in keys["ExecStart"]
    assert 'systemctl restart "trix-worker@*.service" trix-beat.service' in keys["ExecStart"]
    assert "OnUnitActiveSec" in _keys("trix-watchdog.timer")
    wants = _keys("trix.target")["Wants"].split()
    assert set(wants) == {"trix-web.service", "trix-beat.service", "trix-watchdog.timer"}
    # the table workers' and the streams' instances join the target when enabled (one per
    # core; a stream process's by its port), and every unit starts at boot when enabled alone
    # (a machine that runs only some of them)
    assert "trix.target" in _keys("trix-worker@.service")["WantedBy"].split()
    assert "trix.target" in _keys("trix-web-streams@.service")["WantedBy"].split()
    assert not (UNITS / "trix-web-streams.service").exists()  # replaced by the template
    for unit in ("trix-web.service", "trix-web-streams@.service", "trix-worker@.service",
                 "trix-beat.service", "trix-watchdog.timer"):  # fmt: skip
        assert "multi-user.target" in _keys(unit)["WantedBy"].split()


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="no systemd-analyze here")
def test_systemd_accepts_the_units():
    for unit in sorted(UNITS.iterdir()):
        done = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", str(unit)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        # Only the programs under /srv/trix, which this machine does not have, may be missing.
        problems = [
            line
            for line in (done.stdout + done.stderr).splitlines()
            if line.strip() and "/srv/trix/" not in line
        ]
        assert not problems, f"{unit.name}: {problems}"


def test_the_streams_unit_sets_its_pool_where_trix_env_cannot_override_it():
    """``EnvironmentFile=`` wins over ``Environment=``: the streams' smaller pool is set in the
    command itself (the connection budget of docs/live-updates.md counts on it)."""
    start = _keys("trix-web-streams@.service")["ExecStart"]
    assert start.startswith("/usr/bin/env DATABASE_POOL=8 /srv/trix/.venv/bin/uvicorn ")
    assert "DATABASE_POOL" not in _keys("trix-web.service")["ExecStart"]


def test_the_proxy_sends_the_streams_and_only_them_to_the_streams_units():
    """The recipe's proxy rules: the two stream paths to the streams' upstream (the
    trix-web-streams@ instances, ports 8001 and 8002), each key to one of them (its path
    hashed), unbuffered; everything else to port 8000 (trix-web.service)."""

    rule = re.search(r"location ~ (\S+) \{([^}]*)\}", RECIPE)
    assert rule is not None, "docs/operations.md: the streams' location block"
    pattern = re.compile(rule.group(1).strip('"'))
    for path in ("/api/tables/12/stream/", "/api/tournaments/3/stream/"):
        assert pattern.search(path), path
    # (012 would be a key of its own to the proxy's hash, answered by trix-web instead)
    for path in ("/api/tables/12/state/", "/api/tables/12/actions/", "/api/tournaments/3/live/",
                 "/tables/12/", "/api/tables/12/stream/x", "/x/api/tables/12/stream/",
                 "/api/tables/012/stream/"):  # fmt: skip
        assert not pattern.search(path), path
    assert "proxy_pass http://trix_streams;" in rule.group(2)
    assert "proxy_buffering off;" in rule.group(2)
    upstream = re.search(r"upstream trix_streams \{([^}]*)\}", RECIPE)
    assert upstream is not None, "docs/operations.md: the streams' upstream block"
    lines = [line.split("#")[0].strip() for line in upstream.group(1).splitlines()]
    assert "hash $uri consistent;" in lines  # a table's (a tournament's) streams: one process
    assert {"server 127.0.0.1:8001;", "server 127.0.0.1:8002;"} <= set(lines)
    assert "proxy_pass http://127.0.0.1:8000;" in RECIPE


def test_the_dev_server_reads_no_proxy_headers():
    """``./dev run``'s uvicorn takes a client's address from the connection, as production's
    unit does: with uvicorn's default a local client could send ``X-Forwarded-For`` and escape
    every per-address limit (found by a review: a fifth stream past the cap of four)."""
    dev = (Path(__file__).resolve().parents[1] / "dev").read_text()
    line = next(s for s in dev.splitlines() if "python -m uvicorn" in s)
    assert "--no-proxy-headers" in line


class _Named(http.server.BaseHTTPRequestHandler):
    """A stand-in web process: answers every GET with its own name (the server's)."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        body = self.server.name.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
_BLOCK = re.search(r"```nginx\n(.*?)```", RECIPE, re.S).group(1)
_HTTP_LINES = ("limit_req_zone ", "limit_req_status ")  # the recipe's "(http block)" lines


@contextlib.contextmanager
def _nginx(tmp_path: Path, block: str):
    """A real nginx running ``block`` (the recipe's rules) on a free port of 127.0.0.1, in front
    of three stand-in processes answering their names (the two streams units' ports and
    trix-web's): yields the port."""
    names = {"8001": "streams-a", "8002": "streams-b", "8000": "web"}
    servers, nginx = [], None
    try:
        for port, name in names.items():
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Named)
            server.name = name
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            block = block.replace(f"127.0.0.1:{port};", f"127.0.0.1:{server.server_address[1]};")
        upstream = re.search(r"upstream trix_streams \{[^}]*\}", block).group(0)
        top = [line for line in block.splitlines() if line.startswith(_HTTP_LINES)]
        locations = "\n".join(
            line for line in block.replace(upstream, "").splitlines() if line not in top
        )
        listen = _free_port()
        (tmp_path / "nginx.conf").write_text(
            f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\ndaemon off;\n"
            "events {}\nhttp {\n  access_log off;\n"
            + "".join(
                f"  {kind}_temp_path {tmp_path}/{kind};\n"
                for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
            )
            + "".join(f"  {line}\n" for line in top)
            + f"  {upstream}\n  server {{\n    listen 127.0.0.1:{listen};\n{locations}\n  }}\n}}\n"
        )
        nginx = subprocess.Popen(
            [_NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e",
             str(tmp_path / "error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", listen)) == 0:
                    break
            assert nginx.poll() is None, nginx.stderr.read().decode()
            time.sleep(0.05)
        yield listen
    finally:
        if nginx is not None:
            nginx.terminate()
            try:
                nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait()
        for server in servers:
            server.shutdown()
            server.server_close()


@pytest.mark.skipif(not _NGINX, reason="no nginx here (./dev test installs it)")
def test_the_recipes_proxy_sends_every_stream_of_a_key_to_one_streams_process(tmp_path):
    """The recipe's nginx rules, its rate limits left out (one address sends every request
    here; the next test runs them): every stream of one table (one tournament) reaches the
    same streams process whatever its query, the keys are spread over both, and every other
    path goes to trix-web."""
    block = "\n".join(line for line in _BLOCK.splitlines() if "limit_req" not in line)
    with _nginx(tmp_path, block) as listen:

        def served_by(path: str) -> str:
            conn = http.client.HTTPConnection("127.0.0.1", listen, timeout=10)
            conn.request("GET", path, headers={"Host": "trix.example"})
            answer = conn.getresponse()
            assert answer.status == 200, path
            return answer.read().decode()

        by_key = {}
        for kind in ("tables", "tournaments"):
            for key in range(1, 41):
                path = f"/api/{kind}/{key}/stream/"
                seen = {served_by(path + query) for query in ("", "?since=7", "?patches=1")}
                assert len(seen) == 1 and seen <= {"streams-a", "streams-b"}, (path, seen)
                by_key[path] = seen.pop()
        assert set(by_key.values()) == {"streams-a", "streams-b"}  # both processes take keys
        for path in ("/api/tables/3/state/", "/api/tables/3/actions/", "/tables/3/", "/"):
            assert served_by(path) == "web", path


def _get(listen: int, source: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` from the loopback address ``source``: status, headers and body."""
    conn = http.client.HTTPConnection("127.0.0.1", listen, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", path, headers={"Host": "trix.example"})
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        conn.close()


@pytest.mark.skipif(not _NGINX, reason="no nginx here (./dev test installs it)")
@pytest.mark.parametrize(
    "zone, path",
    [
        ("trix_api", "/api/tables/3/state/?since=9&wait=5"),
        ("trix_streams", "/api/tables/3/stream/"),
    ],
)
def test_the_recipes_proxy_refuses_a_flood_from_one_address_and_serves_another(
    tmp_path, zone, path
):
    """The recipe's ``limit_req`` per address: a client that keeps sending past its burst (as
    one ignoring ``Retry-After`` does) is answered 429 by nginx itself, in the API's error
    shape with ``Retry-After``, while another address is still served. The zone's rate is
    set to its least (1r/m) so that nothing refills the bucket during the test: exactly the
    recipe's burst is let through above the first request."""
    zone_line = next(line for line in _BLOCK.splitlines() if f"zone={zone}:" in line)
    burst = int(re.search(rf"limit_req zone={zone} burst=(\d+) nodelay;", _BLOCK).group(1))
    block = _BLOCK.replace(zone_line, re.sub(r"rate=\d+r/s", "rate=1r/m", zone_line))
    with _nginx(tmp_path, block) as listen:
        served = 0
        while True:
            status, headers, body = _get(listen, "127.0.0.1", path)
            if status != 200:
                break
            served += 1
            assert served <= burst + 1, "nginx let the flood through"
        assert served == burst + 1
        assert status == 429
        assert headers["Retry-After"] == "1"
        answer = json.loads(body)
        assert answer["code"] == "throttled" and "try again in 1 s" in answer["error"]
        assert _get(listen, "127.0.0.2", path)[0] == 200  # another address is still served
        assert _get(listen, "127.0.0.1", path)[0] == 429  # and the flooder still is not
