"""Every timer of a table: the phase timers' limits, the deadline and wake-up set after each
change, the wake-up itself (next deal, a bot's turn, timeouts) and the sweep.

A table has two times (``games.models.Table``): ``deadline``, when the seats to act lose
their turn to the timeout (their default action, :func:`games.engine.turns.default_action`),
and ``wake_at``, when a worker must look next. :func:`schedule` sets both after every change;
:mod:`games.services.dispatch` sends the wake-up after the commit; :func:`wake` runs it;
:func:`sweep` (Celery beat) re-sends those that were lost. A bot's action is drawn from
``random.Random(f"{bot_seed}:{version}:{seat}")`` (:func:`turn`), so a replay repeats it.

Rules of timeouts and forfeits: ``shared/trix-rules.md`` (004_918501b053ed3a2d.txt).
"""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import options_text, shuffles, state_store
from games.engine import Options, apply
from games.engine.bots import make_bot
from games.engine.observation import observe
from games.engine.turns import default_action, forced_action
from games.errors import BadRequest, NotFound
from games.models import ActionStatus, Heartbeat, MatchRecord, Table, TableAction, TableStatus
from games.policy import policy
from games.services import actions, changes, dispatch, fast_turn, picks, presence

PHASE_TIMER = {"choose": "choose_timer", "double": "double_timer", "play": "play_timer"}
"""The engine phase -> the option naming its timer (whole seconds, ``0`` = none)."""


def check_timers(options: Options, kind: str) -> None:
    """The site's limits on the timers (whole seconds, ``0`` = none): at most
    ``TRIX_MAX_TIMER`` each, and where the kind requires timers (staked and tournament tables,
    :mod:`games.policy`) all three, so no player can hold the others' stakes or a tournament
    round for ever by not acting (``shared/trix-rules.md`` allows no timer for casual
    tables). Raises :class:`BadRequest` naming the timer by its label."""
    required = policy(kind).timers_required
    for name in PHASE_TIMER.values():
        seconds = getattr(options, name)
        if seconds > settings.TRIX_MAX_TIMER:
            raise BadRequest(options_text.timer_too_long(name), "invalid")
        if required and seconds == 0:
            raise BadRequest(options_text.timer_required(name), "invalid")


def _timer(table: Table, phase: str) -> float | None:
    """The seconds a seat has to act in ``phase`` (scaled by ``TRIX_TIMER_SCALE``), or
    None: no timer."""
    seconds = table.options.get(PHASE_TIMER.get(phase, ""), 0)
    if not seconds:
        return None
    return seconds * settings.TRIX_TIMER_SCALE


def schedule(table: Table, state, events: list[dict], *, send: bool = True) -> None:
    """Set the table's deadline, wake-up and status after a change; send the wake-up after
    the commit (``send=False``: the caller sends it, with
    :func:`games.services.dispatch.send_wake`). A match that ended has its pot paid
    (:func:`games.services.money.pay_pot`, by a worker) where the kind settles pots, and its
    end announced."""
    now = timezone.now()
    if state.phase == "over":
        table.status = TableStatus.FINISHED
        table.finished_at = now
        table.result = state.result
        table.deadline = None
        table.wake_at = None
        if policy(table.kind).pot_settled and "human" in table.seat_kinds:
            dispatch.send_pay_pot(table.pk)
        dispatch.announce_end(table)
        return
    if state.phase == "deal":
        table.deadline = None
        pause = settings.TRIX_DEAL_PAUSE if state.deal_number else 0.0
        table.wake_at = now + timedelta(seconds=pause)
        if send:
            dispatch.send_wake(table)
        return
    to_act = state.to_act()
    humans = [s for s in to_act if table.seat_kinds[s] == "human"]
    bots = [s for s in to_act if table.seat_kinds[s] != "human"]
    keep = (
        state.phase == "double"
        and state.options.doubling == "simultaneous"
        and table.deadline is not None
        and not any(e["type"] in ("doubling_started", presence.SEAT_BACK) for e in events)
    )
    if humans and not keep:
        timer = _timer(table, state.phase)
        table.deadline = now + timedelta(seconds=timer) if timer else None
    elif not humans:
        table.deadline = None
    if state.phase == "double" and state.options.double_asked == "holders":
        # Only holders asked: hurry only when every person at the table is away (the away
        # seats among those still asked would say who holds a doublable card).
        away_check = [s for s in range(4) if table.seat_kinds[s] == "human"]
    else:
        away_check = humans
    if humans and presence.all_away(table, away_check):  # away: the default action, at once
        hurry = now + timedelta(seconds=settings.TRIX_AWAY_DELAY)
        table.deadline = min(table.deadline or hurry, hurry)
    candidates = [table.deadline] if table.deadline else []
    if bots:
        candidates.append(now + timedelta(seconds=settings.TRIX_BOT_DELAY))
    if humans and _forced(state, humans[0]) is not None:
        # The forced card is played at the private wake-up; the public deadline stays the
        # phase timer (else it would tell the others the seat has one legal card).
        candidates.append(now + timedelta(seconds=settings.TRIX_FORCED_DELAY))
    table.wake_at = min(candidates) if candidates else None
    if send:
        dispatch.send_wake(table)


def _forced(state, seat: int) -> dict | None:
    """``seat``'s one legal action when the table plays it for the seat
    (``auto_play_forced``, 003), else None."""
    if not state.options.auto_play_forced:
        return None
    return forced_action(state, seat)


def forced_due(table: Table, state, now) -> dict | None:
    """The forced action (:func:`_forced`) of the human seat to play, once its wake-up
    (``TRIX_FORCED_DELAY`` after the change, never public) has come; else None."""
    if table.wake_at is None or table.wake_at > now + timedelta(milliseconds=20):
        return None
    humans = [s for s in state.to_act() if table.seat_kinds[s] == "human"]
    return _forced(state, humans[0]) if len(humans) == 1 else None


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
        cutoff = table.deadline if deadline_passed(table, now) else None
        if cutoff is None and table.options.get("auto_play_forced"):
            cutoff = table.wake_at  # maybe a forced card's turn (forced_due)
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
            due = turn(table, state, now)
            if due is None:
                state_store.remember_on_commit(table, state)
                schedule(table, state, [])
                table.save(update_fields=changes.PLAY_FIELDS)
                return
            events, acts = due
        changes.commit(table, record, state, since, events, acts)


def turn(table: Table, state, now) -> tuple[list[dict], list[TableAction]] | None:
    """Apply to ``state`` what a wake-up of ``table`` (in a match, not waiting for a deal)
    does now: one bot's action, the default actions of the seats whose deadline passed, or
    the forced card of a seat at an ``auto_play_forced`` table (:func:`forced_due`).
    Returns the events and the actions, or None if nothing is due (``state`` unchanged)."""
    kinds = table.seat_kinds
    to_act = state.to_act()
    bots = [s for s in to_act if kinds[s] != "human"]
    if bots:
        seat = bots[0]
        rng = random.Random(f"{table.bot_seed}:{table.version}:{seat}")
        action = make_bot(kinds[seat] or "rules").act(observe(state, seat), rng)
        _, events = apply(state, action)
        return events, [_own_action(table, seat, "bot", action, table.wake_at)]
    if deadline_passed(table, now):
        events, acts = [], []
        chosen = picks.current(table.pk, state.deal_number) if state.phase == "double" else {}
        # Only holders asked to double: a holder's timeout is its own news (public, it would
        # say who holds a doublable card) and is no missed turn (a public "away" would too).
        holders_asked = state.phase == "double" and state.options.double_asked == "holders"
        for seat in to_act:
            action = picks.answer(state, seat, chosen) or default_action(state, seat)
            more = [
                {"type": "timeout", "seat": seat, "visible_to": [seat] if holders_asked else "all"}
            ]
            if not holders_asked and not (
                state.options.auto_play_forced and forced_action(state, seat)
            ):
                more += presence.timed_out(table, seat)  # a missed turn (not a forced card)
            _, applied = apply(state, action)
            events += more + applied
            acts.append(_own_action(table, seat, "timeout", action, table.deadline))
        return events, acts
    forced = forced_due(table, state, now)
    if forced is not None:  # played as a timeout at its own, private, time
        seat = forced["seat"]
        _, applied = apply(state, forced)
        events = [{"type": "timeout", "seat": seat, "visible_to": "all"}, *applied]
        return events, [_own_action(table, seat, "timeout", forced, table.wake_at)]
    return None


def deadline_passed(table: Table, now) -> bool:
    """Whether the seats to act at ``table`` are out of time (within 20 ms of the deadline)."""
    return table.deadline is not None and table.deadline <= now + timedelta(milliseconds=20)


def _own_action(table: Table, seat: int, source: str, action: dict, due) -> TableAction:
    """The unsaved row of an action the server takes for ``seat`` (``source``: ``bot`` or
    ``timeout``), submitted at ``due``."""
    return TableAction(
        id=uuid.uuid4(),
        table=table,
        seat=seat,
        source=source,
        version=table.version,
        action=action,
        submitted_at=due or timezone.now(),
    )


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
