"""Reads of one player's tournaments: their entries, invitations and the tables where
they sit now."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from accounts.selectors import display_names
from games.models import Seat, TableStatus
from tournaments.models import (
    AdminAction,
    Entry,
    EntryStatus,
    RoundTable,
    Status,
    Team,
    TeamStatus,
    Tournament,
)
from tournaments.selectors.pages import summary
from wallet.selectors import format_money


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


def event_of_table(table_id: int) -> dict[str, Any] | None:
    """What a tournament table's page says of its event, or None for another table:
    ``{"name", "url" (the live page: standings and, once over, the final places), "round",
    "replaced": {"<seat 0..3>": display name}}``, ``replaced`` naming the disqualified
    entrant whose seat a bot played from the disqualification on (the admin action's record,
    ``tournaments.services.staff.disqualify``; never its reason). The table's own order is
    not the event's result: a disqualified entrant ranks last wherever the bot ended
    (docs/tournaments.md, **Disqualification**)."""
    rt = (
        RoundTable.objects.filter(table_id=table_id)
        .select_related("round__tournament")
        .only("round__number", "round__tournament__name", "round__tournament_id")
        .first()
    )
    if rt is None:
        return None
    t = rt.round.tournament
    seats: dict[int, int] = {}
    for details in AdminAction.objects.filter(tournament=t, action="disqualify").values_list(
        "details", flat=True
    ):
        for replaced in details.get("seats", []):
            if replaced.get("table") == table_id and details.get("user_id") is not None:
                seats[replaced["seat"]] = details["user_id"]
    names = display_names(list(seats.values()))
    return {
        "name": t.name,
        "url": reverse("tournaments:live", args=[t.pk]),
        "round": rt.round.number,
        "replaced": {str(seat): names.get(uid, "") for seat, uid in sorted(seats.items())},
    }


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


def is_registered(tournament_id: int, user: Any) -> bool:
    """Whether the user holds an entry taking part (registered or disqualified)."""
    return Entry.objects.filter(
        Q(status=EntryStatus.REGISTERED) | Q(status=EntryStatus.DISQUALIFIED),
        tournament_id=tournament_id,
        user_id=getattr(user, "pk", user),
    ).exists()


def player_status(*, tournament_id: int, user: Any) -> dict[str, Any]:
    """What the tournament page and the API show the signed-in player about themself:
    ``{"entry_status"`` (None: never entered), ``"paid"``, ``"refunded"`` (minor units),
    ``"team"`` (unit id or None), ``"team_id"``, ``"team_status"``, ``"partner"`` (the
    partner's display name or None), ``"invited"`` (the display name my team invited, not
    yet answered), ``"invitations": [{"team_id", "from"}]`` (teams of this tournament
    inviting me), ``"place"``, ``"prize"``, ``"prize_text"}``. An anonymous user gets the
    same keys, empty."""
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
        out.update(_entry_status(entry))
    out["invitations"] = _invitations(tournament_id, uid)
    return out


def _entry_status(entry: Entry) -> dict[str, Any]:
    """:func:`player_status`'s keys of the player's ``entry``: its status and money, and its
    team (unit, id, status, the partner's and the invited player's display names)."""
    out = {
        "entry_status": entry.status,
        "paid": entry.paid,
        "refunded": entry.refunded,
        "place": entry.place,
        "prize": entry.prize,
        "prize_text": format_money(entry.prize) if entry.prize is not None else None,
    }
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
    return out


def _invitations(tournament_id: int, uid: int) -> list[dict[str, Any]]:
    """Teams of the tournament inviting user ``uid``, not yet answered, in id order:
    ``[{"team_id", "from"}]`` (``from``: the inviting member's display name)."""
    inviting = list(
        Team.objects.filter(
            tournament_id=tournament_id, invited_id=uid, status=TeamStatus.PENDING
        ).order_by("id")
    )
    if not inviting:
        return []
    members = dict(Entry.objects.filter(team__in=inviting).values_list("team_id", "user_id"))
    names = display_names(list(members.values()))
    return [{"team_id": x.pk, "from": names.get(members.get(x.pk), "")} for x in inviting]


def entries_in_progress(user: Any) -> list[int]:
    """The ids of the tournaments ``user`` is entered in (registered, or disqualified but
    placed) that are not finished or cancelled, by id (account closure waits for none)."""
    return list(
        Entry.objects.filter(
            user_id=getattr(user, "pk", user),
            status__in=(EntryStatus.REGISTERED, EntryStatus.DISQUALIFIED),
        )
        .exclude(tournament__status__in=(Status.FINISHED, Status.CANCELLED))
        .order_by("tournament_id")
        .values_list("tournament_id", flat=True)
        .distinct()
    )
