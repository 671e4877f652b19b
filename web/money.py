"""Money on the pages: the wallet's balance and its formatting (integer minor units)."""

from __future__ import annotations

from typing import Any

from wallet.selectors import format_money, wallet_balance


def balance_of(user: Any) -> int:
    """The user's wallet balance in minor units."""
    return wallet_balance(user)


__all__ = ["balance_of", "format_money"]
