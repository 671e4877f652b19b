"""Money on the pages: the wallet's balance and its formatting (integer minor units)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

try:  # the wallet app lands on main in parallel (branch ``wallet``)
    from wallet.selectors import format_money, wallet_balance
except ImportError:  # pragma: no cover - TEMPORARY until the wallet branch is merged
    wallet_balance = None

    def format_money(amount: int) -> str:
        return f"{amount / 100:.2f} {settings.TRIX_CURRENCY}"


def balance_of(user: Any) -> int | None:
    """The user's wallet balance in minor units (None before the wallet app exists)."""
    return wallet_balance(user) if wallet_balance else None


__all__ = ["balance_of", "format_money"]
