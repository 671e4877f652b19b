"""The tables app's only door to the ledger (``wallet.services``).

Stakes are integer minor units. Every call carries an idempotency key derived from the
table, the seat and the join, so a retried task or request moves money once:

- :func:`stake` when a user takes a seat at a paid table;
- :func:`refund` when they leave it before the match starts;
- :func:`refund_all` when a table is cancelled before its match;
- :func:`settle` exactly once when the match ends (normally or by forfeit).

:func:`format_money` (the ledger's) writes amounts in messages. Free tables (stake 0) never
touch the ledger. Errors come out as :class:`StakeError` with
the ledger's message, or for a short wallet one a player can act on ("Your wallet holds
3.00 USD; this table's stake is 5.00 USD. Add money on your wallet page: /wallet/").
"""

from __future__ import annotations

from typing import Any

from wallet import services as _wallet
from wallet.errors import InsufficientFunds, LedgerError
from wallet.selectors import format_money, wallet_balance


class StakeError(Exception):
    """The ledger refused: short balance, closed escrow, no wallet. Nothing moved."""


def _require_wallet():
    return _wallet


def stake(user: Any, table_ref: str, amount: int, key: str) -> None:
    """Move ``amount`` from the user's wallet into the table's escrow. Raises StakeError."""
    if amount <= 0:
        return
    try:
        _require_wallet().stake(user, table_ref, amount, key)
    except InsufficientFunds as exc:
        raise StakeError(
            f"Your wallet holds {format_money(wallet_balance(user))}; this table's stake is "
            f"{format_money(amount)}. Add money on your wallet page: /wallet/"
        ) from exc
    except LedgerError as exc:
        raise StakeError(f"cannot stake {amount}: {exc}") from exc


def refund(user: Any, table_ref: str, amount: int, key: str) -> None:
    """Give the user's stake at this table back (leaving before the start)."""
    if amount <= 0:
        return
    try:
        _require_wallet().refund(user, table_ref, key)
    except LedgerError as exc:
        raise StakeError(f"cannot refund: {exc}") from exc


def refund_all(table_ref: str, key: str) -> None:
    """Give every staker back their stake and close the escrow (table cancelled)."""
    try:
        _require_wallet().refund_all(table_ref, key, memo="table cancelled")
    except LedgerError as exc:
        raise StakeError(f"cannot refund the table: {exc}") from exc


def settle(
    table_ref: str, seat_users: dict[int, Any], result: dict[str, Any], team_mode: bool, key: str
) -> None:
    """Pay the pot out by the engine's ``result`` (placements, forfeit) once, and close the
    escrow. ``seat_users`` maps seat -> user (None for a bot). Raises StakeError."""
    try:
        _require_wallet().settle_match(table_ref, seat_users, result, team_mode, key)
    except LedgerError as exc:
        raise StakeError(f"cannot settle: {exc}") from exc
