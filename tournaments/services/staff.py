"""The admin's actions on a tournament under way: pause, resume, cancel (every fee
refunded), disqualify. Each needs staff and a reason shown on the tournament page."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import TableError
from games.models import Seat, TableStatus
from tournaments import dispatch
from tournaments.errors import Conflict, NotFound
from tournaments.models import AdminAction, Entry, EntryStatus, RoundTable, Status, Tournament
from tournaments.services import table_keys
from tournaments.services.common import (
    FILL_BOT,
    TAKING_PART,
    _lock,
    _move_status,
    _named,
    _reason,
    _record,
    _require_staff,
    _save,
)
from tournaments.services.finish import _compute_final, log_payout
from wallet import services as wallet
from wallet.errors import EscrowClosed
from wallet.selectors import escrow_balance, is_escrow_closed


def pause(*, tournament_id: int, by: Any, reason: str) -> Tournament:
    """No new round opens until :func:`resume` (tables playing go on). Staff; reason shown."""
    _require_staff(by, _("pause tournaments"))
    reason = _reason(reason)
    with transaction.atomic():
        t = _move_status(
            tournament_id,
            by,
            source=Status.RUNNING,
            target=Status.PAUSED,
            action="pause",
            refusal=_("only a running tournament can be paused (%(name)s is %(status)s)"),
            reason=reason,
        )
    return t


def resume(*, tournament_id: int, by: Any, reason: str) -> Tournament:
    """A paused tournament runs again; a round that became due while paused opens now."""
    _require_staff(by, _("resume tournaments"))
    reason = _reason(reason)
    with transaction.atomic():
        t = _move_status(
            tournament_id,
            by,
            source=Status.PAUSED,
            target=Status.RUNNING,
            action="resume",
            refusal=_("%(name)s is not paused (it is %(status)s)"),
            reason=reason,
        )
        dispatch.send_on_commit("advance", t.pk)
    return t


def _cancel_locked(t: Tournament, reason: str, details: dict | None = None) -> None:
    for rt in RoundTable.objects.filter(
        round__tournament=t, table__status__in=(TableStatus.OPEN, TableStatus.PLAYING)
    ):
        from games.services import cancel_table

        cancel_table(table_id=rt.table_id, reason=f"tournament cancelled: {reason}")
    if not is_escrow_closed(t.ref) and escrow_balance(t.ref) > 0:
        try:
            paid = wallet.refund_all(escrow_ref=t.ref, key=f"{t.ref}:cancel", memo=reason[:100])
        except EscrowClosed:
            pass
        else:
            log_payout(t, paid.pk, "refund")
    for e in Entry.objects.filter(tournament=t, status__in=TAKING_PART):
        e.refunded = e.paid
        if e.status == EntryStatus.REGISTERED:
            e.status = EntryStatus.REFUNDED
        e.place = e.prize = None
        e.save(update_fields=["status", "refunded", "place", "prize"])
    t.status = Status.CANCELLED
    t.cancelled_at = timezone.now()
    table_keys.reveal(t)  # every table of the event was cancelled above, or had ended
    _save(t, "status", "cancelled_at", "tables_key")
    if not AdminAction.objects.filter(tournament=t, action="cancel").exists():
        AdminAction.objects.create(
            tournament=t, by=None, action="cancel", reason=reason, details=details or {}
        )


def cancel(*, tournament_id: int, by: Any, reason: str) -> Tournament:
    """Call the tournament off (staff): tables still playing are cancelled, every entry fee
    is refunded (the whole escrow, ``refund_all``, logged as the event's ``event-payout``:
    ``finish.log_payout``). Not once the prizes are paid. Raises
    :class:`Conflict`."""
    _require_staff(by, _("cancel tournaments"))
    reason = _reason(reason)
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status in (Status.FINISHED, Status.CANCELLED):
            raise Conflict(_("%(name)s is already %(status)s") % _named(t), "wrong_status")
        AdminAction.objects.create(tournament=t, by=by, action="cancel", reason=reason)
        _cancel_locked(t, reason)
    return t


def disqualify(*, tournament_id: int, by: Any, user_id: int, reason: str) -> Entry:
    """Disqualify an entrant (staff): they rank last at the table where they sit (a bot
    takes their seat if it is still playing), never advance, and get no prize; in a
    partnership event their team does. During the review window the final places and
    prizes are recomputed at once. Raises :class:`Conflict`, :class:`NotFound`."""
    from games.services import replace_with_bot

    _require_staff(by, _("disqualify players"))
    reason = _reason(reason)
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status not in (Status.RUNNING, Status.PAUSED, Status.REVIEW):
            raise Conflict(
                _(
                    "players can be disqualified while %(name)s runs or is in review "
                    "(it is %(status)s)"
                )
                % _named(t),
                "wrong_status",
            )
        entry = Entry.objects.filter(tournament=t, user_id=user_id).first()
        if entry is None or entry.status not in TAKING_PART:
            raise NotFound(
                _("user %(user)s has no entry in %(name)s") % {"user": user_id, "name": t.name}
            )
        if entry.status == EntryStatus.DISQUALIFIED:
            raise Conflict(_("this entrant is already disqualified"), "already_disqualified")
        entry.status = EntryStatus.DISQUALIFIED
        entry.save(update_fields=["status"])
        replaced = []
        for rt in RoundTable.objects.filter(
            round__tournament=t, recorded_at__isnull=True, table__status=TableStatus.PLAYING
        ):
            for seat in Seat.objects.filter(table_id=rt.table_id, user_id=user_id):
                try:
                    replace_with_bot(
                        table_id=rt.table_id, seat=seat.seat, reason=reason, bot=FILL_BOT
                    )
                except TableError:  # the match ended meanwhile: ranked last when recorded
                    continue
                replaced.append({"table": rt.table_id, "seat": seat.seat})
        if t.status == Status.REVIEW:
            _compute_final(t)
        _save(t, "pool", "house_fee")
        _record(t, by, "disqualify", reason, user_id=user_id, seats=replaced)
    return entry
