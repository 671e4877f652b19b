"""``manage.py log_past_payouts``: once, after the upgrade that began logging payouts, append
a ``match-payout`` or ``event-payout`` entry (docs/fairness.md, "Payouts") for every payout
of a table's or a tournament's escrow that the ledger made before and the log does not hold,
so that ``ledger_check`` (which requires an entry for every payout) passes on a database
older than that release. The entries go at the log's end, in the order of the ledger's
transactions: their index shows when they were logged, not when the money moved. Safe to
run again (a payout already logged is skipped). It lives with the tournaments because it
logs both (the tournaments are built on the tables; the tables never import them)."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction

from games import ledger_checks as games_checks
from games.fairness.errors import FairnessError
from games.services import changes, fairness_log, money
from tournaments import ledger_checks as event_checks
from tournaments.services.common import _lock
from tournaments.services.finish import log_payout as log_event_payout
from trix_site.errors import ServiceError
from wallet import payouts

REASON = {
    **{kind: reason for reason, kind in games_checks.KIND_OF_REASON.items()},
    **{kind: reason for reason, kind in event_checks.KIND_OF_REASON.items()},
}
"""A payout's ``reason`` in the log, by its ledger transaction's kind (the checks' map
inverted)."""


def _logged() -> set[int]:
    """The ledger transaction ids the log's payout entries name."""
    ids: set[int] = set()
    for kind in ("match-payout", "event-payout"):
        for entry in fairness_log.entries_of(kind):
            body = entry.get("body")
            if isinstance(body, dict) and isinstance(body.get("transaction"), int):
                ids.add(body["transaction"])
    return ids


class Command(BaseCommand):
    help = "Log every payout of a table or tournament the log does not hold yet (once)."

    def handle(self, *args, **options):
        logged, added, failed = _logged(), 0, 0
        for prefix in ("table:", "tournament:"):
            for tid, escrow in payouts.of_escrows(prefix):
                if tid in logged:
                    continue
                number = escrow.partition(":")[2]
                if not number.isdigit():
                    continue  # an escrow no table or tournament of the site made
                payout = payouts.read([tid]).get(tid)
                reason = REASON.get(payout.kind) if payout is not None else None
                if reason is None:
                    failed += 1
                    self.stderr.write(f"transaction {tid} ({escrow}): not a payout the log says")
                    continue
                try:
                    with transaction.atomic():
                        if prefix == "table:":
                            table = changes.lock_table(int(number))
                            money.log_payout(table, tid, reason)
                        else:
                            log_event_payout(_lock(int(number)), tid, reason)
                except (FairnessError, money.StakeError, ServiceError) as exc:
                    failed += 1
                    self.stderr.write(f"transaction {tid} ({escrow}): not logged: {exc}")
                    continue
                added += 1
        self.stdout.write(f"payouts logged: {added}; not logged: {failed}")
        if failed:
            raise SystemExit(1)
