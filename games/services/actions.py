"""A person's action at their seat: the web request that submits it (:func:`submit_action`)
locks the table and applies it at once (:func:`games.services.acting.apply`: the state read
once, the staleness rule and the engine's check, one commit; the watchers' update goes out on
that commit). A refused action changes nothing and stores nothing. And a player's "I'm back"
(:func:`come_back`, the away rule of :mod:`games.services.presence`).

:func:`apply_action` is the worker's side of the same rule for an action stored ``pending``
(by a web process of a release that queued actions, during a rolling upgrade: the beat's
sweep re-sends such rows, :func:`games.services.wakes.sweep`): it applies the row once, by
the same :func:`~games.services.acting.apply`, or stores why it was refused."""

from __future__ import annotations

import json

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import state_store
from games.errors import BadRequest, Conflict, NotAllowed, NotFound, TableError
from games.models import ACTION_TYPES, ActionStatus, Table, TableAction, TableStatus
from games.services import acting, changes, deadlines, dispatch, presence, tables


def submit_action(*, user, table_id: int, action_id, version: int, action: dict) -> TableAction:
    """Check a user's action and apply it now, under the table's lock; return its
    :class:`TableAction` (``status`` applied, with ``applied_version``; the API answers it
    with :func:`games.api.answers.action_answer`). A ``select`` (a private doubling pick,
    :mod:`games.services.picks`) is kept instead: it changes nothing of the table.

    ``action`` is the engine's JSON action without ``seat`` (the user's seat is filled in).
    A known ``action_id`` sent again with the same ``version`` and ``action`` returns the
    first one's row. Raises :class:`NotFound`, :class:`NotAllowed` (no seat here),
    :class:`BadRequest` (illegal now: ``illegal_action``; match over or not started),
    :class:`Conflict` (stale version; the id used by someone else, at another table, or for a
    different action or version: code ``duplicate_id``). Nothing is stored on an error."""
    try:
        return _submit(user, table_id, action_id, version, action)
    except (TableError, IntegrityError):
        # A known id (a retry: its table has moved on since, or it is the id's own row) is
        # answered by its first result, looked up only when the action was refused.
        existing = TableAction.objects.filter(pk=action_id).first()
        if existing is None:
            raise
        return _duplicate(existing, user, table_id, version, action)


def _submit(user, table_id: int, action_id, version: int, action: dict) -> TableAction:
    """:func:`submit_action` for an id not used before: the seat (outside the transaction:
    :func:`games.services.tables.check_in` remembers what it wrote), then the lock and
    :func:`games.services.acting.apply`."""
    seat = changes.user_seat(table_id, user)
    if seat is None:
        if not Table.objects.filter(pk=table_id).exists():
            raise NotFound(_("There is no table %(id)s.") % {"id": table_id})
        raise NotAllowed(_("You have no seat at this table."), "not_your_seat")
    tables.check_in(user=user, table_id=table_id)
    if action.get("type") not in ACTION_TYPES:
        types = ", ".join(ACTION_TYPES)
        raise BadRequest(_("action type must be one of %(types)s") % {"types": types}, "invalid")
    row = TableAction(
        id=action_id,
        table_id=table_id,
        seat=seat.seat,
        user=user,
        source="user",
        version=version,
        action={**action, "seat": seat.seat},
        submitted_at=timezone.now(),
    )
    with transaction.atomic():
        table = changes.lock_table(table_id)
        if table.status == TableStatus.OPEN:
            raise BadRequest(_("The match has not started yet."), "not_started")
        row.table = table
        acting.apply(table, row, stale_check=True)
    return row


def _duplicate(
    existing: TableAction, user, table_id: int, version: int, action: dict
) -> TableAction:
    """The first row of a retried action id, or :class:`Conflict` when the id was used for
    anything else (compared: user, table, version and the action without the seat the server
    filled in)."""
    if existing.table_id != table_id or existing.user_id != getattr(user, "pk", None):
        raise Conflict(_("this action id was already used for another action"), "duplicate_id")
    stored = {k: v for k, v in existing.action.items() if k != "seat"}
    if existing.version != version or stored != action:
        raise Conflict(
            _(
                "action id %(id)s was already used for a different action (%(action)s at "
                "version %(version)s); use a new id for a new action"
            )
            % {"id": existing.pk, "action": json.dumps(stored), "version": existing.version},
            "duplicate_id",
        )
    return existing


def apply_action(*, action_id) -> None:
    """Worker: apply an action stored ``pending`` once (a no-op if already applied or
    rejected), as :func:`_apply` does; a forfeit is never stale. Refused (stale, illegal by
    now, the match over): the row is rejected with its reason and the table is unchanged."""
    try:
        table_id = TableAction.objects.values_list("table_id", flat=True).get(pk=action_id)
    except TableAction.DoesNotExist:
        return
    with transaction.atomic():
        table = changes.lock_table(table_id)
        act = TableAction.objects.select_for_update().get(pk=action_id)
        apply_locked(table, act)


def apply_locked(table: Table, act: TableAction) -> None:
    """Apply the pending ``act`` (its row and the table's locked by the caller), as
    :func:`apply_action` describes."""
    if act.status != ActionStatus.PENDING:
        return
    try:
        acting.apply(table, act, stale_check=act.action.get("type") != "forfeit")
    except TableError as exc:  # raised before anything is written
        act.status = ActionStatus.REJECTED
        act.http_status = exc.status
        act.error = exc.message
        act.applied_at = timezone.now()
        act.save(update_fields=["status", "http_status", "error", "applied_at"])


def come_back(*, user, table_id: int) -> Table:
    """The user says they are back at their table without acting (the table page's "I'm
    back"): their seat's away mark is cleared (``seat_back``, one version) and its turns get
    the full timer again. A no-op (no version) when the seat is not away. Raises
    :class:`~games.errors.NotFound`, :class:`~games.errors.NotAllowed` (no seat here),
    :class:`~games.errors.BadRequest` (``not_playing``: the match is not being played)."""
    with transaction.atomic():
        table = changes.lock_table(table_id)
        seat = changes.user_seat(table, user)
        if seat is None:
            raise NotAllowed(_("you have no seat at this table"), "not_seated")
        if table.status != TableStatus.PLAYING:
            raise BadRequest(_("the match is not being played"), "not_playing")
        events = presence.acted(table, seat.seat)
        if not events:
            return table
        changes.add_events(table, events)
        # The seat's turn, if it is now, gets the full timer from now.
        then = state_store.read(table, lambda state: deadlines.schedule(table, state, events))
        table.save(update_fields=["version", "deadline", "wake_at"])
        dispatch.follow(table, then)
    return table
