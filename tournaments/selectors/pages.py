"""Reads of the tournament list and of an event's page: its public parameters, prize
table, entrants, teams, the admin's record and edits; and the live version the pages follow.
Plain dicts of JSON-ready values."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext, ngettext

from accounts.selectors import display_names
from tournaments.models import (
    BELOW_MINIMUM,
    AdminAction,
    Entry,
    EntryStatus,
    Status,
    Team,
    TeamStatus,
    Tournament,
    TournamentEdit,
)
from wallet.selectors import escrow_balance, format_money, is_escrow_closed
from wallet.settlement import house_fee_for

#: The list page's groups: name -> statuses.
LIST_GROUPS = {
    "upcoming": (Status.REGISTRATION, Status.CLOSED),
    "running": (Status.RUNNING, Status.PAUSED, Status.REVIEW),
    "finished": (Status.FINISHED, Status.CANCELLED),
}


#: Arabic names of the formats, for the pages that show them.
FORMAT_NAMES_AR = {"knockout": "خروج المغلوب", "swiss": "النظام السويسري"}


def tournaments_by_status(group: str | None = None) -> QuerySet[Tournament]:
    """Tournaments of one list group (``upcoming``, ``running``, ``finished``; None: every
    group, drafts left out), soonest start first for upcoming, newest first otherwise."""
    if group is None:
        return Tournament.objects.exclude(status=Status.DRAFT)
    if group not in LIST_GROUPS:
        raise ValueError(f"group must be one of {', '.join(LIST_GROUPS)}")
    qs = Tournament.objects.filter(status__in=LIST_GROUPS[group])
    return qs.order_by("starts_at", "id") if group == "upcoming" else qs


def tournament_list() -> dict[str, list[dict[str, Any]]]:
    """The list page: ``{"upcoming": [...], "running": [...], "finished": [...]}``, each a
    :func:`summary`."""
    return {g: [summary(t) for t in tournaments_by_status(g)[:200]] for g in LIST_GROUPS}


def drafts() -> list[dict[str, Any]]:
    """The drafts (not yet open for registration; staff's list only), soonest start first,
    each a :func:`summary`."""
    qs = Tournament.objects.filter(status=Status.DRAFT).order_by("starts_at", "id")
    return [summary(t) for t in qs[:200]]


def _unit_count(t: Tournament) -> int:
    if t.team_mode:
        return t.teams.filter(status__in=(TeamStatus.PENDING, TeamStatus.COMPLETE)).count()
    return t.entries.filter(status__in=(EntryStatus.REGISTERED, EntryStatus.DISQUALIFIED)).count()


def summary(t: Tournament) -> dict[str, Any]:
    """One tournament's public parameters (no draw secret)."""
    return {
        "id": t.pk,
        "name": t.name,
        "format": t.format,
        "format_name": t.get_format_display(),
        "format_name_ar": FORMAT_NAMES_AR[t.format],
        "team_mode": t.team_mode,
        "advance": t.advance,
        "rounds": t.rounds,
        "final_table": t.final_table,
        "variant": t.variant,
        "options": t.options,
        "entry_fee": t.entry_fee,
        "entry_fee_text": format_money(t.entry_fee),
        "house_fee_bps": t.house_fee_bps,
        "capacity": t.capacity,
        "min_entrants": t.min_entrants,
        "registered": _unit_count(t),
        "registration_opens_at": t.registration_opens_at,
        "registration_closes_at": t.registration_closes_at,
        "starts_at": t.starts_at,
        "refund_bps": t.refund_bps,
        "review_seconds": t.review_seconds,
        "no_show_without_action": t.no_show_without_action,
        "allow_overlap": t.allow_overlap,
        "registration_closed_at": t.registration_closed_at,
        "started_at": t.started_at,
        "status": t.status,
        "status_name": t.get_status_display(),
        "version": live_version(t.pk),
    }


def prize_table(t: Tournament) -> list[dict[str, Any]]:
    """The prize table in money: ``[{"place", "bps", "amount", "text"}]``. Before the end the
    amounts are what the pool holds now (entry fees less the house fee); after it, what was
    computed at the end."""
    if t.pool is not None:
        pool, house = t.pool, t.house_fee or 0
    else:
        pool = 0 if is_escrow_closed(t.ref) else escrow_balance(t.ref)
        house = house_fee_for(pool, t.house_fee_bps)
    net = pool - house
    table = t.prize_bps_at_start or t.prize_bps
    return [
        {
            "place": place,
            "bps": bps,
            "amount": net * bps // 10_000,
            "text": format_money(net * bps // 10_000),
        }
        for place, bps in enumerate(table, start=1)
    ]


def disqualifications(t: Tournament) -> dict[int, dict[str, Any]]:
    """user id -> who disqualified them and why: ``{"by"`` (the staff member's display
    name), ``"reason", "at"}``, from the tournament's ``disqualify`` admin actions."""
    rows = list(AdminAction.objects.filter(tournament=t, action="disqualify").order_by("at"))
    names = display_names([a.by_id for a in rows if a.by_id])
    return {
        (a.details or {}).get("user_id"): {
            "by": names.get(a.by_id) if a.by_id else None,
            "reason": a.reason,
            "at": a.at,
        }
        for a in rows
    }


def team_name(member_names: list[str]) -> str:
    """A team's name on the pages: its members' display names in registration order, joined
    by " & " (the unit id ``T<id>`` means nothing to a player)."""
    return " & ".join(member_names)


def entrants(t: Tournament) -> list[dict[str, Any]]:
    """Every entry of the tournament (all statuses): ``{"entry", "entrant", "user_id", "name",
    "team", "team_name" (:func:`team_name`; None without a team), "status", "place", "prize",
    "prize_text", "client_seed", "disqualified"}`` (the seed None until registration closes;
    ``disqualified`` None, or who disqualified the entrant and why,
    :func:`disqualifications`), by place once placed, else by registration."""
    rows = list(Entry.objects.filter(tournament=t).order_by("id"))
    names = display_names([e.user_id for e in rows])
    ruled = disqualifications(t) if any(e.status == EntryStatus.DISQUALIFIED for e in rows) else {}
    # Client seeds are published with the entrant list when registration closes, not before.
    published = t.status not in (Status.DRAFT, Status.REGISTRATION)
    members: dict[int, list[str]] = {}
    for e in rows:
        if e.team_id:
            members.setdefault(e.team_id, []).append(names.get(e.user_id, ""))
    out = [
        {
            "entry": e.pk,
            "entrant": e.entrant,
            "user_id": e.user_id,
            "name": names.get(e.user_id, ""),
            "team": f"T{e.team_id}" if e.team_id else None,
            "team_name": team_name(members[e.team_id]) if e.team_id else None,
            "status": e.status,
            "place": e.place,
            "prize": e.prize,
            "prize_text": format_money(e.prize) if e.prize is not None else None,
            "client_seed": e.client_seed if published else None,
            "disqualified": ruled.get(e.user_id) if e.status == EntryStatus.DISQUALIFIED else None,
        }
        for e in rows
    ]
    out.sort(key=lambda r: (r["place"] is None, r["place"] or 0, r["entry"]))
    return out


def teams(t: Tournament) -> list[dict[str, Any]]:
    """Partnership teams: ``{"team", "status", "members": [user ids], "names", "invited"}``."""
    rows = list(Team.objects.filter(tournament=t).order_by("id"))
    members: dict[int, list[int]] = {}
    for team_id, user_id in Entry.objects.filter(tournament=t, team__isnull=False).values_list(
        "team_id", "user_id"
    ):
        members.setdefault(team_id, []).append(user_id)
    ids = {u for m in members.values() for u in m} | {x.invited_id for x in rows if x.invited_id}
    names = display_names(list(ids))
    return [
        {
            "team": x.unit,
            "id": x.pk,
            "status": x.status,
            "members": members.get(x.pk, []),
            "names": [names.get(u, "") for u in members.get(x.pk, [])],
            "invited": x.invited_id,
            "invited_name": names.get(x.invited_id) if x.invited_id else None,
        }
        for x in rows
    ]


def admin_actions(t: Tournament) -> list[dict[str, Any]]:
    """The admin actions shown on the tournament page: ``{"action", "by", "reason", "at",
    "details"}`` (``by`` None: the site itself, whose reasons are given in the active
    language)."""
    rows = list(AdminAction.objects.filter(tournament=t).order_by("at", "id"))
    names = display_names([a.by_id for a in rows if a.by_id])
    return [
        {
            "action": a.action,
            "by": names.get(a.by_id) if a.by_id else None,
            "reason": _site_reason(a, t.team_mode) or a.reason,
            "at": a.at,
            "details": a.details,
        }
        for a in rows
    ]


def _site_reason(action: AdminAction, team_mode: bool) -> str | None:
    """The reason of an action the site took, in the active language (None: a person's)."""
    below = (action.details or {}).get(BELOW_MINIMUM) if action.by_id is None else None
    if not below:
        return None
    count, minimum = below["units"], below["minimum"]
    if team_mode:
        text = ngettext(
            "%(count)s team at the start, below the minimum of %(minimum)s",
            "%(count)s teams at the start, below the minimum of %(minimum)s",
            count,
        )
    else:
        text = ngettext(
            "%(count)s entrant at the start, below the minimum of %(minimum)s",
            "%(count)s entrants at the start, below the minimum of %(minimum)s",
            count,
        )
    return text % {"count": count, "minimum": minimum}


def _edit_text(field: str, value: Any) -> str:
    """An edited value as the pages show it: a time ``2026-12-06 18:00 UTC``, the prize
    table ``50 %, 30 %, 20 %`` (the list separator of the active language), text and numbers
    as they are."""
    if field in ("registration_opens_at", "registration_closes_at", "starts_at"):
        return f"{datetime.fromisoformat(value):%Y-%m-%d %H:%M} UTC"
    if field == "prize_bps":
        from tournaments.describe import percent

        return gettext(", ").join(percent(b) for b in value)  # Arabic: «، »
    return str(value)


def edit_history(t: Tournament) -> list[dict[str, Any]]:
    """The edits of the tournament after its creation, oldest first: ``{"field",
    "field_name"`` (in the active language), ``"old", "new"`` (as recorded: text, ISO 8601
    time, whole number, basis points), ``"old_text", "new_text"`` (as the pages show them),
    ``"by"`` (display name), ``"reason", "at"}``."""
    from tournaments.edits import field_label

    rows = list(TournamentEdit.objects.filter(tournament=t).order_by("at", "id"))
    names = display_names([e.by_id for e in rows])
    return [
        {
            "field": e.field,
            "field_name": field_label(e.field),
            "old": e.old,
            "new": e.new,
            "old_text": _edit_text(e.field, e.old),
            "new_text": _edit_text(e.field, e.new),
            "by": names.get(e.by_id),
            "reason": e.reason,
            "at": e.at,
        }
        for e in rows
    ]


def tournament_detail(tournament_id: int) -> dict[str, Any] | None:
    """The tournament page: :func:`summary` plus ``prize_table``, ``entrants``, ``teams``,
    ``admin_actions``, ``description``, ``edits`` (:func:`edit_history`), the draw
    (``draw_commitment``; ``draw_seed`` and ``draw_key`` after the
    reveal, else None), ``published_entrants`` (the sorted list published at the close),
    ``pool``/``house_fee`` once computed. None if there is no such tournament."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return None
    revealed = bool(t.draw_seed)
    return {
        **summary(t),
        "prize_table": prize_table(t),
        "entrants": entrants(t),
        "teams": teams(t) if t.team_mode else [],
        "admin_actions": admin_actions(t),
        "description": t.description,
        "edits": edit_history(t),
        "draw_commitment": t.draw_commitment,
        "draw_seed": t.draw_seed if revealed else None,
        "draw_key": t.draw_key if revealed else None,
        "published_entrants": t.entrants,
        "pool": t.pool,
        "house_fee": t.house_fee,
        "finished_at": t.finished_at,
        "review_ends_at": t.review_ends_at,
        "prizes_paid_at": t.prizes_paid_at,
        "cancelled_at": t.cancelled_at,
    }


def live_version(tournament_id: int) -> int:
    """One number that grows whenever anything on the tournament's live page changes: the
    tournament's own version (bumped by every change of its rows, a table's recorded result
    included, and by a deal ended at one of its tables; a card played at a table is not on
    the page). A page long-polls this one value
    for the whole tournament (``tournaments.live``). 0 for an unknown tournament."""
    own = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    return own or 0


def live_final_version(tournament_id: int) -> int | None:
    """The live version of a finished or cancelled tournament (its page will not change
    again: a live stream ends there, ``tournaments.live``), else None (an unknown one too)."""
    row = (
        Tournament.objects.filter(pk=tournament_id, status__in=LIST_GROUPS["finished"])
        .values_list("version", flat=True)
        .first()
    )
    return row


def tournament_names(ids: list[int]) -> dict[int, str]:
    """Tournament id -> its name, for the ids that are past the draft (a draft is read by
    staff only); one query."""
    rows = Tournament.objects.filter(pk__in=ids).exclude(status=Status.DRAFT)
    return dict(rows.values_list("pk", "name"))


def tournament_exists(*, tournament_id: int) -> bool:
    """Whether there is a tournament ``tournament_id`` (the API's 404s)."""
    return Tournament.objects.filter(pk=tournament_id).exists()


def tournament_readable(*, tournament_id: int, user: Any) -> bool:
    """Whether ``user`` (None or anonymous: a visitor) may read tournament ``tournament_id``:
    it exists, and it is not a draft unless they are staff (``docs/tournaments.md``,
    "Creating": a draft is staff's until opened). The pages and the API answer a draft as a
    missing id (404) to anyone else."""
    qs = Tournament.objects.filter(pk=tournament_id)
    if not getattr(user, "is_staff", False):
        qs = qs.exclude(status=Status.DRAFT)
    return qs.exists()
