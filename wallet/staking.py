"""How much each user has staked in an escrow: one definition for the writes and the reads."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Q, Sum

from wallet.executor_pg import STAKE_KINDS_ARRAY, pg_array, prepared_cursor, use_function
from wallet.models import Account, AccountKind, Entry, TransactionKind
from wallet.rules import STAKE_KINDS

_STAKED_SQL = "SELECT user_id, staked FROM wallet_staked(%s, %s::text[], %s::bigint[])"


def staked(escrow: str, user_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Net amount each user has in ``escrow``: stakes/entry fees minus refunds (and reversals).

    On PostgreSQL the SQL function ``wallet_staked`` (migration 0003, also used by
    ``wallet_post`` under the locks) answers; elsewhere this ORM query.
    """
    if use_function():
        users = None if user_ids is None else pg_array(user_ids)
        with prepared_cursor(connections[DEFAULT_DB_ALIAS]) as cursor:
            cursor.execute(_STAKED_SQL, [escrow, STAKE_KINDS_ARRAY, users])
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


def staked_in_open_escrows(user_id: int) -> int:
    """What the user has in play in escrows not yet closed (tables not yet paid out or
    refunded, tournaments before their prizes): minor units, 0 if none.

    Per escrow, the user's stakes and entry fees since their last refund from it: a refund
    (``refund``, ``refund_entry_fee``) ends that stake, the player having left the table or
    the tournament, and what it did not give back is the event's (a pot's, a prize pool's),
    no longer the player's in play. A stake or fee paid after it counts again; a reversal
    moves the amount it moves."""
    open_escrows = Account.objects.filter(kind=AccountKind.ESCROW, closed=False).values("reference")
    rows = (
        Entry.objects.filter(
            Q(transaction__kind__in=STAKE_KINDS) | Q(transaction__reverses__kind__in=STAKE_KINDS),
            transaction__reference__in=open_escrows,
            account__kind=AccountKind.WALLET,
            account__owner_id=user_id,
        )
        .order_by("id")
        .values_list("transaction__reference", "transaction__kind", "amount")
    )
    held: dict[str, int] = {}
    for reference, kind, amount in rows:
        if kind in _REFUND_KINDS:
            held[reference] = 0
        else:  # a stake or fee (out of the wallet: negative), or a reversal of one
            held[reference] = max(0, held.get(reference, 0) - amount)
    return sum(held.values())


_REFUND_KINDS = frozenset({TransactionKind.REFUND, TransactionKind.ENTRY_FEE_REFUND})
