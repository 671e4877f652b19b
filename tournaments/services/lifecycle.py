"""Closing registration (the entrant list published) and starting the event (the draw
revealed, or the event cancelled below its minimum)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import display_name
from games.services import fairness_log
from tournaments import dispatch
from tournaments.errors import Conflict
from tournaments.models import (
    BELOW_MINIMUM,
    Entry,
    EntryStatus,
    Status,
    Team,
    TeamStatus,
    Tournament,
)
from tournaments.services.common import _lock, _named, _record, _require_staff, _save
from tournaments.services.create import open_draw_secret
from tournaments.services.fees import _refund_fee
from tournaments.services.staff import _cancel_locked
from tournaments.services.units import _units


def _close_locked(t: Tournament) -> None:
    """Close registration of a locked tournament: refund incomplete teams, publish the list."""
    if t.team_mode:
        for team in Team.objects.select_for_update().filter(
            tournament=t, status=TeamStatus.PENDING
        ):
            for entry in Entry.objects.filter(team=team, status=EntryStatus.REGISTERED):
                _refund_fee(t, entry, entry.paid - entry.refunded, "incomplete-team")
                entry.status = EntryStatus.REFUNDED
                entry.save(update_fields=["status", "refunded"])
            team.status = TeamStatus.REFUNDED
            team.invited = None
            team.save(update_fields=["status", "invited"])
    entries = list(
        Entry.objects.filter(tournament=t, status=EntryStatus.REGISTERED)
        .select_related("user__profile")
        .order_by("id")
    )
    t.entrants = [
        {
            "entrant": e.entrant,
            "name": display_name(e.user),
            "client_seed": e.client_seed,
            "team": e.team.unit if e.team_id else None,
        }
        for e in entries
    ]
    t.status = Status.CLOSED
    t.registration_closed_at = min(timezone.now(), t.registration_closes_at)
    _save(t, "entrants", "status", "registration_closed_at")


def close_registration(*, tournament_id: int, by: Any = None) -> Tournament:
    """Close registration (at ``registration_closes_at`` by the beat, or early by staff):
    an incomplete team's members get their whole fee back; the sorted entrant list (entrant
    id, display name, client seed, team) is published. Idempotent (a closed or later
    tournament is returned as is)."""
    if by is not None:
        _require_staff(by, _("close registration"))
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status in (Status.DRAFT, Status.REGISTRATION):
            _close_locked(t)
            if by is not None:
                _record(t, by, "close_registration")
    return t


def start(*, tournament_id: int, by: Any = None, reason: str = "") -> Tournament:
    """Start the tournament: by the beat at ``starts_at`` (``by`` None) or early by staff.

    Registration closes first if still open. Below ``min_entrants`` the tournament is
    cancelled and every entry fee refunded; otherwise the prize table is snapshotted, the
    draw's secret revealed and round 1 opened by a task. Idempotent for the beat (a
    started tournament, or one not yet due, is returned as is); staff starting a started
    one gets :class:`Conflict`."""
    if by is not None:
        _require_staff(by, _("start tournaments"))
    with transaction.atomic():
        t = _lock(tournament_id)
        now = timezone.now()
        if not _starts_now(t, by, now):
            return t
        if t.status != Status.CLOSED:
            _close_locked(t)
        units = _units(t)
        if by is not None:
            _record(t, by, "start", reason)
        if len(units) < t.min_entrants:
            _cancel_below_minimum(t, len(units))
            return t
        _reveal_draw(t, now)
        dispatch.send_on_commit("advance", t.pk)
    return t


def _starts_now(t: Tournament, by: Any, now: datetime) -> bool:
    """Whether locked ``t`` starts now: not yet started, and due (``starts_at`` reached and
    not a draft) unless staff (``by``) starts it early. Raises :class:`Conflict` when staff
    starts one already started, finished or cancelled."""
    if t.status not in (Status.DRAFT, Status.REGISTRATION, Status.CLOSED):
        if by is not None:
            if t.status in (Status.CANCELLED, Status.FINISHED):
                raise Conflict(_("%(name)s is already %(status)s") % _named(t), "wrong_status")
            raise Conflict(
                _("%(name)s has already started (it is %(status)s)") % _named(t), "wrong_status"
            )
        return False
    return not (by is None and (now < t.starts_at or t.status == Status.DRAFT))


def _cancel_below_minimum(t: Tournament, count: int) -> None:
    """Cancel locked ``t``, which has ``count`` units at its start, below ``min_entrants``:
    every fee refunded, the reason recorded (``BELOW_MINIMUM`` in its details)."""
    unit = "teams" if t.team_mode else "entrants"
    _cancel_locked(
        t,
        f"{count} {unit} at the start, below the minimum of {t.min_entrants}",
        {BELOW_MINIMUM: {"units": count, "minimum": t.min_entrants}},
    )


def _reveal_draw(t: Tournament, now: datetime) -> None:
    """Locked ``t`` runs from ``now``: its draw secret revealed (``draw_seed``), the draw key
    made from it and the published entrants' client seeds (``games.fairness.draw``,
    ``trix-draw/1``), the prize table snapshotted; the draw key appended to the public
    fairness log."""
    from games.fairness import draw

    secret = open_draw_secret(t)
    entrants = [e["entrant"] for e in t.entrants]
    seeds = {e["entrant"]: e["client_seed"] for e in t.entrants}
    t.draw_seed = secret.hex()
    t.draw_key = draw.draw_key(
        secret=secret, event=t.ref, entrants=entrants, client_seeds=seeds
    ).hex()
    t.prize_bps_at_start = list(t.prize_bps)
    t.status = Status.RUNNING
    t.started_at = now
    _save(t, "draw_seed", "draw_key", "prize_bps_at_start", "status", "started_at")
    fairness_log.append(
        [
            fairness_log.draw_key(
                event=t.ref,
                commitment=t.draw_commitment,
                server_seed=t.draw_seed,
                # The draw record's "entrants" list (games.fairness.seating.build_record).
                entrants=[
                    {"entrant": e, "client_seed": seeds[e]}
                    for e in draw.sorted_entrants(list(seeds))
                ],
            )
        ]
    )
