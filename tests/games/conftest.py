"""Fixtures for the tables tests: API clients for users (the worker fixtures are shared, in
``tests/conftest.py``)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def api(make_user):
    """``api("alice", funds=0)`` -> an APIClient logged in as a new user (session auth), with
    ``funds`` minor units in the wallet."""

    def make(name: str, *, funds: int = 0):
        client = APIClient()
        user = make_user(name, funds=funds)
        client.force_login(user)
        client.user = user
        return client

    return make


@pytest.fixture
def tasks_applied_here(monkeypatch, request):
    """The worker's tasks are not sent (the test calls ``games.services`` itself, one known
    change at a time); bots and deals wait for nobody (the test settings' timers).

    A transactional test's tables are committed, so another process sees them: the session
    worker's beat sweeps every table of the test database each second and re-sends each
    wake-up overdue by ``TRIX_SWEEP_LATE``, each action pending for 2 s and each unpaid pot
    (``games.services.wakes.sweep``), and would play the test's tables between its steps. The
    session worker is stopped for such a test (``no_session_worker``)."""
    from games import tasks

    marker = request.node.get_closest_marker("django_db")
    if marker is not None and (marker.kwargs.get("transaction") or marker.args[:1] == (True,)):
        request.getfixturevalue("no_session_worker")

    for task in (tasks.wake, tasks.apply_action, tasks.pay_pot):
        monkeypatch.setattr(task, "delay", lambda *a, **k: None)
        monkeypatch.setattr(task, "apply_async", lambda *a, **k: None)
