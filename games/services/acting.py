"""A seat's action applied to its table, the table row locked by the caller: the one way a
person's action changes a match, whether the web request that submits it applies it
(:func:`games.services.actions.submit_action`), a leave at a paid table applies its forfeit
(:func:`games.services.tables.leave`), or a worker applies a row an older release stored
``pending`` (:func:`games.services.actions.apply_action`). The match state is read once
(:func:`games.state_store.for_write`), the action checked (:func:`stale`, then the engine's
rules) and applied once, and the change committed once (:func:`games.services.changes.commit`;
what must happen next handed to :func:`games.services.dispatch.follow`)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from games import state_store
from games.engine import IllegalAction
from games.engine import apply as engine_apply
from games.errors import BadRequest, Conflict, TableError
from games.models import ActionStatus, Table, TableAction, TableEvent, TableStatus
from games.services import changes, dispatch, picks, presence


def stale(table: Table, state, version: int) -> str | None:
    """Why an action made against ``version`` is stale now, or None.

    While doubling is simultaneous, the only changes are the seats' Ready (their picks change
    no version), so an answer made since the doubling started still counts."""
    if version > table.version:
        return _("version %(version)s is newer than the table's version %(current)s") % {
            "version": version,
            "current": table.version,
        }
    if version == table.version:
        return None
    if state is not None and state.phase == "double" and state.options.doubling == "simultaneous":
        moved = (
            TableEvent.objects.filter(table=table, version__gt=version)
            .exclude(type__in=("double_ready", "double_selected"))  # (older tables' picks)
            .exists()
        )
        if not moved:
            return None
    return _(
        "stale version: the action was made against version %(version)s, the table is at "
        "version %(current)s; reload the state"
    ) % {"version": version, "current": table.version}


def apply(table: Table, act: TableAction, *, stale_check: bool) -> None:
    """Check ``act`` against the match at ``table.version`` (the table row locked by the
    caller) and apply it: the match's events committed with the row (saved or inserted:
    status applied), or, for a ``select``, the seat's private pick kept. ``stale_check``:
    refuse an action made against an older version (:func:`stale`). Raises
    :class:`BadRequest` (match over: ``match_over``; illegal: ``illegal_action``) or
    :class:`Conflict` (``stale_version``), the table, its state and ``act`` unchanged."""
    if table.status != TableStatus.PLAYING:
        raise BadRequest(_("The match is over."), "match_over")
    state = state_store.for_write(table)
    since = state_store.mark(state)
    try:
        why = stale(table, state, act.version) if stale_check else None
        if why:
            raise Conflict(why, "stale_version")
        if act.action.get("type") == "select":
            _pick(table, state, act)
            return
        try:
            _state, events = engine_apply(state, act.action)
        except IllegalAction as exc:
            raise BadRequest(str(exc), "illegal_action") from None
    except TableError:
        state_store.put_back(table, state)  # checked, not changed (the engine checks first)
        raise
    if act.source == "user":
        events += presence.acted(table, act.seat)  # acting clears a missed turn, away
    dispatch.follow(table, changes.commit(table, None, state, since, events, [act]))


def _pick(table: Table, state, act: TableAction) -> None:
    """A doubling pick: kept privately (:mod:`games.services.picks`); the table, its state,
    version, events and timers are left as they are, so nobody else can tell it happened.
    Raises :class:`BadRequest` (``illegal_action``) as :func:`games.services.picks.store`
    refuses."""
    try:
        picks.store(table, state, act.action)
    except IllegalAction as exc:
        raise BadRequest(str(exc), "illegal_action") from None
    state_store.remember_on_commit(table, state)
    act.status = ActionStatus.APPLIED
    act.applied_version = table.version
    act.applied_at = timezone.now()
    act.save()
