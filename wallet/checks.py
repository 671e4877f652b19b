"""Reconciliation: every invariant of the ledger, checked over the whole database.

Used by ``python manage.py ledger_check``. Each check returns a list of problems
(human-readable strings); an empty list means the ledger is sound.

Besides the ledger's own invariants (:data:`CHECKS`), the apps that describe money elsewhere
check that description against the ledger: ``settings.TRIX_LEDGER_CHECKS`` maps a check's name
to the dotted path of a function returning its problems (as Django's
``AUTH_PASSWORD_VALIDATORS``, so the ledger imports none of them): the payouts of tables
and tournaments in the public transparency log (``games.ledger_checks``,
``tournaments.ledger_checks``, through ``wallet.payouts``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.db.models import Count, F, Q, Sum, Window
from django.db.models.functions import Coalesce

from wallet.models import EXTERNAL, Account, AccountKind, Entry, Transaction, TransactionKind

LIMIT = 50  # problems listed per check; the count is always exact


def _listed(problems: list[str], total: int, what: str) -> list[str]:
    if total > len(problems):
        problems.append(f"... and {total - len(problems)} more {what}")
    return problems


def unbalanced_transactions() -> list[str]:
    """Every transaction has at least two entries and its entries sum to zero."""
    bad = (
        Transaction.objects.annotate(total=Coalesce(Sum("entries__amount"), 0), n=Count("entries"))
        .filter(Q(n__lt=2) | ~Q(total=0))
        .order_by("id")
    )
    total = bad.count()
    problems = [
        f"transaction {t.id} ({t.kind} {t.idempotency_key!r}): {t.n} entries summing to {t.total}"
        for t in bad[:LIMIT]
    ]
    return _listed(problems, total, "unbalanced transactions")


def stale_balances() -> list[str]:
    """Every account's stored balance equals the sum of its entries."""
    bad = (
        Account.objects.annotate(total=Coalesce(Sum("entries__amount"), 0))
        .exclude(balance=F("total"))
        .order_by("id")
    )
    total = bad.count()
    problems = [
        f"account {a.reference}: stored balance {a.balance}, entries sum to {a.total}"
        for a in bad[:LIMIT]
    ]
    return _listed(problems, total, "accounts with a wrong balance")


def broken_running_balances() -> list[str]:
    """Every entry's ``balance_after`` is the running sum of its account's entries."""
    running = Entry.objects.annotate(
        running=Window(Sum("amount"), partition_by=[F("account_id")], order_by=F("id").asc())
    ).values("id", "account__reference", "balance_after", "running")
    problems = []
    total = 0
    for row in running.iterator(chunk_size=5000):
        if row["balance_after"] != row["running"]:
            total += 1
            if len(problems) < LIMIT:
                problems.append(
                    f"entry {row['id']} on {row['account__reference']}: balance_after "
                    f"{row['balance_after']}, running sum {row['running']}"
                )
    return _listed(problems, total, "entries with a wrong running balance")


def negative_accounts() -> list[str]:
    """No wallet or escrow holds less than zero (stored or by its entries)."""
    bad = (
        Account.objects.exclude(kind=AccountKind.SYSTEM)
        .annotate(total=Coalesce(Sum("entries__amount"), 0))
        .filter(Q(balance__lt=0) | Q(total__lt=0))
        .order_by("id")
    )
    return [f"{a.kind} {a.reference} is negative: {min(a.balance, a.total)}" for a in bad[:LIMIT]]


def open_money_in_closed_escrows() -> list[str]:
    """Every closed escrow (settled or refunded in full: a finished table) is empty."""
    bad = (
        Account.objects.filter(kind=AccountKind.ESCROW, closed=True)
        .annotate(total=Coalesce(Sum("entries__amount"), 0))
        .filter(~Q(balance=0) | ~Q(total=0))
        .order_by("id")
    )
    return [
        f"closed escrow {a.reference} still holds {a.balance} (entries {a.total})"
        for a in bad[:LIMIT]
    ]


def money_not_accounted_for() -> list[str]:
    """Deposits minus withdrawals equal the money held in wallets, escrows and the house.

    Deposits and withdrawals are read from the transactions that touch the
    external account (reversals of them included); the money held from the
    entries of every other account. Also: only those kinds touch the external account.
    """
    external = Entry.objects.filter(account__reference=EXTERNAL)
    flows = external.values("transaction__kind").annotate(total=Sum("amount"))
    by_kind = {row["transaction__kind"]: -row["total"] for row in flows}
    problems = []
    allowed = {TransactionKind.DEPOSIT, TransactionKind.WITHDRAWAL, TransactionKind.REVERSAL}
    for kind in set(by_kind) - allowed:
        problems.append(f"{kind} transactions move money to or from the outside world")
    deposits = by_kind.get(TransactionKind.DEPOSIT, 0)
    withdrawals = -by_kind.get(TransactionKind.WITHDRAWAL, 0)
    net_in = sum(by_kind.values())
    held = (
        Entry.objects.exclude(account__reference=EXTERNAL).aggregate(total=Sum("amount"))["total"]
        or 0
    )
    stored = (
        Account.objects.exclude(reference=EXTERNAL).aggregate(total=Sum("balance"))["total"] or 0
    )
    if net_in != held or held != stored:
        problems.append(
            f"deposits {deposits} minus withdrawals {withdrawals} (net with reversals {net_in}) "
            f"but wallets, escrows and house hold {held} by entries, {stored} by balances"
        )
    return problems


def balance_trigger_present() -> list[str]:
    """On PostgreSQL, the balance and immutability triggers are installed and enabled."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname FROM pg_trigger WHERE tgname LIKE 'wallet_%%' AND tgenabled <> 'D'"
        )
        present = {row[0] for row in cursor.fetchall()}
    wanted = {"wallet_entry_balanced", "wallet_entry_immutable", "wallet_transaction_immutable"}
    return [f"database trigger {name} is missing or disabled" for name in sorted(wanted - present)]


CHECKS: list[tuple[str, Callable[[], list[str]]]] = [
    ("transactions balanced", unbalanced_transactions),
    ("stored balances match entries", stale_balances),
    ("running balances match entries", broken_running_balances),
    ("no negative wallet or escrow", negative_accounts),
    ("closed escrows empty", open_money_in_closed_escrows),
    ("deposits - withdrawals = money held", money_not_accounted_for),
    ("database guards installed", balance_trigger_present),
]


def checks() -> list[tuple[str, Callable[[], list[str]]]]:
    """:data:`CHECKS`, then those of ``settings.TRIX_LEDGER_CHECKS`` in its order."""
    from django.utils.module_loading import import_string

    named = settings.TRIX_LEDGER_CHECKS
    return [*CHECKS, *((name, import_string(path)) for name, path in named.items())]


def run_checks() -> dict[str, list[str]]:
    """Run every check (:func:`checks`) in one repeatable-read snapshot; name -> problems."""
    from django.db import transaction

    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return {name: check() for name, check in checks()}
