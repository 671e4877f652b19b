"""A running tournament's rounds: each opened once with all its tables, each table's
result recorded (no-shows and the disqualified last), the event moved on when a round is
complete."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.fairness.table_results import table_result
from games.models import ACTION_TYPES, ActionStatus, Seat, Table, TableAction, TableStatus
from tournaments import progress
from tournaments.errors import Conflict
from tournaments.models import Entry, Round, RoundStatus, RoundTable, Status, Tournament
from tournaments.services import table_keys
from tournaments.services.common import FILL_BOT, _lock, _save
from tournaments.services.finish import _finish_locked
from tournaments.services.units import _members, _rounds_with_tables


def _seats_for(
    t: Tournament, units: list[str | None], members: dict[str, list[Entry]], out: set[str]
):
    """The four seats of a table (``create_seated_table``'s ``seats``) and the unit per seat.
    A bot plays the seats of a disqualified unit (``out``): it stays in the published
    seating and ranks last there."""
    per_seat = [units[0], units[1], units[0], units[1]] if t.team_mode else list(units)
    seats = []
    for seat, unit in enumerate(per_seat):
        if unit is None or unit in out:
            seats.append({"bot": FILL_BOT})
        else:
            entry = members[unit][seat // 2 if t.team_mode else 0]
            seats.append({"user": entry.user, "client_seed": entry.client_seed})
    return seats, per_seat


def _open_round_locked(t: Tournament, number: int, plan: Any) -> Round:
    """Create round ``number`` and every table of ``plan`` (a ``seating.PlannedRound``), the
    tables in one call of ``games.services.create_seated_tables``."""
    from games.services import create_seated_tables

    now = timezone.now()
    seating = plan.seating
    rnd = Round.objects.create(
        tournament=t,
        number=number,
        kind=plan.kind,
        status=RoundStatus.OPENING,
        seating={
            "order": list(plan.order),
            "tables": [list(x) for x in seating.tables],
            "byes": list(seating.byes),
        },
        show_up_deadline=now + timedelta(seconds=settings.TRIX_TOURNAMENT_SHOW_UP),
    )
    members = _members(t)
    out = t.disqualified_units()
    items, units = [], []
    dealt = table_keys.table_items(t, number, len(seating.tables))
    for index, table_units in enumerate(seating.tables):
        seats, per_seat = _seats_for(t, list(table_units), members, out)
        items.append(
            {
                "seats": seats,
                "origin": f"{t.ref}/round:{number}/table:{index}",
                **dealt[index],
            }
        )
        units.append(per_seat)
    tables = create_seated_tables(
        created_by=t.created_by, variant=t.variant, options=t.options, tables=items
    )
    RoundTable.objects.bulk_create(
        RoundTable(round=rnd, index=index, table=table, units=per_seat)
        for index, (table, per_seat) in enumerate(zip(tables, units, strict=True))
    )
    rnd.status = RoundStatus.RUNNING
    rnd.save(update_fields=["status"])
    return rnd


def _advance_locked(t: Tournament) -> None:
    if t.status != Status.RUNNING:
        return
    done = _rounds_with_tables(t)
    if done:
        last, tables = done[-1]
        if last.status != RoundStatus.FINISHED:
            if any(rt.recorded_at is None for rt in tables):
                return
            last.status = RoundStatus.FINISHED
            last.finished_at = timezone.now()
            last.save(update_fields=["status", "finished_at"])
    plan = progress.next_round(tournament=t, rounds=done)
    if plan is None:
        _finish_locked(t)
        return
    _open_round_locked(t, len(done) + 1, plan)
    _save(t)


def advance(*, tournament_id: int) -> Tournament:
    """Move a running tournament on: when every table of the current round is recorded,
    finish that round and open the next (or the final table), or finish the tournament.
    Nothing while paused or before the round is complete. Idempotent (a task run twice, or
    after a killed worker, opens each round once)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _advance_locked(t)
    return t


def open_round(*, tournament_id: int, number: int) -> Round:
    """Round ``number`` of the tournament, opened now if it is the next one and due
    (:func:`advance`); the existing round if it is already open. Raises :class:`Conflict`
    if it cannot open yet (an earlier round still playing, paused, not running)."""
    existing = Round.objects.filter(tournament_id=tournament_id, number=number).first()
    if existing is not None:
        return existing
    advance(tournament_id=tournament_id)
    existing = Round.objects.filter(tournament_id=tournament_id, number=number).first()
    if existing is None:
        raise Conflict(_("round %(number)s cannot open now") % {"number": number}, "not_due")
    return existing


def _no_shows(t: Tournament, rt: RoundTable, rnd: Round, table: Table) -> set[int]:
    """The seats of entrants who are no-shows at ``table`` (``docs/tournaments.md``,
    "No-shows"): a player who never looked at the table by the round's show-up deadline and
    never acted; and, where ``t.no_show_without_action`` (the default), a player with no move
    of their own in the match (no ``contract``/``select``/``double``/``play``/``pass`` they
    sent that was applied: every turn played by the timer, ``games.services.wakes``). A
    bot's seat (from the start, or since a disqualification) is never one."""
    out = set()
    sent = TableAction.objects.filter(table=table, source="user")
    acted = set(sent.values_list("seat", flat=True))
    moved = set(
        sent.filter(status=ActionStatus.APPLIED, action__type__in=ACTION_TYPES).values_list(
            "seat", flat=True
        )
    )
    for seat in Seat.objects.filter(table=table):
        if rt.units[seat.seat] is None or seat.user_id is None:
            continue
        if t.no_show_without_action and seat.seat not in moved:
            out.add(seat.seat)
            continue
        seen = seat.checked_in_at
        if seat.seat not in acted and (seen is None or seen > rnd.show_up_deadline):
            out.add(seat.seat)
    return out


def record_table_result(*, table_id: int) -> RoundTable | None:
    """Record a finished (or cancelled) tournament table's result: places per unit from
    ``Table.result``, no-shows and disqualified entrants last at that table. None if the
    table is not a tournament's; the stored row as is if already recorded or still playing.
    Idempotent."""
    tid = (
        RoundTable.objects.filter(table_id=table_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tid is None:
        return None
    with transaction.atomic():
        t = _lock(tid)
        rt = RoundTable.objects.select_for_update().select_related("round").get(table_id=table_id)
        if rt.recorded_at is not None or t.status == Status.CANCELLED:
            return rt  # a cancelled tournament's tables were ended by the cancellation
        table = Table.objects.get(pk=table_id)
        if table.status not in (TableStatus.FINISHED, TableStatus.CANCELLED):
            return rt
        no_show_seats = _no_shows(t, rt, rt.round, table)
        members = _members(t)
        no_shows = sorted(
            members[rt.units[s]][s // 2 if t.team_mode else 0].pk for s in no_show_seats
        )
        rt.result = table_result(
            units=rt.units,
            result=table.result if table.status == TableStatus.FINISHED else None,
            team_mode=t.team_mode,
            no_show_seats=no_show_seats,
            disqualified=t.disqualified_units(),
        )
        rt.no_shows = no_shows
        rt.recorded_at = timezone.now()
        rt.save(update_fields=["result", "no_shows", "recorded_at"])
        _save(t)
    return rt


def table_deal_ended(*, table_id: int) -> Tournament | None:
    """A deal ended at a tournament table still playing: bump the tournament's live version,
    so the live page shows the table's running scores (``selectors.bracket``). None if the
    table is not a tournament's; nothing changes once the table is recorded or the event is
    not running or paused. Idempotent in effect (a repeated bump shows the same page)."""
    tid = (
        RoundTable.objects.filter(table_id=table_id, recorded_at__isnull=True)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tid is None:
        return None
    with transaction.atomic():
        t = _lock(tid)
        if t.status in (Status.RUNNING, Status.PAUSED):
            _save(t)
    return t
