"""A finished day's auditor archive (``trix-archive/1``, ``games.fairness.archive``,
docs/fairness.md "The daily archive"): the day's log entries with the proof they are the whole
day, the earlier entries they refer to with inclusion proofs, the records of the day's
matches and the draws of the day's events. Reads only; public values only (the log and the
records of finished deals are public)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from games.errors import NotFound
from games.fairness import archive
from games.models import Deal, LogEntry, MatchRecord
from games.services import fairness_log, log_tree

__all__ = ["daily_archive", "finished_day"]

_MATCH_KINDS = ("match-commitment", "match-receipt", "match-payout", "bot-seed")


def finished_day(day: str) -> str:
    """``day`` (``YYYY-MM-DD``) if it is a UTC day that has ended; raises NotFound for a
    malformed day or one not over yet (its entries may still grow)."""
    try:
        begin, after = archive.day_bounds(day)
    except ValueError:  # FairnessError: not a date, or the last one
        raise NotFound(
            _("There is no archive of that day: a day is written YYYY-MM-DD, up to 9999-12-30.")
        ) from None
    if after > datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"):
        raise NotFound(
            _("The day %(day)s has not ended (UTC): its archive is not ready.") % {"day": day}
        )
    return day


def _first_at_or_after(moment: str) -> int | None:
    when = datetime.strptime(moment, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return (
        LogEntry.objects.filter(logged_at__gte=when)
        .order_by("index")
        .values_list("index", flat=True)
        .first()
    )


def _match_of(entry: dict[str, Any]) -> str | None:
    body = entry["body"]
    if entry["kind"] == "match-receipt":
        return body["receipt"]["match_id"]
    return body.get("match_id")


def _earlier(query: Q, first: int) -> dict[int, dict[str, Any]]:
    rows = LogEntry.objects.filter(query, index__lt=first).order_by("index")
    return {row.index: fairness_log.entry_of(row) for row in rows}


def _tables_event(entry: dict[str, Any]) -> str | None:
    """The event whose tables a receipt's match is dealt as (``tables_commitment``)."""
    if entry["kind"] != "match-receipt":
        return None
    tables = entry["body"]["receipt"].get("tables_commitment")
    return tables["event"] if tables else None


def _context(day_entries, first: int, matches: set[str], events: set[str]) -> dict[int, dict]:
    """The entries before ``first`` that the day's ``matches`` and ``events`` need: theirs,
    the events their receipts' tables are dealt for, the seat seeds their receipts name,
    their earlier deals' records, and every signing key (the day's keys follow them)."""
    context = _earlier(
        Q(kind="signing-key") | Q(key__kind__in=_MATCH_KINDS, key__subject__in=matches), first
    )
    known = [*context.values(), *day_entries]
    events = events | {e for entry in known if (e := _tables_event(entry)) is not None}
    context.update(_earlier(Q(key__subject__in=events), first))
    deals, named = {}, set()
    for entry in [*context.values(), *day_entries]:
        if entry["kind"] == "match-commitment":
            deals[entry["body"]["match_id"]] = entry["body"]["deals"]
        if entry["kind"] == "match-receipt":
            named.update(entry["body"]["receipt"].get("seed_entries", {}).values())
    subjects = [f"{m}/{n}" for m, count in deals.items() for n in range(1, count + 1)]
    more = Q(key__kind="deal-record", key__subject__in=subjects) | Q(index__in=named)
    context.update(_earlier(more, first))
    return context


def _records(matches: set[str], logged: set[tuple[str, int]]) -> dict[str, list[dict[str, Any]]]:
    """match id -> the records of its deals logged by the day's end, in deal order."""
    tables = dict(
        MatchRecord.objects.filter(shuffle__match_id__in=sorted(matches)).values_list(
            "table_id", "shuffle__match_id"
        )
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for row in Deal.objects.filter(table_id__in=tables).order_by("table_id", "number"):
        match_id = tables[row.table_id]
        if (match_id, row.number) in logged:
            out.setdefault(match_id, []).append(row.record)
    return out


def _draws(events: set[str]) -> dict[str, dict[str, Any]]:
    """event -> its ``trix-draw/1`` record (an event without one is absent), from the app
    that runs events (``settings.TRIX_ARCHIVE_DRAWS``, a dotted path: a function of a list
    of events' names)."""
    path = settings.TRIX_ARCHIVE_DRAWS
    return import_string(path)(sorted(events)) if path and events else {}


def daily_archive(day: str) -> bytes:
    """The zip bytes of ``day``'s archive (``games.fairness.archive.pack``). ``day`` must be
    over (:func:`finished_day`) and the log must hold an entry after it: raises NotFound
    otherwise. The checkpoint is signed now, of the log's first ``end + 1`` entries."""
    begin, after = archive.day_bounds(finished_day(day))
    end = _first_at_or_after(after)
    if end is None:
        raise NotFound(
            _(
                "The archive of %(day)s is made once the log holds an entry after that day "
                "(until then one of that day could still come): try again later."
            )
            % {"day": day}
        )
    first = _first_at_or_after(begin)
    tree_size = end + 1
    start = max(first - 1, 0)
    log = list(fairness_log.entries(start - 1, tree_size))
    day_entries = [e for e in log if first <= e["index"] < end]
    events = {e["body"]["event"] for e in day_entries if "event" in e["body"]}
    # An event's draw record is final once its prizes or fees are paid out: it goes in the
    # archive of that day, with every match it names (earlier days hold its entries only).
    draws = _draws({e["body"]["event"] for e in day_entries if e["kind"] == "event-payout"})
    matches = {m for e in day_entries if (m := _match_of(e)) is not None}
    for record in draws.values():
        for round_ in record.get("rounds", []):
            matches.update(m["match_id"] for m in round_.get("matches") or [])
    context = _context(day_entries, first, matches, events)
    logged = {
        (e["body"]["match_id"], e["body"]["deal_number"])
        for e in [*context.values(), *day_entries]
        if e["kind"] == "deal-record"
    }
    frontier = log_tree.frontier(start)
    return archive.pack(
        day=day,
        first=first,
        end=end,
        frontier=frontier,
        checkpoint=log_tree.checkpoint(tree_size),
        keys=_keys(),
        log=log,
        context=[(e, log_tree.inclusion_proof(i, tree_size)) for i, e in sorted(context.items())],
        records=_records(matches, logged),
        draws=draws,
    )


def _keys() -> dict[str, Any]:
    from games.fairness_selectors import signing_keys

    return signing_keys()
