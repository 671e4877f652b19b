"""Payouts read back from the ledger, and compared with a payout described elsewhere (the
public transparency log, ``games.services.fairness_log``).

A *payout* is a transaction that pays an escrow out and closes it (``wallet.services``): a
table's pot (``settlement``), a tournament's prizes (``prizes``), or every stake or fee given
back at once (``refund_all``: a ``refund`` or ``entry_fee_refund`` whose request is
``{"refund_all": true}``). :func:`read` says what one paid, account by account, and what each
staker had in the escrow before it; :func:`of_escrows` lists the payouts of the escrows whose
reference starts with a prefix (``table:``, ``tournament:``); :func:`mismatches` names every
difference between a payout as described and as the ledger holds it. Reads only; the apps
that describe payouts check them (``settings.TRIX_LEDGER_CHECKS``, run by
``manage.py ledger_check``). Amounts are integer minor units; users are ids.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from wallet.models import HOUSE, AccountKind, Entry, Transaction, TransactionKind
from wallet.rules import STAKE_KINDS

PAYOUT_KINDS = (TransactionKind.SETTLEMENT, TransactionKind.PRIZES)
"""Kinds whose every transaction pays an escrow out (``refund_all`` is a refund kind: its
request tells it apart)."""

_PAYOUTS = Q(kind__in=PAYOUT_KINDS) | Q(
    kind__in=(TransactionKind.REFUND, TransactionKind.ENTRY_FEE_REFUND), request__refund_all=True
)


@dataclass(frozen=True)
class Payout:
    """What ledger transaction ``transaction`` (of ``kind``) paid out of ``escrow``:
    ``paid`` user id -> amount credited to their wallet (above 0), ``house_fee`` to the house
    account, ``stakes`` user id -> what the user had in the escrow before it (stakes or fees
    less refunds, above 0), ``stray`` any other entry (``"<account> <amount>"``)."""

    transaction: int
    kind: str
    escrow: str
    stakes: dict[int, int]
    paid: dict[int, int]
    house_fee: int
    stray: tuple[str, ...] = field(default=())


def read(ids: Iterable[int]) -> dict[int, Payout]:
    """The payouts among transactions ``ids``, by id (an id that is not a payout, or no
    transaction, is absent). Three queries whatever the number of ids."""
    ids = sorted({i for i in ids if isinstance(i, int) and not isinstance(i, bool)})
    found = {
        t["id"]: t
        for t in Transaction.objects.filter(_PAYOUTS, id__in=ids).values("id", "kind", "reference")
    }
    if not found:
        return {}
    escrows: dict[int, str] = {}
    paid: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    fees: dict[int, int] = defaultdict(int)
    stray: dict[int, list[str]] = defaultdict(list)
    entries = Entry.objects.filter(transaction_id__in=found).order_by("id")
    for tid, ref, kind, owner, amount in entries.values_list(
        "transaction_id", "account__reference", "account__kind", "account__owner_id", "amount"
    ):
        if kind == AccountKind.ESCROW and amount < 0 and tid not in escrows:
            escrows[tid] = ref  # the escrow paid out: the sum of the rest (balanced)
        elif kind == AccountKind.WALLET and amount > 0:
            paid[tid][owner] += amount
        elif ref == HOUSE and amount > 0:
            fees[tid] += amount
        else:
            stray[tid].append(f"{ref} {amount:+d}")
    escrow_of = {tid: escrows.get(tid, t["reference"]) for tid, t in found.items()}
    stakes = _stakes_before(set(escrow_of.values()))
    return {
        tid: Payout(
            transaction=tid,
            kind=t["kind"],
            escrow=escrow_of[tid],
            stakes=stakes(escrow_of[tid], tid),
            paid=dict(paid[tid]),
            house_fee=fees[tid],
            stray=tuple(stray[tid]),
        )
        for tid, t in found.items()
    }


def _stakes_before(escrows: set[str]):
    """``stakes(escrow, tid)``: user id -> what the user had in ``escrow`` through the
    transactions before ``tid`` (the definition of ``wallet.staking.staked``, read for many
    escrows in one query)."""
    rows = Entry.objects.filter(
        Q(transaction__kind__in=STAKE_KINDS) | Q(transaction__reverses__kind__in=STAKE_KINDS),
        transaction__reference__in=escrows,
        account__kind=AccountKind.WALLET,
    ).values_list("transaction__reference", "transaction_id", "account__owner_id", "amount")
    by_escrow: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for ref, tid, owner, amount in rows:
        by_escrow[ref].append((tid, owner, amount))

    def stakes(escrow: str, before: int) -> dict[int, int]:
        held: dict[int, int] = defaultdict(int)
        for tid, owner, amount in by_escrow.get(escrow, ()):
            if tid < before:
                held[owner] -= amount  # out of the wallet into the escrow: negative
        return {owner: amount for owner, amount in sorted(held.items()) if amount > 0}

    return stakes


class UndescribedPayout(ValueError):
    """A payout the given keys cannot describe (:func:`keyed`)."""


def keyed(
    transaction_id: int, keys: Mapping[int, Any], unknown: str
) -> tuple[dict[Any, int], dict[Any, int], int]:
    """``(stakes, paid, house_fee)`` of payout ``transaction_id`` (:func:`read`), each user id
    replaced by its key in ``keys`` (a seat, an entrant id: how the log names them). Raises
    :class:`UndescribedPayout` when the keys cannot say it: no such payout, money moved to another
    account, or a user ``keys`` lacks (``unknown`` says why, e.g. ``"holding no seat"``)."""
    payout = read([transaction_id]).get(transaction_id)
    if payout is None:
        raise UndescribedPayout(f"transaction {transaction_id} is not a payout")
    strangers = sorted((set(payout.stakes) | set(payout.paid)) - set(keys))
    if payout.stray or strangers:
        raise UndescribedPayout(
            f"transaction {transaction_id}: moves {list(payout.stray)}, pays users "
            f"{strangers} {unknown}"
        )
    stakes = {keys[user]: amount for user, amount in payout.stakes.items()}
    return stakes, {keys[user]: amount for user, amount in payout.paid.items()}, payout.house_fee


def of_escrows(prefix: str) -> Iterator[tuple[int, str]]:
    """``(transaction id, escrow)`` of every payout of an escrow whose reference starts with
    ``prefix``, by id."""
    rows = Transaction.objects.filter(_PAYOUTS, reference__startswith=prefix).order_by("id")
    yield from rows.values_list("id", "reference").iterator(chunk_size=5000)


def absent(where: str, transaction: object) -> str:
    """The problem of a payout described with a ``transaction`` the ledger holds no payout
    of."""
    return f"{where}: the ledger holds no payout with transaction id {transaction}"


def mismatches(
    where: str, described: Payout, ledger: Payout | None, names: Mapping[int, str]
) -> list[str]:
    """Every way ``described`` (a payout as the log tells it, its users resolved) differs
    from ``ledger`` (:func:`read`; ``None``: no such payout in the ledger), one sentence
    each starting with ``where``; ``names`` says who a user is in the description (``"seat
    2"``). Empty when they agree exactly: the same transaction, kind, escrow, payees,
    amounts, stakers, stakes and house fee, and no other entry."""
    tid = described.transaction
    if ledger is None:
        return [absent(where, tid)]
    problems = []
    if ledger.kind != described.kind:
        problems.append(f"{where}: transaction {tid} is a {ledger.kind}, not a {described.kind}")
    if ledger.escrow != described.escrow:
        problems.append(
            f"{where}: transaction {tid} pays out {ledger.escrow}, not {described.escrow}"
        )

    def who(uid: int) -> str:
        return f"{names[uid]} (user:{uid})" if uid in names else f"user:{uid}"

    for what, logged, booked in (
        ("pays", described.paid, ledger.paid),
        ("has as the stake of", described.stakes, ledger.stakes),
    ):
        for uid in sorted(set(logged) | set(booked)):
            if logged.get(uid, 0) != booked.get(uid, 0):
                problems.append(
                    f"{where}: the ledger {what} {who(uid)} {booked.get(uid, 0)}, "
                    f"the log {logged.get(uid, 0)} (transaction {tid})"
                )
    if ledger.house_fee != described.house_fee:
        problems.append(
            f"{where}: the ledger's house fee is {ledger.house_fee}, the log's "
            f"{described.house_fee} (transaction {tid})"
        )
    for line in ledger.stray:
        problems.append(f"{where}: transaction {tid} also moves {line}")
    return problems
