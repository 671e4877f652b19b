"""Creating tables and seating them: a player's table (:func:`create_table`) or tables with
their four seats assigned (:func:`create_seated_tables`, a tournament round's in one
transaction; :func:`create_seated_table`, one of them), taking a seat
(the stake moves through :mod:`games.services.money`), seating bots, leaving, a bot taking a
seat over (:func:`replace_with_bot`), cancelling (:func:`cancel_table`; open tables nobody
filled in time: :func:`expire_open_tables`) and a seated player's check-in
(:func:`check_in`). A creator has at most ``TRIX_MAX_OPEN_TABLES`` open tables; a person
holds at most ``TRIX_MAX_LIVE_SEATS`` live seats (:mod:`games.services.live_seats`).

Each function is one transaction on the table's locked row; it checks everything it can
first (a clear :class:`~games.errors.TableError`, nothing changed). The site's rules per
table kind come from :mod:`games.policy`.
"""

from __future__ import annotations

import logging
import secrets
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.selectors import display_name, display_names
from games import options_text, shuffles, signing, state_store
from games.engine import InvalidOptions, Options, new_match
from games.engine.bots import BOTS
from games.errors import BadRequest, Conflict, NotAllowed, TableError
from games.models import (
    ActionStatus,
    MatchRecord,
    Seat,
    Table,
    TableAction,
    TableEvent,
    TableStatus,
)
from games.policy import TableKind, kind_for_stake, policy
from games.services import changes, clock, dispatch, fairness_log, live_seats, money, presence

log = logging.getLogger(__name__)


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
    the wallet's gates would let stake it now (the door :func:`take_seat` passes: identity,
    suspension, limits, a time-out or self-exclusion), though no money moves yet; the
    balance is asked when they sit. Raises :class:`BadRequest`, :class:`NotAllowed` (the
    gates: ``kyc_required``, ``time_out``...), :class:`Conflict` ``too_many_open_tables``
    when ``user`` already has ``TRIX_MAX_OPEN_TABLES`` open tables, ``live_seat`` when they
    already hold their live seats elsewhere and could not sit at it
    (:mod:`games.services.live_seats`; nothing is created)."""
    try:
        parsed = Options.for_variant(variant, options)
    except InvalidOptions as exc:
        raise BadRequest(options_text.options_problem(exc), "invalid") from None
    check_stake_amount(stake)
    kind = kind_for_stake(stake)
    clock.check_timers(parsed, kind)
    with _stake_refusals():
        money.check_gates(user=user, amount=stake)
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
        table.save(update_fields=["commitment", "version"])
    return table


def _open_tables_of(user) -> int:
    """How many open tables ``user`` created (a player's: tournament tables never wait)."""
    return (
        Table.objects.filter(created_by=user, status=TableStatus.OPEN)
        .exclude(kind=TableKind.TOURNAMENT)
        .count()
    )


def _expiry_text(seconds: float | None = None) -> str:
    """``seconds`` (default ``TRIX_OPEN_TABLE_EXPIRY``) for people: "30 minutes", "90
    seconds"."""
    if seconds is None:
        seconds = settings.TRIX_OPEN_TABLE_EXPIRY
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    if seconds == int(seconds):
        return ngettext("%(count)d second", "%(count)d seconds", int(seconds)) % {
            "count": int(seconds)
        }
    return _("%(count)s seconds") % {"count": f"{seconds:g}"}


def _check_open_tables(user) -> None:
    """Refuse a creator's table above ``TRIX_MAX_OPEN_TABLES`` open ones (issue 13: one
    account filled the lobby with 250). The creator's user row is locked first (inside the
    caller's transaction), so two creates at once cannot both pass. Raises :class:`Conflict`
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
            % {"count": count, "cap": cap, "expiry": _expiry_text()},
            "too_many_open_tables",
        )


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
    """Insert a table with its match record (the shuffle committed) and four empty seats,
    and its ``table_created`` event (the caller saves ``commitment`` and ``version``)."""
    table = Table.objects.create(
        variant=variant,
        options=options.to_dict(),
        kind=kind,
        origin=origin,
        stake=stake,
        created_by=created_by,
        bot_seed=bot_seed or secrets.token_hex(16),
    )
    private, commitment = shuffles.create(
        shuffle_match_id or f"table-{table.pk}", options.deals_per_match, shuffle_secret
    )
    table.commitment = commitment
    MatchRecord.objects.create(table=table, state=None, shuffle=private)
    Seat.objects.bulk_create([Seat(table=table, seat=s) for s in range(4)])
    changes.add_events(table, [{"type": "table_created", "commitment": commitment}])
    fairness_log.append([fairness_log.match_commitment(**shuffles.announced(private))])
    return table


def _issue_receipt(table: Table, private: dict[str, Any], now) -> tuple:
    """Issue the match-start receipt of ``table`` whose client seeds just locked in
    ``private``: built, signed with the site's key and kept on the table (the caller saves
    it), started at ``now``. Returns its ``match-receipt`` log entry for the caller to
    append in the same transaction."""
    table.started_at = now
    table.receipt = shuffles.receipt(
        private,
        variant=table.variant,
        options=table.options,
        issued_at=fairness_log.stamp(now),
    )
    table.receipt_signature = signing.sign(table.receipt)
    return fairness_log.match_receipt(receipt=table.receipt, signature=table.receipt_signature)


def create_seated_table(
    *,
    created_by,
    variant: str,
    options: dict[str, Any] | None = None,
    seats: list[dict[str, Any]],
    kind: str = TableKind.TOURNAMENT,
    origin: str = "",
    stake: int = 0,
    bot_seed: str | None = None,
    shuffle_secret: bytes | None = None,
    shuffle_match_id: str | None = None,
) -> Table:
    """Create a table with its four seats already assigned, and start its match (a worker
    deals): for a tournament round (``kind="tournament"``, ``origin`` naming the round).
    :func:`create_seated_tables` with one table (the messages without its ``table 0:``).

    ``seats`` is a list of exactly four dicts, index = seat number: ``{"user": <User>,
    "client_seed": str}`` (1 to 64 characters, ``docs/fairness.md``) or ``{"bot": "rules" |
    "random"}``. A user appears at most once. ``options`` are :class:`games.engine.Options`
    fields; the kind's timer rule applies (:mod:`games.policy`). ``stake`` must be 0 (tables
    with assigned seats hold no stakes). ``bot_seed``, ``shuffle_secret`` and
    ``shuffle_match_id`` are for tests and replays (a tournament gives its ``bot_seed``).
    Raises :class:`BadRequest`; nothing is written then."""
    if stake != 0:
        raise BadRequest("a table with assigned seats holds no stakes: stake must be 0", "invalid")
    table = {"seats": seats, "origin": origin, "bot_seed": bot_seed}
    if shuffle_secret is not None:
        table["shuffle_secret"] = shuffle_secret
    if shuffle_match_id is not None:
        table["shuffle_match_id"] = shuffle_match_id
    (created,) = _create_seated(
        created_by=created_by,
        variant=variant,
        options=options,
        tables=[table],
        kind=kind,
        name_index=False,
    )
    return created


def create_seated_tables(
    *,
    created_by,
    variant: str,
    options: dict[str, Any] | None = None,
    tables: list[dict[str, Any]],
    kind: str = TableKind.TOURNAMENT,
) -> list[Table]:
    """Create many tables with their seats assigned and start their matches, in one
    transaction and a handful of statements (a tournament round's tables): the tables in the
    order of ``tables``, each as :func:`create_seated_table` makes it, every one of the same
    ``variant``, ``options`` and ``kind``.

    Each item of ``tables`` is ``{"seats": [4 seat dicts as create_seated_table takes],
    "origin": str (at most 64 characters; "" if missing), "bot_seed": str (1 to 64
    characters) or None (drawn)}``, and for tests and replays ``"shuffle_secret"`` (32
    bytes) and ``"shuffle_match_id"`` (str). Everything is checked first, by
    :func:`create_seated_table`'s rules and messages with the item's index in front
    (``table 3: seat 1: unknown bot ...``); :class:`BadRequest` then, and nothing is written.
    Each table's wake-up (its first deal) is sent after the commit. A person seated here
    holding a seat at a player-made table whose match has not ended, beyond
    ``TRIX_MAX_LIVE_SEATS``, is moved out of it first (:func:`_give_way`): these seats take
    priority."""
    return _create_seated(
        created_by=created_by,
        variant=variant,
        options=options,
        tables=tables,
        kind=kind,
        name_index=True,
    )


_SEATED_EVENTS = 6
"""The events a table created with its seats assigned starts with: ``table_created``, one
``seat_taken`` or ``bot_seated`` per seat, ``match_started``."""

_TABLE_KEYS = {"seats", "origin", "bot_seed", "shuffle_secret", "shuffle_match_id"}


@dataclass(frozen=True)
class _Planned:
    """One checked item of :func:`create_seated_tables`' ``tables``."""

    specs: list[tuple[Any, str, str]]
    origin: str
    bot_seed: str | None
    shuffle_secret: bytes | None
    shuffle_match_id: str | None


def _plan(item: Any, prefix: str) -> _Planned:
    """Check one item of ``tables`` (``prefix``: ``"table <i>: "`` or ""). Raises
    :class:`BadRequest`."""
    if not isinstance(item, dict) or "seats" not in item:
        raise BadRequest(f"{prefix}give a dict with its seats", "invalid")
    unknown = sorted(set(item) - _TABLE_KEYS)
    if unknown:
        raise BadRequest(f"{prefix}unknown keys {', '.join(map(str, unknown))}", "invalid")
    origin = item.get("origin", "")
    if not isinstance(origin, str) or len(origin) > 64:
        raise BadRequest(f"{prefix}origin must be at most 64 characters", "invalid")
    bot_seed = item.get("bot_seed")
    if bot_seed is not None and (not isinstance(bot_seed, str) or not 1 <= len(bot_seed) <= 64):
        raise BadRequest(f"{prefix}bot_seed must be 1 to 64 characters", "invalid")
    secret = item.get("shuffle_secret")
    if secret is not None and (not isinstance(secret, bytes) or len(secret) != 32):
        raise BadRequest(f"{prefix}shuffle_secret must be 32 bytes", "invalid")
    match_id = item.get("shuffle_match_id")
    if match_id is not None and not isinstance(match_id, str):
        raise BadRequest(f"{prefix}shuffle_match_id must be a string", "invalid")
    try:
        specs = _seat_specs(item["seats"])
    except BadRequest as exc:
        raise BadRequest(f"{prefix}{exc}", exc.code) from None
    return _Planned(specs, origin, bot_seed, secret, match_id)


def _create_seated(
    *,
    created_by,
    variant: str,
    options: dict[str, Any] | None,
    tables: Any,
    kind: str,
    name_index: bool,
) -> list[Table]:
    """:func:`create_seated_tables` (``name_index``: the messages name the item's index)."""
    try:
        parsed = Options.for_variant(variant, options)
        rules = policy(kind)
    except (InvalidOptions, ValueError) as exc:
        raise BadRequest(str(exc), "invalid") from None
    if not rules.seats_assigned:
        raise BadRequest(f"a {kind} table is not created with its seats assigned", "invalid")
    clock.check_timers(parsed, kind)
    if not isinstance(tables, (list, tuple)):
        raise BadRequest("tables must be a list of tables", "invalid")
    plans = [
        _plan(item, f"table {index}: " if name_index else "") for index, item in enumerate(tables)
    ]
    if not plans:
        return []
    people = sorted({u.pk for p in plans for u, _, _ in p.specs if u is not None})
    names = display_names(people)
    now = timezone.now()
    with transaction.atomic():
        live_seats.lock_person(people)  # before any table: as every sit does
        _give_way(people)
        rows, seats = [], []
        for p in plans:
            row = Table(
                variant=variant,
                options=parsed.to_dict(),
                kind=kind,
                origin=p.origin,
                stake=0,
                created_by=created_by,
                bot_seed=p.bot_seed or secrets.token_hex(16),
                status=TableStatus.PLAYING,
                started_at=now,
                wake_at=now,
                version=_SEATED_EVENTS,  # its log below: table_created, 4 seats, match_started
            )
            table_seats = [
                Seat(table=row, seat=n, user=user, bot=bot, client_seed=seed, joined_at=now)
                for n, (user, bot, seed) in enumerate(p.specs)
            ]
            changes.set_kinds(row, table_seats)
            rows.append(row)
            seats.append(table_seats)
        if connection.features.can_return_rows_from_bulk_insert:
            Table.objects.bulk_create(rows)
        else:  # a database that cannot return the new ids: one INSERT each
            for row in rows:
                row.save()
        records, events, logged = [], [], []
        for row, p, table_seats in zip(rows, plans, seats, strict=True):
            private, row.commitment = shuffles.create(
                p.shuffle_match_id or f"table-{row.pk}", parsed.deals_per_match, p.shuffle_secret
            )
            logged.append(fairness_log.match_commitment(**shuffles.announced(private)))
            log = [{"type": "table_created", "commitment": row.commitment}]
            for s in table_seats:
                if s.user is not None:
                    log.append(
                        {
                            "type": "seat_taken",
                            "seat": s.seat,
                            "user_id": s.user.pk,
                            "name": names[s.user.pk],
                            "client_seed": s.client_seed,
                            "staked": 0,
                        }
                    )
                else:
                    log.append({"type": "bot_seated", "seat": s.seat, "bot": s.bot})
            client_seeds = [s.client_seed for s in table_seats]
            log.append(
                {
                    "type": "match_started",
                    "commitment": row.commitment,
                    "client_seeds": {str(n): seed for n, seed in enumerate(client_seeds)},
                }
            )
            row.version = 0  # counted up again, one per event, to the version inserted
            events.extend(changes.event_rows(row, log))
            if row.version != _SEATED_EVENTS:
                raise RuntimeError(f"a seated table's log has {row.version} events")
            private = shuffles.lock_client_seeds(private, client_seeds)
            logged.append(_issue_receipt(row, private, now.replace(microsecond=0)))
            records.append(
                MatchRecord(
                    table=row,
                    state=new_match(parsed).to_json(),
                    state_version=row.version,
                    shuffle=private,
                )
            )
        MatchRecord.objects.bulk_create(records)
        Seat.objects.bulk_create(s for table_seats in seats for s in table_seats)
        TableEvent.objects.bulk_create(events)
        # The commitment names the table's id (its shuffle's match id): known after the INSERT;
        # so does the receipt.
        Table.objects.bulk_update(
            rows, ["commitment", "receipt", "receipt_signature", "started_at"]
        )
        fairness_log.append(logged)
        for row in rows:
            dispatch.send_wake(row)
    return rows


def _seat_specs(seats: Any) -> list[tuple[Any, str, str]]:
    """``(user or None, bot or "", client seed)`` per seat of :func:`create_seated_table`'s
    ``seats``. Raises :class:`BadRequest`."""
    if not isinstance(seats, (list, tuple)) or len(seats) != 4:
        raise BadRequest("seats must be a list of exactly 4 seats", "invalid")
    specs, users = [], set()
    for number, spec in enumerate(seats):
        if not isinstance(spec, dict) or ("user" in spec) == ("bot" in spec):
            raise BadRequest(f"seat {number}: give either a user or a bot", "invalid")
        if "bot" in spec:
            if spec["bot"] not in BOTS:
                raise BadRequest(
                    f"seat {number}: unknown bot {spec['bot']!r} (choose from {', '.join(BOTS)})",
                    "invalid",
                )
            specs.append((None, spec["bot"], shuffles.BOT_CLIENT_SEED))
            continue
        user = spec["user"]
        if getattr(user, "pk", None) is None:
            raise BadRequest(f"seat {number}: user must be a saved user", "invalid")
        if user.pk in users:
            raise BadRequest(f"seat {number}: a user may hold one seat only", "invalid")
        users.add(user.pk)
        try:
            seed = shuffles.clean_client_seed(spec.get("client_seed"))
        except shuffles.FairnessError as exc:
            raise BadRequest(f"seat {number}: {exc}", "invalid") from None
        specs.append((user, "", seed))
    return specs


def _open_seat(table: Table, seat_no: int) -> Seat:
    if table.status != TableStatus.OPEN:
        raise Conflict(_("the match has already started: no seat can be taken"), "not_open")
    if isinstance(seat_no, bool) or not isinstance(seat_no, int) or not 0 <= seat_no <= 3:
        raise BadRequest("seat must be 0..3", "invalid")
    seat = Seat.objects.select_for_update().get(table=table, seat=seat_no)
    if seat.kind is not None:
        raise Conflict(_("seat %(seat)s is taken") % {"seat": seat_no + 1}, "seat_taken")
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
) -> Table:
    """Seat ``user`` at ``seat`` (0..3) with their client seed, staking the table's stake.

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
                f"a {table.kind} table needs your client seed: send client_seed (1 to 64 "
                "printable ASCII characters you chose; the table page makes one in your "
                "browser), so the server alone never decides your cards",
                "invalid",
            )
        mine = changes.user_seat(table, user)
        if mine is not None:
            raise Conflict(
                _("you already sit at seat %(seat)s of this table") % {"seat": mine.seat + 1},
                "seated",
            )
        _check_hold(table, row, user)
        digest = _check_address(table, user, address)
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
                    "seat": seat,
                    "user_id": user.pk,
                    "name": display_name(user),
                    "client_seed": seed,
                    "staked": table.stake,
                }
            ],
        )
        _maybe_start(table)
        table.save()
    return table


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


def seat_bot(*, user, table_id: int, seat: int, bot: str) -> Table:
    """Seat a bot (``rules`` or ``random``) at ``seat`` (0..3); the table's creator only.
    Bots never stake. A rematch's seat held for a person is refused while the hold lasts
    (:class:`Conflict` ``held``)."""
    if bot not in BOTS:
        raise BadRequest(f"unknown bot {bot!r} (choose from {', '.join(BOTS)})", "invalid")
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
        _maybe_start(table)
        table.save()
    return table


def _maybe_start(table: Table) -> None:
    seats = changes.seats(table)
    changes.set_kinds(table, seats)
    if any(s.kind is None for s in seats):
        return
    record = MatchRecord.objects.select_for_update().get(table=table)
    record.shuffle = shuffles.lock_client_seeds(record.shuffle, [s.client_seed for s in seats])
    receipt_entry = _issue_receipt(table, record.shuffle, timezone.now().replace(microsecond=0))
    state = new_match(table.options)
    table.status = TableStatus.PLAYING
    changes.add_events(
        table,
        [
            {
                "type": "match_started",
                "commitment": table.commitment,
                "client_seeds": {str(s.seat): s.client_seed for s in seats},
            }
        ],
    )
    record.state = state.to_json()
    record.state_version = table.version
    record.save()
    fairness_log.append([receipt_entry])
    table.wake_at = timezone.now()
    dispatch.send_wake(table)


def leave(*, user, table_id: int) -> Table:
    """The user leaves their seat for good.

    Before the start: the seat is freed and the stake refunded. During a match at a paid
    table: the forfeit rule (the leaver, with partner, ranks last; the match ends; the wallet
    settles), applied by a worker; the same player leaving again before then changes nothing,
    and another player's leave then is refused (their forfeit would not count: the first one
    ends the match). During a match at a free table: a ``rules`` bot takes the seat over.
    Raises :class:`NotAllowed` (no seat here), :class:`Conflict` (``match_over``: the match is
    over, or another seat's forfeit is pending and ends it)."""
    with transaction.atomic():
        table = changes.lock_table(table_id)
        seat = changes.user_seat(table, user)
        if seat is None:
            raise NotAllowed(_("you have no seat at this table"), "not_seated")
        if table.status == TableStatus.OPEN:
            _free_open_seat(table, seat)
            return table
        if table.status != TableStatus.PLAYING:
            raise Conflict(_("the match is over"), "match_over")
        if policy(table.kind).leaver_forfeits:
            pending = _pending_forfeit(table)
            if pending is not None and pending.seat == seat.seat:
                return table  # this seat's forfeit is already on its way (a repeated leave)
            if pending is not None:
                raise Conflict(
                    _(
                        "Seat %(seat)s left first: the match ends with that seat's forfeit (it "
                        "ranks last, with its partner at a partnership table); your leave did "
                        "not count."
                    )
                    % {"seat": pending.seat + 1},  # numbered 1-4, as on the table page
                    "match_over",
                )
            action = TableAction.objects.create(
                table=table,
                seat=seat.seat,
                user=user,
                source="user",
                version=table.version,
                action={"type": "forfeit", "seat": seat.seat},
                submitted_at=timezone.now(),
            )
            dispatch.send_action(action.pk)
            return table
        _bot_takes_over(table, seat, "rules")
    return table


def _free_open_seat(table: Table, seat: Seat) -> None:
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


def _give_way(user_ids: list[int]) -> None:
    """The seats ``user_ids`` are given at tables created with their seats assigned (a
    tournament round's) take priority over their seats at player-made tables whose match has
    not ended, when holding both would pass ``TRIX_MAX_LIVE_SEATS``
    (:mod:`games.services.live_seats`; the persons' rows are locked by the caller). At each
    such table, locked in turn: waiting for players, the seat is left and its stake refunded
    (as :func:`leave` before the start); being played at a free table, a ``rules`` bot takes
    it over (as :func:`leave` there); being played at a staked table, the seat is marked away
    (:mod:`games.services.presence`): its turns are played at once with the timeout's default
    action, its stake and its result stay its player's, and "I'm back" there clears the mark.
    Seats at other assigned-seat tables never give way. Rule: ``docs/tournaments.md``."""
    cap = settings.TRIX_MAX_LIVE_SEATS
    if cap <= 0 or not user_ids:
        return
    held: dict[int, list[tuple[int, str]]] = {}
    for user_id, table_id, kind in (
        Seat.objects.filter(user_id__in=user_ids, table__status__in=live_seats.LIVE_STATUSES)
        .order_by("table_id")
        .values_list("user_id", "table_id", "table__kind")
    ):
        held.setdefault(user_id, []).append((table_id, kind))
    for user_id, seats in held.items():
        if len(seats) + 1 <= cap:
            continue
        for table_id, kind in seats:
            if policy(kind).seats_assigned:
                continue
            try:
                with transaction.atomic():  # a savepoint: a refusal here never stops the draw
                    _give_way_at(table_id, user_id)
            except (TableError, money.StakeError) as exc:
                log.error("user %s's seat at table %s kept: %s", user_id, table_id, exc)


def _give_way_at(table_id: int, user_id: int) -> None:
    """:func:`_give_way` at one player-made table."""
    table = changes.lock_table(table_id)
    seat = Seat.objects.select_related("user").filter(table=table, user_id=user_id).first()
    if seat is None:
        return
    if table.status == TableStatus.OPEN:
        _free_open_seat(table, seat)
    elif table.status != TableStatus.PLAYING:
        return
    elif policy(table.kind).bot_takes_over_leaver:
        _bot_takes_over(table, seat, "rules")
    else:
        events = presence.mark_away(table, seat.seat)
        if not events:
            return
        changes.add_events(table, events)
        state_store.read(table, lambda state: clock.schedule(table, state, events))
        table.save(update_fields=["version", "deadline", "wake_at"])


def _pending_forfeit(table: Table) -> TableAction | None:
    """The forfeit a leave stored at ``table`` (locked) that no worker has applied yet: it
    ends the match, so no other leave can count (issue 13: two players leaving at once)."""
    return (
        TableAction.objects.filter(table=table, status=ActionStatus.PENDING, action__type="forfeit")
        .order_by("submitted_at")
        .first()
    )


def _bot_takes_over(table: Table, seat: Seat, bot: str) -> None:
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
    state_store.read(table, lambda state: clock.schedule(table, state, []))
    table.save()


def replace_with_bot(*, table_id: int, seat: int, reason: str, bot: str = "rules") -> Table:
    """A playing table's human ``seat`` is played by ``bot`` from now on (a tournament's
    disqualification; the caller checks who may do this). The ``seat_left`` event carries no
    reason (players see ``reason`` where the caller shows it). Raises :class:`NotFound`,
    :class:`BadRequest` (unknown bot or seat), :class:`Conflict` (the match is not being
    played, or the seat is not a person's)."""
    if bot not in BOTS:
        raise BadRequest(f"unknown bot {bot!r} (choose from {', '.join(BOTS)})", "invalid")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise BadRequest("seat must be 0..3", "invalid")
    if not reason:
        raise BadRequest("give a reason", "invalid")
    with transaction.atomic():
        table = changes.lock_table(table_id)
        if table.status != TableStatus.PLAYING:
            raise Conflict("the match is not being played", "not_playing")
        row = Seat.objects.select_for_update().get(table=table, seat=seat)
        if row.user_id is None:
            raise Conflict(f"seat {seat} is not a person's", "not_a_person")
        _bot_takes_over(table, row, bot)
    return table


def cancel_table(*, table_id: int, reason: str, by=None) -> Table:
    """Cancel an open or playing table: every stake goes back through the wallet (one
    ``refund_all``, idempotency key ``cancel:table:<id>``), its timers stop, and
    ``table_cancelled`` (with ``reason``) ends its log; :data:`games.signals.table_finished`
    is sent after the commit. The caller checks who may do this (``by``, the acting user, is
    recorded). A cancelled table is returned unchanged. Raises :class:`NotFound`,
    :class:`BadRequest` (no reason), :class:`Conflict` (the match already finished)."""
    if not isinstance(reason, str) or not reason.strip():
        raise BadRequest("give a reason", "invalid")
    with transaction.atomic():
        table = changes.lock_table(table_id)
        if table.status == TableStatus.CANCELLED:
            return table
        if table.status == TableStatus.FINISHED:
            raise Conflict("the match is over: a finished table cannot be cancelled", "match_over")
        _cancel_locked(table, reason, by)
    return table


def _cancel_locked(table: Table, reason: str, by) -> None:
    """:func:`cancel_table` on the locked ``table`` (open or playing): refund every stake,
    stop the timers, log ``table_cancelled``, announce the end after the commit."""
    seats = changes.seats(table)
    if any(s.staked for s in seats):
        try:
            money.refund_all(table_ref=table.ref, key=f"cancel:{table.ref}")
        except money.StakeError as exc:
            raise Conflict(str(exc), "ledger") from None
    table.status = TableStatus.CANCELLED
    table.finished_at = timezone.now()
    table.deadline = None
    table.wake_at = None
    event = {"type": "table_cancelled", "reason": reason.strip()[:200]}
    if by is not None:
        event["by"] = display_name(by)
    changes.add_events(table, [event])
    table.save(update_fields=["status", "finished_at", "deadline", "wake_at", "version"])
    dispatch.announce_end(table)


EXPIRY_BATCH = 500
"""The most tables one run of :func:`expire_open_tables` cancels (the next run goes on)."""


def expire_open_tables(*, now=None) -> list[int]:
    """Beat (``games.tasks.expire_open_tables``): cancel the player's tables left waiting,
    oldest first, at most :data:`EXPIRY_BATCH` a run, each in its own transaction through
    the cancel path (every stake refunded, ``refund_all``):

    - every open table ``TRIX_OPEN_TABLE_EXPIRY`` seconds after it was created (its four
      seats were not all taken in time), reason "nobody filled the table within 30 minutes";
    - an *empty* open table, where no seat is taken (by a person or a bot), once it has been
      empty for ``TRIX_EMPTY_TABLE_EXPIRY`` seconds: created that long ago and no person left
      a seat there since; reason "nobody sat at the table for 3 minutes". A table's creator
      is not seated by creating it, so the tables people made and never sat at leave the
      lobby quickly instead of piling up there; a table whose creator seated bots is an
      offer to play them and waits as long as any open table.

    Tournament tables are never open and never expire. A table that started meanwhile, or
    where a person sat meanwhile (an empty one), is left alone (checked under its lock).
    Returns the ids cancelled; a table the ledger refuses is logged and skipped (it stays
    open)."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.TRIX_OPEN_TABLE_EXPIRY)
    empty_cutoff = now - timedelta(seconds=settings.TRIX_EMPTY_TABLE_EXPIRY)
    waiting = Table.objects.filter(status=TableStatus.OPEN).exclude(kind=TableKind.TOURNAMENT)
    taken = Seat.objects.filter(table=OuterRef("pk")).filter(Q(user__isnull=False) | ~Q(bot=""))
    left = TableEvent.objects.filter(
        table=OuterRef("pk"), type="seat_left", created_at__gte=empty_cutoff
    )
    due = waiting.filter(
        Q(created_at__lt=cutoff) | (Q(created_at__lt=empty_cutoff) & ~Exists(taken) & ~Exists(left))
    ).order_by("id")
    old = f"nobody filled the table within {_expiry_text()}"
    empty = f"nobody sat at the table for {_expiry_text(settings.TRIX_EMPTY_TABLE_EXPIRY)}"
    expired = []
    for table_id in list(due.values_list("pk", flat=True)[:EXPIRY_BATCH]):
        try:
            with transaction.atomic():
                table = changes.lock_table(table_id)
                if table.status != TableStatus.OPEN:
                    continue
                if table.created_at < cutoff:
                    reason = old
                elif table.created_at < empty_cutoff and not any(
                    s.user_id or s.bot for s in changes.seats(table)
                ):
                    reason = empty
                else:
                    continue
                _cancel_locked(table, reason, None)
        except TableError as exc:
            log.error("open table %s not expired: %s", table_id, exc)
            continue
        expired.append(table_id)
    return expired


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
