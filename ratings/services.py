"""Writes of ratings: rate one finished match, rate what was missed, recompute everything.

A match is rated once, when its table has finished (``games.signals.table_finished``, then
the task :func:`ratings.tasks.rate_table`): every seated person gets a :class:`RatingChange`
and their :class:`Rating` in the table's family moves (:func:`ratings.rating.rate_match`);
bots are rated against with their fixed skill. Which matches count (docs/ratings.md):

- every finished table, free, staked or a tournament's, with at least one person seated;
- a forfeit counts: the leaver (with partner) ranks last, as the engine placed them;
- a cancelled table has no result and is not rated; nor is a table whose persons all left
  (at a free table a leaver's seat is played out by a bot: that match is not rated for the
  leaver, who is no longer seated).

Matches are rated in the order they finished (``Table.finished_at``, then id):
:func:`recompute` replays them all in that order and arrives at the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, Max, OuterRef

from games.models import Seat, Table, TableStatus
from ratings import rating as logic
from ratings.models import Rating, RatingChange


@dataclass(frozen=True)
class _Match:
    table_id: int
    family: str
    finished_at: object
    placements: dict[int, int]
    users: dict[int, int]  # seat -> user id
    bots: dict[int, str]  # seat -> bot kind


def _match(table: Table, seats: Iterable[Seat]) -> _Match | None:
    """The rateable facts of ``table``, or None if it is not rated."""
    if table.status != TableStatus.FINISHED or not table.result or table.finished_at is None:
        return None
    users = {s.seat: s.user_id for s in seats if s.user_id}
    if not users:
        return None
    bots = {s.seat: s.bot or "rules" for s in seats if not s.user_id}
    placements = {int(seat): int(place) for seat, place in table.result["placements"].items()}
    return _Match(
        table_id=table.pk,
        family=logic.family_of(table.variant),
        finished_at=table.finished_at,
        placements=placements,
        users=users,
        bots=bots,
    )


def _apply(match: _Match, current: dict[int, Rating]) -> list[RatingChange]:
    """Rate ``match`` from ``current`` (user id -> their Rating in the family, changed in
    place); returns the unsaved :class:`RatingChange` rows."""
    skills = {}
    for seat in logic.SEATS:
        if seat in match.users:
            r = current[match.users[seat]]
            skills[seat] = logic.Skill(mu=r.mu, sigma=r.sigma)
        else:
            skills[seat] = logic.bot_skill(match.bots.get(seat, "rules"))
    new = logic.rate_match(
        family=match.family,
        skills=skills,
        placements=match.placements,
        fixed=set(logic.SEATS) - set(match.users),
    )
    changes = []
    for seat, user_id in sorted(match.users.items()):
        r = current[user_id]
        after = new[seat]
        changes.append(
            RatingChange(
                table_id=match.table_id,
                user_id=user_id,
                family=match.family,
                seat=seat,
                place=match.placements[seat],
                finished_at=match.finished_at,
                mu_before=r.mu,
                sigma_before=r.sigma,
                display_before=r.display,
                mu_after=after.mu,
                sigma_after=after.sigma,
                display_after=after.display,
            )
        )
        r.mu, r.sigma, r.display = after.mu, after.sigma, after.display
        r.matches += 1
    return changes


def _locked_ratings(family: str, user_ids: Iterable[int]) -> dict[int, Rating]:
    """The users' ratings in ``family``, made at the initial skill if missing, locked (in
    user order, so two matches sharing players never deadlock)."""
    ids = sorted(set(user_ids))
    Rating.objects.bulk_create(
        [Rating(user_id=uid, family=family) for uid in ids], ignore_conflicts=True
    )
    rows = Rating.objects.select_for_update().filter(family=family, user_id__in=ids)
    return {r.user_id: r for r in rows.order_by("user_id")}


def rate_table(*, table_id: int) -> list[RatingChange]:
    """Rate finished table ``table_id`` once: its :class:`RatingChange` rows (seat order),
    new ones or those already made (a resent signal, a retried task: nothing changes). An
    unknown, unfinished, cancelled or person-less table is not rated: ``[]``."""
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            return []
        match = _match(table, Seat.objects.filter(table_id=table_id))
        if match is None:
            return []
        current = _locked_ratings(match.family, match.users.values())
        done = list(RatingChange.objects.filter(table_id=table_id).order_by("seat"))
        if done:  # checked under the lock: a racing task for the same table finds them here
            return done
        changes = _apply(match, current)
        RatingChange.objects.bulk_create(changes)
        for r in current.values():
            r.save(update_fields=["mu", "sigma", "display", "matches", "updated_at"])
    return changes


#: The sweep looks at the newest this many tables (by id: the primary key's index), so its
#: query stays small however long the history; an older table missed is rated by
#: ``recompute_ratings``.
SWEEP_TABLES = 5000


def unrated_tables(limit: int = 100) -> list[int]:
    """Ids of finished tables among the newest :data:`SWEEP_TABLES` with a person seated and
    no rating change yet, in finish order (what the sweep rates: a signal lost with a
    worker)."""
    newest = Table.objects.aggregate(newest=Max("pk"))["newest"] or 0
    changes = RatingChange.objects.filter(table_id=OuterRef("pk"))
    persons = Seat.objects.filter(table_id=OuterRef("pk"), user__isnull=False)
    qs = (
        Table.objects.filter(pk__gt=newest - SWEEP_TABLES)
        .filter(status=TableStatus.FINISHED, result__isnull=False)
        .filter(Exists(persons))
        .exclude(Exists(changes))
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
    return list(qs[:limit])


def rate_unrated(limit: int = 100) -> int:
    """Rate up to ``limit`` finished tables that were missed, oldest first; how many."""
    count = 0
    for table_id in unrated_tables(limit):
        if rate_table(table_id=table_id):
            count += 1
    return count


def recompute() -> dict[str, int]:
    """Rebuild every rating from the match history: every finished table with a person
    seated, in finish order (``finished_at``, then id), from the initial skill. Replaces
    every :class:`Rating` and :class:`RatingChange` in one transaction, holding the existing
    ratings' locks (a match's task meanwhile waits, then finds its changes made, or rates on
    top; one that fails on a racing new player's row is retried by the sweep). Returns
    ``{"matches", "players"}``: matches rated, ratings written."""
    with transaction.atomic():
        list(Rating.objects.select_for_update().values_list("pk", flat=True))
        tables = (
            Table.objects.filter(status=TableStatus.FINISHED, result__isnull=False)
            .order_by("finished_at", "pk")
            .prefetch_related("seats")
        )
        current: dict[tuple[str, int], Rating] = {}
        changes: list[RatingChange] = []
        matches = 0
        for table in tables.iterator(chunk_size=500):
            match = _match(table, table.seats.all())
            if match is None:
                continue
            mine = {}
            for uid in match.users.values():
                key = (match.family, uid)
                if key not in current:
                    current[key] = Rating(user_id=uid, family=match.family)
                mine[uid] = current[key]
            changes.extend(_apply(match, mine))
            matches += 1
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        Rating.objects.bulk_create(current.values(), batch_size=500)
        RatingChange.objects.bulk_create(changes, batch_size=500)
    return {"matches": matches, "players": len(current)}
