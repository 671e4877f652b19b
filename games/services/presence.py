"""Presence: a human seat that missed two turns in a row is marked away, and plays its
default action at once while it is.

The rule, from public facts only: a seat's turn that timed out at its deadline
(:func:`games.services.server_turns.turn`, a public ``timeout`` event) is a missed turn,
whatever the phase; ``settings.TRIX_AWAY_AFTER`` of them in a row (2) mark the seat away
(``Table.away``, a public ``seat_away`` event, one table version). While a seat is away and
it is its turn, the table's deadline is ``TRIX_AWAY_DELAY`` seconds away instead of the phase
timer (:func:`games.services.deadlines.schedule`), so the seat plays, at that fixed time,
exactly what a timeout plays (the engine's default action): nothing about its hand shows that
a timeout would not show. The first action the seat's player sends themselves and the worker
applies (or :func:`games.services.actions.come_back`) clears the mark (a public ``seat_back``
event); their next state answer says ``returned_from_away``
(:func:`games.selectors.table_state`). A card the table plays for a seat because it is its
only legal one (``auto_play_forced``) is neither missed nor acted. A private doubling pick
clears nothing (it must stay unseen). Bots are never away.

``Table.missed`` counts each seat's timeouts in a row (a list of four, ``[]`` = none);
``Table.away`` lists the away seats. Both are public; each function here runs with the
table's row locked by the caller and writes the two fields only when they change.
"""

from __future__ import annotations

from django.conf import settings

from games.models import Table

SEAT_AWAY = "seat_away"
SEAT_BACK = "seat_back"
EVENT_TYPES = frozenset({SEAT_AWAY, SEAT_BACK})
"""The public events of presence (payload ``{"seat": 0..3}``)."""


def away_seats(table: Table) -> list[int]:
    """The seats of ``table`` marked away, in order (humans only: a bot that took a seat over
    is never away)."""
    kinds = table.seat_kinds or [None] * 4
    return sorted(s for s in (table.away or []) if kinds[s] == "human")


def all_away(table: Table, seats: list[int]) -> bool:
    """Whether every one of ``seats`` (the humans to act) is away: their turn is played at
    once (:func:`games.services.deadlines.schedule`)."""
    away = set(away_seats(table))
    return bool(seats) and all(s in away for s in seats)


def _missed(table: Table) -> list[int]:
    return list(table.missed) if table.missed else [0, 0, 0, 0]


def timed_out(table: Table, seat: int) -> list[dict]:
    """``seat``'s turn timed out at its deadline: one more missed turn. Returns the events to
    log with the timeout (``seat_away`` when this marks it away, else none)."""
    missed = _missed(table)
    missed[seat] += 1
    table.missed = missed
    fields = ["missed"]
    events: list[dict] = []
    after = settings.TRIX_AWAY_AFTER  # timeouts in a row that mark a seat away (2; 0: never)
    if (
        after
        and missed[seat] >= after
        and seat not in (table.away or [])
        and (table.seat_kinds or [None] * 4)[seat] == "human"
    ):
        table.away = sorted([*(table.away or []), seat])
        fields.append("away")
        events.append({"type": SEAT_AWAY, "seat": seat, "visible_to": "all"})
    table.save(update_fields=fields)
    return events


def mark_away(table: Table, seat: int) -> list[dict]:
    """Mark the human ``seat`` away now, whatever its missed turns (its player was called to
    a tournament's table: ``games.services.tables``). Returns the events to log
    (``seat_away``, or none when it already is away or is not a person's); saves ``away``."""
    if seat in (table.away or []) or (table.seat_kinds or [None] * 4)[seat] != "human":
        return []
    table.away = sorted([*(table.away or []), seat])
    table.save(update_fields=["away"])
    return [{"type": SEAT_AWAY, "seat": seat, "visible_to": "all"}]


def acted(table: Table, seat: int) -> list[dict]:
    """``seat``'s player acted themselves (their action is being applied): no turn missed in a
    row any more, and not away. Returns the events to log after the action (``seat_back`` if
    the seat was away, else none); writes nothing when nothing changes."""
    missed = _missed(table)
    was_away = seat in (table.away or [])
    if not missed[seat] and not was_away:
        return []
    missed[seat] = 0
    table.missed = missed
    fields = ["missed"]
    events: list[dict] = []
    if was_away:
        table.away = [s for s in table.away if s != seat]
        fields.append("away")
        events.append({"type": SEAT_BACK, "seat": seat, "visible_to": "all"})
    table.save(update_fields=fields)
    return events
