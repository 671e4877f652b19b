"""Fixtures of the responsible-play tests."""

import itertools

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

_names = itertools.count()


@pytest.fixture
def make_user(db):
    def make(name: str | None = None, **extra):
        name = name or f"player{next(_names)}"
        return get_user_model().objects.create_user(username=name, **extra)

    return make


@pytest.fixture(params=["function", "orm"])
def ledger_path(request, monkeypatch):
    """Both executors of the wallet's postings (PostgreSQL's ``wallet_post``; the ORM)."""
    from wallet import executor_pg

    if request.param == "function" and connection.vendor != "postgresql":
        pytest.skip("the wallet_post function is PostgreSQL's")
    monkeypatch.setattr(executor_pg, "POSTGRES_FUNCTION", request.param == "function")
    return request.param
