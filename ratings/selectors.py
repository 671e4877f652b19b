"""Reads of ratings: the leaderboards, a player's ratings, the seats' ratings at tables and a
match's rating changes. No function here writes."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from accounts.selectors import display_name, display_names
from ratings import rating as logic
from ratings.models import Rating, RatingChange

# The families' names on the pages (one definition: the leaderboard, a player's page).
FAMILY_TITLES = {"solo": _("Solo"), "partnership": _("Partnership")}


def family_or_none(family: str) -> str | None:
    """``family`` if it is one of :data:`ratings.rating.FAMILIES`, else None."""
    return family if family in logic.FAMILIES else None


def leaderboard(family: str) -> QuerySet[Rating]:
    """Rated players of ``family`` (at least one match), best displayed rating first (then
    the higher ``mu``, then the user id), with the profiles their names come from."""
    return (
        Rating.objects.filter(family=family, matches__gt=0)
        .select_related("user__profile")
        .order_by("-display", "-mu", "user_id")
    )


def rank_rows(ratings: list[Rating], start: int) -> list[dict[str, Any]]:
    """The rows a leaderboard page shows: ``{"rank", "user_id", "name", "rating", "mu",
    "sigma", "matches"}`` with ranks from ``start`` (1 on the first page); ``rating`` is the
    displayed number."""
    return [
        {
            "rank": start + i,
            "user_id": r.user_id,
            "name": display_name(r.user),
            "rating": r.display,
            "mu": r.mu,
            "sigma": r.sigma,
            "matches": r.matches,
        }
        for i, r in enumerate(ratings)
    ]


def ratings_of(user) -> dict[str, dict[str, Any]]:
    """A player's rating in every family (for their profile): ``{family: {"rating": int
    (displayed), "mu", "sigma", "matches", "rank": int or None}}`` (``rank``: the place on
    the family's :func:`leaderboard`); a family not yet played
    shows the initial rating, 0 matches and no rank. ``user`` is a user or a user id."""
    user_id = getattr(user, "pk", user)
    rows = {r.family: r for r in Rating.objects.filter(user_id=user_id)}
    out: dict[str, dict[str, Any]] = {}
    for family in logic.FAMILIES:
        r = rows.get(family)
        if r is None or not r.matches:
            out[family] = {
                "rating": logic.INITIAL.display,
                "mu": logic.INITIAL.mu,
                "sigma": logic.INITIAL.sigma,
                "matches": 0,
                "rank": None,
            }
            continue
        better = (
            leaderboard(family)
            .filter(
                Q(display__gt=r.display)
                | Q(display=r.display, mu__gt=r.mu)
                | Q(display=r.display, mu=r.mu, user_id__lt=r.user_id)
            )
            .count()
        )
        out[family] = {
            "rating": r.display,
            "mu": r.mu,
            "sigma": r.sigma,
            "matches": r.matches,
            "rank": better + 1,
        }
    return out


def seat_ratings(tables: list) -> dict[int, dict[int, int | None]]:
    """Each seat's displayed rating at ``tables`` (``games.models.Table`` rows with their
    seats loaded), in the table's family: ``{table id: {seat: rating}}``. A person unrated in
    that family shows the initial rating; a bot its kind's fixed one; an empty seat None.
    One query for all the tables (``games.selectors.with_seat_ratings`` calls it)."""
    wanted: set[tuple[str, int]] = set()
    families = {}
    for table in tables:
        families[table.pk] = logic.family_of(table.variant)
        wanted.update((families[table.pk], s.user_id) for s in table.seats.all() if s.user_id)
    known: dict[tuple[str, int], int] = {}
    if wanted:
        rows = Rating.objects.filter(
            family__in={f for f, _ in wanted}, user_id__in={u for _, u in wanted}
        ).values_list("family", "user_id", "display")
        known = {(f, u): d for f, u, d in rows}
    out: dict[int, dict[int, int | None]] = {}
    for table in tables:
        family = families[table.pk]
        seats: dict[int, int | None] = {}
        for s in table.seats.all():
            if s.user_id:
                seats[s.seat] = known.get((family, s.user_id), logic.INITIAL.display)
            elif s.bot:
                seats[s.seat] = logic.bot_skill(s.bot).display
            else:
                seats[s.seat] = None
        out[table.pk] = seats
    return out


def match_changes(table_id: int) -> list[dict[str, Any]]:
    """The rating changes of finished table ``table_id`` (empty until it is rated, or if it
    is never rated), seat order: ``{"seat", "user_id", "name", "family", "place", "before",
    "after", "delta"}`` in displayed numbers."""
    rows = list(RatingChange.objects.filter(table_id=table_id).order_by("seat"))
    names = display_names([r.user_id for r in rows])
    return [
        {
            "seat": r.seat,
            "user_id": r.user_id,
            "name": names.get(r.user_id),
            "family": r.family,
            "place": r.place,
            "before": r.display_before,
            "after": r.display_after,
            "delta": r.delta,
        }
        for r in rows
    ]


def recent_changes(user, family: str, limit: int = 10) -> list[RatingChange]:
    """The player's latest rating changes in ``family``, newest first."""
    user_id = getattr(user, "pk", user)
    return list(
        RatingChange.objects.filter(user_id=user_id, family=family).order_by("-finished_at")[:limit]
    )
