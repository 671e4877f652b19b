"""Reads of a locked tournament's units (entrants in a solo event, complete teams in a
partnership one) shared by the services: who takes part, the rounds played so far (who is
disqualified: ``Tournament.disqualified_units``)."""

from __future__ import annotations

from tournaments.models import Entry, Round, RoundTable, Team, TeamStatus, Tournament
from tournaments.services.common import TAKING_PART


def _units(t: Tournament) -> list[str]:
    """The units taking part: entrant ids (solo) or complete team ids, in id order."""
    if t.team_mode:
        teams = Team.objects.filter(tournament=t, status=TeamStatus.COMPLETE).order_by("id")
        return [team.unit for team in teams]
    return [e.entrant for e in t.entries.filter(status__in=TAKING_PART).order_by("id")]


def _members(t: Tournament) -> dict[str, list[Entry]]:
    """unit -> its entries (a team's two in id order)."""
    out: dict[str, list[Entry]] = {}
    for e in (
        Entry.objects.filter(tournament=t, status__in=TAKING_PART)
        .select_related("user", "team")
        .order_by("id")
    ):
        unit = e.team.unit if t.team_mode and e.team_id else e.entrant
        out.setdefault(unit, []).append(e)
    return out


def _rounds_with_tables(t: Tournament) -> list[tuple[Round, list[RoundTable]]]:
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    tables: dict[int, list[RoundTable]] = {}
    for rt in RoundTable.objects.filter(round__tournament=t).order_by("round_id", "index"):
        tables.setdefault(rt.round_id, []).append(rt)
    return [(r, tables.get(r.pk, [])) for r in rounds]
