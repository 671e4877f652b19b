"""Fixtures of the accounts tests: fresh throttle counts (the people are the root fixtures,
``tests/conftest.py``)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    """The API's rate limits count in the cache: every test starts from zero."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
