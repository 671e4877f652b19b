"""The worker's side of a table's timers: the wake-up (:func:`wake`: the next deal, a bot's
turn, the timeouts of the seats out of time, a forced card) and the beat's :func:`sweep`.

:func:`games.services.deadlines.schedule` sets a table's ``deadline`` and ``wake_at`` after
every change; :func:`games.services.dispatch.follow` sends the wake-up after the commit
(task ``games.tasks.wake``); :func:`wake` runs it; :func:`sweep` (Celery beat) re-sends
those that were lost. A bot's action comes from
:func:`games.engine.bots.bot_action` with the table's bot seed
(:func:`games.services.server_turns.turn`), so a replay repeats it.

Rules of timeouts and forfeits: ``docs/rules.md`` (004_918501b053ed3a2d.txt).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import shuffles, state_store
from games.engine import apply
from games.errors import NotFound
from games.models import ActionStatus, Heartbeat, MatchRecord, Table, TableAction, TableStatus
from games.services import actions, changes, deadlines, dispatch, fast_turn, server_turns


def wake(*, table_id: int, version: int) -> None:
    """Worker: the timer set for ``version`` fired. If the table is still at that version:
    deal the next deal, let one bot act, or time out the seats whose deadline passed.

    On PostgreSQL a bot's turn that ends no deal is written in one statement that applies it
    only if the table is still at ``version`` (:func:`games.services.fast_turn.try_bot_turn`);
    everything else (a deal, a timeout, which a pending action may beat) and a turn that lost
    that race takes the table's row lock first."""
    if fast_turn.available() and fast_turn.try_bot_turn(table_id, version):
        return
    with transaction.atomic():
        try:
            table = changes.lock_table(table_id)
        except NotFound:
            return
        if table.version != version or table.status != TableStatus.PLAYING:
            return
        now = timezone.now()
        if table.wake_at is None:
            return
        if table.wake_at > now + timedelta(milliseconds=20):
            dispatch.send_wake(table)  # woken early (e.g. by the sweep): sleep again
            return
        cutoff = table.deadline if deadlines.deadline_passed(table, now) else None
        if cutoff is None and table.options.get("auto_play_forced"):
            cutoff = table.wake_at  # maybe a forced card's turn (deadlines.forced_due)
        if cutoff is not None:
            # A seat's action accepted before its deadline (or its forced card's time) but
            # not applied yet beats the timeout (its own task will find it done). If it is
            # refused, time out as usual.
            pending = (
                TableAction.objects.select_for_update()
                .filter(table=table, status=ActionStatus.PENDING, submitted_at__lte=cutoff)
                .order_by("submitted_at")
                .first()
            )
            if pending is not None:
                before = table.version
                actions.apply_locked(table, pending)
                if table.version != before:
                    return
        state = state_store.for_write(table)
        since = state_store.mark(state)
        acts: list[TableAction] = []
        record = None
        if state.phase == "deal":
            record = MatchRecord.objects.get(table=table)
            hands = shuffles.hands(record.shuffle, state.deal_number + 1)
            _, events = apply(state, {"type": "deal", "hands": hands})
        else:
            due = server_turns.turn(table, state, now)
            if due is None:
                state_store.remember_on_commit(table, state)
                then = deadlines.schedule(table, state, [])
                table.save(update_fields=changes.PLAY_FIELDS)
                dispatch.follow(table, then)
                return
            events, acts = due
        dispatch.follow(table, changes.commit(table, record, state, since, events, acts))


def sweep() -> dict[str, int]:
    """Beat: re-send lost wake-ups, pending actions and pot payments (among them every send
    that found no broker after its commit: :mod:`games.services.dispatch`), then record the
    time in :class:`Heartbeat` (``Heartbeat.SWEEP``; its age is the health endpoint's sign of
    a worker that is not consuming). Returns counts (``woken``, ``pending``, ``settling``)."""
    now = timezone.now()
    # A wake-up overdue by less than TRIX_SWEEP_LATE is still queued, not lost: re-sending
    # it would only add no-op tasks to a busy queue.
    late = now - timedelta(seconds=settings.TRIX_SWEEP_LATE)
    woken = 0
    for table_id, version in Table.objects.filter(
        status=TableStatus.PLAYING, wake_at__lt=late
    ).values_list("pk", "version"):
        dispatch.resend_wake(table_id, version)
        woken += 1
    pending = 0
    for action_id in TableAction.objects.filter(
        status=ActionStatus.PENDING, submitted_at__lt=now - timedelta(seconds=2)
    ).values_list("pk", flat=True):
        dispatch.resend_action(action_id)
        pending += 1
    settling = 0
    for table_id in Table.objects.filter(
        status=TableStatus.FINISHED, stake__gt=0, settled=False, finished_at__lt=late
    ).values_list("pk", flat=True):
        dispatch.resend_pay_pot(table_id)
        settling += 1
    Heartbeat.objects.update_or_create(name=Heartbeat.SWEEP, defaults={"at": timezone.now()})
    return {"woken": woken, "pending": pending, "settling": settling}
