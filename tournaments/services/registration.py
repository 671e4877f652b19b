"""Entering a tournament and leaving it before registration closes: the window, the
capacity, the one-event-at-a-time rule, the client seed and the entry fee."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import shuffles
from tournaments.errors import BadRequest, Conflict
from tournaments.models import (
    BASIS_POINTS,
    Entry,
    EntryStatus,
    Status,
    Team,
    TeamStatus,
    Tournament,
)
from tournaments.services.common import TAKING_PART, _gate, _lock, _require_player, _save
from tournaments.services.fees import _pay_fee, _refund_fee
from wallet import gates


def _unit_count(t: Tournament) -> int:
    """Entrants (solo) or teams, pending or complete, holding a place (for the capacity)."""
    if t.team_mode:
        return t.teams.filter(status__in=(TeamStatus.PENDING, TeamStatus.COMPLETE)).count()
    return t.entries.filter(status=EntryStatus.REGISTERED).count()


def _check_window(t: Tournament, now: datetime) -> None:
    if t.status == Status.DRAFT:
        raise Conflict(
            _("%(name)s is not open for registration yet") % {"name": t.name},
            "registration_closed",
        )
    if t.status != Status.REGISTRATION or now >= t.registration_closes_at:
        closed = t.registration_closed_at or min(
            x for x in (t.registration_closes_at, t.started_at, t.cancelled_at) if x
        )
        raise Conflict(
            _("registration for %(name)s closed at %(when)s UTC")
            % {"name": t.name, "when": f"{closed:%Y-%m-%d %H:%M}"},
            "registration_closed",
        )
    if now < t.registration_opens_at:
        raise Conflict(
            _("registration for %(name)s opens at %(when)s UTC")
            % {"name": t.name, "when": f"{t.registration_opens_at:%Y-%m-%d %H:%M}"},
            "registration_closed",
        )


#: Statuses of an event whose play has not ended (its entrants are still "in" it).
NOT_OVER = (Status.DRAFT, Status.REGISTRATION, Status.CLOSED, Status.RUNNING, Status.PAUSED)


def _check_overlap(t: Tournament, user: Any, now: datetime) -> None:
    """Refuse ``user`` an entry in ``t`` while they are entered (``registered``) in another
    event whose play overlaps ``t``'s: an event's play is taken to last
    ``TRIX_TOURNAMENT_SPAN`` seconds from its start (from now while it runs past that), and
    two overlap when either one's play holds the other's start. Waived when either event
    allows it (``Tournament.allow_overlap``, set by the admin). Raises :class:`Conflict`
    ``overlap`` naming the other event. Rule: ``docs/tournaments.md``."""
    if t.allow_overlap:
        return
    span = timedelta(seconds=settings.TRIX_TOURNAMENT_SPAN)
    others = (
        Tournament.objects.filter(
            entries__user=user,
            entries__status=EntryStatus.REGISTERED,
            status__in=NOT_OVER,
            allow_overlap=False,
        )
        .exclude(pk=t.pk)
        .order_by("starts_at", "id")
    )
    for other in others:
        running = other.status in (Status.RUNNING, Status.PAUSED)
        ends = max(other.starts_at, now) + span if running else other.starts_at + span
        if not (other.starts_at < t.starts_at + span and t.starts_at < ends):
            continue
        if running:
            raise Conflict(
                _(
                    "You are already playing in %(other)s, which started at %(when)s UTC: "
                    "%(name)s would start before its play ends, and a player takes part in "
                    "one event at a time. Choose an event that starts later."
                )
                % {
                    "other": other.name,
                    "when": f"{other.started_at or other.starts_at:%Y-%m-%d %H:%M}",
                    "name": t.name,
                },
                "overlap",
            )
        raise Conflict(
            _(
                "You are already entered in %(other)s, which starts at %(when)s UTC: its "
                "play would overlap %(name)s, and a player takes part in one event at a "
                "time. Unregister from %(other)s first, or choose another event."
            )
            % {
                "other": other.name,
                "when": f"{other.starts_at:%Y-%m-%d %H:%M}",
                "name": t.name,
            },
            "overlap",
        )


def _require_own_seed(t: Tournament, client_seed: Any) -> None:
    """A tournament with an entry fee takes no entrant without the client seed they chose
    (the server never makes a staked entrant's seed; a free event makes one). Rule:
    ``docs/fairness.md``. Raises :class:`BadRequest`."""
    if client_seed is None and t.entry_fee > 0:
        raise BadRequest(
            _(
                "%(name)s has an entry fee: send your client seed (client_seed, 1 to 64 "
                "printable ASCII characters you chose; the tournament page makes one in your "
                "browser), so the server alone never decides the seating or your cards"
            )
            % {"name": t.name}
        )


def _seed(client_seed: Any) -> str:
    try:
        return shuffles.clean_client_seed(client_seed)
    except shuffles.FairnessError as exc:
        raise BadRequest(_("client seed: %(reason)s") % {"reason": exc}) from None


def full_message(*, name: str, capacity: int, team_mode: bool) -> str:
    """ "<name> is full (<capacity> teams|entrants)" in the active language, the count with
    the noun its number takes (the catalog's plural forms: Arabic «6 فرق», «12 فريقًا»): the
    refusal of :func:`register` and what the event's page shows in place of Register."""
    if team_mode:
        text = ngettext(
            "%(name)s is full (%(capacity)d team)",
            "%(name)s is full (%(capacity)d teams)",
            capacity,
        )
    else:
        text = ngettext(
            "%(name)s is full (%(capacity)d entrant)",
            "%(name)s is full (%(capacity)d entrants)",
            capacity,
        )
    return text % {"name": name, "capacity": capacity}


def register(*, tournament_id: int, by: Any, client_seed: str | None = None) -> Entry:
    """Enter ``by`` in the tournament and move the entry fee into its escrow.

    ``client_seed`` (1..64 printable ASCII) is mixed into the seating draw and the player's
    tables; required when the tournament has an entry fee (a free one makes a fresh one if
    None). In a partnership event the player starts a team of one and invites a partner with
    :func:`invite_partner`. Refused (nothing written): already registered, account
    suspended, outside the registration window, full, not enough funds, and whatever
    ``wallet.gates`` refuses (``check_register``: a suspension, a time-out, a self-exclusion;
    the fee's ``check_stake``: identity not verified, a stake limit: :class:`NotAllowed` with
    the refusal's code and message), entered in another event whose play overlaps this one
    (``overlap``, unless either allows it: :func:`_check_overlap`). Raises
    :class:`Conflict`, :class:`NotAllowed`, :class:`NotFound`, :class:`BadRequest`."""
    _require_player(by)
    seed = _seed(client_seed)
    with transaction.atomic():
        t = _lock(tournament_id)
        _check_window(t, timezone.now())
        _gate(gates.check_register, user_id=by.pk, now=timezone.now())
        entry = Entry.objects.filter(tournament=t, user=by).first()
        if entry is not None and entry.status in TAKING_PART:
            raise Conflict(
                _("you are already registered in %(name)s") % {"name": t.name},
                "already_registered",
            )
        if _unit_count(t) >= t.capacity:
            raise Conflict(
                full_message(name=t.name, capacity=t.capacity, team_mode=t.team_mode), "full"
            )
        _check_overlap(t, by, timezone.now())
        _require_own_seed(t, client_seed)
        if entry is None:
            entry = Entry(tournament=t, user=by, attempt=1)
        else:  # registering again after unregistering: a new fee, a new key
            entry.attempt += 1
            entry.status = EntryStatus.REGISTERED
        entry.client_seed = seed
        entry.place = entry.prize = None
        _pay_fee(t, entry)
        if t.team_mode:
            entry.team = Team.objects.create(tournament=t)
        entry.save()
        _save(t)
    return entry


def unregister(*, tournament_id: int, by: Any) -> Entry:
    """``by`` leaves before registration closes; the fee is refunded by the tournament's rule
    (``refund_bps`` of it; all by default). A team member who leaves leaves the partner's
    team incomplete (they may invite another). Raises :class:`Conflict` (not registered,
    registration closed)."""
    _require_player(by)
    with transaction.atomic():
        t = _lock(tournament_id)
        entry = Entry.objects.filter(tournament=t, user=by, status=EntryStatus.REGISTERED).first()
        if entry is None:
            raise Conflict(
                _("you are not registered in %(name)s") % {"name": t.name}, "not_registered"
            )
        if t.status not in (Status.DRAFT, Status.REGISTRATION):
            raise Conflict(
                _("registration for %(name)s is closed: the entrant list is final")
                % {"name": t.name},
                "registration_closed",
            )
        _refund_fee(t, entry, entry.paid * t.refund_bps // BASIS_POINTS, "unregister")
        entry.status = EntryStatus.WITHDRAWN
        team = entry.team
        entry.team = None
        entry.save()
        if team is not None:
            left = team.members.exclude(pk=entry.pk).count()
            team.status = TeamStatus.PENDING if left else TeamStatus.WITHDRAWN
            if not left:
                team.invited = None
            team.save(update_fields=["status", "invited"])
        _save(t)
    return entry
