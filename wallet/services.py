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

Where the rules live. A posting goes through ``_post`` with a ``_Rule``:

- Here, in Python, once for both databases: input checks (amounts, references, keys),
  the canonical request and its hash, the accounts to lock and which may be created,
  the legs of a deposit, withdrawal, stake or reversal, the payouts of a split
  (``wallet.settlement``), and every refusal's exception and message (``_error``).
- Under the locks, by one of two executors of the same ``_Rule``: on PostgreSQL the
  PL/pgSQL function ``wallet_post`` (migration 0003: one statement, so one round
  trip outside a transaction, with plans cached by the server); elsewhere (SQLite,
  the embedded default) ``_post_with_orm``. Both: replay or refuse a used key, create
  the missing escrow/system accounts (a depositor's wallet once the user exists),
  escrow open, a refund from the net stake read under the lock, every staker back on
  ``refund_all``, payees must have staked and payouts plus fee equal the escrow's
  balance, no wallet or escrow below zero, closed escrows end at exactly zero.
  ``POSTGRES_FUNCTION = False`` runs the ORM executor on PostgreSQL too: the wallet
  tests run every test on both, so the two cannot drift apart.
- In the database, whatever the executor: unique keys, the ``CheckConstraint``s of
  the models, and on PostgreSQL the deferred balance trigger and the immutability
  triggers (migration 0002).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    IntegrityError,
    connection,
    connections,
    transaction,
)
from django.db.backends.base.base import BaseDatabaseWrapper
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
_STAKE_KIND_VALUES = [str(kind.value) for kind in STAKE_KINDS]
_STAKED_SQL = "SELECT user_id, staked FROM wallet_staked(%s, %s::text[], %s::bigint[])"
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


@dataclass(frozen=True)
class _Rule:
    """What a posting checks under the locks and how its legs are found.

    ``name`` is one of ``legs`` (the legs are given), ``pay_in`` (given legs into an
    open ``escrow``), ``refund`` (``amount``, or all, of ``user``'s net stake in
    ``escrow``), ``refund_all`` (every staker of ``escrow`` back; ``users`` are the
    stakers as read before locking) or ``payout`` (``users`` get ``amounts`` and the
    house ``house_fee`` out of ``escrow``, which must hold exactly that). Both
    executors read this one description: ``_apply_rule`` (ORM) and ``wallet_post`` (SQL).
    """

    name: str
    legs: tuple[tuple[str, int], ...] = ()
    escrow: str | None = None
    user: int | None = None
    amount: int | None = None
    users: tuple[int, ...] = ()
    amounts: tuple[int, ...] = ()
    house_fee: int = 0


class _Refusal(Exception):
    """A rule refused the posting: ``code`` and the facts for the message (both executors)."""

    def __init__(self, code: str, **facts: Any) -> None:
        super().__init__(code)
        self.code = code
        self.facts = facts


class _StakersChanged(Exception):
    """A stake arrived between reading the stakers and locking the escrow: read again."""


def _error(refusal: _Refusal, rule: _Rule, key: str, reverses: Transaction | None) -> Exception:
    """The ``wallet.errors`` exception for a refusal: every message of the postings lives here."""
    f, escrow = refusal.facts, rule.escrow
    match refusal.code:
        case "conflict":
            return IdempotencyConflict(
                f"idempotency key {key!r} was used for a different request "
                f"({f['kind']} {f['reference']})"
            )
        case "unknown":
            return UnknownAccount(f"no account {f['ref']}")
        case "unknown_user":
            return UnknownAccount(f"no user {f['user']}")
        case "closed" if rule.name == "pay_in":
            return EscrowClosed(f"{escrow} is settled; it takes no more stakes")
        case "closed" if rule.name == "refund":
            return EscrowClosed(f"{escrow} is settled; nothing can be refunded")
        case "closed":
            return EscrowClosed(f"{escrow} is already settled")
        case "reversed":
            original = reverses.idempotency_key if reverses else "?"
            return AlreadyReversed(f"transaction {original!r} is already reversed")
        case "nothing":
            return NothingToRefund(f"user {f['user']} has nothing in {escrow}")
        case "over":
            return InsufficientFunds(
                f"user {f['user']} has {f['staked']} in {escrow}, {f['asked']} asked back"
            )
        case "empty":
            return NothingToRefund(f"{escrow} holds no stakes")
        case "stakers_changed":
            return _StakersChanged()
        case "strangers":
            return SettlementMismatch(f"users {list(f['users'])} did not stake in {escrow}")
        case "held_zero":
            return SettlementMismatch(f"{escrow} holds nothing to pay out")
        case "total":
            return SettlementMismatch(
                f"{escrow} holds {f['held']}; payouts and fee total {f['total']}"
            )
        case "insufficient":
            return InsufficientFunds(f"{f['ref']} holds {f['held']}, {f['needed']} needed")
        case "would_keep":
            return SettlementMismatch(f"{f['ref']} would keep {f['balance']} after closing")
    return LedgerError(f"internal error: the ledger refused with {refusal.code} {f}")


def _request_hash(request: Mapping[str, Any]) -> tuple[dict, str]:
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"))
    return json.loads(canonical), hashlib.sha256(canonical.encode()).hexdigest()


def _replay(existing: Transaction, request_hash: str) -> Transaction:
    if existing.request_hash != request_hash:
        raise _Refusal("conflict", kind=existing.kind, reference=existing.reference)
    return existing


def _post(
    *,
    key: str,
    kind: str,
    reference: str,
    request: dict[str, Any],
    refs: Iterable[str],
    rule: _Rule,
    create: Mapping[str, tuple[str, int | None]] | None = None,
    before_write: Callable[[], dict] | None = None,
    close: Iterable[str] = (),
    memo: str = "",
    reverses: Transaction | None = None,
) -> Transaction:
    """Lock, check the key, apply ``rule``, write the transaction; all or nothing.

    ``refs`` are the accounts to lock; ``create`` maps those that may be created when
    missing to ``(kind, owner id)``. ``before_write`` (the payment provider) runs after
    every check and returns facts stored in ``details``. ``close`` names escrows to
    close; they must end empty. PostgreSQL runs it as one call of ``wallet_post``
    (``_post_with_function``), other databases through the ORM (``_post_with_orm``).
    """
    key = _key(key)
    request = {"kind": str(kind), "reference": reference, **request}
    request, request_hash = _request_hash(request)
    post = _post_with_function if _use_function() else _post_with_orm
    try:
        return post(
            key=key,
            kind=str(kind),
            reference=reference,
            request=request,
            request_hash=request_hash,
            refs=sorted(set(refs)),
            rule=rule,
            create=create or {},
            before_write=before_write,
            close=sorted(set(close)),
            memo=memo[:200],
            reverses=reverses,
        )
    except _Refusal as refusal:
        raise _error(refusal, rule, key, reverses) from None
    except IntegrityError:
        # Another transaction committed the same key first (its accounts differed,
        # so the row locks did not queue us behind it).
        existing = Transaction.objects.filter(idempotency_key=key).first()
        if existing is None:
            raise
        try:
            return _replay(existing, request_hash)
        except _Refusal as refusal:
            raise _error(refusal, rule, key, reverses) from None


def _use_function() -> bool:
    """PostgreSQL posts through the ``wallet_post`` function (migration 0003), others via ORM."""
    return connection.vendor == "postgresql" and POSTGRES_FUNCTION


#: Switch for tests: False runs the portable ORM path on PostgreSQL too.
POSTGRES_FUNCTION = True


# ------------------------------------------------------------- the portable executor (ORM)


def _lock(refs: list[str]) -> dict[str, Account]:
    """Lock the existing accounts named by ``refs`` in id order."""
    rows = Account.objects.select_for_update().filter(reference__in=refs).order_by("id")
    return {a.reference: a for a in rows}


def _post_with_orm(
    *,
    key: str,
    refs: list[str],
    rule: _Rule,
    create: Mapping[str, tuple[str, int | None]],
    before_write: Callable[[], dict] | None,
    close: list[str],
    request_hash: str,
    reverses: Transaction | None,
    **fields: Any,
) -> Transaction:
    with transaction.atomic():
        accounts = _lock(refs)
        existing = Transaction.objects.filter(idempotency_key=key).first()
        if existing is not None:
            return _replay(existing, request_hash)
        missing = [ref for ref in refs if ref not in accounts]
        if missing:
            for ref in missing:
                if ref not in create:
                    raise _Refusal("unknown", ref=ref)
                _create_account(ref, *create[ref])
            accounts = _lock(refs)
        legs = _apply_rule(rule, accounts, reverses)
        return _write_with_orm(
            legs=legs,
            accounts=accounts,
            close=set(close),
            before_write=before_write,
            fields={
                "idempotency_key": key,
                "request_hash": request_hash,
                "reverses": reverses,
                "created_at": timezone.now(),
                **fields,
            },
        )


def _apply_rule(rule: _Rule, accounts: dict[str, Account], reverses: Transaction | None) -> Legs:
    """The legs of ``rule`` from the locked ``accounts``, or a ``_Refusal`` (as ``wallet_post``)."""
    escrow = rule.escrow
    if escrow is not None and rule.name != "legs" and accounts[escrow].closed:
        raise _Refusal("closed", escrow=escrow)
    if rule.name in ("legs", "pay_in"):
        if reverses is not None and Transaction.objects.filter(reverses=reverses).exists():
            raise _Refusal("reversed")
        return list(rule.legs)
    if rule.name == "refund":
        staked = _staked(escrow, [rule.user]).get(rule.user, 0)
        if staked <= 0:
            raise _Refusal("nothing", user=rule.user)
        give = staked if rule.amount is None else rule.amount
        if give > staked:
            raise _Refusal("over", user=rule.user, staked=staked, asked=give)
        return [(escrow, -give), (f"user:{rule.user}", give)]
    if rule.name == "refund_all":
        current = _staked(escrow)  # now final: the escrow is locked
        if not current:
            raise _Refusal("empty")
        if sorted(current) != list(rule.users):
            raise _Refusal("stakers_changed")
        legs: Legs = [(f"user:{uid}", amount) for uid, amount in sorted(current.items())]
        return [*legs, (escrow, -sum(current.values()))]
    if rule.name == "payout":
        stakers = _staked(escrow)
        paid = dict(zip(rule.users, rule.amounts, strict=True))
        strangers = sorted(uid for uid, amount in paid.items() if amount and uid not in stakers)
        if strangers:
            raise _Refusal("strangers", users=strangers)
        held = accounts[escrow].balance
        if held == 0:
            raise _Refusal("held_zero")
        total = sum(rule.amounts) + rule.house_fee
        if total != held:
            raise _Refusal("total", held=held, total=total)
        legs = [(f"user:{uid}", amount) for uid, amount in paid.items()]
        if rule.house_fee:
            legs.append((HOUSE, rule.house_fee))
        return [*legs, (escrow, -held)]
    raise LedgerError(f"internal error: unknown rule {rule.name}")


def _write_with_orm(
    *,
    legs: Legs,
    accounts: dict[str, Account],
    close: set[str],
    before_write: Callable[[], dict] | None,
    fields: dict,
) -> Transaction:
    legs = [(ref, amount) for ref, amount in legs if amount != 0]
    if sum(amount for _, amount in legs) != 0 or len(legs) < 2:
        raise _Refusal("unbalanced", legs=legs)
    balances = {ref: accounts[ref].balance for ref in accounts}
    entries = []
    for ref, amount in legs:
        balances[ref] += amount
        entries.append(Entry(account=accounts[ref], amount=amount, balance_after=balances[ref]))
    for ref, balance in balances.items():
        account = accounts[ref]
        if account.kind != AccountKind.SYSTEM and balance < 0:
            needed = account.balance - balance
            raise _Refusal("insufficient", ref=ref, held=account.balance, needed=needed)
        if ref in close and balance != 0:
            raise _Refusal("would_keep", ref=ref, balance=balance)

    details = before_write() if before_write else {}
    txn = Transaction(**fields, details=details)
    txn.save(force_insert=True)
    for entry in entries:
        entry.transaction = txn
    Entry.objects.bulk_create(entries)
    for ref, account in accounts.items():
        delta = balances[ref] - account.balance
        closed = ref in close or (account.closed and balances[ref] == 0)
        if delta or closed != account.closed:
            Account.objects.filter(pk=account.pk).update(
                balance=F("balance") + delta, closed=closed
            )
    return txn


def _create_account(ref: str, kind: str, owner: int | None) -> None:
    if kind == AccountKind.WALLET:
        _open_wallet_account(owner)
    else:
        # INSERT ... ON CONFLICT DO NOTHING: one round trip, no savepoint; a rival
        # creating the same account makes us wait for its commit, then we lock its row.
        Account.objects.bulk_create([Account(reference=ref, kind=kind)], ignore_conflicts=True)


def _open_wallet_account(user_id: int) -> Account:
    if not get_user_model().objects.filter(pk=user_id).exists():
        raise _Refusal("unknown_user", user=user_id)
    account, _ = Account.objects.get_or_create(
        reference=f"user:{user_id}",
        defaults={"kind": AccountKind.WALLET, "owner_id": user_id},
    )
    return account


# -------------------------------------------------------- the PostgreSQL executor (function)

_POST_PARAMS = (
    ("p_write", "boolean"),
    ("p_key", "text"),
    ("p_kind", "text"),
    ("p_reference", "text"),
    ("p_request", "text"),
    ("p_request_hash", "text"),
    ("p_memo", "text"),
    ("p_details", "text"),
    ("p_reverses_id", "bigint"),
    ("p_created_at", "timestamptz"),
    ("p_refs", "text[]"),
    ("p_create_refs", "text[]"),
    ("p_create_kinds", "text[]"),
    ("p_create_owners", "bigint[]"),
    ("p_rule", "text"),
    ("p_legs_refs", "text[]"),
    ("p_legs_amounts", "bigint[]"),
    ("p_escrow", "text"),
    ("p_user", "bigint"),
    ("p_amount", "bigint"),
    ("p_payees", "bigint[]"),
    ("p_payee_amounts", "bigint[]"),
    ("p_house", "text"),
    ("p_house_fee", "bigint"),
    ("p_close", "text[]"),
    ("p_stake_kinds", "text[]"),
)
_POST_SQL = "SELECT status, txn_id FROM wallet_post({})".format(
    ", ".join(f"%s::{kind}" for _, kind in _POST_PARAMS)
)
_REFUSAL_STATE = "WL001"


def _prepared_cursor(conn: BaseDatabaseWrapper):
    """A Django cursor over a psycopg cursor that binds on the server and prepares its query.

    Django's own cursors bind parameters on the client (the query text changes with
    every call, so PostgreSQL parses and plans it every time) and never prepare. This
    one, used only for the ledger's functions, prepares once per connection; it keeps
    Django's wrapper (errors mapped to ``django.db`` ones, queries logged under DEBUG).
    """
    conn.ensure_connection()
    conn.validate_thread_sharing()
    raw = _PreparingCursor(conn.connection)
    return conn.make_debug_cursor(raw) if conn.queries_logged else conn.make_cursor(raw)


try:
    import psycopg

    class _PreparingCursor(psycopg.Cursor):
        def execute(self, query, params=None, **kwargs):
            return super().execute(query, params, prepare=True)

except ImportError:  # SQLite-only installs: the function path is never taken
    _PreparingCursor = None


def _pg_array(values: Iterable[str | int | None]) -> str:
    """A PostgreSQL array literal (``{"a","b"}``, ``{1,NULL}``): psycopg's list dumping
    is generic and costs more than the rest of a posting's client work."""
    items = []
    for value in values:
        if value is None:
            items.append("NULL")
        elif isinstance(value, int):
            items.append(str(value))
        else:
            items.append('"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return "{" + ",".join(items) + "}"


_STAKE_KINDS_ARRAY = _pg_array(_STAKE_KIND_VALUES)
_TRANSACTION_FIELDS = [f.attname for f in Transaction._meta.concrete_fields]


def _post_with_function(
    *,
    key: str,
    kind: str,
    reference: str,
    request: dict,
    request_hash: str,
    refs: list[str],
    rule: _Rule,
    create: Mapping[str, tuple[str, int | None]],
    before_write: Callable[[], dict] | None,
    close: list[str],
    memo: str,
    reverses: Transaction | None,
) -> Transaction:
    """Post through ``wallet_post``: one statement, so one round trip in autocommit mode.

    Outside a transaction the statement is its own transaction (no BEGIN, no COMMIT
    round trip); inside one it runs in a savepoint. With ``before_write`` it runs twice
    under the same locks: checks only, then the provider, then the write.
    """
    conn = connections[DEFAULT_DB_ALIAS]  # the proxy ``connection`` costs a lookup per use
    created_at = timezone.now()
    details: dict = {}
    args = [
        True,  # p_write
        key,
        kind,
        reference,
        json.dumps(request),
        request_hash,
        memo,
        "{}",  # p_details
        reverses.pk if reverses else None,
        created_at,
        _pg_array(refs),
        _pg_array(create),
        _pg_array(kind_ for kind_, _ in create.values()),
        _pg_array(owner for _, owner in create.values()),
        rule.name,
        _pg_array(ref for ref, _ in rule.legs),
        _pg_array(amount for _, amount in rule.legs),
        rule.escrow,
        rule.user,
        rule.amount,
        _pg_array(rule.users),
        _pg_array(rule.amounts),
        HOUSE,
        rule.house_fee,
        _pg_array(close),
        _STAKE_KINDS_ARRAY,
    ]
    if before_write is None and conn.get_autocommit() and not conn.in_atomic_block:
        status, pk = _call_post(conn, args)
    else:
        with transaction.atomic():
            if before_write is not None:
                status, pk = _call_post(conn, [False, *args[1:]])
                if status == "ready":
                    details = before_write()
                    args[7] = json.dumps(details)
                    status, pk = _call_post(conn, args)
            else:
                status, pk = _call_post(conn, args)
    if status == "replay":
        return Transaction.objects.get(pk=pk)
    if status != "ok":
        raise LedgerError(f"internal error: wallet_post answered {status!r}")
    values = {
        "id": pk,
        "idempotency_key": key,
        "kind": kind,
        "reference": reference,
        "request": request,
        "request_hash": request_hash,
        "memo": memo,
        "details": details,
        "reverses_id": reverses.pk if reverses else None,
        "created_at": created_at,
    }
    txn = Transaction.from_db(
        conn.alias, _TRANSACTION_FIELDS, [values[f] for f in _TRANSACTION_FIELDS]
    )
    if reverses is not None:
        txn.reverses = reverses
    return txn


def _call_post(conn: BaseDatabaseWrapper, args: list) -> tuple[str, int | None]:
    try:
        with _prepared_cursor(conn) as cursor:
            cursor.execute(_POST_SQL, args)
            return cursor.fetchone()
    except DatabaseError as exc:
        cause = exc.__cause__
        if getattr(cause, "sqlstate", None) != _REFUSAL_STATE:
            raise
        facts = json.loads(cause.diag.message_detail)
        raise _Refusal(facts.pop("code"), **facts) from None


def open_wallet(user: Any) -> Account:
    """The user's wallet account, created empty if missing. Raises ``UnknownAccount``."""
    uid = _user_id(user)
    try:
        with transaction.atomic():
            return _open_wallet_account(uid)
    except _Refusal as refusal:
        raise _error(refusal, _Rule("legs"), "", None) from None


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
        create={wallet: (AccountKind.WALLET, uid), EXTERNAL: (AccountKind.SYSTEM, None)},
        rule=_Rule("legs", legs=((EXTERNAL, -amount), (wallet, amount))),
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
        create={EXTERNAL: (AccountKind.SYSTEM, None)},
        rule=_Rule("legs", legs=((wallet, -amount), (EXTERNAL, amount))),
        before_write=pay_out,
        memo=memo,
    )


# --------------------------------------------------------------------------- escrows


def _pay_in(user: Any, escrow: str, amount: int, key: str, kind: str) -> Transaction:
    amount = _amount(amount)
    uid = _user_id(user)
    wallet = f"user:{uid}"
    return _post(
        key=key,
        kind=kind,
        reference=escrow,
        request={"user": uid, "amount": amount},
        refs=[wallet, escrow],
        create={escrow: (AccountKind.ESCROW, None)},
        rule=_Rule("pay_in", legs=((wallet, -amount), (escrow, amount)), escrow=escrow),
    )


def _staked(escrow: str, user_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Net amount each user has in ``escrow``: stakes/entry fees minus refunds (and reversals).

    On PostgreSQL the SQL function ``wallet_staked`` (migration 0003, also used by
    ``wallet_post`` under the locks) answers; elsewhere this ORM query.
    """
    if _use_function():
        users = None if user_ids is None else _pg_array(user_ids)
        with _prepared_cursor(connections[DEFAULT_DB_ALIAS]) as cursor:
            cursor.execute(_STAKED_SQL, [escrow, _STAKE_KINDS_ARRAY, users])
            return dict(cursor.fetchall())
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
    return _post(
        key=key,
        kind=kind,
        reference=escrow,
        request={"user": uid, "amount": amount},
        refs=[f"user:{uid}", escrow],
        rule=_Rule("refund", escrow=escrow, user=uid, amount=amount),
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
        try:
            return _post(
                key=key,
                kind=kind,
                reference=escrow,
                request={"refund_all": True},
                refs=[escrow, *(f"user:{uid}" for uid in stakers)],
                rule=_Rule("refund_all", escrow=escrow, users=tuple(stakers)),
                close=[escrow],
                memo=memo,
            )
        except _StakersChanged:
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
    paid: dict[int, int] = defaultdict(int)
    for user, amount in payouts.items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise InvalidAmount(f"payout must be a non-negative int, got {amount!r}")
        paid[_user_id(user)] += amount
    payees = sorted(uid for uid, amount in paid.items() if amount)
    refs = [escrow, *(f"user:{uid}" for uid in payees)]
    if house_fee:
        refs.append(HOUSE)

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
        create={HOUSE: (AccountKind.SYSTEM, None)},
        rule=_Rule(
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

    return _post(
        key=key,
        kind=TransactionKind.REVERSAL,
        reference=original.reference,
        request={"reverses": original.idempotency_key},
        refs=[ref for ref, _ in legs],
        rule=_Rule("legs", legs=tuple(legs)),
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
