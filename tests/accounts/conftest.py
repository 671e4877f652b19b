"""Fixtures of the accounts tests: users with money, staff, fresh throttle counts."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model

_names = itertools.count()
PASSWORD = "pw-Trix-2025!"


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    """The API's rate limits count in the cache: every test starts from zero."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def player(db):
    """``player(funds=1_000, name=None)`` -> a user (password :data:`PASSWORD`) with a
    profile and ``funds`` minor units deposited."""
    from accounts.services import set_display_name
    from wallet import services as wallet

    def make(funds: int = 1_000, name: str | None = None):
        name = name or f"player{next(_names)}"
        user = get_user_model().objects.create_user(name, f"{name}@example.com", PASSWORD)
        set_display_name(user, name.title())
        if funds:
            wallet.deposit(user=user, amount=funds, key=f"test-deposit:{user.pk}")
        return user

    return make


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user(
        f"staff{next(_names)}", password=PASSWORD, is_staff=True
    )
