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
        ("trix-worker.service", "celery -A trix_site worker -c 4 -l info"),
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
    assert "systemctl restart trix-worker.service trix-beat.service" in keys["ExecStart"]
    assert "OnUnitActiveSec" in _keys("trix-watchdog.timer")
    wants = _keys("trix.target")["Wants"].split()
    assert set(wants) == {
        "trix-web.service", "trix-worker.service", "trix-worker-actions.service",
        "trix-beat.service", "trix-watchdog.timer",
    }  # fmt: skip


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


def test_the_dev_server_reads_no_proxy_headers():
    """``./dev run``'s uvicorn takes a client's address from the connection, as production's
    unit does: with uvicorn's default a local client could send ``X-Forwarded-For`` and escape
    every per-address limit (found by a review: a fifth stream past the cap of four)."""
    dev = (Path(__file__).resolve().parents[1] / "dev").read_text()
    line = next(s for s in dev.splitlines() if "python -m uvicorn" in s)
    assert "--no-proxy-headers" in line
