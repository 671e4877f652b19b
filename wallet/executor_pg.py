"""The PostgreSQL executor of a posting: one call of the ``wallet_post`` function.

``wallet_post`` (PL/pgSQL, migration 0003) runs a :class:`~wallet.rules.Rule` under the
locks in one statement, so one round trip outside a transaction, with plans cached by
the server: replay or refuse a used key, create the missing escrow/system accounts (a
depositor's wallet once the user exists), escrow open, a refund from the net stake read
under the lock, every staker back on ``refund_all``, payees must have staked and payouts
plus fee equal the escrow's balance, no wallet or escrow below zero, closed escrows end
at exactly zero. A refusal comes back as SQLSTATE ``WL001`` with the facts, raised here
as a :class:`~wallet.rules.Refusal`. :func:`use_function` says whether this executor is
in use; :data:`POSTGRES_FUNCTION` is the one switch.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from wallet.errors import LedgerError
from wallet.models import HOUSE, Transaction
from wallet.rules import STAKE_KINDS, Refusal, Rule

_STAKE_KIND_VALUES = [str(kind.value) for kind in STAKE_KINDS]


def use_function() -> bool:
    """PostgreSQL posts through the ``wallet_post`` function (migration 0003), others via ORM."""
    return connection.vendor == "postgresql" and POSTGRES_FUNCTION


#: Switch for tests: False runs the portable ORM path on PostgreSQL too.
POSTGRES_FUNCTION = True

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


def prepared_cursor(conn: BaseDatabaseWrapper):
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


def pg_array(values: Iterable[str | int | None]) -> str:
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


STAKE_KINDS_ARRAY = pg_array(_STAKE_KIND_VALUES)
_TRANSACTION_FIELDS = [f.attname for f in Transaction._meta.concrete_fields]


def post_with_function(
    *,
    key: str,
    kind: str,
    reference: str,
    request: dict,
    request_hash: str,
    refs: list[str],
    rule: Rule,
    create: Mapping[str, tuple[str, int | None]],
    before_write: Callable[[], dict] | None,
    close: list[str],
    memo: str,
    reverses: Transaction | None,
) -> Transaction:
    """Post through ``wallet_post``: one statement, so one round trip in autocommit mode.

    Outside a transaction the statement is its own transaction (no BEGIN, no COMMIT
    round trip); inside one it runs in a savepoint. With ``before_write`` it runs twice
    under the same locks: checks only, then the provider, then the write. Over 60 lines:
    ``wallet_post``'s 26 arguments are listed in its order, one a line.
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
        "{}",  # p_details (_DETAILS)
        reverses.pk if reverses else None,
        created_at,
        pg_array(refs),
        pg_array(create),
        pg_array(kind_ for kind_, _ in create.values()),
        pg_array(owner for _, owner in create.values()),
        rule.name,
        pg_array(ref for ref, _ in rule.legs),
        pg_array(amount for _, amount in rule.legs),
        rule.escrow,
        rule.user,
        rule.amount,
        pg_array(rule.users),
        pg_array(rule.amounts),
        HOUSE,
        rule.house_fee,
        pg_array(close),
        STAKE_KINDS_ARRAY,
    ]
    if before_write is None and conn.get_autocommit() and not conn.in_atomic_block:
        status, pk = _call_post(conn, args)
    else:
        with transaction.atomic():
            if before_write is not None:
                status, pk = _call_post(conn, [False, *args[1:]])
                if status == "ready":
                    details = before_write()
                    args[_DETAILS] = json.dumps(details)
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


_DETAILS = 7
"""The index of ``p_details`` in ``wallet_post``'s arguments (filled in after the provider)."""


def _call_post(conn: BaseDatabaseWrapper, args: list) -> tuple[str, int | None]:
    try:
        with prepared_cursor(conn) as cursor:
            cursor.execute(_POST_SQL, args)
            return cursor.fetchone()
    except DatabaseError as exc:
        cause = exc.__cause__
        if getattr(cause, "sqlstate", None) != _REFUSAL_STATE:
            raise
        facts = json.loads(cause.diag.message_detail)
        raise Refusal(facts.pop("code"), **facts) from None
