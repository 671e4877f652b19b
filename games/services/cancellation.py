"""Cancelling a table (:func:`cancel_table`: every stake refunded, its timers stopped) and the
beat that cancels the open tables nobody filled in time (:func:`expire_open_tables`).

Each cancel is one transaction on the table's locked row.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.selectors import display_name
from games.errors import BadRequest, Conflict, TableError
from games.models import Seat, Table, TableEvent, TableStatus
from games.policy import TableKind
from games.services import changes, dispatch, money

log = logging.getLogger(__name__)


def expiry_text(seconds: float | None = None) -> str:
    """``seconds`` (default ``TRIX_OPEN_TABLE_EXPIRY``) for people: "30 minutes", "90
    seconds"."""
    if seconds is None:
        seconds = settings.TRIX_OPEN_TABLE_EXPIRY
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    if seconds == int(seconds):
        return ngettext("%(count)d second", "%(count)d seconds", int(seconds)) % {
            "count": int(seconds)
        }
    return _("%(count)s seconds") % {"count": f"{seconds:g}"}


def cancel_table(*, table_id: int, reason: str, by=None) -> Table:
    """Cancel an open or playing table: every stake goes back through the wallet (one
    ``refund_all``, idempotency key ``cancel:table:<id>``), its timers stop, and
    ``table_cancelled`` (with ``reason``) ends its log; :data:`games.signals.table_finished`
    is sent after the commit. The caller checks who may do this (``by``, the acting user, is
    recorded). A cancelled table is returned unchanged. Raises :class:`NotFound`,
    :class:`BadRequest` (no reason), :class:`Conflict` (the match already finished)."""
    if not isinstance(reason, str) or not reason.strip():
        raise BadRequest(_("give a reason"), "invalid")
    with transaction.atomic():
        table = changes.lock_table(table_id)
        if table.status == TableStatus.CANCELLED:
            return table
        if table.status == TableStatus.FINISHED:
            raise Conflict(
                _("the match is over: a finished table cannot be cancelled"), "match_over"
            )
        _cancel_locked(table, reason, by)
    return table


def _cancel_locked(table: Table, reason: str, by) -> None:
    """:func:`cancel_table` on the locked ``table`` (open or playing): refund every stake,
    stop the timers, log ``table_cancelled``, announce the end after the commit."""
    seats = changes.seats(table)
    if any(s.staked for s in seats):
        try:
            money.refund_all(table=table, key=f"cancel:{table.ref}")
        except money.StakeError as exc:
            raise Conflict(str(exc), "ledger") from None
    table.status = TableStatus.CANCELLED
    table.finished_at = timezone.now()
    table.deadline = None
    table.wake_at = None
    changes.reveal_bot_seed(table)
    event = {"type": "table_cancelled", "reason": reason.strip()[:200]}
    if by is not None:
        event["by"] = display_name(by)
    changes.add_events(table, [event])
    table.save(update_fields=["status", "finished_at", "deadline", "wake_at", "version"])
    dispatch.announce_end(table)


EXPIRY_BATCH = 500
"""The most tables one run of :func:`expire_open_tables` cancels (the next run goes on)."""


def expire_open_tables(*, now=None) -> list[int]:
    """Beat (``games.tasks.expire_open_tables``): cancel the player's tables left waiting,
    oldest first, at most :data:`EXPIRY_BATCH` a run, each in its own transaction through
    the cancel path (every stake refunded, ``refund_all``):

    - every open table ``TRIX_OPEN_TABLE_EXPIRY`` seconds after it was created (its four
      seats were not all taken in time), reason "nobody filled the table within 30 minutes";
    - an *empty* open table, where nobody waits (:func:`_nobody_waits`: no seat taken, or
      at a staked table no seat taken by a person), once it has been so for
      ``TRIX_EMPTY_TABLE_EXPIRY`` seconds: created that long ago and no person left a seat
      there since; reason "nobody was seated at the table for 3 minutes". A table's creator is not
      seated by creating it, so the tables people made and never sat at leave the lobby
      quickly instead of piling up there; a free table whose creator seated bots is an
      offer to play them and waits as long as any open table, a staked one is not (bots
      never stake: ``docs/rules.md``, "Stakes and pots").

    Tournament tables are never open and never expire. A table that started meanwhile, or
    where a person sat meanwhile (an empty one), is left alone (checked under its lock).
    Returns the ids cancelled; a table the ledger refuses is logged and skipped (it stays
    open)."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.TRIX_OPEN_TABLE_EXPIRY)
    empty_cutoff = now - timedelta(seconds=settings.TRIX_EMPTY_TABLE_EXPIRY)
    waiting = Table.objects.filter(status=TableStatus.OPEN).exclude(kind=TableKind.TOURNAMENT)
    left = TableEvent.objects.filter(
        table=OuterRef("pk"), type="seat_left", created_at__gte=empty_cutoff
    )
    empty = Q(created_at__lt=empty_cutoff) & _nobody_waits() & ~Exists(left)
    due = waiting.filter(Q(created_at__lt=cutoff) | empty).order_by("id")
    old = f"nobody filled the table within {expiry_text()}"
    unsat = f"nobody was seated at the table for {expiry_text(settings.TRIX_EMPTY_TABLE_EXPIRY)}"
    expired = []
    for table_id in list(due.values_list("pk", flat=True)[:EXPIRY_BATCH]):
        try:
            with transaction.atomic():
                table = changes.lock_table(table_id)
                if table.status != TableStatus.OPEN:
                    continue
                if table.created_at < cutoff:
                    reason = old
                elif waiting.filter(empty, pk=table_id).exists():  # asked again, locked
                    reason = unsat
                else:
                    continue
                _cancel_locked(table, reason, None)
        except TableError as exc:
            log.error("open table %s not expired: %s", table_id, exc)
            continue
        expired.append(table_id)
    return expired


def _nobody_waits() -> Q:
    """A table (filter of :class:`Table`) where nobody waits for players: no seat taken, or,
    at a staked table, none taken by a person (bots never stake: a staked table of bots
    alone is no match anyone waits for; ``docs/limits.md``, "Open tables")."""
    people = Seat.objects.filter(table=OuterRef("pk"), user__isnull=False)
    bots = Seat.objects.filter(table=OuterRef("pk")).exclude(bot="")
    return ~Exists(people) & (Q(stake__gt=0) | ~Exists(bots))
