"""Input checks of the ledger's operations: amounts, idempotency keys, escrow references, users.

Each returns the checked value or raises the ``wallet.errors`` exception that says what is
wrong (``InvalidAmount``, ``LedgerError``, ``InvalidReference``, ``UnknownAccount``).
"""

from __future__ import annotations

import re
from typing import Any

from wallet.errors import InvalidAmount, InvalidReference, LedgerError, UnknownAccount

#: The most minor units one amount may be and one wallet or escrow may hold: 10**12
#: (10,000,000,000.00 of a two-decimal currency). Far above any stake, entry fee or prize
#: the site allows (``TRIX_MAX_STAKE``, checked against it at start) and far below
#: PostgreSQL's bigint (2**63 - 1 ~ 9.2 * 10**18), so a sum of amounts never overflows;
#: ``system:external``, which holds minus everything deposited, stays within bigint for
#: nine million wallets at the bound. Enforced here (every service's amount), by
#: ``wallet_post``/the ORM executor (a posting leaving an account above it, refused before
#: a payment provider is asked) and by a CHECK constraint on ``wallet_account.balance``.
MAX_AMOUNT = 10**12

_ESCROW_REF = re.compile(r"^(table|tournament):[A-Za-z0-9_-]{1,80}$")
_MAX_KEY = 200


def amount(value: object, name: str = "amount") -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAmount(f"{name} must be an int of minor units, got {value!r}")
    if value <= 0:
        raise InvalidAmount(f"{name} must be positive, got {value}")
    return at_most_max(value, name)


def at_most_max(value: int, name: str = "amount") -> int:
    """``value`` (an int) if it is at most :data:`MAX_AMOUNT`; else ``InvalidAmount``."""
    if value > MAX_AMOUNT:
        raise InvalidAmount(f"{name} must be at most {MAX_AMOUNT} minor units, got {value}")
    return value


def key(key: object) -> str:
    if not isinstance(key, str) or not key.strip() or len(key) > _MAX_KEY:
        raise LedgerError(f"idempotency key must be a non-empty string of at most {_MAX_KEY} chars")
    return key


def escrow_ref(ref: object, prefix: str | None = None) -> str:
    if not isinstance(ref, str) or not _ESCROW_REF.match(ref):
        raise InvalidReference(f"escrow reference must look like 'table:<id>', got {ref!r}")
    if prefix and not ref.startswith(prefix + ":"):
        raise InvalidReference(f"expected a '{prefix}:<id>' reference, got {ref!r}")
    return ref


def user_id(user: Any) -> int:
    pk = getattr(user, "pk", user)
    if not isinstance(pk, int) or isinstance(pk, bool):
        raise UnknownAccount(f"not a user: {user!r}")
    return pk
