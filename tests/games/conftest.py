"""Fixtures for the tables tests: a real Celery worker (a subprocess on the test database and
the broker of ``CELERY_BROKER_URL``), API clients for users, and helpers to play matches.

Each worker consumes its own queue, so parallel test runs on one broker do not mix."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from trix_site.celery import app

ROOT = Path(__file__).resolve().parents[2]

# Short timers for tests: timers x0.01 (12 s -> 0.12 s), bots and deals without pause.
FAST = {
    "TRIX_BOT_DELAY": "0",
    "TRIX_DEAL_PAUSE": "0",
    "TRIX_TIMER_SCALE": "0.01",
    "TRIX_FORCED_DELAY": "0.05",
    "TRIX_SWEEP_SECONDS": "1",
    "TRIX_SWEEP_LATE": "1",
}


class Worker:
    """A ``celery worker -B`` subprocess on ``queue``; ``stop(kill=True)`` is SIGKILL."""

    def __init__(self, queue: str, env: dict[str, str] | None = None):
        db = connection.settings_dict
        url = f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
        url += f"{db['PORT'] or 5432}/{db['NAME']}"
        if db["ENGINE"].endswith("sqlite3"):
            url = f"sqlite:///{db['NAME']}"
        self.var = tempfile.mkdtemp(prefix="trix-worker-")
        self.log = Path(self.var) / "worker.log"
        full = {
            **os.environ,
            **FAST,
            **(env or {}),
            "DATABASE_URL": url,
            "DATABASE_CONN_MAX_AGE": "60",
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CELERY_TASK_DEFAULT_QUEUE": queue,
            "TRIX_VAR_DIR": self.var,
        }
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "trix_site",
                "worker",
                "-B",
                "-Q",
                queue,
                "-c",
                "2",
                "-l",
                "info",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"{queue}-{uuid.uuid4().hex[:6]}@%h",
            ],
            cwd=ROOT,
            env=full,
            stdout=open(self.log, "wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if b" ready." in self.log.read_bytes():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("worker did not start:\n" + self.log.read_text()[-3000:])

    def stop(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


@pytest.fixture(scope="session")
def worker_queue():
    return f"trix-test-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="session")
def session_worker(django_db_setup, django_db_blocker, worker_queue):
    """One worker for the session (most tests share it)."""
    with django_db_blocker.unblock():
        old = app.conf.task_default_queue
        app.conf.task_default_queue = worker_queue
        w = Worker(worker_queue)
        yield w
        w.stop()
        app.conf.task_default_queue = old


@pytest.fixture
def worker(session_worker, transactional_db, settings):
    """The shared worker, with the test process on the same short timers."""
    settings.TRIX_BOT_DELAY = 0.0
    settings.TRIX_DEAL_PAUSE = 0.0
    settings.TRIX_TIMER_SCALE = 0.01
    return session_worker


@pytest.fixture
def make_user(django_user_model):
    def make(name: str):
        return django_user_model.objects.create_user(username=name, password="pw-" + name)

    return make


@pytest.fixture
def api(make_user):
    """``api("alice")`` -> an APIClient logged in as a new user (session auth)."""

    def make(name: str):
        client = APIClient()
        user = make_user(name)
        client.force_login(user)
        client.user = user
        return client

    return make
