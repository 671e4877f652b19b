"""Input checks of the ledger's operations: amounts, idempotency keys, escrow references, users.

Each returns the checked value or raises the ``wallet.errors`` exception that says what is
wrong (``InvalidAmount``, ``LedgerError``, ``InvalidReference``, ``UnknownAccount``).
"""

from __future__ import annotations

import re
from typing import Any

from wallet.errors import InvalidAmount, InvalidReference, LedgerError, UnknownAccount

_ESCROW_REF = re.compile(r"^(table|tournament):[A-Za-z0-9_-]{1,80}$")
_MAX_KEY = 200


def amount(value: object, name: str = "amount") -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAmount(f"{name} must be an int of minor units, got {value!r}")
    if value <= 0:
        raise InvalidAmount(f"{name} must be positive, got {value}")
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
