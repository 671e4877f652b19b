"""Tables created with their four seats assigned, their match started at once: a tournament
round's tables (:func:`create_seated_tables`, in one transaction and a handful of
statements; :func:`create_seated_table`, one of them). Seats given here take priority over
a person's seats at player-made tables beyond ``TRIX_MAX_LIVE_SEATS`` (:func:`_give_way`).

Everything is checked first (:class:`~games.errors.BadRequest`, nothing written); the
tables' rules come from :mod:`games.policy`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import display_names
from games import shuffles, signing, state_store
from games.engine import InvalidOptions, Options, new_match
from games.engine.bots import BOTS
from games.errors import BadRequest, TableError
from games.models import MatchRecord, Seat, Table, TableEvent, TableStatus
from games.policy import TableKind, policy
from games.services import (
    changes,
    deadlines,
    dispatch,
    fairness_log,
    live_seats,
    money,
    presence,
)
from games.services.match_start import issue_receipt
from games.services.tables import (
    bot_seed_problem,
    bot_takes_over,
    free_open_seat,
    unknown_bot,
)

log = logging.getLogger(__name__)


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
    ``shuffle_match_id`` are for tests and replays (a tournament's tables take them from the
    event's key, ``games.fairness.event_tables``).
    Raises :class:`BadRequest`; nothing is written then."""
    if stake != 0:
        raise BadRequest(
            _("a table with assigned seats holds no stakes: stake must be 0"), "invalid"
        )
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
    printable ASCII characters) or None (drawn with the shuffle)}``, and
    ``"shuffle_secret"`` (32 bytes) and ``"shuffle_match_id"`` (str) for a tournament's
    tables, dealt from the event's key.
    Everything is checked first, by :func:`create_seated_table`'s rules and messages with
    the item's index in front (``table 3: seat 1: unknown bot ...``); :class:`BadRequest`
    then, and nothing is written.
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

_TABLE_KEYS = {
    "seats",
    "origin",
    "bot_seed",
    "shuffle_secret",
    "shuffle_match_id",
    "tables_commitment",
}


@dataclass(frozen=True)
class _Planned:
    """One checked item of :func:`create_seated_tables`' ``tables``."""

    specs: list[tuple[Any, str, str]]
    origin: str
    bot_seed: str | None
    shuffle_secret: bytes | None
    shuffle_match_id: str | None
    tables_commitment: dict[str, Any] | None


def _named(index: int | None, problem: str) -> str:
    """``problem`` with the item's index in front (``table 3: ...``), or alone (None)."""
    if index is None:
        return problem
    return _("table %(index)s: %(problem)s") % {"index": index, "problem": problem}


def _plan(item: Any, index: int | None) -> _Planned:
    """Check one item of ``tables`` (``index``: its position, named in the messages, or None).
    Raises :class:`BadRequest`."""
    if not isinstance(item, dict) or "seats" not in item:
        raise BadRequest(_named(index, _("give a dict with its seats")), "invalid")
    unknown = sorted(set(item) - _TABLE_KEYS)
    if unknown:
        keys = ", ".join(map(str, unknown))
        raise BadRequest(_named(index, _("unknown keys %(keys)s") % {"keys": keys}), "invalid")
    origin = item.get("origin", "")
    if not isinstance(origin, str) or len(origin) > 64:
        raise BadRequest(_named(index, _("origin must be at most 64 characters")), "invalid")
    bot_seed = item.get("bot_seed")
    if problem := bot_seed_problem(bot_seed):
        raise BadRequest(_named(index, problem), "invalid")
    secret = item.get("shuffle_secret")
    if secret is not None and (not isinstance(secret, bytes) or len(secret) != 32):
        raise BadRequest(_named(index, _("shuffle_secret must be 32 bytes")), "invalid")
    match_id = item.get("shuffle_match_id")
    if match_id is not None and not isinstance(match_id, str):
        raise BadRequest(_named(index, _("shuffle_match_id must be a string")), "invalid")
    try:
        specs = _seat_specs(item["seats"])
    except BadRequest as exc:
        raise BadRequest(_named(index, str(exc)), exc.code) from None
    tables = item.get("tables_commitment")
    if tables is not None and (secret is None or match_id is None):
        raise BadRequest(
            _named(index, _("tables_commitment comes with shuffle_secret and shuffle_match_id")),
            "invalid",
        )
    return _Planned(specs, origin, bot_seed, secret, match_id, tables)


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
    parsed = _check_kind(variant, options, kind)
    if not isinstance(tables, (list, tuple)):
        raise BadRequest(_("tables must be a list of tables"), "invalid")
    plans = [_plan(item, index if name_index else None) for index, item in enumerate(tables)]
    if not plans:
        return []
    people = sorted({u.pk for p in plans for u, _, _ in p.specs if u is not None})
    names = display_names(people)
    now = timezone.now()
    with transaction.atomic():
        live_seats.lock_person(people)  # before any table: as every sit does
        _give_way(people)
        rows = [_table_row(p, created_by, variant, parsed, kind, now) for p in plans]
        seats = [
            [
                Seat(table=row, seat=n, user=user, bot=bot, client_seed=seed, joined_at=now)
                for n, (user, bot, seed) in enumerate(p.specs)
            ]
            for row, p in zip(rows, plans, strict=True)
        ]
        for row, table_seats in zip(rows, seats, strict=True):
            changes.set_kinds(row, table_seats)
        if connection.features.can_return_rows_from_bulk_insert:
            Table.objects.bulk_create(rows)
        else:  # a database that cannot return the new ids: one INSERT each
            for row in rows:
                row.save()
        records, events, logged = [], [], []
        fairness_log.lock_head()  # before the key: no rotation logged until these receipts
        key = signing.current()  # one key signs the batch's receipts, issued in its period
        issued = timezone.now().replace(microsecond=0)
        for row, p, table_seats in zip(rows, plans, seats, strict=True):
            started = (now, issued, key)
            record, log_rows, entries = _start_match(row, p, table_seats, parsed, names, started)
            records.append(record)
            events.extend(log_rows)
            logged.extend(entries)
        MatchRecord.objects.bulk_create(records)
        Seat.objects.bulk_create(s for table_seats in seats for s in table_seats)
        TableEvent.objects.bulk_create(events)
        # The commitment names the table's id (its shuffle's match id): known after the INSERT;
        # so does the receipt.
        Table.objects.bulk_update(
            rows, ["commitment", "bot_seed", "receipt", "receipt_signature", "started_at"]
        )
        fairness_log.append(logged)
        for row in rows:
            dispatch.send_wake(row)
    return rows


def _check_kind(variant: str, options: dict[str, Any] | None, kind: str) -> Options:
    """The options of seated tables of ``variant`` and ``kind``, checked: the kind is one
    whose seats are assigned, its timer rule holds. Raises :class:`BadRequest`."""
    try:
        parsed = Options.for_variant(variant, options)
        rules = policy(kind)
    except (InvalidOptions, ValueError) as exc:
        raise BadRequest(str(exc), "invalid") from None
    if not rules.seats_assigned:
        raise BadRequest(
            _("a %(kind)s table is not created with its seats assigned") % {"kind": kind},
            "invalid",
        )
    deadlines.check_timers(parsed, kind)
    return parsed


def _table_row(p: _Planned, created_by, variant: str, parsed: Options, kind: str, now) -> Table:
    """The unsaved row of one planned table, its match started at ``now``."""
    return Table(
        variant=variant,
        options=parsed.to_dict(),
        kind=kind,
        origin=p.origin,
        stake=0,
        created_by=created_by,
        status=TableStatus.PLAYING,
        started_at=now,
        wake_at=now,
        version=_SEATED_EVENTS,  # its log below: table_created, 4 seats, match_started
    )


def _start_match(
    row: Table,
    p: _Planned,
    table_seats: list[Seat],
    parsed: Options,
    names: dict[int, str],
    started: tuple[Any, Any, signing.SiteKey],
) -> tuple[MatchRecord, list[TableEvent], list[Any]]:
    """One inserted table's shuffle committed, its seats' client seeds locked and its receipt
    issued and signed (set on ``row``; the caller saves them): its unsaved match record, its
    event rows and its fairness-log entries (the commitment, the receipt). ``started``: the
    batch's time, the receipts' time and the key that signs them (both read under the log's
    lock)."""
    now, issued, key = started
    private, row.commitment = shuffles.create(
        p.shuffle_match_id or f"table-{row.pk}", parsed.deals_per_match, p.shuffle_secret
    )
    row.bot_seed = p.bot_seed or shuffles.bot_seed(private)
    logged = [fairness_log.match_commitment(**shuffles.announced(private))]
    client_seeds = [s.client_seed for s in table_seats]
    row.version = 0  # counted up again, one per event, to the version inserted
    events = changes.event_rows(row, _seated_log(row, table_seats, names))
    if row.version != _SEATED_EVENTS:
        raise RuntimeError(f"a seated table's log has {row.version} events")
    private = shuffles.lock_client_seeds(private, client_seeds)
    logged.append(
        issue_receipt(
            row,
            private,
            issued,
            table_seats,
            logged_seeds=False,
            tables_commitment=p.tables_commitment,
            key=key,
        )
    )
    record = MatchRecord(
        table=row,
        state=new_match(parsed).to_json(),
        state_version=row.version,
        shuffle=private,
    )
    return record, events, logged


def _seated_log(row: Table, table_seats: list[Seat], names: dict[int, str]) -> list[dict]:
    """The events a seated table starts with (:data:`_SEATED_EVENTS`): ``table_created``, one
    ``seat_taken`` or ``bot_seated`` per seat, ``match_started``."""
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
    log.append(
        {
            "type": "match_started",
            "commitment": row.commitment,
            "client_seeds": {str(s.seat): s.client_seed for s in table_seats},
        }
    )
    return log


def _seat_problem(number: int, problem: str) -> str:
    """``problem`` of seat ``number`` (0..3, as ``seats`` is indexed): ``seat 1: ...``."""
    return _("seat %(seat)s: %(problem)s") % {"seat": number, "problem": problem}


def _seat_specs(seats: Any) -> list[tuple[Any, str, str]]:
    """``(user or None, bot or "", client seed)`` per seat of :func:`create_seated_table`'s
    ``seats``. Raises :class:`BadRequest`."""
    if not isinstance(seats, (list, tuple)) or len(seats) != 4:
        raise BadRequest(_("seats must be a list of exactly 4 seats"), "invalid")
    specs, users = [], set()
    for number, spec in enumerate(seats):
        if not isinstance(spec, dict) or ("user" in spec) == ("bot" in spec):
            raise BadRequest(_seat_problem(number, _("give either a user or a bot")), "invalid")
        if "bot" in spec:
            if spec["bot"] not in BOTS:
                raise BadRequest(_seat_problem(number, unknown_bot(spec["bot"])), "invalid")
            specs.append((None, spec["bot"], shuffles.BOT_CLIENT_SEED))
            continue
        user = spec["user"]
        if getattr(user, "pk", None) is None:
            raise BadRequest(_seat_problem(number, _("user must be a saved user")), "invalid")
        if user.pk in users:
            raise BadRequest(_seat_problem(number, _("a user may hold one seat only")), "invalid")
        users.add(user.pk)
        try:
            seed = shuffles.clean_client_seed(spec.get("client_seed"))
        except shuffles.FairnessError as exc:
            raise BadRequest(_seat_problem(number, str(exc)), "invalid") from None
        specs.append((user, "", seed))
    return specs


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
        free_open_seat(table, seat)
    elif table.status != TableStatus.PLAYING:
        return
    elif policy(table.kind).bot_takes_over_leaver:
        bot_takes_over(table, seat, "rules")
    else:
        events = presence.mark_away(table, seat.seat)
        if not events:
            return
        changes.add_events(table, events)
        then = state_store.read(table, lambda state: deadlines.schedule(table, state, events))
        table.save(update_fields=["version", "deadline", "wake_at"])
        dispatch.follow(table, then)
