"""The timer arithmetic of a table: the phase timers' limits, and the deadline and wake-up a
change sets (:func:`schedule`, which returns what must happen next as a :class:`Next`).

A table has two times (``games.models.Table``): ``deadline``, when the seats to act lose
their turn to the timeout (their default action, :func:`games.engine.turns.default_action`),
and ``wake_at``, when a worker must look next. :func:`schedule` sets both on the table after
every change and sends nothing: its caller stores the table and hands the :class:`Next` to
:func:`games.services.dispatch.follow`, which sends the wake-up (and the end's messages)
after the commit; :mod:`games.services.wakes` runs the wake-up.

Rules of timeouts and forfeits: ``docs/rules.md`` (004_918501b053ed3a2d.txt).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games import options_text
from games.engine import Options
from games.engine.turns import forced_action
from games.errors import BadRequest
from games.models import Table, TableStatus
from games.policy import policy
from games.services import presence

PHASE_TIMER = {"choose": "choose_timer", "double": "double_timer", "play": "play_timer"}
"""The engine phase -> the option naming its timer (whole seconds, ``0`` = none)."""


@dataclass(frozen=True)
class Next:
    """What must happen after a change of a table commits, as :func:`schedule` (and
    :func:`games.services.changes.commit`) found it; :func:`games.services.dispatch.follow`
    does it.

    ``deadline`` and ``wake_at`` are the table's new times (aware datetimes, or None: none;
    already set on the table): a wake-up is sent for ``wake_at``. ``pay_pot``: a worker
    pays the finished table's pot; ``finished``: the match ended
    (:data:`games.signals.table_finished`); ``deal_ended``: the number of a deal that ended
    while the match goes on (:data:`games.signals.deal_ended`), else None."""

    deadline: datetime | None
    wake_at: datetime | None
    pay_pot: bool = False
    finished: bool = False
    deal_ended: int | None = None


def check_timers(options: Options, kind: str) -> None:
    """The site's limits on the timers (whole seconds, ``0`` = none): at most
    ``TRIX_MAX_TIMER`` each, and where the kind requires timers (staked and tournament tables,
    :mod:`games.policy`) all three, so no player can hold the others' stakes or a tournament
    round for ever by not acting (``docs/rules.md`` allows no timer for casual
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


def schedule(table: Table, state, events: list[dict]) -> Next:
    """Set the table's deadline, wake-up and status after a change (``events``: the change's
    engine events) and return what must happen next; nothing is saved or sent. A match
    that ended has its pot paid (:func:`games.services.money.pay_pot`, by a worker) where
    the kind settles pots, and its end announced."""
    now = timezone.now()
    if state.phase == "over":
        table.status = TableStatus.FINISHED
        table.finished_at = now
        table.result = state.result
        table.deadline = None
        table.wake_at = None
        pay = policy(table.kind).pot_settled and "human" in table.seat_kinds
        return Next(deadline=None, wake_at=None, pay_pot=pay, finished=True)
    if state.phase == "deal":
        table.deadline = None
        pause = settings.TRIX_DEAL_PAUSE if state.deal_number else 0.0
        table.wake_at = now + timedelta(seconds=pause)
        return Next(deadline=None, wake_at=table.wake_at)
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
    return Next(deadline=table.deadline, wake_at=table.wake_at)


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


def deadline_passed(table: Table, now) -> bool:
    """Whether the seats to act at ``table`` are out of time (within 20 ms of the deadline)."""
    return table.deadline is not None and table.deadline <= now + timedelta(milliseconds=20)
