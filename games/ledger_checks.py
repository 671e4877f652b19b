"""``manage.py ledger_check``'s check of the tables' payouts in the public log (named in
``settings.TRIX_LEDGER_CHECKS``; docs/fairness.md, "Payouts"; docs/wallet.md).

Both ways:

- every ``match-payout`` entry of the log is a payout of the ledger exactly
  (``wallet.payouts.mismatches``): its ``transaction`` is the ledger transaction that paid
  out the escrow of the table whose match is the entry's ``match_id``, of the kind its
  ``reason`` says (``result``: ``settlement``; ``refund``: ``refund``), paying each seat's
  player the amount the entry gives that seat and nobody else, the house the entry's
  ``house_fee``, with each seat's stake in the escrow as the entry says;
- every payout of a table's escrow in the ledger (a pot settled, a cancelled table's stakes
  given back) has its entry, for every table with a match record (every table the site
  makes: its match-commitment is in the log).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from typing import Any

from games.fairness import transparency
from games.fairness.errors import FairnessError
from games.models import MatchRecord, Seat
from games.services import fairness_log
from wallet import payouts
from wallet.models import TransactionKind

LIMIT = 50  # problems listed; the count is always exact
BATCH = 500  # log entries compared per round of queries

KIND_OF_REASON = {"result": TransactionKind.SETTLEMENT, "refund": TransactionKind.REFUND}
"""The ledger transaction kind of a payout entry's ``reason``."""


def comparable(body: Any, *, seats: bool) -> bool:
    """Whether a payout entry's ``body`` has the shape to be compared with the ledger (its
    sums may be wrong): a known ``reason``, ints for ``transaction`` and ``house_fee``, and
    ``stakes`` and ``payouts`` mapping names (seats ``"0"``..``"3"`` if ``seats``) to ints."""

    def amounts(value: Any) -> bool:
        return isinstance(value, dict) and all(
            isinstance(v, int) and (not seats or k in ("0", "1", "2", "3"))
            for k, v in value.items()
        )

    return (
        isinstance(body, dict)
        and body.get("reason") in transparency.PAYOUT_REASONS
        and all(isinstance(body.get(f), int) for f in ("transaction", "house_fee"))
        and amounts(body.get("stakes"))
        and amounts(body.get("payouts"))
    )


def _table_id(escrow: str) -> int | None:
    kind, _, number = escrow.partition(":")
    return int(number) if kind == "table" and number.isdigit() else None


def _compare(batch: list[dict[str, Any]]) -> list[str]:
    """The problems of a batch of ``match-payout`` entries against the ledger."""
    ledger = payouts.read(
        e["body"].get("transaction") for e in batch if isinstance(e["body"], dict)
    )
    tables = {_table_id(p.escrow) for p in ledger.values()} - {None}
    matches = dict(
        MatchRecord.objects.filter(table_id__in=tables).values_list("table_id", "shuffle__match_id")
    )
    seats: dict[int, dict[int, int]] = {}
    for table_id, seat, user_id in Seat.objects.filter(
        table_id__in=tables, user__isnull=False
    ).values_list("table_id", "seat", "user_id"):
        seats.setdefault(table_id, {})[seat] = user_id
    problems = []
    for entry in batch:
        body = entry["body"]
        subject = body.get("match_id") if isinstance(body, dict) else None
        where = f"log entry {entry['index']} (match-payout of {subject!r})"
        try:
            transparency.check_entry(entry, where)
        except FairnessError as exc:
            problems.append(str(exc))
            if not comparable(body, seats=True):
                continue
        paid = ledger.get(body["transaction"])
        if paid is None:
            problems.append(payouts.absent(where, body["transaction"]))
            continue
        table = _table_id(paid.escrow)
        if matches.get(table) != subject:
            problems.append(
                f"{where}: transaction {body['transaction']} pays out {paid.escrow}, whose "
                f"match is {matches.get(table)!r}"
            )
            continue
        users = seats.get(table, {})
        named = {*body["stakes"], *body["payouts"]}
        names = {users[int(s)]: f"seat {s}" for s in named if int(s) in users}
        empty = sorted(s for s in named if int(s) not in users)
        if empty:
            problems.append(f"{where}: seats {', '.join(empty)} held no player")
            continue
        described = payouts.Payout(
            transaction=body["transaction"],
            kind=KIND_OF_REASON[body["reason"]],
            escrow=paid.escrow,
            stakes={users[int(s)]: amount for s, amount in body["stakes"].items()},
            paid={users[int(s)]: amount for s, amount in body["payouts"].items()},
            house_fee=body["house_fee"],
        )
        problems += payouts.mismatches(where, described, paid, names)
    return problems


def table_payouts() -> list[str]:
    """Every difference between the log's ``match-payout`` entries and the ledger, and every
    payout of a table's escrow the log does not hold (at most :data:`LIMIT` listed)."""

    def made(escrows: set[str]) -> set[str]:  # the escrows of tables the site made
        ids = {_table_id(escrow) for escrow in escrows}
        found = MatchRecord.objects.filter(table_id__in=ids).values_list("table_id", flat=True)
        return {f"table:{table_id}" for table_id in found}

    return reconcile("match-payout", "table:", _compare, made)


def reconcile(
    kind: str,
    prefix: str,
    compare: Callable[[list[dict[str, Any]]], list[str]],
    made: Callable[[set[str]], set[str]],
) -> list[str]:
    """The payout problems of one kind of log entry (``match-payout``, ``event-payout``):
    ``compare``'s for each batch of the log's entries of ``kind``, then every payout of an
    escrow named ``prefix...`` that no entry names, where ``made`` (given those escrows)
    says the site made the escrow (the wallet's tests post to escrows of no table or event);
    at most :data:`LIMIT` listed, their count always exact."""
    problems: list[str] = []
    logged: set[Any] = set()
    entries = fairness_log.entries_of(kind)
    while batch := list(islice(entries, BATCH)):
        logged |= {e["body"].get("transaction") for e in batch if isinstance(e["body"], dict)}
        problems += compare(batch)
    unlogged = [(tid, escrow) for tid, escrow in payouts.of_escrows(prefix) if tid not in logged]
    ours = made({escrow for _, escrow in unlogged})
    problems += [
        f"ledger transaction {tid} pays out {escrow}: the log holds no {kind} entry of it"
        for tid, escrow in unlogged
        if escrow in ours
    ]
    total = len(problems)
    if total > LIMIT:
        problems = [*problems[:LIMIT], f"... and {total - LIMIT} more payout problems"]
    return problems
