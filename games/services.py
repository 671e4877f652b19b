"""Every change of a table: plain functions, each one database transaction.

Web requests call :func:`create_table`, :func:`take_seat`, :func:`seat_bot`, :func:`leave`
and :func:`submit_action`; they check everything they can at once (a clear
:class:`~games.errors.TableError`, nothing changed) and hand match changes to a worker.
Workers (``games.tasks``) call :func:`apply_action`, :func:`wake` and :func:`settle`, which
lock the table row (``SELECT ... FOR UPDATE``), so one change at a time is applied per table,
each exactly once (an action by its id and the version it was made against). Tasks are sent
only after the transaction commits.

Each change appends :class:`~games.models.TableEvent` rows, one version each, and leaves the
table's ``deadline`` (the seats' timeout) and ``wake_at`` (when a worker must look next: a
bot's turn after its delay, a timeout, the next deal) for :mod:`games.tasks`.
Rules of timeouts and forfeits: ``shared/trix-rules.md`` (004_918501b053ed3a2d.txt).
"""

from __future__ import annotations

import copy
import random
import secrets
import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.selectors import display_name
from games import dealing, signals, stakes, state_store, table_writes
from games.engine import IllegalAction, InvalidOptions, Options, apply, new_match
from games.engine.bots import BOTS, make_bot
from games.engine.match import check, default_action, forced_action
from games.engine.observation import observe
from games.errors import BadRequest, Conflict, NotAllowed, NotFound, TableError
from games.models import (
    ActionStatus,
    Deal,
    MatchRecord,
    Seat,
    Table,
    TableAction,
    TableEvent,
    TableStatus,
)
from games.policy import TableKind, kind_for_stake, policy

ACTION_TYPES = ("contract", "select", "double", "play", "pass")
PHASE_TIMER = {"choose": "choose_timer", "double": "double_timer", "play": "play_timer"}


# -- helpers ---------------------------------------------------------------------------------


def _lock_table(table_id: int) -> Table:
    """The table row, locked until the transaction ends. Raises :class:`NotFound`.

    The stored match is read after the lock in its own query: a row joined to a
    ``SELECT ... FOR UPDATE`` may come from before the lock was granted (PostgreSQL
    re-reads only the locked row), which would pair a new version with an old state."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(f"no table {table_id}") from None


def _set_kinds(table: Table, seats: list[Seat]) -> None:
    table.seat_kinds = [s.kind if s.kind != "bot" else s.bot for s in seats]


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).order_by("seat"))


def _add_events(
    table: Table, events: list[dict[str, Any]], log: dict[str, list] | None = None
) -> None:
    """Append engine-shaped events (``type``, ``visible_to``, payload) to the log, in one
    INSERT; ``log`` (the match log's increment, :func:`games.state_store.increment`) goes on
    the first of them."""
    TableEvent.objects.bulk_create(_event_rows(table, events, log))


def _event_rows(
    table: Table, events: list[dict[str, Any]], log: dict[str, list] | None = None
) -> list[TableEvent]:
    """The unsaved :class:`TableEvent` rows of ``events``, one version each after
    ``table.version`` (which is advanced to the last); ``log`` on the first."""
    if log is not None and not events:
        raise RuntimeError("a change of the match log must come with at least one event")
    rows = []
    for event in events:
        table.version += 1
        payload = {k: v for k, v in event.items() if k not in ("type", "visible_to")}
        vis = event.get("visible_to", "all")
        rows.append(
            TableEvent(
                table=table,
                version=table.version,
                type=event["type"],
                payload=payload,
                visible_to=None if vis == "all" else list(vis),
            )
        )
    if log is not None:
        rows[0].log = log
    return rows


def _send_wake(table: Table) -> None:
    """After commit, ask a worker to look at the table at ``wake_at``."""
    if table.wake_at is None:
        return
    from games import tasks

    table_id, version, when = table.pk, table.version, table.wake_at

    def send():
        delay = (when - timezone.now()).total_seconds()
        if delay > 0.01:
            tasks.wake.apply_async((table_id, version), countdown=delay)
        else:
            tasks.wake.delay(table_id, version)

    transaction.on_commit(send)


def _user_seat(table: Table, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, user=user).first()


# -- creating and seating --------------------------------------------------------------------


def create_table(
    user,
    variant: str,
    stake: int = 0,
    options: dict[str, Any] | None = None,
    *,
    shuffle_secret: bytes | None = None,
    shuffle_match_id: str | None = None,
    bot_seed: str | None = None,
) -> Table:
    """Create an open table; its shuffle commitment is public from now on.

    ``options`` are any :class:`games.engine.Options` fields (defaults when missing);
    ``stake`` is minor units per human seat. ``shuffle_secret``, ``shuffle_match_id`` and
    ``bot_seed`` are for tests and replays only. Raises :class:`BadRequest`."""
    opts = dict(options or {})
    if "variant" in opts and opts["variant"] != variant:
        raise BadRequest("variant is given twice with different values", "invalid")
    opts["variant"] = variant
    try:
        parsed = Options.from_dict(opts)
    except InvalidOptions as exc:
        raise BadRequest(str(exc), "invalid") from None
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
        raise BadRequest("stake must be a whole number of minor units >= 0", "invalid")
    if stake > settings.TRIX_MAX_STAKE:
        raise BadRequest(
            f"stake must be at most {stakes.format_money(settings.TRIX_MAX_STAKE)} "
            f"({settings.TRIX_MAX_STAKE} minor units)",
            "invalid",
        )
    kind = kind_for_stake(stake)
    _check_timers(parsed, kind)
    with transaction.atomic():
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
    private, commitment = dealing.create(
        shuffle_match_id or f"table-{table.pk}", options.deals_per_match, shuffle_secret
    )
    table.commitment = commitment
    MatchRecord.objects.create(table=table, state=None, shuffle=private)
    Seat.objects.bulk_create([Seat(table=table, seat=s) for s in range(4)])
    _add_events(table, [{"type": "table_created", "commitment": commitment}])
    return table


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

    ``seats`` is a list of exactly four dicts, index = seat number: ``{"user": <User>,
    "client_seed": str}`` (1 to 64 characters, ``docs/fairness.md``) or ``{"bot": "rules" |
    "random"}``. A user appears at most once. ``options`` are :class:`games.engine.Options`
    fields; the kind's timer rule applies (:mod:`games.policy`). ``stake`` must be 0 (tables
    with assigned seats hold no stakes). Raises :class:`BadRequest`; nothing is written then."""
    opts = dict(options or {})
    if "variant" in opts and opts["variant"] != variant:
        raise BadRequest("variant is given twice with different values", "invalid")
    opts["variant"] = variant
    try:
        parsed = Options.from_dict(opts)
        rules = policy(kind)
    except (InvalidOptions, ValueError) as exc:
        raise BadRequest(str(exc), "invalid") from None
    if not rules.seats_assigned:
        raise BadRequest(f"a {kind} table is not created with its seats assigned", "invalid")
    if stake != 0:
        raise BadRequest("a table with assigned seats holds no stakes: stake must be 0", "invalid")
    if len(origin) > 64:
        raise BadRequest("origin must be at most 64 characters", "invalid")
    _check_timers(parsed, kind)
    specs = _seat_specs(seats)
    with transaction.atomic():
        table = _new_table(
            created_by=created_by,
            variant=variant,
            options=parsed,
            kind=kind,
            origin=origin,
            stake=0,
            bot_seed=bot_seed,
            shuffle_secret=shuffle_secret,
            shuffle_match_id=shuffle_match_id,
        )
        now = timezone.now()
        rows = _seats(table)
        events = []
        for row, (user, bot, seed) in zip(rows, specs, strict=True):
            row.user, row.bot, row.client_seed, row.joined_at = user, bot, seed, now
            if user is not None:
                events.append(
                    {
                        "type": "seat_taken",
                        "seat": row.seat,
                        "user_id": user.pk,
                        "name": display_name(user),
                        "client_seed": seed,
                        "staked": 0,
                    }
                )
            else:
                events.append({"type": "bot_seated", "seat": row.seat, "bot": bot})
        Seat.objects.bulk_update(rows, ["user", "bot", "client_seed", "joined_at"])
        _add_events(table, events)
        _maybe_start(table)
        table.save()
    return table


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
            specs.append((None, spec["bot"], dealing.BOT_CLIENT_SEED))
            continue
        user = spec["user"]
        if getattr(user, "pk", None) is None:
            raise BadRequest(f"seat {number}: user must be a saved user", "invalid")
        if user.pk in users:
            raise BadRequest(f"seat {number}: a user may hold one seat only", "invalid")
        users.add(user.pk)
        try:
            seed = dealing.clean_client_seed(spec.get("client_seed"))
        except dealing.FairnessError as exc:
            raise BadRequest(f"seat {number}: {exc}", "invalid") from None
        specs.append((user, "", seed))
    return specs


def _check_timers(options: Options, kind: str) -> None:
    """The site's limits on the timers (whole seconds, ``0`` = none): at most
    ``TRIX_MAX_TIMER`` each, and where the kind requires timers (staked and tournament tables,
    :mod:`games.policy`) all three, so no player can hold the others' stakes or a tournament
    round for ever by not acting (``shared/trix-rules.md`` allows no timer for casual
    tables). Raises :class:`BadRequest` naming the timer."""
    required = policy(kind).timers_required
    for name in PHASE_TIMER.values():
        seconds = getattr(options, name)
        if seconds > settings.TRIX_MAX_TIMER:
            raise BadRequest(
                f"{name} must be at most {settings.TRIX_MAX_TIMER} seconds, got {seconds}",
                "invalid",
            )
        if required and seconds == 0:
            raise BadRequest(
                f"a {kind} table needs every timer: {name} must be 1 to "
                f"{settings.TRIX_MAX_TIMER} seconds (0, no timer, is for free tables)",
                "invalid",
            )


def _open_seat(table: Table, seat_no: int) -> Seat:
    if table.status != TableStatus.OPEN:
        raise Conflict("the match has already started: no seat can be taken", "not_open")
    if isinstance(seat_no, bool) or not isinstance(seat_no, int) or not 0 <= seat_no <= 3:
        raise BadRequest("seat must be 0..3", "invalid")
    seat = Seat.objects.select_for_update().get(table=table, seat=seat_no)
    if seat.kind is not None:
        raise Conflict(f"seat {seat_no} is taken", "seat_taken")
    return seat


def take_seat(user, table_id: int, seat_no: int, client_seed: str | None = None) -> Table:
    """Seat ``user`` at ``seat_no`` with their client seed, staking the table's stake.

    When the fourth seat fills, the match starts (a worker deals). Raises
    :class:`Conflict` (seat taken, already seated, match started), :class:`BadRequest`
    (bad seed, short balance)."""
    try:
        seed = dealing.clean_client_seed(client_seed)
    except dealing.FairnessError as exc:
        raise BadRequest(str(exc), "invalid") from None
    with transaction.atomic():
        table = _lock_table(table_id)
        seat = _open_seat(table, seat_no)
        mine = _user_seat(table, user)
        if mine is not None:
            raise Conflict(f"you already sit at seat {mine.seat} of this table", "seated")
        try:
            stakes.stake(user, table.ref, table.stake, f"stake:{table.ref}:v{table.version}")
        except stakes.StakeError as exc:
            raise BadRequest(str(exc), "insufficient_funds") from None
        seat.user = user
        seat.staked = table.stake
        seat.client_seed = seed
        seat.joined_at = timezone.now()
        seat.save()
        _add_events(
            table,
            [
                {
                    "type": "seat_taken",
                    "seat": seat_no,
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


def seat_bot(user, table_id: int, seat_no: int, bot: str) -> Table:
    """Seat a bot (``rules`` or ``random``); the table's creator only. Bots never stake."""
    if bot not in BOTS:
        raise BadRequest(f"unknown bot {bot!r} (choose from {', '.join(BOTS)})", "invalid")
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.created_by_id != user.pk:
            raise NotAllowed("only the table's creator may seat a bot", "not_creator")
        seat = _open_seat(table, seat_no)
        seat.bot = bot
        seat.client_seed = dealing.BOT_CLIENT_SEED
        seat.joined_at = timezone.now()
        seat.save()
        _add_events(table, [{"type": "bot_seated", "seat": seat_no, "bot": bot}])
        _maybe_start(table)
        table.save()
    return table


def _maybe_start(table: Table) -> None:
    seats = _seats(table)
    _set_kinds(table, seats)
    if any(s.kind is None for s in seats):
        return
    record = MatchRecord.objects.select_for_update().get(table=table)
    record.shuffle = dealing.lock_client_seeds(record.shuffle, [s.client_seed for s in seats])
    state = new_match(table.options)
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    _add_events(
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
    table.wake_at = timezone.now()
    _send_wake(table)


def leave(user, table_id: int) -> Table:
    """The user leaves their seat for good.

    Before the start: the seat is freed and the stake refunded. During a match at a paid
    table: the forfeit rule (the leaver, with partner, ranks last; the match ends; the wallet
    settles), applied by a worker. During a match at a free table: a ``rules`` bot takes the
    seat over. Raises :class:`NotAllowed` (no seat here), :class:`Conflict` (match over)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        seat = _user_seat(table, user)
        if seat is None:
            raise NotAllowed("you have no seat at this table", "not_seated")
        if table.status == TableStatus.OPEN:
            stakes.refund(user, table.ref, seat.staked, f"refund:{table.ref}:v{table.version}")
            seat.user = None
            seat.staked = 0
            seat.client_seed = ""
            seat.joined_at = None
            seat.save()
            _add_events(table, [{"type": "seat_left", "seat": seat.seat}])
            _set_kinds(table, _seats(table))
            table.save(update_fields=["version", "seat_kinds"])
            return table
        if table.status != TableStatus.PLAYING:
            raise Conflict("the match is over", "match_over")
        if policy(table.kind).leaver_forfeits:
            action = TableAction.objects.create(
                table=table,
                seat=seat.seat,
                user=user,
                source="user",
                version=table.version,
                action={"type": "forfeit", "seat": seat.seat},
                submitted_at=timezone.now(),
            )
            _send_action(action.pk)
            return table
        _bot_takes_over(table, seat, "rules")
    return table


def _bot_takes_over(table: Table, seat: Seat, bot: str) -> None:
    """During a match (the table locked): ``bot`` plays ``seat`` from now on, and the table's
    timers are set again for the seats to act."""
    seat.user = None
    seat.bot = bot
    seat.save(update_fields=["user", "bot"])
    _add_events(
        table,
        [
            {"type": "seat_left", "seat": seat.seat},
            {"type": "bot_seated", "seat": seat.seat, "bot": bot},
        ],
    )
    _set_kinds(table, _seats(table))
    state_store.read(table, lambda state: _schedule(table, state, []))
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
        table = _lock_table(table_id)
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
        table = _lock_table(table_id)
        if table.status == TableStatus.CANCELLED:
            return table
        if table.status == TableStatus.FINISHED:
            raise Conflict("the match is over: a finished table cannot be cancelled", "match_over")
        seats = _seats(table)
        if any(s.staked for s in seats):
            try:
                stakes.refund_all(table.ref, f"cancel:{table.ref}")
            except stakes.StakeError as exc:
                raise Conflict(str(exc), "ledger") from None
        table.status = TableStatus.CANCELLED
        table.finished_at = timezone.now()
        table.deadline = None
        table.wake_at = None
        event = {"type": "table_cancelled", "reason": reason.strip()[:200]}
        if by is not None:
            event["by"] = display_name(by)
        _add_events(table, [event])
        table.save(update_fields=["status", "finished_at", "deadline", "wake_at", "version"])
        _announce_end(table)
    return table


def _announce_end(table: Table) -> None:
    """After the commit, :data:`games.signals.table_finished` for ``table``'s end."""
    table_id, kind, origin, status = table.pk, table.kind, table.origin, table.status
    transaction.on_commit(
        lambda: signals.table_finished.send(
            sender=Table, table_id=table_id, kind=kind, origin=origin, status=status
        ),
        robust=True,
    )


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


# -- actions ---------------------------------------------------------------------------------


def _send_action(action_id) -> None:
    from games import tasks

    transaction.on_commit(lambda: tasks.apply_action.delay(str(action_id)))


def action_result(action: TableAction) -> tuple[int, dict[str, Any]]:
    """The answer to an action id: 202 while pending or once applied, else its error."""
    if action.status == ActionStatus.REJECTED:
        code = "stale_version" if action.http_status == 409 else "illegal_action"
        return action.http_status or 400, {
            "error": action.error,
            "code": code,
            "id": str(action.pk),
        }
    body = {
        "accepted": True,
        "id": str(action.pk),
        "version": action.version,
        "status": action.status,
    }
    if action.applied_version is not None:
        body["applied_version"] = action.applied_version
    return 202, body


def _stale(table: Table, state, version: int) -> str | None:
    """Why an action made against ``version`` is stale now, or None.

    While doubling is simultaneous, the only changes are the seats' picks and Ready, so an
    answer made since the doubling started still counts."""
    if version > table.version:
        return f"version {version} is newer than the table's version {table.version}"
    if version == table.version:
        return None
    if state is not None and state.phase == "double" and state.options.doubling == "simultaneous":
        moved = (
            TableEvent.objects.filter(table=table, version__gt=version)
            .exclude(type__in=("double_ready", "double_selected"))
            .exists()
        )
        if not moved:
            return None
    return (
        f"stale version: the action was made against version {version}, "
        f"the table is at version {table.version}; reload the state"
    )


def submit_action(user, table_id: int, action_id, version: int, action: dict) -> tuple[int, dict]:
    """Check a user's action now and hand it to a worker; return ``(http_status, body)``.

    ``action`` is the engine's JSON action without ``seat`` (the user's seat is filled in).
    A known ``action_id`` sent again with the same ``version`` and ``action`` answers its
    first result. Raises :class:`NotFound`, :class:`NotAllowed` (no seat here),
    :class:`BadRequest` (illegal now, match over), :class:`Conflict` (stale version; the id
    used by someone else, at another table, or for a different action or version: code
    ``duplicate_id``). Nothing is stored on an error."""
    existing = TableAction.objects.filter(pk=action_id).first()
    if existing is not None:
        return _duplicate(existing, user, table_id, version, action)
    try:
        table = Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(f"no table {table_id}") from None
    seat = _user_seat(table, user)
    if seat is None:
        raise NotAllowed("you have no seat at this table", "not_your_seat")
    check_in(user=user, table_id=table.pk)
    if action.get("type") not in ACTION_TYPES:
        raise BadRequest(f"action type must be one of {', '.join(ACTION_TYPES)}", "invalid")
    if table.status == TableStatus.OPEN:
        raise BadRequest("the match has not started yet", "not_started")
    if table.status != TableStatus.PLAYING:
        raise BadRequest("the match is over", "match_over")
    full = {**action, "seat": seat.seat}

    def trial_of(state):  # under the state store's lock: check reads the state, changes nothing
        try:
            check(state, full)
        except IllegalAction as exc:
            return copy.copy(state), str(exc)  # a shallow copy: _stale reads phase and options
        return copy.copy(state), None

    trial, illegal = state_store.read(table, trial_of)
    why = _stale(table, trial, version)
    if why:
        raise Conflict(why, "stale_version")
    if illegal is not None:
        raise BadRequest(illegal, "illegal_action")
    try:
        with transaction.atomic():
            row = TableAction.objects.create(
                id=action_id,
                table=table,
                seat=seat.seat,
                user=user,
                source="user",
                version=version,
                action=full,
                submitted_at=timezone.now(),
            )
            _send_action(row.pk)
    except IntegrityError:
        existing = TableAction.objects.get(pk=action_id)
        return _duplicate(existing, user, table_id, version, action)
    return action_result(row)


def _duplicate(
    existing: TableAction, user, table_id: int, version: int, action: dict
) -> tuple[int, dict]:
    """The first result of a retried action id, or :class:`Conflict` when the id was used for
    anything else (compared: user, table, version and the action without the seat the server
    filled in)."""
    if existing.table_id != table_id or existing.user_id != getattr(user, "pk", None):
        raise Conflict("this action id was already used for another action", "duplicate_id")
    stored = {k: v for k, v in existing.action.items() if k != "seat"}
    if existing.version != version or stored != action:
        raise Conflict(
            f"action id {existing.pk} was already used for a different action "
            f"({stored} at version {existing.version}); use a new id for a new action",
            "duplicate_id",
        )
    return action_result(existing)


def apply_action(action_id) -> None:
    """Worker: apply a submitted action once (a no-op if already applied or rejected).

    Stale (the table moved on) or illegal by now: the action is rejected with its reason
    and the table is unchanged."""
    try:
        table_id = TableAction.objects.values_list("table_id", flat=True).get(pk=action_id)
    except TableAction.DoesNotExist:
        return
    with transaction.atomic():
        table = _lock_table(table_id)
        act = TableAction.objects.select_for_update().get(pk=action_id)
        _apply_locked(table, act)


def _apply_locked(table: Table, act: TableAction) -> None:
    """Apply ``act`` (its row and the table's locked by the caller) if still pending: as
    :func:`apply_action` describes."""
    if act.status != ActionStatus.PENDING:
        return
    if table.status != TableStatus.PLAYING:
        _reject(act, 400, "the match is over")
        return
    state = state_store.for_write(table)
    since = state_store.mark(state)
    forfeit = act.action.get("type") == "forfeit"
    why = None if forfeit else _stale(table, state, act.version)
    if why:
        state_store.remember_on_commit(table, state)
        _reject(act, 409, why)
        return
    try:
        _, events = apply(state, act.action)
    except IllegalAction as exc:
        state_store.remember_on_commit(table, state)
        _reject(act, 400, str(exc))
        return
    _commit(table, None, state, since, events, [act])


def _reject(act: TableAction, status: int, message: str) -> None:
    act.status = ActionStatus.REJECTED
    act.http_status = status
    act.error = message
    act.applied_at = timezone.now()
    act.save(update_fields=["status", "http_status", "error", "applied_at"])


def _commit(
    table: Table,
    record: MatchRecord | None,
    state,
    since: tuple[int, int],
    events: list[dict],
    actions: list[TableAction],
) -> None:
    """Store the change: its events (with the match log's increment since ``since``, from
    :func:`games.state_store.mark`), the actions, the ended deals and a new checkpoint of
    the state when a deal or the match ended, and what happens next. ``record`` is read
    here if the change needs it and the caller has not."""
    now = timezone.now()
    _add_events(table, events, state_store.increment(state, since))
    ended = [e["deal"] for e in events if e["type"] == "deal_ended"]
    if state.phase == "over" and state.deal is not None and state.forfeit is not None:
        if state.deal_number > len(state.records):  # forfeited mid-deal: its seed is due too
            ended.append(state.deal_number)
    if ended or state.phase == "over":
        if record is None:
            record = MatchRecord.objects.get(table=table)
        for number in ended:
            _end_deal(table, record, state, number)
        record.state = state.to_json()
        record.state_version = table.version
        record.save(update_fields=["state", "state_version", "shuffle"])
    for act in actions:
        act.status = ActionStatus.APPLIED
        act.applied_version = table.version
        act.applied_at = now
    new = [act for act in actions if act._state.adding]
    if new:
        TableAction.objects.bulk_create(new)
    for act in actions:
        if act not in new:
            act.save(update_fields=["status", "applied_version", "applied_at"])
    _schedule(table, state, events)
    table.save(update_fields=_PLAY_FIELDS)
    state_store.remember_on_commit(table, state)


def _end_deal(table: Table, record: MatchRecord, state, number: int) -> None:
    record.shuffle = dealing.end_deal(record.shuffle, number)
    block = dealing.shuffle_block(record.shuffle, number)
    if number <= len(state.records):
        rec = dict(state.records[number - 1])
        rec["shuffle"] = block
        rec["match"] = table.pk
        rec["deal_number"] = number
        deal = Deal.objects.create(table=table, number=number, contract=rec["contract"], record=rec)
        deal_id = deal.pk
    else:
        deal_id = None
    _add_events(
        table,
        [
            {
                "type": "seed_revealed",
                "deal": number,
                "deal_id": deal_id,
                "server_seed": block["server_seed"],
            }
        ],
    )


def _timer(table: Table, phase: str) -> float | None:
    seconds = table.options.get(PHASE_TIMER.get(phase, ""), 0)
    if not seconds:
        return None
    return seconds * settings.TRIX_TIMER_SCALE


_PLAY_FIELDS = ["version", "status", "finished_at", "result", "deadline", "wake_at"]


def _schedule(table: Table, state, events: list[dict], *, send: bool = True) -> None:
    """Set the table's deadline, wake-up and status after a change; send the wake-up after
    the commit (``send=False``: the caller sends it, with :func:`_send_wake`)."""
    now = timezone.now()
    if state.phase == "over":
        table.status = TableStatus.FINISHED
        table.finished_at = now
        table.result = state.result
        table.deadline = None
        table.wake_at = None
        if policy(table.kind).pot_settled and "human" in table.seat_kinds:
            from games import tasks

            table_id = table.pk
            transaction.on_commit(lambda: tasks.settle.delay(table_id))
        _announce_end(table)
        return
    if state.phase == "deal":
        table.deadline = None
        pause = settings.TRIX_DEAL_PAUSE if state.deal_number else 0.0
        table.wake_at = now + timedelta(seconds=pause)
        if send:
            _send_wake(table)
        return
    to_act = state.to_act()
    humans = [s for s in to_act if table.seat_kinds[s] == "human"]
    bots = [s for s in to_act if table.seat_kinds[s] != "human"]
    keep = (
        state.phase == "double"
        and state.options.doubling == "simultaneous"
        and table.deadline is not None
        and not any(e["type"] == "doubling_started" for e in events)
    )
    if humans and not keep:
        timer = _timer(table, state.phase)
        table.deadline = now + timedelta(seconds=timer) if timer else None
        if state.options.auto_play_forced and state.phase == "play":
            if forced_action(state, humans[0]) is not None:
                forced = now + timedelta(seconds=settings.TRIX_FORCED_DELAY)
                table.deadline = min(table.deadline or forced, forced)
    elif not humans:
        table.deadline = None
    candidates = [table.deadline] if table.deadline else []
    if bots:
        candidates.append(now + timedelta(seconds=settings.TRIX_BOT_DELAY))
    table.wake_at = min(candidates) if candidates else None
    if send:
        _send_wake(table)


def wake(table_id: int, version: int) -> None:
    """Worker: the timer set for ``version`` fired. If the table is still at that version:
    deal the next deal, let one bot act, or time out the seats whose deadline passed.

    On PostgreSQL a bot's turn that ends no deal is written in one statement that applies it
    only if the table is still at ``version`` (:func:`_wake_in_one_write`); everything else
    (a deal, a timeout, which a pending action may beat) and a turn that lost that race takes
    the table's row lock first."""
    if table_writes.available() and _wake_in_one_write(table_id, version):
        return
    with transaction.atomic():
        try:
            table = _lock_table(table_id)
        except NotFound:
            return
        if table.version != version or table.status != TableStatus.PLAYING:
            return
        now = timezone.now()
        if table.wake_at is None:
            return
        if table.wake_at > now + timedelta(milliseconds=20):
            _send_wake(table)  # woken early (e.g. by the sweep): sleep again
            return
        if _deadline_passed(table, now):
            # A seat's action accepted before its deadline but not applied yet beats the
            # timeout (its own task will find it done). If it is refused, time out as usual.
            pending = (
                TableAction.objects.select_for_update()
                .filter(table=table, status=ActionStatus.PENDING, submitted_at__lte=table.deadline)
                .order_by("submitted_at")
                .first()
            )
            if pending is not None:
                before = table.version
                _apply_locked(table, pending)
                if table.version != before:
                    return
        state = state_store.for_write(table)
        since = state_store.mark(state)
        actions: list[TableAction] = []
        record = None
        if state.phase == "deal":
            record = MatchRecord.objects.get(table=table)
            hands = dealing.hands(record.shuffle, state.deal_number + 1)
            _, events = apply(state, {"type": "deal", "hands": hands})
        else:
            turn = _turn(table, state, now)
            if turn is None:
                state_store.remember_on_commit(table, state)
                _schedule(table, state, [])
                table.save(update_fields=_PLAY_FIELDS)
                return
            events, actions = turn
        _commit(table, record, state, since, events, actions)


def _turn(table: Table, state, now) -> tuple[list[dict], list[TableAction]] | None:
    """Apply to ``state`` what a wake-up of ``table`` (in a match, not waiting for a deal)
    does now: one bot's action, or the default actions of the seats whose deadline passed.
    Returns the events and the actions, or None if nothing is due (``state`` unchanged)."""
    kinds = table.seat_kinds
    to_act = state.to_act()
    bots = [s for s in to_act if kinds[s] != "human"]
    if bots:
        seat = bots[0]
        rng = random.Random(f"{table.bot_seed}:{table.version}:{seat}")
        action = make_bot(kinds[seat] or "rules").act(observe(state, seat), rng)
        _, events = apply(state, action)
        return events, [_own_action(table, seat, "bot", action, table.wake_at)]
    if _deadline_passed(table, now):
        events, actions = [], []
        for seat in to_act:
            action = default_action(state, seat)
            more = [{"type": "timeout", "seat": seat, "visible_to": "all"}]
            _, applied = apply(state, action)
            events += more + applied
            actions.append(_own_action(table, seat, "timeout", action, table.deadline))
        return events, actions
    return None


def _deadline_passed(table: Table, now) -> bool:
    """Whether the seats to act at ``table`` are out of time (within 20 ms of the deadline)."""
    return table.deadline is not None and table.deadline <= now + timedelta(milliseconds=20)


def _wake_in_one_write(table_id: int, version: int) -> bool:
    """The wake-up's common case in one write, outside a transaction (PostgreSQL): read the
    table without a lock, take its state, apply the turn, and store the events, the actions
    and the table's new version, deadline and wake-up with
    :func:`games.table_writes.write_if_current`, which writes only if the table is still at
    ``version``. Returns True when done (written, or nothing to do for this version); False
    when the locking path must run (a deal to deal or ending, the match ending, an early
    wake-up, a deadline passed, nothing due, or the race lost)."""
    table = table_writes.read_table(table_id)
    if table is None or table.version != version or table.status != TableStatus.PLAYING:
        return True  # as the locking path: a wake-up for an old version is a no-op
    now = timezone.now()
    if table.wake_at is None or table.wake_at > now + timedelta(milliseconds=20):
        return False
    if _deadline_passed(table, now):
        return False  # a timeout: a pending action may beat it, under the lock
    state = state_store.for_write(table)
    if state is None or state.phase in ("deal", "over"):
        state_store.put_back(table, state)
        return False
    since = state_store.mark(state)
    turn = _turn(table, state, now)
    if turn is None:
        state_store.put_back(table, state)
        return False
    events, actions = turn
    if state.phase in ("deal", "over") or any(e["type"] == "deal_ended" for e in events):
        return False  # the changed state is dropped; the locking path redoes the turn
    rows = _event_rows(table, events, state_store.increment(state, since))
    _schedule(table, state, events, send=False)
    written = table_writes.write_if_current(
        table_id, version, table.version, table.deadline, table.wake_at, rows, actions, now
    )
    if not written:
        return False
    state_store.put_back(table, state)
    _send_wake(table)
    return True


def _own_action(table: Table, seat: int, source: str, action: dict, due) -> TableAction:
    return TableAction(
        id=uuid.uuid4(),
        table=table,
        seat=seat,
        source=source,
        version=table.version,
        action=action,
        submitted_at=due or timezone.now(),
    )


def settle(table_id: int) -> None:
    """Worker: pay a finished paid table's pot by its result, exactly once."""
    with transaction.atomic():
        try:
            table = _lock_table(table_id)
        except NotFound:
            return
        if table.settled or table.status != TableStatus.FINISHED or table.stake <= 0:
            return
        seats = _seats(table)
        seat_users = {s.seat: s.user_id for s in seats if s.user_id and s.staked}
        if seat_users:
            stakes.settle(
                table.ref,
                seat_users,
                table.result,
                table.variant.endswith("_partner"),
                f"settle:{table.ref}",
            )
        table.settled = True
        _add_events(table, [{"type": "settled", "pot": sum(s.staked for s in seats)}])
        table.save(update_fields=["settled", "version"])


def sweep() -> dict[str, int]:
    """Beat: re-send lost wake-ups, pending actions and settlements. Returns counts."""
    from games import tasks

    now = timezone.now()
    # A wake-up overdue by less than TRIX_SWEEP_LATE is still queued, not lost: re-sending
    # it would only add no-op tasks to a busy queue.
    late = now - timedelta(seconds=settings.TRIX_SWEEP_LATE)
    woken = 0
    for table_id, version in Table.objects.filter(
        status=TableStatus.PLAYING, wake_at__lt=late
    ).values_list("pk", "version"):
        tasks.wake.delay(table_id, version)
        woken += 1
    pending = 0
    for action_id in TableAction.objects.filter(
        status=ActionStatus.PENDING, submitted_at__lt=now - timedelta(seconds=2)
    ).values_list("pk", flat=True):
        tasks.apply_action.delay(str(action_id))
        pending += 1
    settling = 0
    for table_id in Table.objects.filter(
        status=TableStatus.FINISHED, stake__gt=0, settled=False, finished_at__lt=late
    ).values_list("pk", flat=True):
        tasks.settle.delay(table_id)
        settling += 1
    return {"woken": woken, "pending": pending, "settling": settling}


__all__ = [
    "TableError",
    "action_result",
    "apply_action",
    "cancel_table",
    "check_in",
    "create_seated_table",
    "create_table",
    "leave",
    "replace_with_bot",
    "seat_bot",
    "settle",
    "submit_action",
    "sweep",
    "take_seat",
    "wake",
]
