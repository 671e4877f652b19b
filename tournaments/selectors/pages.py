"""Reads of tournaments for the pages and the API: plain dicts of JSON-ready values.

Money is integer minor units with its text beside it (``format_money``); times are
``datetime`` (the caller serialises). The draw's secret never leaves this module before the
reveal: :func:`tournament_detail` shows ``draw_commitment`` always and ``draw_seed`` only
once revealed (at the start). Rules: ``docs/tournaments.md``.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import translation
from django.utils.translation import gettext, ngettext

from accounts.selectors import display_names
from games.models import MatchRecord, Seat, TableStatus
from tournaments import progress
from tournaments.models import (
    BELOW_MINIMUM,
    AdminAction,
    Entry,
    EntryStatus,
    Round,
    RoundTable,
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

#: Seconds between looks at a tournament's live version while a long poll waits.

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


def entrants(t: Tournament) -> list[dict[str, Any]]:
    """Every entry of the tournament (all statuses): ``{"entry", "entrant", "user_id", "name",
    "team", "status", "place", "prize", "prize_text", "client_seed", "disqualified"}`` (the
    seed None until registration closes; ``disqualified`` None, or who disqualified the
    entrant and why, :func:`disqualifications`), by place once placed, else by
    registration."""
    rows = list(Entry.objects.filter(tournament=t).order_by("id"))
    names = display_names([e.user_id for e in rows])
    ruled = disqualifications(t) if any(e.status == EntryStatus.DISQUALIFIED for e in rows) else {}
    # Client seeds are published with the entrant list when registration closes, not before.
    published = t.status not in (Status.DRAFT, Status.REGISTRATION)
    out = [
        {
            "entry": e.pk,
            "entrant": e.entrant,
            "user_id": e.user_id,
            "name": names.get(e.user_id, ""),
            "team": f"T{e.team_id}" if e.team_id else None,
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


def _rounds(t: Tournament) -> list[tuple[Round, list[RoundTable]]]:
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    tables: dict[int, list[RoundTable]] = {}
    for rt in (
        RoundTable.objects.filter(round__tournament=t)
        .select_related("table")
        .order_by("round_id", "index")
    ):
        tables.setdefault(rt.round_id, []).append(rt)
    return [(r, tables.get(r.pk, [])) for r in rounds]


def _unit_names(t: Tournament) -> dict[str, str]:
    names = {e["entrant"]: e["name"] for e in t.entrants}
    if t.team_mode:
        by_team: dict[str, list[str]] = {}
        for e in t.entrants:
            if e["team"]:
                by_team.setdefault(e["team"], []).append(e["name"])
        names.update({team: " & ".join(members) for team, members in by_team.items()})
    return names


def standings(tournament_id: int, after_round: int | None = None) -> list[dict[str, Any]]:
    """The standings after round ``after_round`` (None: after every recorded round):
    ``{"rank", "unit", "name", "points", "score", "opponents_points", "draw_rank"}`` best
    first; [] before the start."""
    t = Tournament.objects.get(pk=tournament_id)
    if not t.draw_key:
        return []
    rounds = _rounds(t)
    if after_round is not None:
        rounds = rounds[: max(after_round, 0)]
    return _standings(t, rounds)


def _standings(t: Tournament, rounds: list[tuple[Round, list[RoundTable]]]) -> list[dict]:
    """:func:`standings` after ``rounds`` (:func:`_rounds`'), read already."""
    if not t.draw_key:
        return []
    names = _unit_names(t)
    return [
        {
            "rank": s.rank,
            "unit": s.unit,
            "name": names.get(s.unit, s.unit),
            "points": s.points,
            "score": s.score,
            "opponents_points": s.opponents_points,
            "draw_rank": s.draw_rank,
        }
        for s in progress.standings(tournament=t, rounds=rounds)
    ]


def bracket(tournament_id: int) -> dict[str, Any]:
    """The live bracket/standings page: ``{"version", "status", "rounds": [{"number", "kind",
    "status", "opened_at", "finished_at", "show_up_deadline", "byes", "tables": [{"index",
    "table_id", "table_status", "table_version", "seats": [{"seat", "unit", "name"}],
    "scores", "deals_played", "result" (recorded rows),
    "advanced": [unit], "no_show": [unit], "disqualified": [unit]}]}], "standings",
    "final": [{"place", "unit", "name", "prize", "prize_text"}] (once placed),
    "admin_actions", "draw": {"commitment", "seed", "record_available"}, "started_at",
    "review_ends_at" (when the prizes are paid), "prizes_paid_at", "no_show_without_action"}``.
    A table's ``scores`` (seat -> match total) and ``deals_played``: while it plays, after
    its last finished deal (:func:`running_scores`; None before the first ends), then its
    result's. Table pages are ``/tables/<table_id>/``."""
    return _bracket(Tournament.objects.get(pk=tournament_id))


def running_scores(table_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The public scores of tables still playing, after their last finished deal: table id ->
    ``{"scores": {"0".."3": match total}, "deals": finished deals}`` (no entry before the
    first deal ends). Read from each
    table's stored checkpoint (``MatchRecord.state``, rewritten when a deal ends), its
    summary alone: totals of finished deals only, never a hand nor a deal in play."""
    rows = MatchRecord.objects.filter(table_id__in=table_ids).values_list(
        "table_id", "state__summary__totals", "state__summary__deal_number"
    )
    return {
        table_id: {"scores": totals, "deals": deals or 0}
        for table_id, totals, deals in rows
        if totals is not None and deals
    }


def _bracket(t: Tournament, version: int | None = None) -> dict[str, Any]:
    """:func:`bracket` of ``t``; ``version``: the live version the caller read (else read)."""
    names = _unit_names(t)
    rounds = _rounds(t)
    playing = running_scores(
        [
            rt.table_id
            for _, tables in rounds
            for rt in tables
            if rt.table.status == TableStatus.PLAYING
        ]
    )
    out_rounds = []
    for index, (rnd, tables) in enumerate(rounds):
        advanced = _advanced(t, rounds, index)
        rows = []
        for rt in tables:
            table = rt.table
            live = playing.get(rt.table_id, {})
            if table.result:
                live = {
                    "scores": table.result.get("scores"),
                    "deals": table.result.get("deals_played"),
                }
            rows.append(
                {
                    "index": rt.index,
                    "table_id": rt.table_id,
                    "table_status": table.status,
                    "table_version": table.version,
                    "seats": [
                        {"seat": s, "unit": u, "name": names.get(u, "bot") if u else "bot"}
                        for s, u in enumerate(rt.units)
                    ],
                    "scores": live.get("scores"),
                    "deals_played": live.get("deals"),
                    "result": (rt.result or {}).get("results"),
                    "no_show": (rt.result or {}).get("no_show", []),
                    "disqualified": (rt.result or {}).get("disqualified", []),
                    "advanced": [u for u in dict.fromkeys(rt.units) if u in advanced],
                }
            )
        out_rounds.append(
            {
                "number": rnd.number,
                "kind": rnd.kind,
                "status": rnd.status,
                "opened_at": rnd.opened_at,
                "finished_at": rnd.finished_at,
                "show_up_deadline": rnd.show_up_deadline,
                "byes": rnd.seating.get("byes", []),
                "tables": rows,
            }
        )
    final = []
    if t.status in (Status.REVIEW, Status.FINISHED):
        by_unit: dict[str, dict[str, Any]] = {}
        for e in Entry.objects.filter(tournament=t, place__isnull=False).order_by("place", "id"):
            unit = f"T{e.team_id}" if t.team_mode and e.team_id else e.entrant
            row = by_unit.setdefault(
                unit, {"place": e.place, "unit": unit, "name": names.get(unit, unit), "prize": 0}
            )
            row["prize"] += e.prize or 0
        final = sorted(by_unit.values(), key=lambda r: (r["place"], r["unit"]))
        for row in final:
            row["prize_text"] = format_money(row["prize"])
    return {
        "id": t.pk,
        "version": live_version(t.pk) if version is None else version,
        "status": t.status,
        "started_at": t.started_at,
        "review_ends_at": t.review_ends_at,
        "prizes_paid_at": t.prizes_paid_at,
        "no_show_without_action": t.no_show_without_action,
        "rounds": out_rounds,
        "standings": _standings(t, rounds) if t.format == "swiss" else [],
        "final": final,
        "admin_actions": admin_actions(t),
        "draw": {
            "commitment": t.draw_commitment,
            "seed": t.draw_seed or None,
            "record_available": bool(t.draw_seed),
        },
    }


def _advanced(t: Tournament, rounds: list, index: int) -> set[str]:
    """Units that went on from round ``index`` (knockout: seated in the next round)."""
    if t.format != "knockout" or index + 1 >= len(rounds):
        return set()
    return set(rounds[index + 1][0].seating.get("order", []))


def draw_record(tournament_id: int) -> dict[str, Any] | None:
    """The tournament's ``trix-draw/1`` record (``trix verify`` checks it), or None before the
    reveal (the secret is never shown before the start)."""
    t = Tournament.objects.get(pk=tournament_id)
    if not t.draw_seed:
        return None
    return progress.draw_record(tournament=t, rounds=_rounds(t))


def current_tables(user: Any) -> dict[int, int]:
    """Tournament id -> the id of the tournament table where ``user`` holds a seat and the
    match is being played (at most one per tournament: one round at a time)."""
    uid = getattr(user, "pk", user)
    rows = Seat.objects.filter(
        user_id=uid,
        table__status=TableStatus.PLAYING,
        table__tournament_table__isnull=False,
    ).values_list("table__tournament_table__round__tournament_id", "table_id")
    return dict(rows)


def my_tournaments(user: Any) -> list[dict[str, Any]]:
    """A player's tournaments, newest first: :func:`summary` plus ``entry_status``,
    ``place``, ``prize``, ``prize_text``, ``team``, ``invitation`` (a team id inviting the
    player, not yet answered) and ``current_table`` (the id of the table where the player
    sits in the round being played, :func:`current_tables`; None otherwise)."""
    uid = getattr(user, "pk", user)
    playing = current_tables(uid)
    entries = {
        e.tournament_id: e for e in Entry.objects.filter(user_id=uid).select_related("tournament")
    }
    invites = {
        x.tournament_id: x.pk
        for x in Team.objects.filter(invited_id=uid, status=TeamStatus.PENDING)
    }
    ids = set(entries) | set(invites)
    out = []
    for t in Tournament.objects.filter(pk__in=ids).order_by("-starts_at", "-id"):
        e = entries.get(t.pk)
        out.append(
            {
                **summary(t),
                "entry_status": e.status if e else None,
                "place": e.place if e else None,
                "prize": e.prize if e else None,
                "prize_text": format_money(e.prize) if e and e.prize is not None else None,
                "team": f"T{e.team_id}" if e and e.team_id else None,
                "invitation": invites.get(t.pk),
                "current_table": playing.get(t.pk),
            }
        )
    return out


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


def is_registered(tournament_id: int, user: Any) -> bool:
    """Whether the user holds an entry taking part (registered or disqualified)."""
    return Entry.objects.filter(
        Q(status=EntryStatus.REGISTERED) | Q(status=EntryStatus.DISQUALIFIED),
        tournament_id=tournament_id,
        user_id=getattr(user, "pk", user),
    ).exists()


def player_status(*, tournament_id: int, user: Any) -> dict[str, Any]:
    """What the tournament page shows the signed-in player about themself (added for the
    pages and the API, helper ``tpages``): ``{"entry_status"`` (None: never entered),
    ``"paid"``, ``"refunded"`` (minor units), ``"team"`` (unit id or None), ``"team_id"``,
    ``"team_status"``, ``"partner"`` (the partner's display name or None), ``"invited"``
    (the display name my team invited, not yet answered), ``"invitations": [{"team_id",
    "from"}]`` (teams of this tournament inviting me), ``"place"``, ``"prize"``,
    ``"prize_text"}``. An anonymous user gets the same keys, empty."""
    uid = getattr(user, "pk", None) if getattr(user, "is_authenticated", True) else None
    out: dict[str, Any] = {
        "entry_status": None,
        "paid": 0,
        "refunded": 0,
        "team": None,
        "team_id": None,
        "team_status": None,
        "partner": None,
        "invited": None,
        "invitations": [],
        "place": None,
        "prize": None,
        "prize_text": None,
    }
    if uid is None:
        return out
    entry = (
        Entry.objects.filter(tournament_id=tournament_id, user_id=uid)
        .select_related("team")
        .first()
    )
    if entry is not None:
        out.update(
            entry_status=entry.status,
            paid=entry.paid,
            refunded=entry.refunded,
            place=entry.place,
            prize=entry.prize,
            prize_text=format_money(entry.prize) if entry.prize is not None else None,
        )
        if entry.team_id:
            team = entry.team
            partner = team.members.exclude(pk=entry.pk).values_list("user_id", flat=True).first()
            ids = [x for x in (partner, team.invited_id) if x]
            names = display_names(ids)
            out.update(
                team=team.unit,
                team_id=team.pk,
                team_status=team.status,
                partner=names.get(partner) if partner else None,
                invited=names.get(team.invited_id) if team.invited_id else None,
            )
    inviting = list(
        Team.objects.filter(
            tournament_id=tournament_id, invited_id=uid, status=TeamStatus.PENDING
        ).order_by("id")
    )
    if inviting:
        members = dict(Entry.objects.filter(team__in=inviting).values_list("team_id", "user_id"))
        names = display_names(list(members.values()))
        out["invitations"] = [
            {"team_id": x.pk, "from": names.get(members.get(x.pk), "")} for x in inviting
        ]
    return out


def tournament_exists(*, tournament_id: int) -> bool:
    """Whether there is a tournament ``tournament_id`` (added for the API's 404s, helper
    ``tpages``)."""
    return Tournament.objects.filter(pk=tournament_id).exists()


def live_page(*, tournament_id: int) -> dict[str, Any]:
    """The live page's one answer (added for the pages and the API, helper ``tpages``):
    :func:`bracket` plus ``name``, ``status_name``, ``format``, ``team_mode``,
    ``registered``, ``entrants`` (:func:`entrants`), ``teams`` (:func:`teams`) and
    ``prize_table`` (:func:`prize_table`), so the page follows registrations too. ``version``
    is read before everything else, so a change made while the answer is being read makes
    the next poll answer at once (never a version newer than the data). Its words
    (``status_name``, ``format_name``...) are in the active language.

    Kept per process by (tournament, version, language) for ``_LIVE_CACHE_SECONDS``: every
    watcher woken by one change is answered from one reading per language (a 256-entrant
    answer costs tens of ms)."""
    version = live_version(tournament_id)  # first: a change after it is answered next poll
    key = (tournament_id, version, translation.get_language())
    with _live_lock:
        hit = _live_cache.get(key)
    if hit is not None and time.monotonic() - hit[0] < _LIVE_CACHE_SECONDS:
        return hit[1]
    answer = _live_page(tournament_id, version)
    with _live_lock:
        if len(_live_cache) > 256:
            _live_cache.clear()
        _live_cache[key] = (time.monotonic(), answer)
    return answer


_LIVE_CACHE_SECONDS = 5.0  # names and money texts may change without a version bump
_live_cache: dict[tuple[int, int, str | None], tuple[float, dict[str, Any]]] = {}
_live_lock = threading.Lock()


def _live_page(tournament_id: int, version: int) -> dict[str, Any]:
    t = Tournament.objects.get(pk=tournament_id)
    data = _bracket(t, version)
    return {
        **data,
        "name": t.name,
        "status_name": Status(data["status"]).label,
        "format": t.format,
        "team_mode": t.team_mode,
        "registered": _unit_count(t),
        "entrants": entrants(t),
        "teams": teams(t) if t.team_mode else [],
        "prize_table": prize_table(t),
    }


def draw_check(*, tournament_id: int) -> dict[str, Any]:
    """The seating draw's public check (added for the pages, helper ``tpages``):
    ``{"available": False}`` before the reveal, else ``{"available": True, "verified": bool,
    "summary": dict | None, "error": str | None}``: the ``trix-draw/1`` record recomputed by
    ``games.fairness.draw_record.verify_record`` (what ``trix verify`` does)."""
    from games.fairness import FairnessError
    from games.fairness.draw_record import verify_record

    record = draw_record(tournament_id)
    if record is None:
        return {"available": False}
    try:
        summary_ = verify_record(record)
    except FairnessError as exc:
        return {"available": True, "verified": False, "summary": None, "error": str(exc)}
    return {"available": True, "verified": True, "summary": summary_, "error": None}


def entries_in_progress(user: Any) -> int:
    """How many tournaments ``user`` is entered in (registered, or disqualified but placed)
    that are not finished or cancelled (account closure waits for none)."""
    return (
        Entry.objects.filter(
            user_id=getattr(user, "pk", user),
            status__in=(EntryStatus.REGISTERED, EntryStatus.DISQUALIFIED),
        )
        .exclude(tournament__status__in=(Status.FINISHED, Status.CANCELLED))
        .count()
    )
