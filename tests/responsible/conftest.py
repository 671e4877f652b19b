"""Fixtures of the responsible-play tests."""

import pytest
from django.db import connection


@pytest.fixture(params=["function", "orm"])
def ledger_path(request, monkeypatch):
    """Both executors of the wallet's postings (PostgreSQL's ``wallet_post``; the ORM)."""
    from wallet import executor_pg

    if request.param == "function" and connection.vendor != "postgresql":
        pytest.skip("the wallet_post function is PostgreSQL's")
    monkeypatch.setattr(executor_pg, "POSTGRES_FUNCTION", request.param == "function")
    return request.param
