"""Reads of the ledger: balances, history, stakes. No writes here (see ``wallet.services``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.urls import NoReverseMatch, reverse

from wallet.models import Account, AccountKind, Entry


def _user_id(user: Any) -> int:
    return getattr(user, "pk", user)


def wallet_balance(user: Any) -> int:
    """The user's wallet balance in minor units (0 if the user has no wallet yet)."""
    value = (
        Account.objects.filter(kind=AccountKind.WALLET, owner_id=_user_id(user))
        .values_list("balance", flat=True)
        .first()
    )
    return value or 0


def wallet_history(user: Any) -> QuerySet[Entry]:
    """The user's wallet entries, newest first, with their transactions.

    Each entry has ``amount`` (+ in, − out), ``balance_after`` and
    ``transaction`` (``kind``, ``reference``, ``created_at``, ``memo``).
    """
    return (
        Entry.objects.filter(account__kind=AccountKind.WALLET, account__owner_id=_user_id(user))
        .select_related("transaction")
        .order_by("-id")
    )


def escrow_balance(escrow_ref: str) -> int:
    """What the escrow ``table:<id>`` / ``tournament:<id>`` holds (0 if it does not exist)."""
    value = (
        Account.objects.filter(kind=AccountKind.ESCROW, reference=escrow_ref)
        .values_list("balance", flat=True)
        .first()
    )
    return value or 0


def stakes_in(escrow_ref: str) -> dict[int, int]:
    """user id -> net amount staked (stakes or entry fees minus refunds) in the escrow."""
    from wallet.services import _staked  # one definition of "staked", shared with the writes

    return _staked(escrow_ref)


def is_escrow_closed(escrow_ref: str) -> bool:
    """True once the escrow was settled or refunded in full."""
    return Account.objects.filter(reference=escrow_ref, closed=True).exists()


#: URL names the tables and tournaments apps are expected to provide (one ``pk`` argument).
REFERENCE_URL_NAMES = {"table": "games:table_detail", "tournament": "tournaments:detail"}


def reference_url(reference: str) -> str | None:
    """A link for a transaction reference like ``table:12``, if that page exists yet."""
    prefix, _, ident = reference.partition(":")
    name = REFERENCE_URL_NAMES.get(prefix)
    if not name or not ident:
        return None
    try:
        return reverse(name, args=[ident])
    except NoReverseMatch:
        return None


def format_money(amount: int) -> str:
    """``12345`` -> ``"123.45 USD"`` with ``settings.TRIX_CURRENCY_DECIMALS`` (default 2)."""
    decimals = getattr(settings, "TRIX_CURRENCY_DECIMALS", 2)
    sign = "-" if amount < 0 else ""
    whole, frac = divmod(abs(amount), 10**decimals)
    text = f"{whole:,}" + (f".{frac:0{decimals}d}" if decimals else "")
    return f"{sign}{text} {settings.TRIX_CURRENCY}"
