"""A partnership event's teams: a registered player invites a partner by display name,
who accepts (paying their own entry fee) or declines."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import BadRequest, Conflict, NotAllowed, NotFound
from tournaments.models import Entry, EntryStatus, Team, TeamStatus, Tournament
from tournaments.services.common import TAKING_PART, _gate, _lock, _require_player, _save
from tournaments.services.fees import _pay_fee
from tournaments.services.registration import (
    _check_overlap,
    _check_window,
    _require_own_seed,
    _seed,
)
from wallet import gates


def _player_by_name(name: Any):
    if not isinstance(name, str) or not name.strip():
        raise BadRequest(_("give the display name of the player to invite"))
    name = name.strip()
    users = list(
        get_user_model()
        .objects.filter(
            Q(profile__display_name__iexact=name)
            | Q(profile__isnull=True, username__iexact=name)
            | Q(profile__display_name="", username__iexact=name)
        )
        .distinct()[:3]
    )
    if not users:
        raise NotFound(_("no player is called “%(name)s”") % {"name": name})
    if len(users) > 1:
        raise BadRequest(
            _("more than one player is called “%(name)s”: ask them for a unique name")
            % {"name": name}
        )
    return users[0]


def invite_partner(*, tournament_id: int, by: Any, display_name: str) -> Team:
    """Invite a partner (by display name) to ``by``'s team; pending until they accept.

    A new invitation replaces an unanswered one. Raises :class:`Conflict` (not a
    partnership event, not registered, team complete, the player already entered, outside
    the window), :class:`NotFound` (no such player), :class:`BadRequest`."""
    _require_player(by)
    with transaction.atomic():
        t = _lock(tournament_id)
        if not t.team_mode:
            raise Conflict(
                _("%(name)s is a solo event: there are no teams") % {"name": t.name},
                "not_partnership",
            )
        _check_window(t, timezone.now())
        entry = Entry.objects.filter(tournament=t, user=by, status=EntryStatus.REGISTERED).first()
        if entry is None or entry.team_id is None:
            raise Conflict(
                _("register in %(name)s before inviting a partner") % {"name": t.name},
                "not_registered",
            )
        team = Team.objects.select_for_update().get(pk=entry.team_id)
        if team.members.count() >= 2:
            raise Conflict(_("your team is already complete"), "team_complete")
        invitee = _player_by_name(display_name)
        if invitee.pk == by.pk:
            raise BadRequest(_("you cannot invite yourself"))
        if not invitee.is_active:
            raise Conflict(
                _("“%(name)s” cannot enter tournaments") % {"name": display_name}, "suspended"
            )
        if Entry.objects.filter(tournament=t, user=invitee, status__in=TAKING_PART).exists():
            raise Conflict(
                _("“%(player)s” is already registered in %(name)s")
                % {"player": display_name, "name": t.name},
                "already_registered",
            )
        team.invited = invitee
        team.save(update_fields=["invited"])
        _save(t)
    return team


def _team_for_answer(t: Tournament, team_id: int, by: Any) -> Team:
    team = Team.objects.select_for_update().filter(pk=team_id, tournament=t).first()
    if team is None or team.invited_id != by.pk:
        raise NotAllowed(_("you have no invitation from this team"), "not_invited")
    return team


def _tournament_of_team(team_id: int) -> int:
    tid = Team.objects.filter(pk=team_id).values_list("tournament_id", flat=True).first()
    if tid is None:
        raise NotFound(_("no team %(id)s") % {"id": team_id})
    return tid


def accept_invite(*, team_id: int, by: Any, client_seed: str | None = None) -> Entry:
    """The invited player joins the team, paying their own entry fee: the team is complete.

    Raises :class:`NotAllowed` (no invitation; what ``wallet.gates`` refuses: a suspension,
    a time-out...),
    :class:`Conflict` (already registered, outside the window, not enough funds, ``overlap``
    as :func:`register`),
    :class:`BadRequest`."""
    _require_player(by)
    seed = _seed(client_seed)
    with transaction.atomic():
        t = _lock(_tournament_of_team(team_id))
        team = _team_for_answer(t, team_id, by)
        _check_window(t, timezone.now())
        _gate(gates.check_register, user_id=by.pk, now=timezone.now())
        if Entry.objects.filter(tournament=t, user=by, status__in=TAKING_PART).exists():
            raise Conflict(
                _("you are already registered in %(name)s: unregister first") % {"name": t.name},
                "already_registered",
            )
        if team.members.count() != 1:
            raise Conflict(_("this team has no place for you any more"), "team_complete")
        _check_overlap(t, by, timezone.now())
        _require_own_seed(t, client_seed)
        entry = Entry.objects.filter(tournament=t, user=by).first()
        if entry is None:
            entry = Entry(tournament=t, user=by, attempt=1)
        else:
            entry.attempt += 1
            entry.status = EntryStatus.REGISTERED
        entry.client_seed = seed
        entry.team = team
        entry.place = entry.prize = None
        _pay_fee(t, entry)
        entry.save()
        team.invited = None
        team.status = TeamStatus.COMPLETE
        team.save(update_fields=["invited", "status"])
        _save(t)
    return entry


def decline_invite(*, team_id: int, by: Any) -> Team:
    """The invited player declines; the team may invite someone else. Raises
    :class:`NotAllowed` (no invitation)."""
    _require_player(by)
    with transaction.atomic():
        t = _lock(_tournament_of_team(team_id))
        team = _team_for_answer(t, team_id, by)
        team.invited = None
        team.save(update_fields=["invited"])
        _save(t)
    return team
