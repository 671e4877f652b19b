"""What every tournament service shares: the tournament's lock, who may act, the admin's
record and the live version's bump. Rules: ``docs/tournaments.md``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import BadRequest, Conflict, NotAllowed, NotAuthenticated, NotFound
from tournaments.models import AdminAction, EntryStatus, Status, Tournament
from wallet import gates

#: The bot that fills a seat the entrants do not fill, and takes over a disqualified seat.
FILL_BOT = "rules"
#: Statuses in which the event has begun (the entrant list is final).
STARTED = (Status.RUNNING, Status.PAUSED, Status.REVIEW, Status.FINISHED)
#: Statuses of an entry that takes part (a disqualified entrant keeps their place: last).
TAKING_PART = (EntryStatus.REGISTERED, EntryStatus.DISQUALIFIED)


def _lock(tournament_id: int) -> Tournament:
    """The tournament row, locked until the transaction ends. Raises :class:`NotFound`."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("no tournament %(id)s") % {"id": tournament_id}) from None


def _require_staff(by: Any, what: str) -> None:
    if by is None or not getattr(by, "is_authenticated", False) or not by.is_staff:
        raise NotAllowed(_("only staff may %(what)s") % {"what": what})


def _named(t: Tournament) -> dict[str, str]:
    """A message's ``name`` and ``status`` (the status's label, in the active language)."""
    return {"name": t.name, "status": t.get_status_display()}


def _require_player(by: Any) -> None:
    if by is None or not getattr(by, "is_authenticated", False):
        raise NotAuthenticated(_("log in to take part in a tournament"))
    if not by.is_active:
        raise NotAllowed(_("your account is suspended: it cannot enter tournaments"), "suspended")


def _gate(check: Any, **facts: Any) -> None:
    """Ask a ``wallet.gates`` check; its refusal becomes :class:`NotAllowed` with the rule's
    code (``suspended``, ``self_excluded``...) and the player's message."""
    try:
        check(**facts)
    except gates.Refused as exc:
        raise NotAllowed(str(exc), exc.code) from None


def _reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise BadRequest(_("give a reason: it is shown on the tournament page"))
    if len(reason) > 500:
        raise BadRequest(_("the reason must be at most 500 characters"))
    return reason.strip()


def _record(t: Tournament, by: Any, action: str, reason: str = "", **details: Any) -> None:
    AdminAction.objects.create(tournament=t, by=by, action=action, reason=reason, details=details)


def _move_status(
    tournament_id: int,
    by: Any,
    *,
    source: str,
    target: str,
    action: str,
    refusal: str,
    reason: str = "",
    check: Callable[[Tournament], None] | None = None,
) -> Tournament:
    """Lock the tournament, move it from status ``source`` to ``target``, bump its version and
    record the admin's ``action`` (with ``reason``), in the caller's transaction. ``check``,
    if given, is called with the locked row once its status is right, and raises to refuse.
    Raises :class:`Conflict` (code ``wrong_status``, the message ``refusal`` with ``name``
    and ``status``) when it is in another status, what ``check`` raises, and
    :class:`NotFound`."""
    t = _lock(tournament_id)
    if t.status != source:
        raise Conflict(refusal % _named(t), "wrong_status")
    if check is not None:
        check(t)
    t.status = target
    _save(t, "status")
    _record(t, by, action, reason)
    return t


def _save(t: Tournament, *fields: str) -> None:
    """Save ``fields`` and bump the tournament's version (the live page's)."""
    t.version += 1
    t.save(update_fields=[*fields, "version"])
