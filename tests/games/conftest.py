"""Fixtures for the tables tests: API clients for users (the worker fixtures are shared, in
``tests/conftest.py``)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


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
