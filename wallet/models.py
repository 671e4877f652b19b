"""The ledger's tables: accounts, transactions and their entries (double entry).

Money is in integer minor units of one currency per deployment
(``settings.TRIX_CURRENCY``). Writes go through ``wallet.services`` only.

Enforced by the database: unique idempotency keys; a stored balance that never
goes below zero on wallets and escrows (``CheckConstraint``); non-zero entries;
and on PostgreSQL (migration 0002) a deferred constraint trigger refusing any
transaction whose entries do not sum to zero, and triggers refusing UPDATE and
DELETE of entries and transactions.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from wallet.errors import ImmutableEntry
from wallet.inputs import MAX_AMOUNT


class AccountKind(models.TextChoices):
    WALLET = "wallet", "Wallet"
    ESCROW = "escrow", "Escrow"
    SYSTEM = "system", "System"


class TransactionKind(models.TextChoices):
    DEPOSIT = "deposit", _("Deposit")
    WITHDRAWAL = "withdrawal", _("Withdrawal")
    STAKE = "stake", _("Stake")
    REFUND = "refund", _("Refund")
    SETTLEMENT = "settlement", _("Settlement")
    ENTRY_FEE = "entry_fee", _("Tournament entry fee")
    ENTRY_FEE_REFUND = "entry_fee_refund", _("Tournament entry fee refund")
    PRIZES = "prizes", _("Tournament prizes")
    REVERSAL = "reversal", _("Reversal")


#: References of the two system accounts.
EXTERNAL = "system:external"  # the outside world: deposits come from it, withdrawals go to it
HOUSE = "system:house"  # house fees


class Account(models.Model):
    """A wallet (one per user), an escrow (one per staked table or tournament) or a system account.

    ``reference`` names it: ``user:<id>`` for wallets, ``table:<id>`` or
    ``tournament:<id>`` for escrows, ``system:external`` / ``system:house``.
    ``balance`` is the sum of its entries, kept in the same database transaction
    as the entries. ``closed`` marks an escrow settled or refunded in full: it
    must hold nothing and takes no more money.
    """

    kind = models.CharField(max_length=10, choices=AccountKind.choices)
    reference = models.CharField(max_length=100, unique=True)
    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="wallet_account",
    )
    balance = models.BigIntegerField(default=0)
    closed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="system") | Q(balance__gte=0),
                name="wallet_account_balance_not_negative",
                violation_error_message="A wallet or escrow balance cannot go below zero.",
            ),
            models.CheckConstraint(
                condition=Q(kind="system") | Q(balance__lte=MAX_AMOUNT),
                name="wallet_account_balance_at_most_max",
                violation_error_message="A wallet or escrow holds at most MAX_AMOUNT.",
            ),
            models.CheckConstraint(
                condition=(Q(kind="wallet") & Q(owner__isnull=False))
                | (~Q(kind="wallet") & Q(owner__isnull=True)),
                name="wallet_account_owner_iff_wallet",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["wallet", "escrow", "system"]),
                name="wallet_account_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind="escrow") | Q(closed=False),
                name="wallet_account_only_escrow_closes",
            ),
        ]

    def __str__(self) -> str:
        return self.reference


class ImmutableQuerySet(models.QuerySet):
    """Refuses bulk UPDATE and DELETE: ledger rows are append-only."""

    def update(self, **kwargs):
        raise ImmutableEntry(f"{self.model._meta.verbose_name_plural} are never edited")

    def delete(self):
        raise ImmutableEntry(f"{self.model._meta.verbose_name_plural} are never deleted")


class Transaction(models.Model):
    """One movement of money: a set of entries summing to zero.

    ``idempotency_key`` is unique: repeating a request with the same key returns
    this transaction; the same key with a request of different contents is
    refused (``request_hash`` is the SHA-256 of the request's canonical JSON,
    ``request`` the JSON itself). ``reference`` names what it is about
    (``table:<id>``, ``tournament:<id>``, ``admin:<username>``, ``provider:<name>``).
    """

    idempotency_key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=20, choices=TransactionKind.choices)
    reference = models.CharField(max_length=100, db_index=True)
    request = models.JSONField()
    request_hash = models.CharField(max_length=64)
    memo = models.CharField(max_length=200, blank=True, default="")
    #: Provider receipt and other facts outside the request; not part of the hash.
    details = models.JSONField(default=dict, blank=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in TransactionKind]),
                name="wallet_transaction_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.reference} ({self.idempotency_key})"

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise ImmutableEntry("transactions are never edited; post a reversal")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEntry("transactions are never deleted; post a reversal")


class Entry(models.Model):
    """One line of a transaction: ``amount`` minor units into (+) or out of (-) ``account``.

    ``balance_after`` is the account's balance right after this entry (for history).
    Immutable: saving an existing entry or deleting one raises ``ImmutableEntry``.
    """

    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField()

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "entries"
        indexes = [models.Index(fields=["account", "id"], name="wallet_entry_account_id")]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="wallet_entry_amount_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.account_id}: {self.amount:+d}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise ImmutableEntry("entries are never edited; post a reversal")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEntry("entries are never deleted; post a reversal")
