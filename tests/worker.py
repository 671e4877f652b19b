"""A real Celery worker for the tests that need one (tables, browser): a ``celery worker -B``
subprocess on the test database and the broker of ``CELERY_BROKER_URL``, consuming its own
queue (so parallel test runs on one broker do not mix), on the settings the tests run on
(``trix_site.settings_test``: its short timers). The tables move only through it, as in
production. The fixtures are in ``tests/conftest.py``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def new_queue(prefix: str = "trix-test") -> str:
    """A queue name of its own for one worker (or one session's worker)."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def use_queue(queue: str) -> str:
    """Make ``queue`` the default queue of the tasks this process sends; returns the one it
    replaces. Celery 5.6 reads the Django setting's key (``CELERY_TASK_DEFAULT_QUEUE``, the
    app's namespace) before the plain one and caches the default queue it resolved first
    (``app.amqp.default_queue``): both keys are set and the cache is dropped."""
    from trix_site.celery import app

    old = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    app.conf["CELERY_TASK_DEFAULT_QUEUE"] = queue
    app.amqp.__dict__.pop("default_queue", None)
    assert app.conf.task_default_queue == queue
    return old


@contextmanager
def sending_to_queue(queue: str) -> Iterator[None]:
    """While inside: this process's tasks go to ``queue``."""
    old = use_queue(queue)
    try:
        yield
    finally:
        use_queue(old)


@contextmanager
def sending_to(broker_url: str, queue: str) -> Iterator[None]:
    """While inside: this process's tasks go to ``queue`` on ``broker_url`` (a test's own
    broker) instead of the settings' broker and the session's queue."""
    from trix_site.celery import app

    def switch(url: str | None, env_url: str | None, default_queue: str) -> None:
        app._pool = None  # the producer connections are made anew for the new URL
        app.amqp._producer_pool = None
        # Celery reads CELERY_BROKER_URL from the environment before its configuration.
        if env_url is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = env_url
        app.conf.broker_url = url
        app.conf["CELERY_BROKER_URL"] = url
        use_queue(default_queue)

    old_env = os.environ.get("CELERY_BROKER_URL")
    old_url, old_queue = app.conf.get("broker_url"), app.conf.task_default_queue
    switch(broker_url, broker_url, queue)
    try:
        # The URI names the transport class (trix_site.broker's) instead of the scheme.
        uri = app.connection_for_write().as_uri(include_password=True)
        assert uri.partition("://")[2] == broker_url.partition("://")[2], (uri, broker_url)
        yield
    finally:
        switch(old_url, old_env, old_queue)


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return (
        f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )


class Worker:
    """``celery worker -B`` on ``queue`` on this process's settings module (``env`` overrides);
    :meth:`stop` ends its process group (``kill=True``: SIGKILL, as a crash would).
    ``app``: the module holding the Celery application (``tests.outage_app`` adds a task of
    the tests' own to the site's); ``beat=False``: no embedded beat (no sweeps)."""

    def __init__(
        self,
        queue: str,
        env: dict[str, str] | None = None,
        *,
        broker_url: str | None = None,
        production: bool = False,
        app: str = "trix_site",
        beat: bool = True,
    ):
        self._start_args = (queue, env, broker_url, production, app, beat)
        self._start(queue, env, broker_url=broker_url, production=production, app=app, beat=beat)

    def running(self) -> bool:
        """Whether the worker's process is still there."""
        return self.proc.poll() is None

    def start_again(self) -> None:
        """Start the worker anew, on the same queue and settings, after :meth:`stop`."""
        queue, env, broker_url, production, app, beat = self._start_args
        self._start(queue, env, broker_url=broker_url, production=production, app=app, beat=beat)

    def _start(self, queue, env, *, broker_url, production, app, beat) -> None:
        self.var = tempfile.mkdtemp(prefix="trix-worker-")
        self.log = Path(self.var) / "worker.log"
        full = {
            **os.environ,
            # Under override_settings (a test's ``settings`` fixture) SETTINGS_MODULE is None.
            "DJANGO_SETTINGS_MODULE": settings.SETTINGS_MODULE
            or os.environ.get("DJANGO_SETTINGS_MODULE", "trix_site.settings_test"),
            **(env or {}),
            "DATABASE_URL": _database_url(),
            "DATABASE_CONN_MAX_AGE": "60",
            "CELERY_BROKER_URL": broker_url or settings.CELERY_BROKER_URL,
            "CELERY_TASK_DEFAULT_QUEUE": queue,
            "TRIX_VAR_DIR": self.var,
        }
        cmd = [
            sys.executable, "-m", "celery", "-A", app, "worker",
            "-Q", queue,
            "-l", "info", "-n", f"{queue}-{uuid.uuid4().hex[:6]}@%h",
        ]  # fmt: skip
        if beat:
            cmd.append("-B")
        if production:  # the production recipe: one process (trix-worker@.service), Celery's
            cmd += ["-P", "solo", "-c", "1"]  # heartbeat, gossip and mingle kept
        else:
            cmd += ["-c", "2", "--without-heartbeat", "--without-gossip", "--without-mingle"]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=full, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if b" ready." in self.log.read_bytes():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop(kill=True)
        raise RuntimeError("worker did not start:\n" + self.tail())

    def wait_until(self, predicate, timeout: float, step: float = 0.05):
        """``tests.games.helpers.wait_until``, its AssertionError showing the end of the
        worker's log."""
        from tests.games.helpers import wait_until  # the models: once Django is set up

        try:
            return wait_until(predicate, timeout, step)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the worker's log ends:\n{self.tail()}") from None

    def tail(self, chars: int = 3000) -> str:
        """The end of the worker's log (for failure messages)."""
        return self.log.read_text(errors="replace")[-chars:]

    def stop(self, kill: bool = False, sig: int = signal.SIGTERM) -> None:
        """End the worker: ``sig`` (SIGTERM: Celery's warm shutdown; SIGQUIT: its cold one),
        or SIGKILL with ``kill``; SIGKILL after 20 s if it is still there."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL if kill else sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
