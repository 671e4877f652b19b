"""Reads of the ledger: balances, history, stakes. No writes here (see ``wallet.services``)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Min, Q, QuerySet, Sum
from django.urls import NoReverseMatch, reverse
from django.utils.formats import number_format
from django.utils.translation import get_language_bidi, gettext_lazy

from wallet import staking
from wallet.models import Account, AccountKind, Entry, Transaction, TransactionKind
from wallet.rules import STAKE_KINDS


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


def in_play(user: Any) -> int:
    """What the user's stakes and entry fees hold in escrows still open (minor units): money
    that left the wallet's balance for a table or tournament not yet paid out or refunded."""
    return staking.staked_in_open_escrows(_user_id(user))


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
    return staking.staked(escrow_ref)  # one definition of "staked", shared with the writes


#: What a table came to in money for one player, by its net (:func:`net_outcome`).
NET_OUTCOMES = ("won", "lost", "refunded")


def net_outcome(net: int) -> str:
    """The money label of a player's net at a table (integer minor units: what came back to
    the wallet minus what was staked, the sum of the wallet's entries of the table):
    ``"won"`` above 0, ``"lost"`` below 0, ``"refunded"`` at 0 (the stake came back whole:
    a draw, a refund, a pot with a single staker, or a share equal to the stake). The one
    rule the table page's result and the player's history label a staked match by."""
    if net > 0:
        return "won"
    if net < 0:
        return "lost"
    return "refunded"


def table_nets(table_id: int) -> dict[int, int]:
    """user id -> net of table ``table_id`` (minor units): the sum of the user's wallet
    entries with the table's reference (stakes out, refunds and the settlement's share in),
    the same sum as ``accounts.history``'s ``net`` column. Users with no entry are absent."""
    rows = (
        Entry.objects.filter(
            account__kind=AccountKind.WALLET, transaction__reference=f"table:{table_id}"
        )
        .values("account__owner_id")
        .annotate(total=Sum("amount"))
    )
    return {r["account__owner_id"]: r["total"] for r in rows}


def is_escrow_closed(escrow_ref: str) -> bool:
    """True once the escrow was settled or refunded in full."""
    return Account.objects.filter(reference=escrow_ref, closed=True).exists()


def _wallet_entries(user: Any):
    return Entry.objects.filter(account__kind=AccountKind.WALLET, account__owner_id=_user_id(user))


def deposits_since(user: Any, since: datetime) -> list[tuple[datetime, int]]:
    """The user's deposits at or after ``since``, oldest first: ``(time, minor units)``
    (what responsible play's deposit limits count)."""
    rows = (
        _wallet_entries(user)
        .filter(transaction__kind=TransactionKind.DEPOSIT, transaction__created_at__gte=since)
        .order_by("transaction__created_at", "id")
        .values_list("transaction__created_at", "amount")
    )
    return [(when, amount) for when, amount in rows if amount > 0]


def withdrawn_since(user: Any, since: datetime) -> int:
    """What the user withdrew at or after ``since`` (minor units, 0 or more); a withdrawal
    that was reversed (the money came back to the wallet) does not count."""
    total = (
        _wallet_entries(user)
        .filter(
            transaction__kind=TransactionKind.WITHDRAWAL,
            transaction__created_at__gte=since,
            transaction__reversed_by__isnull=True,
        )
        .aggregate(total=Sum("amount"))["total"]
    )
    return -(total or 0)


def _net_staked(user: Any, references: set[str]) -> dict[str, int]:
    """reference -> what the user has staked there net of refunds and reversals, all time
    (the same net as ``wallet.staking.staked``)."""
    rows = (
        _wallet_entries(user)
        .filter(
            Q(transaction__kind__in=STAKE_KINDS) | Q(transaction__reverses__kind__in=STAKE_KINDS),
            transaction__reference__in=references,
        )
        .values("transaction__reference")
        .annotate(total=Sum("amount"))
    )
    return {r["transaction__reference"]: -r["total"] for r in rows}


def stakes_since(user: Any, since: datetime) -> list[tuple[datetime, int]]:
    """The user's stakes at tables and tournament entry fees made at or after ``since``,
    oldest first: ``(time, minor units)``, each net of what was refunded of it later (a stake
    refunded in full is left out; a refund gives back the latest stake of its escrow first).
    What responsible play's stake limits count."""
    rows = list(
        _wallet_entries(user)
        .filter(
            transaction__kind__in=(TransactionKind.STAKE, TransactionKind.ENTRY_FEE),
            transaction__created_at__gte=since,
        )
        .order_by("transaction__created_at", "id")
        .values_list("transaction__created_at", "transaction__reference", "amount")
    )
    held = _net_staked(user, {ref for _, ref, _ in rows})
    counted = []
    for when, ref, amount in reversed(rows):
        part = min(-amount, max(held.get(ref, 0), 0))
        if part > 0:
            held[ref] -= part
            counted.append((when, part))
    return counted[::-1]


def table_plays_since(user: Any, since: datetime) -> list[dict[str, Any]]:
    """The user's money at each staked table where they staked at or after ``since``:
    ``{"reference", "started_at" (first stake), "ended_at" (the table's settlement, or the
    user's last refund once nothing is staked; None while open), "staked", "returned"}``
    (minor units: put in; paid back by refunds and the payout). For the reality check."""
    firsts = (
        _wallet_entries(user)
        .filter(transaction__kind=TransactionKind.STAKE, transaction__created_at__gte=since)
        .values("transaction__reference")
        .annotate(first=Min("transaction__created_at"))
    )
    started = {r["transaction__reference"]: r["first"] for r in firsts}
    if not started:
        return []
    staked: dict[str, int] = defaultdict(int)
    returned: dict[str, int] = defaultdict(int)
    last_refund: dict[str, datetime] = {}
    for ref, kind, amount, when in (
        _wallet_entries(user)
        .filter(transaction__reference__in=started)
        .values_list(
            "transaction__reference", "transaction__kind", "amount", "transaction__created_at"
        )
    ):
        if when < started[ref]:
            continue
        if amount < 0:
            staked[ref] += -amount
        else:
            returned[ref] += amount
        if kind == TransactionKind.REFUND:
            last_refund[ref] = max(when, last_refund.get(ref, when))
    settled = dict(
        Transaction.objects.filter(
            reference__in=started, kind=TransactionKind.SETTLEMENT
        ).values_list("reference", "created_at")
    )
    net = _net_staked(user, set(started))
    plays = []
    for ref, first in started.items():
        ended = settled.get(ref)
        if ended is None and net.get(ref, 0) <= 0:
            ended = last_refund.get(ref)
        plays.append(
            {
                "reference": ref,
                "started_at": first,
                "ended_at": ended,
                "staked": staked[ref],
                "returned": returned[ref],
            }
        )
    return sorted(plays, key=lambda p: p["started_at"])


#: Pages for a transaction reference ``<prefix>:<id>`` (URL names taking one id): the page
#: of the table or tournament, and its public check (a table's shuffles).
REFERENCE_URL_NAMES = {"table": "web:table", "tournament": "tournaments:detail"}
REFERENCE_VERIFY_URL_NAMES = {"table": "verify-match"}
REFERENCE_LABELS = {
    "table": gettext_lazy("Table {}"),
    "tournament": gettext_lazy("Tournament {}"),
    "provider": gettext_lazy("Payment ({})"),
    "admin": gettext_lazy("Admin ({})"),
}
#: A payment provider's reference (``provider:<name>``) by name, in the player's words.
PROVIDER_LABELS = {"demo": gettext_lazy("Demo payment")}


def _reverse(name: str | None, ident: str) -> str | None:
    if not name:
        return None
    try:
        return reverse(name, args=[int(ident)])
    except (NoReverseMatch, ValueError):
        return None


def reference_links(reference: str) -> dict[str, str | None]:
    """For a transaction reference like ``table:12``: ``{"page": "/tables/12/", "verify":
    "/verify/matches/12/", "label": "Table 12"}``; a value is None where no such page exists
    (``provider:demo``, ``admin:…``, a tournament before the tournaments pages exist); a
    provider of :data:`PROVIDER_LABELS` is labelled by name ("Demo payment")."""
    prefix, _, ident = reference.partition(":")
    label = REFERENCE_LABELS.get(prefix)
    named = PROVIDER_LABELS.get(ident) if prefix == "provider" else None
    return {
        "page": _reverse(REFERENCE_URL_NAMES.get(prefix), ident),
        "verify": _reverse(REFERENCE_VERIFY_URL_NAMES.get(prefix), ident),
        "label": str(named) if named else str(label).format(ident) if label and ident else None,
    }


def reference_url(reference: str) -> str | None:
    """A link for a transaction reference like ``table:12`` (its page), if that page exists."""
    return reference_links(reference)["page"]


def format_money(amount: int) -> str:
    """``12345`` -> ``"123.45 USD"`` with ``settings.TRIX_CURRENCY_DECIMALS``, written for the
    active language (Django's number formats: ``trix_site/formats``; Western digits, "." and
    "," in both languages). In a right-to-left language the amount is wrapped in Unicode
    directional isolates (U+2066 ... U+2069) so that "-5.00 USD" keeps its order inside an
    Arabic sentence. ``web/static/web/api.js`` (``Trix.formatMoney``) writes the same."""
    decimals = settings.TRIX_CURRENCY_DECIMALS
    value = Decimal(amount).scaleb(-decimals)
    number = number_format(value, decimal_pos=decimals, use_l10n=True, force_grouping=True)
    text = f"{number} {settings.TRIX_CURRENCY}"
    return f"\u2066{text}\u2069" if get_language_bidi() else text
