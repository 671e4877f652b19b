"""The production recipe's systemd units (``deploy/systemd``; README "Running it"): web, worker
and beat are restarted whenever they exit and never given up on, run the commands the README
shows, and the watchdog restarts the worker and the beat when ``manage.py health --stuck``
fails."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "deploy" / "systemd"
README = (ROOT / "README.md").read_text()


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
            "trix-web-streams.service",
            "uvicorn trix_site.asgi:application --workers 2 --loop uvloop --http httptools"
            " --no-proxy-headers --timeout-graceful-shutdown 10 --host 0.0.0.0 --port 8001",
        ),
        ("trix-worker@.service", "celery -A trix_site worker -P solo -c 1 -n tables%i@%H -l info"),
        (
            "trix-worker-actions.service",
            "celery -A trix_site worker -Q trix-actions -c 2 -n actions@%H -l info",
        ),
        ("trix-beat.service", "celery -A trix_site beat -l info"),
    ],
)
def test_each_service_restarts_always_and_runs_the_readmes_command(unit, command):
    keys = _keys(unit)
    assert keys["Restart"] == "always"
    assert keys["StartLimitIntervalSec"] == "0"  # never stop restarting it
    assert keys["ExecStart"].endswith("/.venv/bin/" + command)
    assert f"`{command}`" in README and f"`{unit}`" in README
    assert keys["EnvironmentFile"] == "/etc/trix/trix.env"


def test_the_watchdog_restarts_a_stuck_worker_and_beat():
    keys = _keys("trix-watchdog.service")
    assert "manage.py health --stuck ||" in keys["ExecStart"]
    assert 'systemctl restart "trix-worker@*.service" trix-beat.service' in keys["ExecStart"]
    assert "OnUnitActiveSec" in _keys("trix-watchdog.timer")
    wants = _keys("trix.target")["Wants"].split()
    assert set(wants) == {
        "trix-web.service", "trix-web-streams.service", "trix-worker-actions.service",
        "trix-beat.service", "trix-watchdog.timer",
    }  # fmt: skip
    # the table workers' instances join the target when enabled (one per core), and every
    # unit starts at boot when enabled alone (a machine that runs only some of them)
    assert "trix.target" in _keys("trix-worker@.service")["WantedBy"].split()
    for unit in ("trix-web.service", "trix-web-streams.service", "trix-worker@.service",
                 "trix-worker-actions.service", "trix-beat.service",
                 "trix-watchdog.timer"):  # fmt: skip
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
    command itself (the connection budget of README "Live updates" counts on it)."""
    start = _keys("trix-web-streams.service")["ExecStart"]
    assert start.startswith("/usr/bin/env DATABASE_POOL=8 /srv/trix/.venv/bin/uvicorn ")
    assert "DATABASE_POOL" not in _keys("trix-web.service")["ExecStart"]


def test_the_proxy_sends_the_streams_and_only_them_to_the_streams_unit():
    """README's proxy rules: the two stream paths to port 8001 (trix-web-streams.service),
    unbuffered; everything else to port 8000 (trix-web.service)."""
    import re

    rule = re.search(r"location ~ (\S+) \{([^}]*)\}", README)
    assert rule is not None, "README: the streams' location block"
    pattern = re.compile(rule.group(1).strip('"'))
    for path in ("/api/tables/12/stream/", "/api/tournaments/3/stream/"):
        assert pattern.search(path), path
    for path in ("/api/tables/12/state/", "/api/tables/12/actions/", "/api/tournaments/3/live/",
                 "/tables/12/", "/api/tables/12/stream/x", "/x/api/tables/12/stream/"):  # fmt: skip
        assert not pattern.search(path), path
    assert "proxy_pass http://127.0.0.1:8001;" in rule.group(2)
    assert "proxy_buffering off;" in rule.group(2)
    assert "proxy_pass http://127.0.0.1:8000;" in README


def test_the_dev_server_reads_no_proxy_headers():
    """``./dev run``'s uvicorn takes a client's address from the connection, as production's
    unit does: with uvicorn's default a local client could send ``X-Forwarded-For`` and escape
    every per-address limit (found by a review: a fifth stream past the cap of four)."""
    dev = (Path(__file__).resolve().parents[1] / "dev").read_text()
    line = next(s for s in dev.splitlines() if "python -m uvicorn" in s)
    assert "--no-proxy-headers" in line
