"""A player's table and its seats: creating it (:func:`create_table`, at most
``TRIX_MAX_OPEN_TABLES`` open ones a creator), taking a seat (the stake moves through
:mod:`games.services.money`), seating bots (the match then starts when the fourth seat
fills: :mod:`games.services.match_start`), leaving, a bot taking a seat over
(:func:`replace_with_bot`) and a seated player's check-in (:func:`check_in`). A person
holds at most ``TRIX_MAX_LIVE_SEATS`` live seats (:mod:`games.services.live_seats`).
Tables with their four seats assigned (a tournament round's) are made by
:mod:`games.services.seated_tables`; cancelling and the expiry of open tables are
:mod:`games.services.cancellation`.

Each function is one transaction on the table's locked row; it checks everything it can
first (a clear :class:`~games.errors.TableError`, nothing changed). The site's rules per
table kind come from :mod:`games.policy`.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.selectors import display_name
from games import options_text, shuffles, state_store
from games.engine import InvalidOptions, Options
from games.engine.bots import BOTS
from games.errors import BadRequest, Conflict, NotAllowed
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_text
from games.models import (
    MatchRecord,
    Seat,
    Table,
    TableAction,
    TableStatus,
)
from games.policy import TableKind, kind_for_stake, policy
from games.services import (
    acting,
    changes,
    deadlines,
    dispatch,
    fairness_log,
    live_seats,
    money,
)
from games.services.cancellation import expiry_text
from games.services.match_start import start_if_full


def create_table(
    *,
    user,
    variant: str,
    stake: int = 0,
    options: dict[str, Any] | None = None,
    shuffle_secret: bytes | None = None,
    shuffle_match_id: str | None = None,
    bot_seed: str | None = None,
) -> Table:
    """Create an open table; its shuffle commitment is public from now on.

    ``user`` creates it; ``variant`` is one of :data:`games.engine.VARIANTS`; ``options``
    are any :class:`games.engine.Options` fields (defaults when missing); ``stake`` is minor
    units per human seat (0: a casual table). ``shuffle_secret``, ``shuffle_match_id`` and
    ``bot_seed`` are for tests and replays only. A staked table is made only for a creator
    who could sit at it now (:func:`check_stake`, the door :func:`take_seat` passes: identity,
    suspension, limits, a time-out or self-exclusion, then the balance), though no money
    moves until they sit: an empty table nobody can fill at the creator's word is not made.
    Raises :class:`BadRequest` (``insufficient_funds`` as the seat would, ``invalid``),
    :class:`NotAllowed` (the gates: ``kyc_required``, ``time_out``...), :class:`Conflict`
    ``too_many_open_tables``
    when ``user`` already has ``TRIX_MAX_OPEN_TABLES`` open tables, ``live_seat`` when they
    already hold their live seats elsewhere and could not sit at it
    (:mod:`games.services.live_seats`; nothing is created)."""
    try:
        parsed = Options.for_variant(variant, options)
    except InvalidOptions as exc:
        raise BadRequest(options_text.options_problem(exc), "invalid") from None
    if problem := bot_seed_problem(bot_seed):
        raise BadRequest(problem, "invalid")
    check_stake_amount(stake)
    kind = kind_for_stake(stake)
    deadlines.check_timers(parsed, kind)
    check_stake(user=user, stake=stake)
    with transaction.atomic():
        live_seats.check_free(user=user)  # a creator sits at their table: one live seat
        _check_open_tables(user)
        table = _new_table(
            created_by=user,
            variant=variant,
            options=parsed,
            kind=kind,
            origin="",
            stake=stake,
            bot_seed=bot_seed,
            shuffle_secret=shuffle_secret,
            shuffle_match_id=shuffle_match_id,
        )
        table.save(update_fields=["commitment", "bot_seed", "version"])
    return table


def _open_tables_of(user) -> int:
    """How many open tables ``user`` created (a player's: tournament tables never wait)."""
    return (
        Table.objects.filter(created_by=user, status=TableStatus.OPEN)
        .exclude(kind=TableKind.TOURNAMENT)
        .count()
    )


def _check_open_tables(user) -> None:
    """Refuse a creator's table above ``TRIX_MAX_OPEN_TABLES`` open ones (one account must not
    fill the lobby). The creator's user row is locked first (inside the caller's
    transaction), so two creates at once cannot both pass. Raises :class:`Conflict`
    ``too_many_open_tables``."""
    cap = settings.TRIX_MAX_OPEN_TABLES
    live_seats.lock_person(user.pk)
    count = _open_tables_of(user)
    if count >= cap:
        raise Conflict(
            ngettext(
                "You already have %(count)d open table waiting for players, the most one "
                "player may have (%(cap)d). Fill one with players or bots, or wait: an open "
                "table nobody fills is closed after %(expiry)s, its stakes refunded.",
                "You already have %(count)d open tables waiting for players, the most one "
                "player may have (%(cap)d). Fill one with players or bots, or wait: an open "
                "table nobody fills is closed after %(expiry)s, its stakes refunded.",
                count,
            )
            % {"count": count, "cap": cap, "expiry": expiry_text()},
            "too_many_open_tables",
        )


def bot_seed_problem(value: object) -> str | None:
    """Why a bot seed given for a test or a replay cannot be used (it must be 1 to 64
    printable ASCII characters, as the log's ``bot-seed`` entry takes it), or None."""
    if value is None:
        return None
    try:
        check_text(value, "bot_seed")
    except FairnessError:
        return _("bot_seed must be 1 to 64 printable ASCII characters")
    return None


def _new_table(
    *,
    created_by,
    variant: str,
    options: Options,
    kind: str,
    origin: str,
    stake: int,
    bot_seed: str | None,
    shuffle_secret: bytes | None,
    shuffle_match_id: str | None,
) -> Table:
    """Insert a table with its match record (the shuffle committed, the bots' seed drawn with
    it) and four empty seats, and its ``table_created`` event (the caller saves
    ``commitment``, ``bot_seed`` and ``version``)."""
    table = Table.objects.create(
        variant=variant,
        options=options.to_dict(),
        kind=kind,
        origin=origin,
        stake=stake,
        created_by=created_by,
    )
    private, commitment = shuffles.create(
        shuffle_match_id or f"table-{table.pk}", options.deals_per_match, shuffle_secret
    )
    table.commitment = commitment
    table.bot_seed = bot_seed or shuffles.bot_seed(private)
    MatchRecord.objects.create(table=table, state=None, shuffle=private)
    Seat.objects.bulk_create([Seat(table=table, seat=s) for s in range(4)])
    changes.add_events(table, [{"type": "table_created", "commitment": commitment}])
    fairness_log.append([fairness_log.match_commitment(**shuffles.announced(private))])
    return table


def _open_seat(table: Table, seat_no: int) -> Seat:
    if table.status != TableStatus.OPEN:
        raise Conflict(_("the match has already started: no seat can be taken"), "not_open")
    if isinstance(seat_no, bool) or not isinstance(seat_no, int) or not 0 <= seat_no <= 3:
        raise BadRequest(_("seat must be 0..3"), "invalid")
    seat = Seat.objects.select_for_update().get(table=table, seat=seat_no)
    if seat.kind is not None:
        # The seat the caller chose: named by no number (the API numbers it 0-3, the pages 1-4).
        raise Conflict(_("this seat is taken: choose another"), "seat_taken")
    return seat


def _held_text(table: Table, row: Seat) -> str:
    """Why seat ``row`` of ``table``, held (``Seat.held``), cannot be taken: for whom, until
    when."""
    return _(
        "seat %(seat)s is held until %(time)s UTC for %(name)s, a player of the last match "
        "(a rematch)"
    ) % {
        "seat": row.seat + 1,
        "time": f"{table.holds_until:%H:%M:%S}",
        "name": display_name(row.held_for),
    }


def _check_hold(table: Table, row: Seat, user) -> None:
    """At a rematch while its holds last (``Table.holds_until``): a seat held for another
    person is theirs (:class:`Conflict` ``held``), and a person whose seat is held sits there
    (:class:`Conflict` ``held_for_you``)."""
    now = timezone.now()
    if table.holds_until is None or now >= table.holds_until:
        return
    if row.held(table, now) and row.held_for_id != user.pk:
        raise Conflict(_held_text(table, row), "held")
    own = (
        Seat.objects.filter(table=table, held_for=user, hold_declined=False, user__isnull=True)
        .exclude(pk=row.pk)
        .values_list("seat", flat=True)
        .first()
    )
    if own is not None:
        raise Conflict(
            _("seat %(seat)s is held for you: take that one") % {"seat": own + 1}, "held_for_you"
        )


#: The tables whose policy needs the player's own client seed, as a refusal names them.
_SEEDED_TABLE = {
    TableKind.STAKED: gettext_lazy("a staked table"),
    TableKind.TOURNAMENT: gettext_lazy("a tournament table"),
}

#: The label of the address hashes' key (``salted_hmac``'s key salt): the key is derived
#: from ``TRIX_ADDRESS_SALT``, or from ``SECRET_KEY`` when that is empty, under this label.
ADDRESS_HASH_LABEL = "trix.games.seat-address"


def address_hash(address: str) -> str:
    """The HMAC-SHA256 (64 hex digits) of an IP address under the site's key
    (``TRIX_ADDRESS_SALT``, else derived from ``SECRET_KEY``, label
    :data:`ADDRESS_HASH_LABEL`): two seats from one address get one hash; the address itself
    is never stored."""
    secret = settings.TRIX_ADDRESS_SALT or None  # None: settings.SECRET_KEY
    return salted_hmac(ADDRESS_HASH_LABEL, address, secret=secret, algorithm="sha256").hexdigest()


def _check_address(table: Table, user, address: str | None) -> str:
    """The hash to record for a seat taken from ``address`` at ``table``: "" at a free table or
    without an address. At a staked table, a second seat from an address that already holds
    one raises :class:`Conflict` ``same_address`` unless ``TRIX_SAME_ADDRESS_SEATS``."""
    if table.stake <= 0 or not address:
        return ""
    digest = address_hash(address)
    if not settings.TRIX_SAME_ADDRESS_SEATS and (
        Seat.objects.filter(table=table, address_hash=digest, user__isnull=False)
        .exclude(user=user)
        .exists()
    ):
        raise Conflict(
            _(
                "Another player at this table took their seat from your internet address: at a "
                "table with stakes, one address holds one seat. Choose another table."
            ),
            "same_address",
        )
    return digest


def take_seat(
    *,
    user,
    table_id: int,
    seat: int,
    client_seed: str | None = None,
    address: str | None = None,
    commitment: str | None = None,
) -> Table:
    """Seat ``user`` at ``seat`` (0..3) with their client seed, staking the table's stake.

    The match's commitment was logged when the table was made, before this seed reached the
    server; the seed enters the log now (a ``seat-seed`` entry the receipt names: commit
    first, ``docs/fairness.md``). ``commitment``, when given, is the one the player saw and
    kept before sending the seed: another one is refused (:class:`Conflict`
    ``commitment_changed``, nothing taken).

    ``client_seed`` is required where the table's policy says so (staked tables: the server
    never chooses a staked seat's seed); at a casual table the server makes one if it is
    None. ``address`` is the IP address the request came from (the pages and the API give
    it): at a staked table its hash (:func:`address_hash`) is kept with the seat, and a seat
    from an address already seated there is refused (unless ``TRIX_SAME_ADDRESS_SEATS``).
    At a rematch, while its holds last, a seat held for another person is refused
    (``held``), and a person whose seat is held takes that one (``held_for_you``).
    When the fourth seat fills, the match starts (a worker deals). Raises
    :class:`Conflict` (seat taken, already seated, ``same_address``, match started,
    ``live_seat``: a seat at another table whose match has not ended,
    :mod:`games.services.live_seats`),
    :class:`BadRequest` (bad or missing seed, short balance), :class:`NotAllowed` (the
    wallet's gates refuse the stake: ``kyc_required``, ``suspended``...)."""
    try:
        seed = shuffles.clean_client_seed(client_seed)
    except shuffles.FairnessError as exc:
        raise BadRequest(str(exc), "invalid") from None
    with transaction.atomic():
        live_seats.check_free(user=user, exclude_table_id=table_id)  # locks the person first
        table = changes.lock_table(table_id)
        row = _open_seat(table, seat)
        if client_seed is None and policy(table.kind).client_seed_required:
            raise BadRequest(
                _(
                    "%(table)s needs your client seed: send “%(field)s” (1 to 64 printable "
                    "ASCII characters you chose; the table page makes one in your browser), "
                    "so the server alone never decides your cards"
                )
                % {"table": _SEEDED_TABLE[table.kind], "field": shuffles.CLIENT_SEED_LABEL},
                "invalid",
            )
        mine = changes.user_seat(table, user)
        if mine is not None:
            raise Conflict(
                _("you already sit at seat %(seat)s of this table") % {"seat": mine.seat + 1},
                "seated",
            )
        if commitment is not None and commitment != table.commitment:
            raise Conflict(
                _(
                    "this table's commitment is %(commitment)s, not the one you sent: reload "
                    "the table and check it before you send your client seed"
                )
                % {"commitment": table.commitment},
                "commitment_changed",
            )
        _check_hold(table, row, user)
        digest = _check_address(table, user, address)
        _sit(table, row, user, seed, digest)
        _log_seed(table, row, source="server" if client_seed is None else "player")
        start_if_full(table)
        table.save()
    return table


def _sit(table: Table, row: Seat, user, seed: str, digest: str) -> None:
    """``user`` takes the checked seat ``row`` of the locked ``table``: the table's stake into
    escrow, the seat saved, ``seat_taken`` logged."""
    with _stake_refusals():
        money.stake(
            user=user,
            table_ref=table.ref,
            amount=table.stake,
            key=f"stake:{table.ref}:v{table.version}",
        )
    row.user = user
    row.address_hash = digest
    row.staked = table.stake
    row.client_seed = seed
    row.joined_at = timezone.now()
    row.save()
    changes.add_events(
        table,
        [
            {
                "type": "seat_taken",
                "seat": row.seat,
                "user_id": user.pk,
                "name": display_name(user),
                "client_seed": seed,
                "staked": table.stake,
            }
        ],
    )


def _log_seed(table: Table, row: Seat, *, source: str) -> None:
    """Log the client seed of seat ``row`` just taken at ``table`` (``source``: who chose it,
    ``"player"`` or ``"server"``), after the match's commitment; the same seat retaken with
    the same seed before the start is the entry logged already."""
    match_id = MatchRecord.objects.values_list("shuffle__match_id", flat=True).get(table=table)
    seeds = {row.seat: row.client_seed}
    if fairness_log.receipt_order(match_id=match_id, seeds=seeds) is None:
        fairness_log.append(
            [
                fairness_log.seat_seed(
                    match_id=match_id, seat=row.seat, client_seed=row.client_seed, source=source
                )
            ]
        )


def check_stake_amount(stake: Any) -> None:
    """A table's stake: a whole number of minor units from 0 to ``TRIX_MAX_STAKE``, else
    :class:`BadRequest` ``invalid``."""
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
        raise BadRequest(
            _("The stake must be 0 (a free table) or a whole number of cents."),
            "invalid",
        )
    if stake > settings.TRIX_MAX_STAKE:
        raise BadRequest(
            _("The stake can be at most %(amount)s.")
            % {"amount": money.format_money(settings.TRIX_MAX_STAKE)},
            "invalid",
        )


def check_stake(*, user, stake: int) -> None:
    """Refuse, before anything is made for it, a stake that is not a table's
    (:class:`BadRequest` ``invalid``) or a player who could not stake it now, as
    :func:`take_seat` would refuse them: :class:`NotAllowed` (the wallet's gates:
    ``kyc_required``, ``suspended``...), :class:`BadRequest` (``insufficient_funds``). Moves
    nothing."""
    check_stake_amount(stake)
    with _stake_refusals():
        money.check_stake(user=user, amount=stake)


@contextmanager
def _stake_refusals():
    """The wallet's refusal of a stake as the tables' errors: :class:`NotAllowed` with the
    gate's code (``kyc_required``...), :class:`BadRequest` (``insufficient_funds``)."""
    try:
        yield
    except money.StakeRefused as exc:
        raise NotAllowed(str(exc), exc.code) from None
    except money.StakeError as exc:
        raise BadRequest(str(exc), exc.code or "insufficient_funds") from None


def unknown_bot(bot: Any) -> str:
    """The refusal of a bot kind that is not one of :data:`games.engine.bots.BOTS`."""
    return _("unknown bot %(bot)s (choose from %(bots)s)") % {
        "bot": repr(bot),
        "bots": ", ".join(BOTS),
    }


def seat_bot(*, user, table_id: int, seat: int, bot: str) -> Table:
    """Seat a bot (``rules`` or ``random``) at ``seat`` (0..3); the table's creator only.
    Bots never stake. A rematch's seat held for a person is refused while the hold lasts
    (:class:`Conflict` ``held``)."""
    if bot not in BOTS:
        raise BadRequest(unknown_bot(bot), "invalid")
    with transaction.atomic():
        table = changes.lock_table(table_id)
        if table.created_by_id != user.pk:
            raise NotAllowed(_("only the table's creator may seat a bot"), "not_creator")
        row = _open_seat(table, seat)
        if row.held(table, timezone.now()):
            raise Conflict(_held_text(table, row), "held")
        row.bot = bot
        row.client_seed = shuffles.BOT_CLIENT_SEED
        row.joined_at = timezone.now()
        row.save()
        changes.add_events(table, [{"type": "bot_seated", "seat": seat, "bot": bot}])
        start_if_full(table)
        table.save()
    return table


def leave(*, user, table_id: int) -> Table:
    """The user leaves their seat for good.

    Before the start: the seat is freed and the stake refunded. During a match at a paid
    table: the forfeit rule (the leaver, with partner, ranks last; the match ends; the pot is
    paid), applied now (:func:`games.services.acting.apply`); the same player leaving again
    changes nothing, and another player's leave then is refused (their forfeit does not
    count: the first one ended the match). During a match at a free table: a ``rules`` bot
    takes the seat over. Raises :class:`NotAllowed` (no seat here), :class:`Conflict`
    (``match_over``: the match is over, naming the seat whose forfeit ended it)."""
    with transaction.atomic():
        table = changes.lock_table(table_id)
        seat = changes.user_seat(table, user)
        if seat is None:
            raise NotAllowed(_("you have no seat at this table"), "not_seated")
        if table.status == TableStatus.OPEN:
            free_open_seat(table, seat)
            return table
        forfeits = policy(table.kind).leaver_forfeits
        forfeited = (table.result or {}).get("forfeit") if forfeits else None
        if table.status == TableStatus.FINISHED and forfeited == seat.seat:
            return table  # this seat's own forfeit ended the match (a repeated leave)
        if table.status == TableStatus.FINISHED and forfeited is not None:
            raise Conflict(
                _(
                    "Seat %(seat)s left first: the match ends with that seat's forfeit (it "
                    "ranks last, with its partner at a partnership table); your leave did "
                    "not count."
                )
                % {"seat": forfeited + 1},  # numbered 1-4, as on the table page
                "match_over",
            )
        if table.status != TableStatus.PLAYING:
            raise Conflict(_("the match is over"), "match_over")
        if forfeits:
            forfeit = TableAction(
                table=table,
                seat=seat.seat,
                user=user,
                source="user",
                version=table.version,
                action={"type": "forfeit", "seat": seat.seat},
                submitted_at=timezone.now(),
            )
            acting.apply(table, forfeit, stale_check=False)
            return table
        bot_takes_over(table, seat, "rules")
    return table


def free_open_seat(table: Table, seat: Seat) -> None:
    """Before the start (``table`` locked): ``seat``'s person leaves it, their stake refunded
    (``seat_left``)."""
    money.refund(
        user=seat.user,
        table_ref=table.ref,
        amount=seat.staked,
        key=f"refund:{table.ref}:v{table.version}",
    )
    seat.user = None
    seat.staked = 0
    seat.address_hash = ""
    seat.client_seed = ""
    seat.joined_at = None
    seat.save()
    changes.add_events(table, [{"type": "seat_left", "seat": seat.seat}])
    changes.set_kinds(table, changes.seats(table))
    table.save(update_fields=["version", "seat_kinds"])


def bot_takes_over(table: Table, seat: Seat, bot: str) -> None:
    """During a match (the table locked): ``bot`` plays ``seat`` from now on, and the table's
    timers are set again for the seats to act."""
    seat.user = None
    seat.bot = bot
    seat.save(update_fields=["user", "bot"])
    changes.add_events(
        table,
        [
            {"type": "seat_left", "seat": seat.seat},
            {"type": "bot_seated", "seat": seat.seat, "bot": bot},
        ],
    )
    changes.set_kinds(table, changes.seats(table))
    then = state_store.read(table, lambda state: deadlines.schedule(table, state, []))
    table.save()
    dispatch.follow(table, then)


def replace_with_bot(*, table_id: int, seat: int, reason: str, bot: str = "rules") -> Table:
    """A playing table's human ``seat`` is played by ``bot`` from now on (a tournament's
    disqualification; the caller checks who may do this). The ``seat_left`` event carries no
    reason (players see ``reason`` where the caller shows it). Raises :class:`NotFound`,
    :class:`BadRequest` (unknown bot or seat), :class:`Conflict` (the match is not being
    played, or the seat is not a person's)."""
    if bot not in BOTS:
        raise BadRequest(unknown_bot(bot), "invalid")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise BadRequest(_("seat must be 0..3"), "invalid")
    if not reason:
        raise BadRequest(_("give a reason"), "invalid")
    with transaction.atomic():
        table = changes.lock_table(table_id)
        if table.status != TableStatus.PLAYING:
            raise Conflict(_("the match is not being played"), "not_playing")
        row = Seat.objects.select_for_update().get(table=table, seat=seat)
        if row.user_id is None:
            raise Conflict(
                _("seat %(seat)s is not a person's") % {"seat": seat + 1}, "not_a_person"
            )
        bot_takes_over(table, row, bot)
    return table


_checked_in: set[tuple[int, int]] = set()  # (table id, user id) this process has recorded


def check_in(*, user, table_id: int) -> None:
    """Record that ``user`` is present at ``table_id`` (their seat's ``checked_in_at``, set
    once): called when a seated user reads the table or acts (callers call it for seated
    users only; each process then remembers it and writes nothing more). A tournament ranks
    a seat whose player never checked in before the round's show-up deadline last at that
    table. Writes nothing for anyone else; never raises for an unknown table."""
    if user is None or not user.is_authenticated:
        return
    key = (table_id, user.pk)
    if key in _checked_in:
        return
    Seat.objects.filter(table_id=table_id, user=user, checked_in_at__isnull=True).update(
        checked_in_at=timezone.now()
    )
    if len(_checked_in) > 100_000:
        _checked_in.clear()
    _checked_in.add(key)
