"""Every way money moves: plain functions, each one database transaction, each idempotent.

Money is in integer minor units (``settings.TRIX_CURRENCY``). Every function takes
an idempotency ``key`` (a non-empty string up to 200 characters, e.g.
``"stake:table:12:seat:2"``): calling again with the same key and the same
request returns the first call's :class:`~wallet.models.Transaction` and moves
nothing; the same key with a different request raises ``IdempotencyConflict``.

Each call is one database transaction (a savepoint when the caller already holds a
transaction, so a table can take a seat and its stake in one commit). The accounts a
call touches are locked with ``SELECT ... FOR UPDATE`` ordered by id, one fixed
order, so concurrent calls queue instead of deadlocking.

Errors (``wallet.errors``, all ``LedgerError``) leave the ledger untouched.
``user`` arguments accept a user instance or its primary key.

Where the rules live. A posting goes through ``wallet.posting.post`` with a
``wallet.rules.Rule``:

- In Python, once for both databases: input checks (amounts, references, keys:
  ``wallet.inputs``), the canonical request and its hash (``wallet.posting``), the
  accounts to lock and which may be created, the legs of a deposit, withdrawal, stake or
  reversal (here), the payouts of a split (``wallet.settlement``), and every refusal's
  exception and message (``wallet.rules.error``).
- Under the locks, by one of two executors of the same ``Rule``: on PostgreSQL the
  PL/pgSQL function ``wallet_post`` (``wallet.executor_pg``); elsewhere the ORM
  (``wallet.executor_orm``). Their docstrings say what both check;
  ``wallet.executor_pg.POSTGRES_FUNCTION = False`` runs the ORM executor on PostgreSQL
  too, and the wallet tests run every test on both, so the two cannot drift apart.
- In the database, whatever the executor: unique keys, the ``CheckConstraint``s of
  the models, and on PostgreSQL the deferred balance trigger and the immutability
  triggers (migration 0002).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from wallet import gates, inputs, staking
from wallet.errors import InvalidAmount, LedgerError, SettlementMismatch, UnknownAccount
from wallet.executor_orm import open_wallet_account
from wallet.models import EXTERNAL, HOUSE, Account, AccountKind, Transaction, TransactionKind
from wallet.payments import PaymentProvider, get_provider
from wallet.posting import post
from wallet.rules import Refusal, Rule, StakersChanged, error
from wallet.settlement import house_fee_for, split_pot


def wallet_ref(*, user: Any) -> str:
    """The reference of a user's wallet account: ``user:<id>``."""
    return f"user:{inputs.user_id(user)}"


def open_wallet(*, user: Any) -> Account:
    """The user's wallet account, created empty if missing. Raises ``UnknownAccount``."""
    uid = inputs.user_id(user)
    try:
        with transaction.atomic():
            return open_wallet_account(uid)
    except Refusal as refusal:
        raise error(refusal, Rule("legs"), "", None) from None


# --------------------------------------------------------------------------- deposits


def deposit(
    *,
    user: Any,
    amount: int,
    key: str,
    provider: PaymentProvider | None = None,
    reference: str | None = None,
    memo: str = "",
) -> Transaction:
    """Collect ``amount`` through the payment provider and credit the user's wallet.

    Entries: external −amount, wallet +amount. The wallet is created if missing.
    ``reference`` defaults to ``provider:<name>`` (the admin action uses
    ``admin:<username>``). ``wallet.gates.check_deposit`` is asked under the wallet's lock
    before the provider collects. Raises ``InvalidAmount``, ``UnknownAccount`` (no such
    user), ``PaymentDeclined``, ``IdempotencyConflict``, ``wallet.gates.Refused``.
    """
    amount = inputs.amount(amount)
    uid = inputs.user_id(user)
    provider = provider or get_provider()
    reference = reference or f"provider:{provider.name}"
    wallet = f"user:{uid}"

    def collect() -> dict:
        gates.check_deposit(user_id=uid, amount=amount, now=timezone.now())
        receipt = provider.collect(user_id=uid, amount=amount, key=key)
        return {"provider": provider.name, "receipt": receipt}

    return post(
        key=key,
        kind=TransactionKind.DEPOSIT,
        reference=reference,
        request={"user": uid, "amount": amount},
        refs=[wallet, EXTERNAL],
        create={wallet: (AccountKind.WALLET, uid), EXTERNAL: (AccountKind.SYSTEM, None)},
        rule=Rule("legs", legs=((EXTERNAL, -amount), (wallet, amount))),
        before_write=collect,
        memo=memo,
    )


def withdraw(
    *,
    user: Any,
    amount: int,
    key: str,
    provider: PaymentProvider | None = None,
    reference: str | None = None,
    memo: str = "",
) -> Transaction:
    """Debit the user's wallet and pay ``amount`` out through the payment provider.

    Entries: wallet −amount, external +amount. Raises ``InvalidAmount``,
    ``UnknownAccount`` (no wallet), ``InsufficientFunds``, ``wallet.gates.Refused`` (asked
    under the wallet's lock, before the provider), ``PaymentDeclined``,
    ``IdempotencyConflict``.
    """
    amount = inputs.amount(amount)
    uid = inputs.user_id(user)
    provider = provider or get_provider()
    reference = reference or f"provider:{provider.name}"
    wallet = f"user:{uid}"

    def pay_out() -> dict:
        gates.check_withdraw(user_id=uid, amount=amount, now=timezone.now())
        receipt = provider.pay_out(user_id=uid, amount=amount, key=key)
        return {"provider": provider.name, "receipt": receipt}

    return post(
        key=key,
        kind=TransactionKind.WITHDRAWAL,
        reference=reference,
        request={"user": uid, "amount": amount},
        refs=[wallet, EXTERNAL],
        create={EXTERNAL: (AccountKind.SYSTEM, None)},
        rule=Rule("legs", legs=((wallet, -amount), (EXTERNAL, amount))),
        before_write=pay_out,
        memo=memo,
    )


# --------------------------------------------------------------------------- escrows


def _pay_in(user: Any, escrow: str, amount: int, key: str, kind: str) -> Transaction:
    amount = inputs.amount(amount)
    uid = inputs.user_id(user)
    wallet = f"user:{uid}"

    def check() -> dict:  # under the wallet's lock: two stakes at once cannot both pass
        gates.check_stake(user_id=uid, amount=amount, now=timezone.now())
        return {}

    return post(
        key=key,
        kind=kind,
        reference=escrow,
        request={"user": uid, "amount": amount},
        refs=[wallet, escrow],
        create={escrow: (AccountKind.ESCROW, None)},
        rule=Rule("pay_in", legs=((wallet, -amount), (escrow, amount)), escrow=escrow),
        before_write=check,
    )


def _refund_one(user: Any, escrow: str, key: str, amount: int | None, kind: str) -> Transaction:
    uid = inputs.user_id(user)
    if amount is not None:
        amount = inputs.amount(amount)
    return post(
        key=key,
        kind=kind,
        reference=escrow,
        request={"user": uid, "amount": amount},
        refs=[f"user:{uid}", escrow],
        rule=Rule("refund", escrow=escrow, user=uid, amount=amount),
    )


def stake(*, user: Any, table_ref: str, amount: int, key: str) -> Transaction:
    """Move a seat's stake from the user's wallet into the table's escrow (created if new).

    ``table_ref`` is ``table:<id>``. Entries: wallet −amount, escrow +amount.
    ``wallet.gates.check_stake`` is asked under the wallet's lock (a replay of the same key
    is not asked again). Raises ``InvalidAmount``, ``InvalidReference``, ``UnknownAccount``
    (no wallet), ``InsufficientFunds``, ``EscrowClosed``, ``IdempotencyConflict``,
    ``wallet.gates.Refused``.
    """
    return _pay_in(user, inputs.escrow_ref(table_ref, "table"), amount, key, TransactionKind.STAKE)


def refund(*, user: Any, table_ref: str, key: str, amount: int | None = None) -> Transaction:
    """Give back the user's stake (all of it, or ``amount``) when leaving before the start.

    Entries: escrow −amount, wallet +amount. The escrow stays open. Raises
    ``InvalidReference``, ``UnknownAccount``, ``NothingToRefund``,
    ``InsufficientFunds`` (``amount`` above the stake), ``EscrowClosed``,
    ``IdempotencyConflict``.
    """
    return _refund_one(
        user, inputs.escrow_ref(table_ref, "table"), key, amount, TransactionKind.REFUND
    )


def refund_all(*, escrow_ref: str, key: str, memo: str = "") -> Transaction:
    """Give every staker (or entrant) back what they put in and close the escrow.

    For a table cancelled before its match or a tournament called off. Raises
    ``InvalidReference``, ``UnknownAccount``, ``EscrowClosed``, ``NothingToRefund``
    (empty escrow), ``SettlementMismatch`` (escrow holds more than its stakes).
    """
    escrow = inputs.escrow_ref(escrow_ref)
    kind = (
        TransactionKind.REFUND if escrow.startswith("table:") else TransactionKind.ENTRY_FEE_REFUND
    )
    for _ in range(5):
        stakers = sorted(staking.staked(escrow))
        try:
            return post(
                key=key,
                kind=kind,
                reference=escrow,
                request={"refund_all": True},
                refs=[escrow, *(f"user:{uid}" for uid in stakers)],
                rule=Rule("refund_all", escrow=escrow, users=tuple(stakers)),
                close=[escrow],
                memo=memo,
            )
        except StakersChanged:
            continue
    raise LedgerError(f"stakers of {escrow} kept changing; try again")


def _close(
    escrow: str,
    payouts: Mapping[Any, int],
    key: str,
    *,
    kind: str,
    house_fee: int,
    reference: str | None,
    memo: str,
) -> Transaction:
    """Pay ``payouts`` (user -> amount) and ``house_fee`` out of ``escrow`` and close it."""
    if not isinstance(house_fee, int) or isinstance(house_fee, bool) or house_fee < 0:
        raise InvalidAmount(f"house fee must be a non-negative int, got {house_fee!r}")
    inputs.at_most_max(house_fee, "house fee")
    paid: dict[int, int] = defaultdict(int)
    for user, amount in payouts.items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise InvalidAmount(f"payout must be a non-negative int, got {amount!r}")
        paid[inputs.user_id(user)] += inputs.at_most_max(amount, "payout")
    payees = sorted(uid for uid, amount in paid.items() if amount)
    refs = [escrow, *(f"user:{uid}" for uid in payees)]
    if house_fee:
        refs.append(HOUSE)

    return post(
        key=key,
        kind=kind,
        reference=reference or escrow,
        request={
            "escrow": escrow,
            "payouts": {str(uid): paid[uid] for uid in sorted(paid)},
            "house_fee": house_fee,
        },
        refs=refs,
        create={HOUSE: (AccountKind.SYSTEM, None)},
        rule=Rule(
            "payout",
            escrow=escrow,
            users=tuple(payees),
            amounts=tuple(paid[uid] for uid in payees),
            house_fee=house_fee,
        ),
        close=[escrow],
        memo=memo,
    )


def settle(
    *,
    table_ref: str,
    payouts: Mapping[Any, int],
    key: str,
    house_fee: int = 0,
    reference: str | None = None,
    memo: str = "",
) -> Transaction:
    """Pay a finished table's pot out of its escrow, once, and close the escrow.

    ``payouts`` maps user (or user id) -> minor units; zeros allowed; every payee
    must have staked at this table. ``sum(payouts) + house_fee`` must equal the
    escrow's balance exactly, so the escrow ends empty. Run twice or from several
    workers at once with the same ``key`` it pays once (the rest get the same
    transaction back); with another key it raises ``EscrowClosed``. Raises
    ``InvalidAmount``, ``InvalidReference``, ``UnknownAccount``,
    ``SettlementMismatch``, ``EscrowClosed``, ``IdempotencyConflict``.
    """
    return _close(
        inputs.escrow_ref(table_ref, "table"),
        payouts,
        key,
        kind=TransactionKind.SETTLEMENT,
        house_fee=house_fee,
        reference=reference,
        memo=memo,
    )


def settle_match(
    *,
    table_ref: str,
    seat_users: Mapping[int, Any],
    result: Mapping[str, Any],
    team_mode: bool,
    key: str,
    house_fee_bps: int = 0,
    reference: str | None = None,
) -> Transaction:
    """Settle a table from the engine's match result: what the tables app calls at the end.

    ``seat_users`` maps seat (0..3) -> the user seated there (``None`` or absent
    for a bot). ``result`` is the engine's match result: ``{"placements": {seat:
    place}, "forfeit": seat or None}`` (seat keys may be ints or strings). Each
    seat's stake is read from the ledger; the pot (the escrow's balance) is split
    by :func:`wallet.settlement.split_pot` with a house fee of ``house_fee_bps``
    basis points of a won pot (none on refunds). Raises what ``split_pot`` and
    :func:`settle` raise.
    """
    escrow = inputs.escrow_ref(table_ref, "table")
    placements = {int(seat): int(place) for seat, place in result["placements"].items()}
    forfeit = result.get("forfeit")
    users = {int(seat): inputs.user_id(u) for seat, u in seat_users.items() if u is not None}
    if len(set(users.values())) != len(users):
        raise SettlementMismatch("one user holds two seats")
    staked = staking.staked(escrow, users.values())
    stakes = {seat: staked[uid] for seat, uid in users.items() if staked.get(uid, 0) > 0}
    pot = sum(stakes.values())
    split = split_pot(
        pot,
        stakes,
        placements,
        team_mode,
        forfeit=None if forfeit is None else int(forfeit),
        house_fee_bps=house_fee_bps,
    )
    payouts = {users[seat]: amount for seat, amount in split.payouts.items()}
    return settle(
        table_ref=escrow, payouts=payouts, key=key, house_fee=split.house_fee, reference=reference
    )


# --------------------------------------------------------------------------- tournaments


def pay_entry_fee(*, user: Any, tournament_ref: str, amount: int, key: str) -> Transaction:
    """Move a tournament entry fee from the user's wallet into the tournament's escrow.

    ``tournament_ref`` is ``tournament:<id>``. Raises as :func:`stake`.
    """
    escrow = inputs.escrow_ref(tournament_ref, "tournament")
    return _pay_in(user, escrow, amount, key, TransactionKind.ENTRY_FEE)


def refund_entry_fee(
    *, user: Any, tournament_ref: str, key: str, amount: int | None = None
) -> Transaction:
    """Give back a withdrawn entrant's fee (all, or ``amount``). Raises as :func:`refund`."""
    escrow = inputs.escrow_ref(tournament_ref, "tournament")
    return _refund_one(user, escrow, key, amount, TransactionKind.ENTRY_FEE_REFUND)


def award_prizes(
    *,
    tournament_ref: str,
    prizes: Mapping[Any, int],
    key: str,
    house_fee: int = 0,
    memo: str = "",
) -> Transaction:
    """Pay a finished tournament's prizes (user -> minor units) and house fee; close its escrow.

    Prizes plus ``house_fee`` must equal the escrow's balance (the entry fees);
    every winner must have entered. Use :func:`wallet.settlement.house_fee_for`
    for a fee in basis points. Raises as :func:`settle`.
    """
    return _close(
        inputs.escrow_ref(tournament_ref, "tournament"),
        prizes,
        key,
        kind=TransactionKind.PRIZES,
        house_fee=house_fee,
        reference=None,
        memo=memo,
    )


# --------------------------------------------------------------------------- corrections


def reverse(*, original_key: str, key: str, memo: str = "") -> Transaction:
    """Post the exact opposite of the transaction with ``original_key``: how mistakes are fixed.

    Entries are never edited or deleted; a reversal negates every entry of the
    original. An escrow a reversal refills is reopened. Raises ``UnknownAccount``
    (no such transaction), ``AlreadyReversed``, ``InsufficientFunds`` (a wallet
    already spent the money), ``IdempotencyConflict``.
    """
    original = Transaction.objects.filter(idempotency_key=inputs.key(original_key)).first()
    if original is None:
        raise UnknownAccount(f"no transaction with key {original_key!r}")
    legs = [
        (ref, -amount)
        for ref, amount in original.entries.order_by("id").values_list(
            "account__reference", "amount"
        )
    ]

    return post(
        key=key,
        kind=TransactionKind.REVERSAL,
        reference=original.reference,
        request={"reverses": original.idempotency_key},
        refs=[ref for ref, _ in legs],
        rule=Rule("legs", legs=tuple(legs)),
        memo=memo or f"reversal of {original.idempotency_key}",
        reverses=original,
    )


__all__ = [
    "award_prizes",
    "deposit",
    "house_fee_for",
    "open_wallet",
    "pay_entry_fee",
    "refund",
    "refund_all",
    "refund_entry_fee",
    "reverse",
    "settle",
    "settle_match",
    "stake",
    "wallet_ref",
    "withdraw",
]
