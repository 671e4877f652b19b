"""Fixtures shared by every test package: one real Celery worker for the session (the tables
tests and the browser tests both use it; see ``tests/worker.py``)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def worker_queue() -> str:
    from tests.worker import new_queue

    return new_queue()


@pytest.fixture(scope="session")
def session_worker(django_db_setup, django_db_blocker, worker_queue):
    """One worker for the session, on its own queue; tasks this process sends go there."""
    from tests.worker import Worker
    from trix_site.celery import app

    with django_db_blocker.unblock():
        old = app.conf.task_default_queue
        app.conf.task_default_queue = worker_queue
        worker = Worker(worker_queue)
        yield worker
        worker.stop()
        app.conf.task_default_queue = old


@pytest.fixture
def worker(session_worker, transactional_db, settings):
    """The shared worker, with this process (test code, the live server of browser tests) on
    the same short timers as the worker."""
    from tests.worker import FAST

    settings.TRIX_BOT_DELAY = float(FAST["TRIX_BOT_DELAY"])
    settings.TRIX_DEAL_PAUSE = float(FAST["TRIX_DEAL_PAUSE"])
    settings.TRIX_FORCED_DELAY = float(FAST["TRIX_FORCED_DELAY"])
    settings.TRIX_TIMER_SCALE = float(FAST["TRIX_TIMER_SCALE"])
    return session_worker
