"""The lobby's shortcuts: quick play, and private tables with an invite link.

- :func:`quick_play`: sit at an open player-made table of the default variant at the chosen
  stake where someone already waits and a seat is free (the most seats taken first, then the
  oldest, so tables fill and start), or create one and sit at seat 0. A free table's other
  three seats get ``rules`` bots (the match starts at once); a staked table gets none: bots
  never stake, so one person and three bots would have no pot (``docs/rules.md``, "Stakes
  and pots"). A staked quick play joins only tables where people alone sit, and a new one
  waits for players; the lobby's (``sit=False``) makes none before the player sits, so the
  lobby never lists an empty table someone only reads about. :func:`waiting_for` and
  :func:`waiting_notice` say what happens next.
- :func:`invite`: the creator makes a table private (not listed in the lobby, nor in
  ``GET /api/tables/`` for anyone but its creator and its seated players) and gets its
  invite link, ``/invite/<token>/``: a secret token (``secrets.token_urlsafe``, 128 bits)
  that opens the table page at a free seat (:func:`games.selectors.table_for_invite`). A
  private table is still public to anyone who has its number, as every table is (watching is
  open): private means unlisted, not hidden.
"""

from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import shuffles
from games.engine import Options
from games.errors import BadRequest, Conflict, NotAllowed, TableError
from games.fairness.shuffle import SEATS
from games.models import Seat, Table, TableStatus
from games.policy import TableKind
from games.services import cancellation, changes, live_seats, money, tables

DEFAULT_VARIANT = Options().variant
"""The variant quick play sits at (the engine's default)."""

log = logging.getLogger(__name__)

QUICK_BOT = "rules"
"""The bot that fills a free table quick play created (never a staked one)."""

_FREE = Q(seats__user__isnull=True, seats__bot="")
"""A table's seat nobody took (no person, no bot), for counting in annotations."""


def quick_play(
    *,
    user,
    stake: int = 0,
    client_seed: str | None = None,
    address: str | None = None,
    sit: bool = True,
) -> tuple[Table | None, int]:
    """Seat ``user`` at a table of :data:`DEFAULT_VARIANT` at ``stake`` (minor units per seat,
    0: a free table): the open player-made, listed table with a free seat and the most seats
    taken (the oldest of those), never one where nobody sits yet; at a stake, only a table
    where people alone sit (bots never stake: beside them a staker may have nothing to win).
    Else a new one (default options; at a stake, their own table where nobody sits yet, an
    earlier quick play the table page did not sit at, if there is one): a free one gets bots
    on the other seats (the match starts at once), a staked one none (it waits for players:
    :func:`waiting_for`, :func:`waiting_notice`). Returns ``(table, seat)``. Already seated
    at such an open table: that one; holding a live seat anywhere else
    (:mod:`games.services.live_seats`): :class:`Conflict` ``live_seat``, nothing made. At a
    staked table ``client_seed`` is required (the page makes it; 1..64 printable ASCII),
    and is taken only at a table made before this call: where a new table would be made for
    it, :class:`Conflict` ``commitment_first`` and nothing is made (commit first: the
    commitment is logged before the server sees any seed of the match, ``docs/fairness.md``);
    ``address`` is the request's IP address, as :func:`games.services.tables.take_seat`
    takes it. Raises :class:`BadRequest` (bad stake or seed, ``insufficient_funds``),
    :class:`NotAllowed` (the stake's gates: ``kyc_required``, ``suspended``...), asked
    before any seat is offered or table made, :class:`Conflict` (``too_many_open_tables``
    when a table must be created); a seat refused all the same at a table made for it
    cancels that table at once (unless someone sat there meanwhile).

    ``sit=False`` (the lobby page): choose the seat but do not take it: a new free table gets
    its bots on seats 1..3 and seat 0 stays free, so the player sits through the table page's
    Sit, which keeps the match's commitment in the browser before the client seed is sent
    (the commitment must be fixed before the server sees the seed: ``docs/fairness.md``).
    The seat is not held: someone may take it meanwhile; ``client_seed`` is then not
    needed. At a stake where no table waits (and no own empty one) it makes none: ``(None,
    0)``, the page creates the table when the player sits (``POST /api/tables/``), so no
    empty table is listed, and left to expire, while the player reads
    :func:`waiting_notice`."""
    tables.check_stake_amount(stake)
    if client_seed is not None:  # a seed the seat would refuse is refused first, by its rule
        try:
            shuffles.validate_client_seed(client_seed)
        except shuffles.FairnessError as exc:
            raise BadRequest(str(exc), "invalid") from None
    if sit and stake and not client_seed:
        raise BadRequest(_("a staked table needs your client seed"), "invalid")
    if sit:  # each sit locks the person itself; a table made for a refused seat is cancelled
        return _quick_seat(
            user=user, stake=stake, client_seed=client_seed, address=address, sit=sit
        )
    # The lobby's: the choice and the table made for it are one transaction under the
    # person's lock, so two presses at once (two tabs) make one table, not one each.
    with transaction.atomic():
        live_seats.lock_person(user.pk)
        return _quick_seat(
            user=user, stake=stake, client_seed=client_seed, address=address, sit=sit
        )


def _quick_seat(
    *, user, stake: int, client_seed: str | None, address: str | None, sit: bool
) -> tuple[Table | None, int]:
    """:func:`quick_play` once its arguments are checked: the seat found, or the table made."""
    candidates = (
        Table.objects.filter(
            status=TableStatus.OPEN,
            variant=DEFAULT_VARIANT,
            stake=stake,
            origin="",
            private=False,
        )
        .exclude(kind=TableKind.TOURNAMENT)
        .order_by("id")
    )
    mine = candidates.filter(seats__user=user).first()
    if mine is not None:
        return mine, Seat.objects.get(table=mine, user=user).seat
    with transaction.atomic():  # asked before a seat is offered; each sit asks again
        live_seats.check_free(user=user)
    # Only a player who could stake is offered a seat or a new table (the lobby's quick play
    # sits on the table page: a table made for a seat refused there waited with its bots).
    tables.check_stake(user=user, stake=stake)
    if stake:
        bots = Seat.objects.filter(table=OuterRef("pk")).exclude(bot="")
        candidates = candidates.exclude(Exists(bots))
    found = _join_waiting(candidates, user=user, client_seed=client_seed, address=address, sit=sit)
    if found is not None:
        return found
    own = None
    if stake:  # a staked table of theirs nobody sat at is what a new one would be
        own = (
            candidates.filter(created_by=user)
            .annotate(taken=Count("seats", filter=~_FREE))
            .filter(taken=0)
            .first()
        )
    if own is None and stake and not sit:
        return None, 0
    return _quick_table(
        own, user=user, stake=stake, client_seed=client_seed, address=address, sit=sit
    )


def _join_waiting(
    candidates: QuerySet[Table], *, user, client_seed: str | None, address: str | None, sit: bool
) -> tuple[Table, int] | None:
    """The first free seat (``sit``: taken by ``user``) at the ``candidates`` where someone
    waits, the most seats taken first, then the oldest; None when every such seat is gone."""
    waiting = (
        candidates.annotate(free=Count("seats", filter=_FREE), taken=Count("seats", filter=~_FREE))
        .filter(free__gt=0, taken__gt=0)  # an empty table would wait for four players
        .order_by("-taken", "id")
    )
    for table in waiting[:10]:
        free = (
            Seat.objects.filter(table=table, user__isnull=True, bot="")
            .order_by("seat")
            .values_list("seat", flat=True)
        )
        for seat in free:
            if not sit:
                return table, seat
            try:
                tables.take_seat(
                    user=user,
                    table_id=table.pk,
                    seat=seat,
                    client_seed=client_seed,
                    address=address,
                )
            except Conflict:  # taken meanwhile, or the table started: try the next
                continue
            return Table.objects.get(pk=table.pk), seat
    return None


def _quick_table(
    table: Table | None,
    *,
    user,
    stake: int,
    client_seed: str | None,
    address: str | None,
    sit: bool,
) -> tuple[Table, int]:
    """``table`` (the creator's own staked one, nobody seated), else a new table of the
    default variant at ``stake``: ``user`` at seat 0 (``sit``; else seat 0 left free for
    them), and at a free table ``rules`` bots on seats 1..3."""
    if table is None and sit and client_seed is not None:
        raise Conflict(
            _(
                "No table waits for you, and your client seed cannot come with the request "
                "that makes a new one: the server publishes a table's commitment before it "
                "sees any seed. Ask again with “sit”: false and no seed, make the table if "
                "none is offered (POST /api/tables/), keep its commitment, then take the seat "
                "with your client seed and that commitment (POST /api/tables/<id>/seats/)."
            ),
            "commitment_first",
        )
    if table is None:
        table = tables.create_table(user=user, variant=DEFAULT_VARIANT, stake=stake, options={})
    if sit:
        try:
            tables.take_seat(
                user=user, table_id=table.pk, seat=0, client_seed=client_seed, address=address
            )
        except (BadRequest, NotAllowed, Conflict) as exc:
            # Refused all the same (the balance or a gate changed since the check, or a live
            # seat taken meanwhile by a quick play at once): the table made (or kept) for this
            # seat goes at once, unless someone sat there meanwhile. Not one transaction with
            # the creation: that would hold the fairness log's lock while waiting for the
            # wallet. A seat taken (another Conflict) leaves the table to whoever took it.
            if not isinstance(exc, Conflict) or exc.code == "live_seat":
                _cancel_if_nobody_sits(table.pk)
            raise
    if not stake:
        for seat in (1, 2, 3):
            tables.seat_bot(user=user, table_id=table.pk, seat=seat, bot=QUICK_BOT)
    return Table.objects.get(pk=table.pk), 0


def waiting_for(table: Table | None, seat: int) -> int:
    """How many more players ``table`` waits for before its match starts, ``seat`` (quick
    play's answer, taken or about to be) counted as taken: 0 once the match started, or when
    ``seat`` is the last free one; ``None`` (the table made when the player sits): 3."""
    if table is None:
        return SEATS - 1
    if table.status != TableStatus.OPEN:
        return 0
    return Seat.objects.filter(table=table, user__isnull=True, bot="").exclude(seat=seat).count()


def waiting_notice(table: Table | None, seat: int, *, stake: int = 0) -> str:
    """What happens before the match at ``table`` starts, for the player quick play gave
    ``seat`` to read before their stake is held: "" when it starts at once; at a staked
    table, why no bot fills it and when the stake comes back; a player already sitting
    there is told so; ``table`` None (the new table made when they sit, at ``stake`` minor
    units): that one is opened for them."""
    count = waiting_for(table, seat)
    if not count:
        return ""
    stake = table.stake if table is not None else stake
    if not stake:
        return ngettext(
            "This table waits for %(count)d more player: the match starts when all four seats "
            "are taken.",
            "This table waits for %(count)d more players: the match starts when all four seats "
            "are taken.",
            count,
        ) % {"count": count}
    words = {
        "count": count,
        "stake": money.format_money(stake),
        "expiry": cancellation.expiry_text(),
    }
    if table is None:
        return (
            ngettext(
                "No table at a stake of %(stake)s has players waiting, so sitting opens a new one "
                "for you. Bots never stake, so quick play seats no bots at a staked table: your "
                "table waits for %(count)d more player, and the match starts when all four seats "
                "are taken. Your stake is held from when you sit until then; it comes back if you "
                "leave before the start, or if the table is still not full %(expiry)s after it "
                "opened.",
                "No table at a stake of %(stake)s has players waiting, so sitting opens a new one "
                "for you. Bots never stake, so quick play seats no bots at a staked table: your "
                "table waits for %(count)d more players, and the match starts when all four seats "
                "are taken. Your stake is held from when you sit until then; it comes back if you "
                "leave before the start, or if the table is still not full %(expiry)s after it "
                "opened.",
                count,
            )
            % words
        )
    if Seat.objects.filter(table=table, seat=seat, user__isnull=False).exists():
        return ngettext(
            "You sit at table %(id)s with a stake of %(stake)s: it waits for %(count)d more "
            "player, and the match starts when all four seats are taken. Your stake comes back "
            "if you leave before the start, or if the table is still not full %(expiry)s after "
            "it opened.",
            "You sit at table %(id)s with a stake of %(stake)s: it waits for %(count)d more "
            "players, and the match starts when all four seats are taken. Your stake comes back "
            "if you leave before the start, or if the table is still not full %(expiry)s after "
            "it opened.",
            count,
        ) % {**words, "id": table.pk}
    return (
        ngettext(
            "Bots never stake, so quick play seats no bots at a staked table: this table waits "
            "for %(count)d more player, and the match starts when all four seats are taken. Your "
            "stake of %(stake)s is held from when you sit until then; it comes back if you leave "
            "before the start, or if the table is still not full %(expiry)s after it opened.",
            "Bots never stake, so quick play seats no bots at a staked table: this table waits "
            "for %(count)d more players, and the match starts when all four seats are taken. Your "
            "stake of %(stake)s is held from when you sit until then; it comes back if you leave "
            "before the start, or if the table is still not full %(expiry)s after it opened.",
            count,
        )
        % words
    )


def _cancel_if_nobody_sits(table_id: int) -> None:
    """Cancel quick play's new table whose creator's seat was refused, unless a person sat
    there meanwhile (it is listed from its creation: it then waits for players as any open
    table). A failure is logged, never raised: the caller re-raises the seat's refusal."""
    try:
        with transaction.atomic():
            table = changes.lock_table(table_id)
            if not Seat.objects.filter(table=table, user__isnull=False).exists():
                cancellation.cancel_table(
                    table_id=table_id, reason="the creator's seat was refused"
                )
    except TableError as exc:
        log.warning("quick play: table %s not cancelled: %s", table_id, exc)


def invite(*, user, table_id: int, private: bool = True) -> Table:
    """The creator's invite link for their table: its token is made on first use and kept
    (``Table.invite_token``); ``private`` sets whether the lobby lists it. Returns the table.
    Raises :class:`NotFound`, :class:`NotAllowed` (``not_creator``), :class:`Conflict`
    (``not_open``: the match started or ended; an invite is for a free seat)."""
    with transaction.atomic():
        table = changes.lock_table(table_id)
        if table.created_by_id != getattr(user, "pk", None):
            raise NotAllowed(_("only the table's creator can invite to it"), "not_creator")
        if table.status != TableStatus.OPEN:
            message = _("the match has started: there is no free seat to invite to")
            raise Conflict(message, "not_open")
        if not table.invite_token:
            table.invite_token = secrets.token_urlsafe(16)
        table.private = bool(private)
        table.save(update_fields=["invite_token", "private"])
    return table
