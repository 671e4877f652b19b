"""Fixtures for the tables tests: API clients for users (the worker fixtures are shared, in
``tests/conftest.py``)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


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


@pytest.fixture
def tasks_applied_here(monkeypatch):
    """The worker's tasks are not sent (the test calls ``games.services`` itself, one known
    change at a time); bots and deals wait for nobody (the test settings' timers)."""
    from games import tasks

    for task in (tasks.wake, tasks.apply_action, tasks.pay_pot):
        monkeypatch.setattr(task, "delay", lambda *a, **k: None)
        monkeypatch.setattr(task, "apply_async", lambda *a, **k: None)
