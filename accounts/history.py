"""Reads of a player's record: the public summary of a player and, for the owner
alone, every match they sat in with its seats, result and what it moved in their wallet.

A player is named in public by their user id (``/players/<id>/``): the username is for
logging in and is never shown (``accounts.models.Profile``); the id is already public in
every table's answer (``seats[].user_id``).

A match here is a table at which the player holds a seat (``games.models.Seat``): a match
they left before it started gave the seat back and is not listed; at a free table a player
who leaves during the match hands the seat to a bot and the match is not theirs any more
either (the ledger is untouched: free tables move no money). At a staked table the leaver
keeps the seat (a forfeit: ranked last), so the match and its payout stay listed.

Money is integer minor units of ``settings.TRIX_CURRENCY``: ``stake`` what the seat staked,
``payout`` what the table's escrow paid back into the wallet (the settlement's share and any
refund), ``net`` the sum of every wallet entry of the table (``payout - stake``; 0 at a free
table). Both come from the ledger (``wallet.models.Entry``), not from the table.

No function here writes. The list is one query for the page of seats, one for the count and
one for the tables' seats (with their players' names), however many matches are shown.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    BigIntegerField,
    CharField,
    F,
    Func,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Cast, Coalesce, Concat
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.selectors import display_name
from games.engine import Options
from games.engine.options import VARIANTS
from games.engine.results import seat_place
from games.models import Seat, TableStatus
from games.policy import TableKind
from wallet.models import AccountKind, Entry
from wallet.selectors import net_outcome

#: What a match came to for the player (the ``result`` filter and column), by
#: :func:`outcome`: at a finished staked match that is not a draw, the ledger's net labels it
#: (``wallet.selectors.net_outcome``: ``won`` above 0, ``lost`` below, ``refunded`` at 0,
#: whatever the place: a second place paid more than its stake won); at a free match the
#: place does (``won`` first, shared first included; ``lost`` any other); ``drawn``: a
#: partnership match ending level (every stake refunded, ``wallet.settlement``);
#: ``tournament``: a finished tournament table (no stake: the result that counts is the
#: event's standings and places, docs/tournaments.md, not the table's won or lost);
#: ``in_progress``: waiting for players or being played; ``cancelled``: cancelled before it
#: ended (stakes refunded).
OUTCOMES = ("won", "lost", "refunded", "drawn", "tournament", "in_progress", "cancelled")
STAKES = ("staked", "free")


class PlayerNotFound(Exception):
    """No active player has that id."""


@dataclass(frozen=True)
class HistoryFilters:
    """Which matches to list. ``None`` (or empty) means any.

    ``variant``: one of :data:`games.engine.options.VARIANTS`; ``stakes``: ``"staked"``
    (stake > 0) or ``"free"``; ``since``/``until``: dates (inclusive, in the site's time
    zone) of when the match started (when it was created, if it has not); ``result``: one of
    :data:`OUTCOMES`. Built from a request by ``accounts.forms.HistoryFilterForm`` (whose
    errors are the ones players see); raises ``ValueError`` for a value outside these."""

    variant: str | None = None
    stakes: str | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None
    result: str | None = None

    def __post_init__(self) -> None:
        if self.variant and self.variant not in VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r}")
        if self.stakes and self.stakes not in STAKES:
            raise ValueError(f"stakes must be one of {STAKES}, got {self.stakes!r}")
        if self.result and self.result not in OUTCOMES:
            raise ValueError(f"result must be one of {OUTCOMES}, got {self.result!r}")
        if self.since and self.until and self.since > self.until:
            raise ValueError("since is after until")


@dataclass(frozen=True)
class PlayerSummary:
    """The public part of a player's page: ``id`` (the public id), ``display_name``,
    ``member_since`` (when the account was made), ``matches_played`` (finished matches)."""

    id: int
    display_name: str
    member_since: datetime.datetime
    matches_played: int


@dataclass(frozen=True)
class SeatLine:
    """Who sat where: ``seat`` 0..3, ``kind`` (``human``, ``bot`` or None for an empty seat),
    ``name`` (a display name; ``Bot 3``, as the lobby and the table name a bot's seat; or
    ``""``), ``player_id`` (the user id of a player, for a link to their page), ``is_me``."""

    seat: int
    kind: str | None
    name: str
    player_id: int | None
    is_me: bool


@dataclass(frozen=True)
class MatchRow:
    """One match of the owner's history. Money in integer minor units (module docstring).

    ``placement`` (solo 1..4, ties share; partnership the team's place, 1 or 2:
    ``games.engine.results.seat_place``) and ``score`` (the seat's total) are None until the
    match is finished; ``team_score`` is the team's total at a finished partnership match;
    ``forfeit`` says the player's own seat forfeited (left a staked match: ranked last).
    ``table_url`` is the table's page, ``verify_url`` its public check (finished only)."""

    table_id: int
    variant: str
    partnership: bool
    kind: str
    status: str
    played_at: datetime.datetime
    finished_at: datetime.datetime | None
    stake: int
    seat: int
    seats: tuple[SeatLine, ...]
    outcome: str
    placement: int | None
    score: int | None
    team_score: int | None
    forfeit: bool
    payout: int
    net: int
    table_url: str
    verify_url: str | None


class _SeatPlacement(Func):
    """The placement of the row's seat in its table's result (``{"placements": {"0": 1,
    ...}}``, keys are seat numbers as text), NULL while there is no result. Django's JSON key
    lookups read a key like ``"0"`` as an array index on SQLite, so the path is written out
    for each database."""

    output_field = IntegerField()

    def _parts(self, compiler, connection):
        result_sql, result_params = compiler.compile(self.source_expressions[0])
        seat_sql, seat_params = compiler.compile(self.source_expressions[1])
        return result_sql, seat_sql, [*result_params, *seat_params]

    def as_sql(self, compiler, connection, **extra_context):  # SQLite (the embedded default)
        result_sql, seat_sql, params = self._parts(compiler, connection)
        path = f"'$.placements.\"' || {seat_sql} || '\"'"
        return f"CAST(json_extract({result_sql}, {path}) AS integer)", params

    def as_postgresql(self, compiler, connection, **extra_context):
        result_sql, seat_sql, params = self._parts(compiler, connection)
        place = f"{result_sql} -> 'placements' ->> CAST({seat_sql} AS text)"
        return f"CAST(({place}) AS integer)", params


def _wallet_entries_of_table() -> QuerySet[Entry]:
    """The wallet entries of the outer seat's user for the outer seat's table."""
    return Entry.objects.filter(
        account__kind=AccountKind.WALLET,
        account__owner_id=OuterRef("user_id"),
        transaction__reference=Concat(
            Value("table:"), Cast(OuterRef("table_id"), CharField()), output_field=CharField()
        ),
    )


def _total(entries: QuerySet[Entry]) -> Coalesce:
    summed = (
        entries.order_by().values("account_id").annotate(total=Sum("amount")).values("total")[:1]
    )
    return Coalesce(Subquery(summed, output_field=BigIntegerField()), Value(0))


def _seats_with_players() -> Prefetch:
    return Prefetch(
        "table__seats", queryset=Seat.objects.select_related("user__profile").order_by("seat")
    )


def match_history(*, user: Any, filters: HistoryFilters | None = None) -> QuerySet[Seat]:
    """The seats ``user`` holds, one per match, newest first (by ``played_at``, then table
    id), narrowed by ``filters``; each annotated with ``played_at``, ``placement``, ``net``
    and ``payout`` (minor units) and with its table and the table's seats loaded. Turn a
    page of them into :class:`MatchRow` with :func:`history_rows`."""
    filters = filters or HistoryFilters()
    mine = _wallet_entries_of_table()
    seats = (
        Seat.objects.filter(user_id=getattr(user, "pk", user))
        .select_related("table")
        .prefetch_related(_seats_with_players())
        .annotate(
            played_at=Coalesce("table__started_at", "table__created_at"),
            placement=_SeatPlacement(F("table__result"), F("seat")),
            net=_total(mine),
            payout=_total(mine.filter(amount__gt=0)),
        )
        .order_by("-played_at", "-table_id")
    )
    if filters.variant:
        seats = seats.filter(table__variant=filters.variant)
    if filters.stakes == "staked":
        seats = seats.filter(table__stake__gt=0)
    elif filters.stakes == "free":
        seats = seats.filter(table__stake=0)
    if filters.since:
        seats = seats.filter(played_at__date__gte=filters.since)
    if filters.until:
        seats = seats.filter(played_at__date__lte=filters.until)
    if filters.result:
        seats = seats.filter(_outcome_q(filters.result))
    return seats


def _outcome_q(outcome: str) -> Q:
    """:func:`outcome` as a filter of :func:`match_history`'s annotated seats."""
    finished = Q(table__status=TableStatus.FINISHED)
    drawn = Q(table__result__draw=True)
    # Spelled out rather than ~drawn: a solo result has no "draw" key, and NOT of a
    # missing key's comparison is NULL, not true.
    not_drawn = ~Q(table__result__has_key="draw") | Q(table__result__draw=False)
    staked, free = Q(table__stake__gt=0), Q(table__stake=0)
    event = Q(table__kind=TableKind.TOURNAMENT)
    table = finished & ~event
    return {
        "won": table & not_drawn & ((staked & Q(net__gt=0)) | (free & Q(placement=1))),
        "lost": table & not_drawn & ((staked & Q(net__lt=0)) | (free & Q(placement__gt=1))),
        "refunded": table & not_drawn & staked & Q(net=0),
        "drawn": table & drawn,
        "tournament": finished & event,
        "in_progress": Q(table__status__in=[TableStatus.OPEN, TableStatus.PLAYING]),
        "cancelled": Q(table__status=TableStatus.CANCELLED),
    }[outcome]


def outcome(
    *,
    status: str,
    result: dict | None,
    stake: int,
    net: int,
    placement: int | None,
    kind: str = TableKind.CASUAL,
) -> str:
    """What a match came to for one seat, one of :data:`OUTCOMES` (the rule is there).

    ``kind`` a :class:`games.policy.TableKind`, ``status`` a
    :class:`games.models.TableStatus`, ``result`` the table's result (``None``
    or empty until it ends), ``stake`` the table's stake and ``net`` the seat's net there
    (integer minor units, the ledger's), ``placement`` the seat's place (1..4) or None."""
    if status == TableStatus.CANCELLED:
        return "cancelled"
    if status != TableStatus.FINISHED or not result:
        return "in_progress"
    if kind == TableKind.TOURNAMENT:
        return "tournament"
    if result.get("draw"):
        return "drawn"
    if stake > 0:
        return net_outcome(net)
    return "won" if placement == 1 else "lost"


def _seat_line(seat: Seat, me: int) -> SeatLine:
    if seat.user_id:
        name = display_name(seat.user)
    elif seat.bot:
        name = _("Bot %(number)s") % {"number": seat.seat + 1}  # as the lobby and table say
    else:
        name = ""
    return SeatLine(seat.seat, seat.kind, name, seat.user_id, seat.user_id == me)


def history_rows(*, seats: Any) -> list[MatchRow]:
    """Rows of :func:`match_history`'s seats (a page of them), in their order. A match not
    finished shows no result and nothing of its play (no cards, no scores)."""
    rows = []
    for mine in seats:
        table = mine.table
        finished = table.status == TableStatus.FINISHED and bool(table.result)
        result = table.result if finished else {}
        partnership = Options(variant=table.variant).partnership
        placement = seat_place(result, mine.seat) if finished else None
        score = result.get("scores", {}).get(str(mine.seat)) if finished else None
        team = f"{mine.seat % 2}+{mine.seat % 2 + 2}"
        rows.append(
            MatchRow(
                table_id=table.pk,
                variant=table.variant,
                partnership=partnership,
                kind=table.kind,
                status=table.status,
                played_at=mine.played_at,
                finished_at=table.finished_at,
                stake=mine.staked or table.stake,
                seat=mine.seat,
                seats=tuple(_seat_line(s, mine.user_id) for s in table.seats.all()),
                outcome=outcome(
                    status=table.status,
                    result=table.result,
                    stake=table.stake,
                    net=mine.net,
                    placement=placement,
                    kind=table.kind,
                ),
                placement=placement,
                score=score,
                team_score=result.get("teams", {}).get(team) if finished and partnership else None,
                forfeit=finished and result.get("forfeit") == mine.seat,
                payout=mine.payout,
                net=mine.net,
                table_url=reverse("web:table", args=[table.pk]),
                verify_url=reverse("verify-match", args=[table.pk]) if finished else None,
            )
        )
    return rows


def player_summary(*, player_id: int) -> PlayerSummary:
    """The public part of the page of the player with user id ``player_id``. Raises
    :class:`PlayerNotFound` for no such active user."""
    user = (
        get_user_model()
        .objects.filter(pk=player_id, is_active=True)
        .select_related("profile")
        .first()
    )
    if user is None:
        raise PlayerNotFound(f"no player {player_id}")
    return PlayerSummary(
        id=user.pk,
        display_name=display_name(user),
        member_since=user.date_joined,
        matches_played=matches_played(user=user),
    )


def matches_played(*, user: Any) -> int:
    """How many finished matches ``user`` holds a seat in."""
    return Seat.objects.filter(
        user_id=getattr(user, "pk", user), table__status=TableStatus.FINISHED
    ).count()
