"""``manage.py ledger_check``'s check of the tournaments' payouts in the public log (named in
``settings.TRIX_LEDGER_CHECKS``; docs/fairness.md, "Payouts"; docs/wallet.md).

Both ways:

- every ``event-payout`` entry of the log is a payout of the ledger exactly
  (``wallet.payouts.mismatches``): its ``transaction`` is the ledger transaction that paid
  out the escrow of its ``event`` (``tournament:<id>``), of the kind its ``reason`` says
  (``result``: ``prizes``; ``refund``: ``entry_fee_refund``), paying each entrant's player
  (entrant ``E<entry id>`` of that tournament) the amount the entry gives them and nobody
  else, the house the entry's ``house_fee``, with each entrant's fee in the escrow as the
  entry says;
- every payout of a tournament's escrow in the ledger (its prizes, its fees given back) has
  its entry, for every tournament the site holds.
"""

from __future__ import annotations

from typing import Any

from games.fairness import transparency
from games.fairness.errors import FairnessError
from games.ledger_checks import comparable, reconcile
from tournaments.models import Entry, Tournament
from wallet import payouts
from wallet.models import TransactionKind

KIND_OF_REASON = {"result": TransactionKind.PRIZES, "refund": TransactionKind.ENTRY_FEE_REFUND}
"""The ledger transaction kind of a payout entry's ``reason``."""


def _entry_id(entrant: str) -> int | None:
    return int(entrant[1:]) if entrant[:1] == "E" and entrant[1:].isdigit() else None


def _compare(batch: list[dict[str, Any]]) -> list[str]:
    """The problems of a batch of ``event-payout`` entries against the ledger."""
    ledger = payouts.read(
        e["body"].get("transaction") for e in batch if isinstance(e["body"], dict)
    )
    named = {
        _entry_id(who)
        for e in batch
        if isinstance(e["body"], dict)
        for part in ("stakes", "payouts")
        if isinstance(e["body"].get(part), dict)
        for who in e["body"][part]
    }
    entries = {
        pk: (f"tournament:{tournament_id}", user_id)
        for pk, tournament_id, user_id in Entry.objects.filter(pk__in=named - {None}).values_list(
            "pk", "tournament_id", "user_id"
        )
    }
    problems = []
    for entry in batch:
        body = entry["body"]
        event = body.get("event") if isinstance(body, dict) else None
        where = f"log entry {entry['index']} (event-payout of {event!r})"
        try:
            transparency.check_entry(entry, where)
        except FairnessError as exc:
            problems.append(str(exc))
            if not comparable(body, seats=False):
                continue
        users: dict[str, int] = {}
        for who in {*body["stakes"], *body["payouts"]}:
            found = entries.get(_entry_id(who))
            if found is None or found[0] != event:
                problems.append(f"{where}: {who} is no entrant of {event}")
            else:
                users[who] = found[1]
        if len(users) < len({*body["stakes"], *body["payouts"]}):
            continue
        described = payouts.Payout(
            transaction=body["transaction"],
            kind=KIND_OF_REASON[body["reason"]],
            escrow=event,
            stakes={users[who]: amount for who, amount in body["stakes"].items()},
            paid={users[who]: amount for who, amount in body["payouts"].items()},
            house_fee=body["house_fee"],
        )
        names = {uid: f"entrant {who}" for who, uid in users.items()}
        problems += payouts.mismatches(where, described, ledger.get(body["transaction"]), names)
    return problems


def event_payouts() -> list[str]:
    """Every difference between the log's ``event-payout`` entries and the ledger, and every
    payout of a tournament's escrow the log does not hold (at most ``LIMIT`` listed)."""

    def made(escrows: set[str]) -> set[str]:  # the escrows of tournaments the site made
        ids = {int(n) for n in (e.partition(":")[2] for e in escrows) if n.isdigit()}
        return {t.ref for t in Tournament.objects.filter(pk__in=ids).only("pk")}

    return reconcile("event-payout", "tournament:", _compare, made)
