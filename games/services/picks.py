"""A seat's private doubling pick: stored beside the match, never in its public log.

While doubling is simultaneous a seat may tell the server its current pick (a ``select``
action) before its answer, so a timeout commits it (000: "timer commits the current
selection"). The pick is the seat's alone: the web request keeps it at once
(:func:`games.services.actions.submit_action`, under the table's lock, no worker task) in a
:class:`~games.models.DoublingPick` row, not in the stored match state; it writes no event,
takes no table version, sets no deadline or wake-up and notifies nobody, so nothing anyone
else can observe of the table (its version, its events, their count, its deadline, their
timing) depends on it. The seat sees it as ``view.doubling.selected``
(:func:`games.selectors.table_state`); the timeout applies it as the seat's answer
(:func:`games.services.server_turns.turn`), from which on it is public as any answer.
"""

from __future__ import annotations

from django.utils import timezone

from games.engine import IllegalAction
from games.engine.match import check
from games.models import DoublingPick, Table


def store(table: Table, state, action: dict) -> None:
    """Keep ``action`` (an engine ``select`` action with its ``seat``) as that seat's pick in
    the deal being played (the table row is locked by the caller; ``state`` is the match at
    ``table.version``, not changed). Raises :class:`IllegalAction` as the engine's check of a
    ``select`` does (not doubling simultaneously, not the seat's turn, a card it may not
    double)."""
    if action.get("type") != "select":
        raise IllegalAction("a pick is a select action")
    check(state, action)
    DoublingPick.objects.update_or_create(
        table=table,
        seat=action["seat"],
        defaults={
            "deal": state.deal_number,
            "cards": list(action["cards"]),
            "picked_at": timezone.now(),
        },
    )


def current(table_id: int, deal: int, seat: int | None = None) -> dict[int, list[str]]:
    """The picks made in deal number ``deal`` of the table (of ``seat`` only, if given):
    seat -> card codes; a seat that picked nothing in this deal is absent."""
    rows = DoublingPick.objects.filter(table_id=table_id, deal=deal)
    if seat is not None:
        rows = rows.filter(seat=seat)
    return dict(rows.values_list("seat", "cards"))


def answer(state, seat: int, picks: dict[int, list[str]]) -> dict | None:
    """The answer a timeout gives for ``seat`` while doubling is simultaneous: its pick in
    ``picks`` (from :func:`current`) as a ``double`` action, or None when it picked
    nothing (the engine's default then: no double)."""
    if state.phase != "double" or state.options.doubling != "simultaneous":
        return None
    if seat not in picks:
        return None
    return {"type": "double", "seat": seat, "cards": list(picks[seat])}
