"""Every way money moves: plain functions, each one database transaction, each idempotent.

Money is in integer minor units (``settings.TRIX_CURRENCY``). Every function takes
an idempotency ``key`` (a non-empty string up to 200 characters, e.g.
``"stake:table:12:seat:2"``): calling again with the same key and the same
request returns the first call's :class:`~wallet.models.Transaction` and moves
nothing; the same key with a different request raises ``IdempotencyConflict``.

Each call runs in ``transaction.atomic()`` (a savepoint when the caller already
holds a transaction, so a table can take a seat and its stake in one commit). The
accounts a call touches are locked with ``SELECT ... FOR UPDATE`` ordered by id,
one fixed order, so concurrent calls queue instead of deadlocking.

Errors (``wallet.errors``, all ``LedgerError``) leave the ledger untouched.
``user`` arguments accept a user instance or its primary key.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q, Sum
from django.utils import timezone

from wallet.errors import (
    AlreadyReversed,
    EscrowClosed,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidReference,
    LedgerError,
    NothingToRefund,
    SettlementMismatch,
    UnknownAccount,
)
from wallet.models import (
    EXTERNAL,
    HOUSE,
    Account,
    AccountKind,
    Entry,
    Transaction,
    TransactionKind,
)
from wallet.payments import PaymentProvider, get_provider
from wallet.settlement import house_fee_for, split_pot

#: Kinds that put a user's money into an escrow or take it back before the end.
STAKE_KINDS = (
    TransactionKind.STAKE,
    TransactionKind.REFUND,
    TransactionKind.ENTRY_FEE,
    TransactionKind.ENTRY_FEE_REFUND,
)
_ESCROW_REF = re.compile(r"^(table|tournament):[A-Za-z0-9_-]{1,80}$")
_MAX_KEY = 200

Legs = list[tuple[str, int]]


# --------------------------------------------------------------------------- input checks


def _amount(value: object, name: str = "amount") -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAmount(f"{name} must be an int of minor units, got {value!r}")
    if value <= 0:
        raise InvalidAmount(f"{name} must be positive, got {value}")
    return value


def _key(key: object) -> str:
    if not isinstance(key, str) or not key.strip() or len(key) > _MAX_KEY:
        raise LedgerError(f"idempotency key must be a non-empty string of at most {_MAX_KEY} chars")
    return key


def _escrow_ref(ref: object, prefix: str | None = None) -> str:
    if not isinstance(ref, str) or not _ESCROW_REF.match(ref):
        raise InvalidReference(f"escrow reference must look like 'table:<id>', got {ref!r}")
    if prefix and not ref.startswith(prefix + ":"):
        raise InvalidReference(f"expected a '{prefix}:<id>' reference, got {ref!r}")
    return ref


def _user_id(user: Any) -> int:
    pk = getattr(user, "pk", user)
    if not isinstance(pk, int) or isinstance(pk, bool):
        raise UnknownAccount(f"not a user: {user!r}")
    return pk


def wallet_ref(user: Any) -> str:
    """The reference of a user's wallet account: ``user:<id>``."""
    return f"user:{_user_id(user)}"


# --------------------------------------------------------------------------- the core


def _lock(refs: Iterable[str], create: Mapping[str, Callable[[], object]]) -> dict[str, Account]:
    """Lock the accounts named by ``refs`` in id order; create those in ``create`` if missing."""
    wanted = sorted(set(refs))
    rows = list(Account.objects.select_for_update().filter(reference__in=wanted).order_by("id"))
    missing = set(wanted) - {a.reference for a in rows}
    if missing:
        for ref in sorted(missing):
            if ref not in create:
                raise UnknownAccount(f"no account {ref}")
            create[ref]()
        rows = list(Account.objects.select_for_update().filter(reference__in=wanted).order_by("id"))
    return {a.reference: a for a in rows}


def _request_hash(request: Mapping[str, Any]) -> tuple[dict, str]:
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"))
    return json.loads(canonical), hashlib.sha256(canonical.encode()).hexdigest()


def _replay(existing: Transaction, request_hash: str) -> Transaction:
    if existing.request_hash != request_hash:
        raise IdempotencyConflict(
            f"idempotency key {existing.idempotency_key!r} was used for a different request "
            f"({existing.kind} {existing.reference})"
        )
    return existing


def _post(
    *,
    key: str,
    kind: str,
    reference: str,
    request: dict[str, Any],
    refs: Iterable[str],
    build: Callable[[dict[str, Account]], Legs],
    create: Mapping[str, Callable[[], object]] | None = None,
    before_write: Callable[[], dict] | None = None,
    close: Iterable[str] = (),
    memo: str = "",
    reverses: Transaction | None = None,
) -> Transaction:
    """Lock, check the key, build the legs, write the transaction; all or nothing.

    ``build`` gets the locked accounts by reference and returns ``[(reference, amount)]``
    (summing to zero) or raises a ``LedgerError``. ``before_write`` (the payment
    provider) runs after every check and returns facts stored in ``details``.
    ``close`` names escrows to close; they must end empty.
    """
    key = _key(key)
    request = {"kind": kind, "reference": reference, **request}
    request, request_hash = _request_hash(request)
    try:
        with transaction.atomic():
            accounts = _lock(refs, create or {})
            existing = Transaction.objects.filter(idempotency_key=key).first()
            if existing is not None:
                return _replay(existing, request_hash)
            legs = build(accounts)
            return _write(
                key=key,
                kind=kind,
                reference=reference,
                request=request,
                request_hash=request_hash,
                legs=legs,
                accounts=accounts,
                details=before_write() if before_write else {},
                close=set(close),
                memo=memo,
                reverses=reverses,
            )
    except IntegrityError:
        # Another transaction committed the same key first (its accounts differed,
        # so the row locks did not queue us behind it).
        existing = Transaction.objects.filter(idempotency_key=key).first()
        if existing is None:
            raise
        return _replay(existing, request_hash)


def _write(
    *,
    key: str,
    kind: str,
    reference: str,
    request: dict,
    request_hash: str,
    legs: Legs,
    accounts: dict[str, Account],
    details: dict,
    close: set[str],
    memo: str,
    reverses: Transaction | None,
) -> Transaction:
    legs = [(ref, amount) for ref, amount in legs if amount != 0]
    if sum(amount for _, amount in legs) != 0 or len(legs) < 2:
        raise LedgerError(f"internal error: unbalanced legs {legs}")
    balances = {ref: accounts[ref].balance for ref in accounts}
    entries = []
    for ref, amount in legs:
        account = accounts[ref]
        balances[ref] += amount
        entries.append(Entry(account=account, amount=amount, balance_after=balances[ref]))
    for ref, balance in balances.items():
        account = accounts[ref]
        if account.kind != AccountKind.SYSTEM and balance < 0:
            raise InsufficientFunds(
                f"{ref} holds {account.balance}, {account.balance - balance} needed"
            )
        if ref in close and balance != 0:
            raise SettlementMismatch(f"{ref} would keep {balance} after closing")

    updates = []  # (account id, balance delta, closed after)
    for ref, account in accounts.items():
        delta = balances[ref] - account.balance
        closed = ref in close or (account.closed and balances[ref] == 0)
        if delta or closed != account.closed:
            updates.append((account.pk, delta, closed))
    fields = {
        "idempotency_key": key,
        "kind": kind,
        "reference": reference,
        "request": request,
        "request_hash": request_hash,
        "details": details,
        "memo": memo[:200],
        "reverses": reverses,
        "created_at": timezone.now(),
    }
    if _single_statement_writes():
        txn = _write_one_statement(fields, entries, updates)
    else:
        txn = _write_with_orm(fields, entries, updates)
    for ref, balance in balances.items():
        accounts[ref].balance = balance
    return txn


def _single_statement_writes() -> bool:
    """PostgreSQL writes a transaction in one statement (data-modifying CTEs), others via ORM."""
    return connection.vendor == "postgresql" and SINGLE_STATEMENT_WRITES


#: Switch for tests: False runs the portable ORM path on PostgreSQL too.
SINGLE_STATEMENT_WRITES = True


def _write_with_orm(fields: dict, entries: list[Entry], updates: list) -> Transaction:
    txn = Transaction(**fields)
    txn.save(force_insert=True)
    for entry in entries:
        entry.transaction = txn
    Entry.objects.bulk_create(entries)
    for pk, delta, closed in updates:
        Account.objects.filter(pk=pk).update(balance=F("balance") + delta, closed=closed)
    return txn


_WRITE_SQL = """
WITH txn AS (
    INSERT INTO wallet_transaction
        (idempotency_key, kind, reference, request, request_hash, memo, details,
         reverses_id, created_at)
    VALUES (%s, %s, %s, %s::jsonb, %s, %s, %s::jsonb, %s, %s)
    RETURNING id
), entries AS (
    INSERT INTO wallet_entry (transaction_id, account_id, amount, balance_after)
    SELECT txn.id, e.account_id, e.amount, e.balance_after
      FROM txn,
           unnest(%s::bigint[], %s::bigint[], %s::bigint[])
               WITH ORDINALITY AS e(account_id, amount, balance_after, n)
     ORDER BY e.n
    RETURNING id
), accounts AS (
    UPDATE wallet_account AS a
       SET balance = a.balance + u.delta, closed = u.closed
      FROM unnest(%s::bigint[], %s::bigint[], %s::boolean[]) AS u(id, delta, closed)
     WHERE a.id = u.id
    RETURNING a.id
)
SELECT (SELECT id FROM txn), (SELECT count(*) FROM entries), (SELECT count(*) FROM accounts)
"""


def _write_one_statement(fields: dict, entries: list[Entry], updates: list) -> Transaction:
    """Insert the transaction and its entries and update the balances in one round trip."""
    reverses = fields["reverses"]
    params = [
        fields["idempotency_key"],
        fields["kind"],
        fields["reference"],
        json.dumps(fields["request"]),
        fields["request_hash"],
        fields["memo"],
        json.dumps(fields["details"]),
        reverses.pk if reverses else None,
        fields["created_at"],
        [e.account.pk for e in entries],
        [e.amount for e in entries],
        [e.balance_after for e in entries],
        [u[0] for u in updates],
        [u[1] for u in updates],
        [u[2] for u in updates],
    ]
    with connection.cursor() as cursor:
        cursor.execute(_WRITE_SQL, params)
        pk, n_entries, n_accounts = cursor.fetchone()
    if n_entries != len(entries) or n_accounts != len(updates):
        raise LedgerError("internal error: the ledger write touched unexpected rows")
    txn = Transaction(pk=pk, **fields)
    txn._state.adding = False
    txn._state.db = connection.alias
    return txn


def _system_creator(ref: str) -> Callable[[], None]:
    def create() -> None:
        Account.objects.bulk_create(
            [Account(reference=ref, kind=AccountKind.SYSTEM)], ignore_conflicts=True
        )

    return create


def _wallet_creator(user_id: int) -> Callable[[], Account]:
    def create() -> Account:
        if not get_user_model().objects.filter(pk=user_id).exists():
            raise UnknownAccount(f"no user {user_id}")
        account, _ = Account.objects.get_or_create(
            reference=f"user:{user_id}",
            defaults={"kind": AccountKind.WALLET, "owner_id": user_id},
        )
        return account

    return create


def _escrow_creator(ref: str) -> Callable[[], None]:
    def create() -> None:
        # INSERT ... ON CONFLICT DO NOTHING: one round trip, no savepoint; a rival
        # creating the same escrow makes us wait for its commit, then we lock its row.
        Account.objects.bulk_create(
            [Account(reference=ref, kind=AccountKind.ESCROW)], ignore_conflicts=True
        )

    return create


def open_wallet(user: Any) -> Account:
    """The user's wallet account, created empty if missing. Raises ``UnknownAccount``."""
    uid = _user_id(user)
    with transaction.atomic():
        return _wallet_creator(uid)()


# --------------------------------------------------------------------------- deposits


def deposit(
    user: Any,
    amount: int,
    key: str,
    *,
    provider: PaymentProvider | None = None,
    reference: str | None = None,
    memo: str = "",
) -> Transaction:
    """Collect ``amount`` through the payment provider and credit the user's wallet.

    Entries: external −amount, wallet +amount. The wallet is created if missing.
    ``reference`` defaults to ``provider:<name>`` (the admin action uses
    ``admin:<username>``). Raises ``InvalidAmount``, ``UnknownAccount`` (no such
    user), ``PaymentDeclined``, ``IdempotencyConflict``.
    """
    amount = _amount(amount)
    uid = _user_id(user)
    provider = provider or get_provider()
    reference = reference or f"provider:{provider.name}"
    wallet = f"user:{uid}"

    def collect() -> dict:
        receipt = provider.collect(user_id=uid, amount=amount, key=key)
        return {"provider": provider.name, "receipt": receipt}

    return _post(
        key=key,
        kind=TransactionKind.DEPOSIT,
        reference=reference,
        request={"user": uid, "amount": amount},
        refs=[wallet, EXTERNAL],
        create={wallet: _wallet_creator(uid), EXTERNAL: _system_creator(EXTERNAL)},
        build=lambda accounts: [(EXTERNAL, -amount), (wallet, amount)],
        before_write=collect,
        memo=memo,
    )


def withdraw(
    user: Any,
    amount: int,
    key: str,
    *,
    provider: PaymentProvider | None = None,
    reference: str | None = None,
    memo: str = "",
) -> Transaction:
    """Debit the user's wallet and pay ``amount`` out through the payment provider.

    Entries: wallet −amount, external +amount. Raises ``InvalidAmount``,
    ``UnknownAccount`` (no wallet), ``InsufficientFunds``, ``PaymentDeclined``,
    ``IdempotencyConflict``.
    """
    amount = _amount(amount)
    uid = _user_id(user)
    provider = provider or get_provider()
    reference = reference or f"provider:{provider.name}"
    wallet = f"user:{uid}"

    def pay_out() -> dict:
        receipt = provider.pay_out(user_id=uid, amount=amount, key=key)
        return {"provider": provider.name, "receipt": receipt}

    return _post(
        key=key,
        kind=TransactionKind.WITHDRAWAL,
        reference=reference,
        request={"user": uid, "amount": amount},
        refs=[wallet, EXTERNAL],
        create={EXTERNAL: _system_creator(EXTERNAL)},
        build=lambda accounts: [(wallet, -amount), (EXTERNAL, amount)],
        before_write=pay_out,
        memo=memo,
    )


# --------------------------------------------------------------------------- escrows


def _pay_in(user: Any, escrow: str, amount: int, key: str, kind: str) -> Transaction:
    amount = _amount(amount)
    uid = _user_id(user)
    wallet = f"user:{uid}"

    def build(accounts: dict[str, Account]) -> Legs:
        if accounts[escrow].closed:
            raise EscrowClosed(f"{escrow} is settled; it takes no more stakes")
        return [(wallet, -amount), (escrow, amount)]

    return _post(
        key=key,
        kind=kind,
        reference=escrow,
        request={"user": uid, "amount": amount},
        refs=[wallet, escrow],
        create={escrow: _escrow_creator(escrow)},
        build=build,
    )


def _staked(escrow: str, user_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Net amount each user has in ``escrow``: stakes/entry fees minus refunds (and reversals)."""
    rows = Entry.objects.filter(
        Q(transaction__kind__in=STAKE_KINDS) | Q(transaction__reverses__kind__in=STAKE_KINDS),
        transaction__reference=escrow,
        account__kind=AccountKind.WALLET,
    )
    if user_ids is not None:
        rows = rows.filter(account__owner_id__in=list(user_ids))
    totals = rows.values("account__owner_id").annotate(total=Sum("amount"))
    return {r["account__owner_id"]: -r["total"] for r in totals if r["total"] != 0}


def _refund_one(user: Any, escrow: str, key: str, amount: int | None, kind: str) -> Transaction:
    uid = _user_id(user)
    if amount is not None:
        amount = _amount(amount)
    wallet = f"user:{uid}"

    def build(accounts: dict[str, Account]) -> Legs:
        if accounts[escrow].closed:
            raise EscrowClosed(f"{escrow} is settled; nothing can be refunded")
        staked = _staked(escrow, [uid]).get(uid, 0)
        if staked <= 0:
            raise NothingToRefund(f"user {uid} has nothing in {escrow}")
        give = staked if amount is None else amount
        if give > staked:
            raise InsufficientFunds(f"user {uid} has {staked} in {escrow}, {give} asked back")
        return [(escrow, -give), (wallet, give)]

    return _post(
        key=key,
        kind=kind,
        reference=escrow,
        request={"user": uid, "amount": amount},
        refs=[wallet, escrow],
        build=build,
    )


def stake(user: Any, table_ref: str, amount: int, key: str) -> Transaction:
    """Move a seat's stake from the user's wallet into the table's escrow (created if new).

    ``table_ref`` is ``table:<id>``. Entries: wallet −amount, escrow +amount.
    Raises ``InvalidAmount``, ``InvalidReference``, ``UnknownAccount`` (no wallet),
    ``InsufficientFunds``, ``EscrowClosed``, ``IdempotencyConflict``.
    """
    return _pay_in(user, _escrow_ref(table_ref, "table"), amount, key, TransactionKind.STAKE)


def refund(user: Any, table_ref: str, key: str, *, amount: int | None = None) -> Transaction:
    """Give back the user's stake (all of it, or ``amount``) when leaving before the start.

    Entries: escrow −amount, wallet +amount. The escrow stays open. Raises
    ``InvalidReference``, ``UnknownAccount``, ``NothingToRefund``,
    ``InsufficientFunds`` (``amount`` above the stake), ``EscrowClosed``,
    ``IdempotencyConflict``.
    """
    return _refund_one(user, _escrow_ref(table_ref, "table"), key, amount, TransactionKind.REFUND)


def refund_all(escrow_ref: str, key: str, *, memo: str = "") -> Transaction:
    """Give every staker (or entrant) back what they put in and close the escrow.

    For a table cancelled before its match or a tournament called off. Raises
    ``InvalidReference``, ``UnknownAccount``, ``EscrowClosed``, ``NothingToRefund``
    (empty escrow), ``SettlementMismatch`` (escrow holds more than its stakes).
    """
    escrow = _escrow_ref(escrow_ref)
    kind = (
        TransactionKind.REFUND if escrow.startswith("table:") else TransactionKind.ENTRY_FEE_REFUND
    )
    for _ in range(5):
        stakers = sorted(_staked(escrow))

        def build(accounts: dict[str, Account], stakers=stakers) -> Legs:
            _check_open(accounts[escrow])
            current = _staked(escrow)  # now final: the escrow is locked
            if not current:
                raise NothingToRefund(f"{escrow} holds no stakes")
            if sorted(current) != stakers:
                raise _StakersChanged()
            legs: Legs = [(f"user:{uid}", amount) for uid, amount in sorted(current.items())]
            legs.append((escrow, -sum(current.values())))
            return legs

        try:
            return _post(
                key=key,
                kind=kind,
                reference=escrow,
                request={"refund_all": True},
                refs=[escrow, *(f"user:{uid}" for uid in stakers)],
                build=build,
                close=[escrow],
                memo=memo,
            )
        except _StakersChanged:
            continue
    raise LedgerError(f"stakers of {escrow} kept changing; try again")


class _StakersChanged(Exception):
    """A stake arrived between reading the stakers and locking the escrow: read again."""


def _check_open(escrow: Account) -> None:
    if escrow.closed:
        raise EscrowClosed(f"{escrow.reference} is already settled")


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
    paid: dict[int, int] = defaultdict(int)
    for user, amount in payouts.items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise InvalidAmount(f"payout must be a non-negative int, got {amount!r}")
        paid[_user_id(user)] += amount
    payees = sorted(uid for uid, amount in paid.items() if amount)
    refs = [escrow, *(f"user:{uid}" for uid in payees)]
    if house_fee:
        refs.append(HOUSE)

    def build(accounts: dict[str, Account]) -> Legs:
        _check_open(accounts[escrow])
        stakers = _staked(escrow)
        strangers = [uid for uid in payees if uid not in stakers]
        if strangers:
            raise SettlementMismatch(f"users {strangers} did not stake in {escrow}")
        total = sum(paid.values()) + house_fee
        held = accounts[escrow].balance
        if held == 0:
            raise SettlementMismatch(f"{escrow} holds nothing to pay out")
        if total != held:
            raise SettlementMismatch(f"{escrow} holds {held}; payouts and fee total {total}")
        legs: Legs = [(f"user:{uid}", paid[uid]) for uid in payees]
        if house_fee:
            legs.append((HOUSE, house_fee))
        legs.append((escrow, -held))
        return legs

    return _post(
        key=key,
        kind=kind,
        reference=reference or escrow,
        request={
            "escrow": escrow,
            "payouts": {str(uid): paid[uid] for uid in sorted(paid)},
            "house_fee": house_fee,
        },
        refs=refs,
        create={HOUSE: _system_creator(HOUSE)},
        build=build,
        close=[escrow],
        memo=memo,
    )


def settle(
    table_ref: str,
    payouts: Mapping[Any, int],
    key: str,
    *,
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
        _escrow_ref(table_ref, "table"),
        payouts,
        key,
        kind=TransactionKind.SETTLEMENT,
        house_fee=house_fee,
        reference=reference,
        memo=memo,
    )


def settle_match(
    table_ref: str,
    seat_users: Mapping[int, Any],
    result: Mapping[str, Any],
    team_mode: bool,
    key: str,
    *,
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
    escrow = _escrow_ref(table_ref, "table")
    placements = {int(seat): int(place) for seat, place in result["placements"].items()}
    forfeit = result.get("forfeit")
    users = {int(seat): _user_id(u) for seat, u in seat_users.items() if u is not None}
    if len(set(users.values())) != len(users):
        raise SettlementMismatch("one user holds two seats")
    staked = _staked(escrow, users.values())
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
    return settle(escrow, payouts, key, house_fee=split.house_fee, reference=reference)


# --------------------------------------------------------------------------- tournaments


def pay_entry_fee(user: Any, tournament_ref: str, amount: int, key: str) -> Transaction:
    """Move a tournament entry fee from the user's wallet into the tournament's escrow.

    ``tournament_ref`` is ``tournament:<id>``. Raises as :func:`stake`.
    """
    escrow = _escrow_ref(tournament_ref, "tournament")
    return _pay_in(user, escrow, amount, key, TransactionKind.ENTRY_FEE)


def refund_entry_fee(
    user: Any, tournament_ref: str, key: str, *, amount: int | None = None
) -> Transaction:
    """Give back a withdrawn entrant's fee (all, or ``amount``). Raises as :func:`refund`."""
    escrow = _escrow_ref(tournament_ref, "tournament")
    return _refund_one(user, escrow, key, amount, TransactionKind.ENTRY_FEE_REFUND)


def award_prizes(
    tournament_ref: str,
    prizes: Mapping[Any, int],
    key: str,
    *,
    house_fee: int = 0,
    memo: str = "",
) -> Transaction:
    """Pay a finished tournament's prizes (user -> minor units) and house fee; close its escrow.

    Prizes plus ``house_fee`` must equal the escrow's balance (the entry fees);
    every winner must have entered. Use :func:`wallet.settlement.house_fee_for`
    for a fee in basis points. Raises as :func:`settle`.
    """
    return _close(
        _escrow_ref(tournament_ref, "tournament"),
        prizes,
        key,
        kind=TransactionKind.PRIZES,
        house_fee=house_fee,
        reference=None,
        memo=memo,
    )


# --------------------------------------------------------------------------- corrections


def reverse(original_key: str, key: str, *, memo: str = "") -> Transaction:
    """Post the exact opposite of the transaction with ``original_key``: how mistakes are fixed.

    Entries are never edited or deleted; a reversal negates every entry of the
    original. An escrow a reversal refills is reopened. Raises ``UnknownAccount``
    (no such transaction), ``AlreadyReversed``, ``InsufficientFunds`` (a wallet
    already spent the money), ``IdempotencyConflict``.
    """
    original = Transaction.objects.filter(idempotency_key=_key(original_key)).first()
    if original is None:
        raise UnknownAccount(f"no transaction with key {original_key!r}")
    legs = [
        (ref, -amount)
        for ref, amount in original.entries.order_by("id").values_list(
            "account__reference", "amount"
        )
    ]

    def build(accounts: dict[str, Account]) -> Legs:
        if Transaction.objects.filter(reverses=original).exists():
            raise AlreadyReversed(f"transaction {original_key!r} is already reversed")
        return legs

    return _post(
        key=key,
        kind=TransactionKind.REVERSAL,
        reference=original.reference,
        request={"reverses": original.idempotency_key},
        refs=[ref for ref, _ in legs],
        build=build,
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
