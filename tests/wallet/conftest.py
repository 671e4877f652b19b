"""Fixtures of the wallet tests."""

import pytest
from django.db import connection


@pytest.fixture(autouse=True, params=["function", "orm"])
def ledger_path(request, monkeypatch):
    """Run every wallet test on both executors of the postings against the same database.

    ``function``: PostgreSQL's ``wallet_post`` (one statement per posting); ``orm``: the
    portable path SQLite uses. On SQLite the two are the same, so ``function`` is skipped.
    """
    from wallet import executor_pg

    if request.param == "function" and connection.vendor != "postgresql":
        pytest.skip("the wallet_post function is PostgreSQL's")
    monkeypatch.setattr(executor_pg, "POSTGRES_FUNCTION", request.param == "function")
    return request.param


@pytest.fixture
def immediate_constraints(db):
    """Check PostgreSQL's deferred constraints (the balance trigger, FKs) at each statement.

    Non-transactional tests never commit, so a deferred trigger would never fire.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    yield
