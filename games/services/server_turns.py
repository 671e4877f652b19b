"""The actions the server takes for a seat at a wake-up (:func:`turn`): a bot's action, the
default actions of the seats whose deadline passed (:func:`games.engine.turns.default_action`,
a doubling pick kept privately first: :mod:`games.services.picks`) and the forced card of a
seat at an ``auto_play_forced`` table. Applied to the match state only: the caller
(:func:`games.services.wakes.wake`, :func:`games.services.fast_turn.try_bot_turn`) stores
them.

A bot's action comes from :func:`games.engine.bots.bot_action` with the table's
``bot_seed``: a function of the match's public record and that seed, so whoever knows the
seed (revealed when the match ends) repeats it. Rules of timeouts and forfeits:
``docs/rules.md`` (004_918501b053ed3a2d.txt).
"""

from __future__ import annotations

import uuid

from django.utils import timezone

from games.engine import apply
from games.engine.bots import bot_action
from games.engine.turns import default_action, forced_action
from games.models import Table, TableAction
from games.services import deadlines, picks, presence


def turn(table: Table, state, now) -> tuple[list[dict], list[TableAction]] | None:
    """Apply to ``state`` what a wake-up of ``table`` (in a match, not waiting for a deal)
    does now: one bot's action, the default actions of the seats whose deadline passed, or
    the forced card of a seat at an ``auto_play_forced`` table
    (:func:`games.services.deadlines.forced_due`).
    Returns the events and the actions, or None if nothing is due (``state`` unchanged)."""
    kinds = table.seat_kinds
    to_act = state.to_act()
    bots = [s for s in to_act if kinds[s] != "human"]
    if bots:
        seat = bots[0]
        action = bot_action(state, seat, kinds[seat] or "rules", table.bot_seed)
        _, events = apply(state, action)
        return events, [_own_action(table, seat, "bot", action, table.wake_at)]
    if deadlines.deadline_passed(table, now):
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
    forced = deadlines.forced_due(table, state, now)
    if forced is not None:  # played as a timeout at its own, private, time
        seat = forced["seat"]
        _, applied = apply(state, forced)
        events = [{"type": "timeout", "seat": seat, "visible_to": "all"}, *applied]
        return events, [_own_action(table, seat, "timeout", forced, table.wake_at)]
    return None


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
