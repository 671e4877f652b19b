"""Reads of a table's verification, for the verify pages and the API: its ended deals, each
deal's check, the whole match's check and records, and its commitment (before the first
deal ends, the commitment alone). Only what is public: a deal's record and seed appear once
the deal ended (docs/fairness-site.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.errors import NotFound
from games.models import Deal, Table, TableStatus


def deal(deal_id: int) -> Deal:
    """A finished deal (its record is public: its seed is revealed). Raises NotFound."""
    try:
        return Deal.objects.select_related("table").get(pk=deal_id)
    except Deal.DoesNotExist:
        raise NotFound(_("There is no finished deal %(id)s.") % {"id": deal_id}) from None


def deals_of(table_id: int) -> list[Deal]:
    """The finished deals of a table, in order. Raises NotFound for an unknown table."""
    if not Table.objects.filter(pk=table_id).exists():
        raise NotFound(_("There is no table %(id)s.") % {"id": table_id})
    return list(Deal.objects.filter(table_id=table_id).order_by("number"))


def deal_verification(deal_id: int) -> dict[str, Any]:
    """The public check of one finished deal (``games.fairness.deal_verification``) with its
    table and deal ids. Raises :class:`NotFound`."""
    from games import shuffles

    row = deal(deal_id)
    payload = shuffles.deal_verification(row.record)
    payload.update({"deal_id": row.pk, "table_id": row.table_id, "number": row.number})
    return payload


def match_verification(table_id: int) -> dict[str, Any]:
    """The public check of a table's match so far: the commitment, the client seeds, the
    seeds revealed so far and every finished deal's check (``match_verification`` of
    ``games.fairness.verify``), plus ``table_id``, ``receipt`` and ``receipt_signature``
    (``None`` before the match started), ``unrecorded`` (``[{"deal_number", "server_seed"}]``:
    seeds revealed without a record, a deal ended by a forfeit), ``partial`` (the match is
    still running with fewer records than deals: more will come, so the commands the page
    gives take ``--partial``) and ``ended_early`` (``None``, or for a match that started and
    ended before its last deal ``{"by": "forfeit" | "cancelled" | None, "records": k,
    "deals": n}``). Nothing in the records, the receipt or the log marks where a match
    ended, so the verifiers cannot tell a match that ended early from one still running or
    from one whose later records are withheld: the page never adds ``--partial`` for a match
    that ended (docs/fairness.md, "Grouping records into a match; completeness"). Raises
    :class:`NotFound`."""
    from games import shuffles
    from games.models import MatchRecord

    rows = deals_of(table_id)
    private = MatchRecord.objects.values_list("shuffle", flat=True).get(table_id=table_id)
    payload = shuffles.match_verification([d.record for d in rows], shuffles.public(private))
    for item, row in zip(payload["deals"], rows, strict=True):
        item["deal_id"] = row.pk
    payload["table_id"] = table_id
    table = Table.objects.only("receipt", "receipt_signature", "status", "result").get(pk=table_id)
    payload["receipt"] = table.receipt
    payload["receipt_signature"] = table.receipt_signature or None
    # A deal a forfeit ended before it was played out: its seed is revealed (the cards it
    # dealt can be checked), but it has no record (no plays, nothing to replay or log).
    recorded = {row.number for row in rows}
    revealed = (payload["match"] or {}).get("revealed_seeds") or {}
    payload["unrecorded"] = [
        {"deal_number": int(number), "server_seed": seed}
        for number, seed in sorted(revealed.items(), key=lambda item: int(item[0]))
        if int(number) not in recorded
    ]
    deals = (payload["match"] or {}).get("deals")
    short = deals is not None and len(rows) < deals
    running = table.status in (TableStatus.OPEN, TableStatus.PLAYING)
    payload["partial"] = running and short
    payload["ended_early"] = None
    if short and not running and table.receipt:
        if table.status == TableStatus.CANCELLED:
            by = "cancelled"
        else:
            by = "forfeit" if (table.result or {}).get("forfeit") is not None else None
        payload["ended_early"] = {"by": by, "records": len(rows), "deals": deals}
    return payload


def match_records(table_id: int) -> list[dict[str, Any]]:
    """The ``trix-deal/1`` records of a table's finished deals, in deal order: one JSON list
    that ``trix verify FILE`` checks as a whole match. Raises :class:`NotFound`."""
    return [row.record for row in deals_of(table_id)]


def match_commitment(table_id: int) -> dict[str, Any]:
    """What a player must see before taking a seat, and what their browser keeps to check
    every deal later: ``{"algorithm": "trix-shuffle/1", "match_id": str,
    "deals": int, "commitment": 64 lower hex}``. Public at any time (no seed in it).
    Raises :class:`NotFound`."""
    from games import shuffles
    from games.models import MatchRecord

    try:
        private = MatchRecord.objects.values_list("shuffle", flat=True).get(table_id=table_id)
    except MatchRecord.DoesNotExist:
        raise NotFound(_("There is no table %(id)s.") % {"id": table_id}) from None
    public = shuffles.public(private)
    return {key: public[key] for key in ("algorithm", "match_id", "deals", "commitment")}


def signing_keys() -> dict[str, Any]:
    """The site's keys as ``/fairness/keys.json`` serves them (``trix-keys/1``,
    ``games.fairness.signing_keys.keys_document``): every key the log's ``signing-key``
    entries name, in order, with its log index and period, or, while the log names none,
    the key in use without a period. Raises ``FairnessError`` when the site's key does not
    load."""
    from games import signing
    from games.fairness import signing_keys as keys
    from games.services.fairness_log import signing_key_entries, stamp

    logged = [(row.body, row.index, stamp(row.logged_at)) for row in signing_key_entries()]
    unlogged = None if logged else keys.build_body(key=signing.current().private_key)
    return keys.keys_document(logged, unlogged)
