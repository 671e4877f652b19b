"""Money on the pages: the wallet's balance and its formatting (integer minor units)."""

from __future__ import annotations

from typing import Any

from wallet.selectors import format_money, in_play, wallet_balance


def balance_of(user: Any) -> int:
    """The user's wallet balance in minor units."""
    return wallet_balance(user)


def in_play_of(user: Any) -> int:
    """The user's stakes and entry fees held in escrows not yet paid out (minor units)."""
    return in_play(user)


__all__ = ["balance_of", "format_money", "in_play_of"]
