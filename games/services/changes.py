"""The one writer of a change of a table: the row lock, the event log, the checkpoint of the
match state, the end of a deal (its seed revealed, its :class:`~games.models.Deal` record)
and the table's new times.

Every service that changes a table locks its row first (:func:`lock_table`), appends its
events (:func:`add_events`, one version each) and, for a change of the match, stores it
with :func:`commit`, which sets the timers (:func:`games.services.deadlines.schedule`) and
returns what must happen next (a :class:`~games.services.deadlines.Next`); it sends
nothing: the caller hands that to :func:`games.services.dispatch.follow`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games import shuffles, state_store
from games.errors import NotFound
from games.models import ActionStatus, Deal, MatchRecord, Seat, Table, TableAction, TableEvent
from games.services import deadlines, fairness_log

PLAY_FIELDS = ["version", "status", "finished_at", "result", "deadline", "wake_at"]
"""The table fields a change of the match writes."""


def lock_table(table_id: int) -> Table:
    """The table row, locked until the transaction ends. Raises :class:`NotFound`.

    The stored match is read after the lock in its own query: a row joined to a
    ``SELECT ... FOR UPDATE`` may come from before the lock was granted (PostgreSQL
    re-reads only the locked row), which would pair a new version with an old state."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(_("There is no table %(id)s.") % {"id": table_id}) from None


def set_kinds(table: Table, seats: list[Seat]) -> None:
    """``table.seat_kinds``: per seat ``human``, the bot's name, or None (empty)."""
    table.seat_kinds = [s.kind if s.kind != "bot" else s.bot for s in seats]


def seats(table: Table) -> list[Seat]:
    """The table's four seats, in seat order."""
    return list(Seat.objects.filter(table=table).order_by("seat"))


def user_seat(table: Table | int, user) -> Seat | None:
    """The seat ``user`` holds at ``table`` (the table or its id), or None (also for an
    anonymous user)."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, user=user).first()


def add_events(
    table: Table, events: list[dict[str, Any]], log: dict[str, list] | None = None
) -> None:
    """Append engine-shaped events (``type``, ``visible_to``, payload) to the log, in one
    INSERT; ``log`` (the match log's increment, :func:`games.state_store.increment`) goes on
    the first of them."""
    TableEvent.objects.bulk_create(event_rows(table, events, log))


def event_rows(
    table: Table, events: list[dict[str, Any]], log: dict[str, list] | None = None
) -> list[TableEvent]:
    """The unsaved :class:`TableEvent` rows of ``events``, one version each after
    ``table.version`` (which is advanced to the last); ``log`` on the first."""
    if log is not None and not events:
        raise RuntimeError("a change of the match log must come with at least one event")
    rows = []
    for event in events:
        table.version += 1
        payload = {k: v for k, v in event.items() if k not in ("type", "visible_to")}
        vis = event.get("visible_to", "all")
        rows.append(
            TableEvent(
                table=table,
                version=table.version,
                type=event["type"],
                payload=payload,
                visible_to=None if vis == "all" else list(vis),
            )
        )
    if log is not None:
        rows[0].log = log
    return rows


def commit(
    table: Table,
    record: MatchRecord | None,
    state,
    since: tuple[int, int],
    events: list[dict],
    actions: list[TableAction],
) -> deadlines.Next:
    """Store the change: its events (with the match log's increment since ``since``, from
    :func:`games.state_store.mark`), the actions, the ended deals and a new checkpoint of
    the state when a deal or the match ended, and the table's new deadline and wake-up
    (:func:`games.services.deadlines.schedule`). ``record`` is read here if the change needs
    it and the caller has not.

    Returns what must happen after the commit (the wake-up to send, a pot to pay, the end
    of the match or of a deal to announce); nothing is sent here: the caller hands it to
    :func:`games.services.dispatch.follow` in the same transaction."""
    now = timezone.now()
    add_events(table, events, state_store.increment(state, since))
    ended = [e["deal"] for e in events if e["type"] == "deal_ended"]
    if state.phase == "over" and state.deal is not None and state.forfeit is not None:
        if state.deal_number > len(state.records):  # forfeited mid-deal: its seed is due too
            ended.append(state.deal_number)
    if ended or state.phase == "over":
        if record is None:
            record = MatchRecord.objects.get(table=table)
        for number in ended:
            _record_ended_deal(table, record, state, number)
        if any(e["type"] == "match_ended" for e in events):
            reveal_bot_seed(table)
        record.state = state.to_json()
        record.state_version = table.version
        record.save(update_fields=["state", "state_version", "shuffle"])
    for act in actions:
        act.status = ActionStatus.APPLIED
        act.applied_version = table.version
        act.applied_at = now
    new = [act for act in actions if act._state.adding]
    if new:
        TableAction.objects.bulk_create(new)
    for act in actions:
        if act not in new:
            act.save(update_fields=["status", "applied_version", "applied_at"])
    then = deadlines.schedule(table, state, events)
    table.save(update_fields=PLAY_FIELDS)
    state_store.remember_on_commit(table, state)
    if ended and state.phase != "over":
        then = dataclasses.replace(then, deal_ended=ended[-1])
    return then


def reveal_bot_seed(table: Table) -> None:
    """The match of ``table`` ended (over, forfeited or called off): log the seed its bots
    drew from (a ``bot-seed`` entry), in this transaction, when its receipt committed to one
    (``bot_play``; ``games.fairness.bot_play``). A match without bots, or that never
    started, logs nothing."""
    receipt = table.receipt or {}
    if "bot_play" in receipt:
        fairness_log.append(
            [fairness_log.bot_seed(match_id=receipt["match_id"], seed=table.bot_seed)]
        )


def _record_ended_deal(table: Table, record: MatchRecord, state, number: int) -> None:
    """Deal ``number`` ended: reveal its server seed (``seed_revealed``) and keep its
    ``trix-deal/1`` record as a :class:`Deal` with its ``deal-record`` log entry, in this
    transaction (neither for a deal forfeited before it ended: its seed is revealed, no
    record)."""
    record.shuffle = shuffles.end_deal(record.shuffle, number)
    block = shuffles.shuffle_block(
        record.shuffle, number, receipt=table.receipt, signature=table.receipt_signature
    )
    if number <= len(state.records):
        rec = dict(state.records[number - 1])
        rec["shuffle"] = block
        rec["match"] = table.pk
        rec["deal_number"] = number
        deal = Deal.objects.create(table=table, number=number, contract=rec["contract"], record=rec)
        deal_id = deal.pk
        # The record is final once written: its hash in the log binds its plays and scores.
        fairness_log.append(
            [fairness_log.deal_record(match_id=block["match_id"], deal_number=number, record=rec)]
        )
    else:
        deal_id = None
    add_events(
        table,
        [
            {
                "type": "seed_revealed",
                "deal": number,
                "deal_id": deal_id,
                "server_seed": block["server_seed"],
            }
        ],
    )
