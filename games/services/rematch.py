"""A rematch: the same four at a new table once a match ends.

- :func:`propose`: a person seated at a finished player-made table (casual or staked), within
  ``TRIX_REMATCH_WINDOW`` seconds of its end, makes its rematch: one new table with the same
  variant, options and stake (:func:`games.services.tables.create_table`; the proposer is its
  creator), the same bots re-seated on the same seats, and each person's seat held for them
  until ``holds_until`` (``TRIX_REMATCH_HOLD`` seconds). A finished table has at most one
  rematch (``Table.rematch_of`` is unique and the finished table's row is locked first), so
  a second proposal, by anyone, answers the same table.
- Each person accepts by sitting at their held seat as at any table
  (:func:`games.services.tables.take_seat`: their own client seed, the stake into escrow);
  the match starts when the four seats are filled.
- :func:`decline`: a person gives their held seat up (leaving it first, stake refunded, if
  they already sat). A seat whose hold lapsed or was declined is an ordinary free seat: anyone
  with the table's link may take it and its creator may seat a bot there. When every person
  declined and nobody sits, the rematch is cancelled at once; otherwise an unfilled rematch
  ends as any open table does (``TRIX_OPEN_TABLE_EXPIRY``, every stake refunded).

The rematch table is private (unlisted in the lobby); its invite link is what players share.
Nobody holds two live seats for it: the finished table's seat is over, and a hold is not a
seat until its person sits.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict, NotAllowed
from games.models import Seat, Table, TableStatus
from games.policy import policy
from games.services import cancellation, changes, tables


def propose(*, user, table_id: int) -> tuple[Table, bool]:
    """Make the rematch of finished table ``table_id``, or find the one already made.

    ``user`` must have held a person's seat there. Returns ``(rematch table, created)``.
    Raises :class:`~games.errors.NotFound` (no such table), :class:`NotAllowed`
    (``not_seated``), :class:`Conflict` (``not_finished``, ``no_rematch``: a tournament's
    table; ``rematch_closed``: more than ``TRIX_REMATCH_WINDOW`` seconds after the end;
    ``too_many_open_tables``), and, as a table's creation would, :class:`BadRequest`
    (``insufficient_funds``) or :class:`NotAllowed` (``kyc_required``...) when the proposer
    could not stake the stake now. Nothing is written when it raises."""
    now = timezone.now()
    with transaction.atomic():
        source = changes.lock_table(table_id)
        seats = changes.seats(source)
        if not any(s.user_id == user.pk for s in seats):
            raise NotAllowed(_("only the match's players can ask for a rematch"), "not_seated")
        existing = Table.objects.filter(rematch_of=source).first()
        if existing is not None:
            return existing, False
        _check_open(source, now)
        table = tables.create_table(
            user=user, variant=source.variant, stake=source.stake, options=source.options
        )
        for seat in seats:
            if seat.kind == "bot":
                tables.seat_bot(user=user, table_id=table.pk, seat=seat.seat, bot=seat.bot)
        for seat in seats:
            if seat.kind == "human":
                Seat.objects.filter(table=table, seat=seat.seat).update(held_for=seat.user_id)
        Table.objects.filter(pk=table.pk).update(
            rematch_of=source,
            holds_until=now + timedelta(seconds=settings.TRIX_REMATCH_HOLD),
            private=True,
            invite_token=secrets.token_urlsafe(16),
        )
    return Table.objects.get(pk=table.pk), True


def open_until(table: Table):
    """When the players of finished ``table`` may no longer propose its rematch (None: it did
    not finish)."""
    if table.status != TableStatus.FINISHED or table.finished_at is None:
        return None
    return table.finished_at + timedelta(seconds=settings.TRIX_REMATCH_WINDOW)


def _check_open(source: Table, now) -> None:
    """A rematch can be made of ``source`` now, else :class:`Conflict`."""
    if source.status != TableStatus.FINISHED:
        raise Conflict(_("a rematch follows a finished match"), "not_finished")
    if policy(source.kind).seats_assigned:
        raise Conflict(_("a tournament's table has no rematch"), "no_rematch")
    until = open_until(source)
    if until is None or now >= until:
        minutes = round(settings.TRIX_REMATCH_WINDOW / 60)
        raise Conflict(
            _("a rematch can be asked for within %(minutes)s minutes of the match's end")
            % {"minutes": minutes},
            "rematch_closed",
        )


def decline(*, user, table_id: int) -> Table:
    """``user`` declines the rematch of finished table ``table_id``: their held seat is freed
    for anyone (``rematch_declined``); already seated there, they leave it first (stake
    refunded). When nobody sits and no hold is left, the rematch is cancelled. Repeating it
    changes nothing. Returns the rematch table. Raises :class:`~games.errors.NotFound` (no
    such table), :class:`Conflict` (``no_rematch``: none was made; ``not_open``: it started
    or ended), :class:`NotAllowed` (``not_invited``: no seat was held for ``user``)."""
    rematch = Table.objects.filter(rematch_of_id=table_id).values_list("pk", flat=True).first()
    if rematch is None:
        changes.lock_table(table_id)  # NotFound for an unknown table
        raise Conflict(_("nobody asked for a rematch of this table"), "no_rematch")
    with transaction.atomic():
        table = changes.lock_table(rematch)
        seat = Seat.objects.select_for_update().filter(table=table, held_for=user).first()
        if seat is None:
            raise NotAllowed(_("no seat of this rematch is held for you"), "not_invited")
        if table.status != TableStatus.OPEN:
            raise Conflict(_("the rematch has already started or ended"), "not_open")
        if seat.hold_declined:
            return table
        if seat.user_id == user.pk:
            tables.leave(user=user, table_id=table.pk)
            table = changes.lock_table(rematch)
        Seat.objects.filter(pk=seat.pk).update(hold_declined=True)
        changes.add_events(table, [{"type": "rematch_declined", "seat": seat.seat}])
        table.save(update_fields=["version"])
        now = timezone.now()
        rows = changes.seats(table)
        if not any(s.kind == "human" or s.held(table, now) for s in rows):
            cancellation.cancel_table(
                table_id=table.pk, reason="everyone declined the rematch", by=user
            )
    return Table.objects.get(pk=rematch)
