"""A real Celery worker for browser tests: a subprocess on the test database, consuming its
own queue on the broker of ``CELERY_BROKER_URL`` (so parallel runs do not mix), with the
tables' short test timers. The tables move only through it, as in production."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
FAST = {
    "TRIX_BOT_DELAY": "0.05",
    "TRIX_DEAL_PAUSE": "0.2",
    "TRIX_TIMER_SCALE": "1",
    "TRIX_FORCED_DELAY": "0.05",
    "TRIX_SWEEP_SECONDS": "1",
}


class Worker:
    """``celery worker -B`` on ``queue``; :meth:`stop` ends it (its process group only)."""

    def __init__(self, queue: str):
        db = connection.settings_dict
        if db["ENGINE"].endswith("sqlite3"):
            url = f"sqlite:///{db['NAME']}"
        else:
            url = (
                f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
                f"{db['PORT'] or 5432}/{db['NAME']}"
            )
        self.var = tempfile.mkdtemp(prefix="trix-web-worker-")
        self.log = Path(self.var) / "worker.log"
        env = {
            **os.environ,
            **FAST,
            "DATABASE_URL": url,
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CELERY_TASK_DEFAULT_QUEUE": queue,
            "TRIX_VAR_DIR": self.var,
        }
        cmd = [
            sys.executable, "-m", "celery", "-A", "trix_site", "worker", "-B", "-Q", queue,
            "-c", "2", "-l", "info", "--without-heartbeat", "--without-gossip",
            "--without-mingle", "-n", f"{queue}@%h",
        ]  # fmt: skip
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if b" ready." in self.log.read_bytes():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("worker did not start:\n" + self.log.read_text()[-3000:])

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


def new_queue() -> str:
    return f"trix-web-test-{uuid.uuid4().hex[:8]}"
