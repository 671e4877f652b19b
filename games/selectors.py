"""Reads of tables: lists, one table as the API shows it, a seat's state and events.

No function here writes. Views call these; workers never do.
"""

from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import account_closed, display_name, person
from games import sql, state_store
from games.cancel_reasons import reason_text
from games.engine import Options, spectator_view, view
from games.errors import NotFound
from games.live import long_poll
from games.models import DoublingPick, Heartbeat, Seat, Table, TableEvent, TableStatus
from games.policy import policy
from games.services.presence import EVENT_TYPES as PRESENCE_EVENTS
from games.services.presence import SEAT_BACK, away_seats
from games.services.rematch import open_until as rematch_open_until


def last_sweep():
    """When the beat's sweep last completed on a worker (an aware datetime), or None if it
    never has (:func:`games.services.wakes.sweep`)."""
    return Heartbeat.objects.filter(name=Heartbeat.SWEEP).values_list("at", flat=True).first()


def tables(status: str | None = None) -> QuerySet[Table]:
    """Tables, newest first, optionally of one status, with seats, their users and the creator
    loaded (with the profiles their display names come from)."""
    seats = Seat.objects.select_related("user__profile", "held_for__profile")
    qs = Table.objects.select_related("created_by__profile").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    if status:
        qs = qs.filter(status=status)
    return qs


def listed_tables(user, status: str | None = None) -> QuerySet[Table]:
    """:func:`tables` as the lobby lists them to ``user``: private tables only to their
    creator, their seated players and those a rematch's seat is held for
    (:mod:`games.services.lobby`, :mod:`games.services.rematch`)."""
    qs = tables(status)
    if user is None or not user.is_authenticated:
        return qs.filter(private=False)
    return qs.filter(
        Q(private=False) | Q(created_by=user) | Q(seats__user=user) | Q(seats__held_for=user)
    ).distinct()


def get_table(table_id: int) -> Table:
    """One table with its seats. Raises :class:`NotFound`."""
    try:
        return tables().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(_("There is no table %(id)s.") % {"id": table_id}) from None


def cancel_reason(table: Table) -> str | None:
    """Why ``table`` was cancelled, in the active language (``games.cancel_reasons``); None
    for a table that was not."""
    if table.status != TableStatus.CANCELLED:
        return None
    event = TableEvent.objects.filter(table=table, type="table_cancelled").order_by("-id").first()
    return reason_text(event.payload.get("reason", "")).rstrip(". ") if event else None


def seat_of(table: Table, user) -> int | None:
    """The seat ``user`` holds at ``table`` (seats belong to users, not connections)."""
    if user is None or not user.is_authenticated:
        return None
    for seat in table.seats.all():
        if seat.user_id == user.pk:
            return seat.seat
    return None


# -- seat ratings: each seat's displayed rating, given by the ratings app (games never
# imports it: ``ratings.apps`` installs its selector at start-up) -------------------------

SeatRatings = Callable[[list[Table]], dict[int, dict[int, int | None]]]
_seat_ratings: SeatRatings | None = None


def set_seat_ratings(source: SeatRatings | None) -> None:
    """Install ``source(tables) -> {table id: {seat: displayed rating or None}}``, the seats'
    ratings in each table's variant family (``ratings.selectors.seat_ratings``). Without
    one every seat's ``rating`` is null."""
    global _seat_ratings
    _seat_ratings = source


def with_seat_ratings(tables: list[Table]) -> list[Table]:
    """Read the seats' ratings of ``tables`` in one go (a page of the lobby) and keep them
    on each table for :func:`table_data`; returns ``tables``."""
    found = _seat_ratings(tables) if _seat_ratings is not None and tables else {}
    for table in tables:
        table._seat_ratings = found.get(table.pk, {})
    return tables


def table_data(table: Table, user) -> dict[str, Any]:
    """The table as the API shows it (shape: ``games.api.answers.TableSerializer``); each
    seat's ``rating`` as :func:`with_seat_ratings` read it (read here if it did not)."""
    me = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
    seats: list[Seat] = sorted(table.seats.all(), key=lambda s: s.seat)
    away = away_seats(table)
    if "_seat_ratings" not in table.__dict__:
        with_seat_ratings([table])
    ratings = table._seat_ratings
    now = timezone.now()
    return {
        "id": table.pk,
        "variant": table.variant,
        "partnership": Options(variant=table.variant).partnership,
        "options": table.options,
        "kind": table.kind,
        "origin": table.origin,
        "stake": table.stake,
        "status": table.status,
        "created_by": person(table.created_by),
        "created_at": table.created_at.isoformat(),
        "version": table.version,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": display_name(s.user) if s.user_id else (s.bot or None),
                "user_id": s.user_id,
                "account_closed": bool(s.user_id) and account_closed(s.user),
                "bot": s.bot or None,
                "staked": s.staked,
                "is_me": me is not None and s.user_id == me,
                "away": s.seat in away,
                "rating": ratings.get(s.seat),
                "held_for": person(s.held_for) if s.held(table, now) else None,
            }
            for s in seats
        ],
        "commitment": table.commitment,
        "receipt": table.receipt,
        "receipt_signature": table.receipt_signature or None,
        "result": table.result,
        "private": table.private,
        "rematch_of": table.rematch_of_id,
        "holds_until": table.holds_until.isoformat() if table.holds_until else None,
    }


# -- state polls -----------------------------------------------------------------------------
#
# A poll reads the table's changing fields (games.sql.LIVE_FIELDS) in one small query. The rest
# of what it shows (options, creator, seats and their names: _static) is kept per process,
# re-read when a seat changed (a _SEAT_EVENTS event) or after _STATIC_TTL seconds (names and the
# seats' ratings may change: a renamed player shows within that time); re-reading it on every
# answer would cost a web process much of its CPU with every table watched. The events after the
# oldest version the caller or a cache needs are read once: the caller gets those after
# ``since``; their log increments advance the cached match state (state_store); the seat events
# among them tell whether the seats are still current. The view of a version is computed once
# per seat (None: spectators) and reused (_views).

_SEAT_EVENTS = frozenset(
    {"seat_taken", "bot_seated", "seat_left", "rematch_declined", *PRESENCE_EVENTS}
)
_STATIC_TTL = 10.0
_BEHIND = 64  # a cache further behind than this many versions is not brought up to date
_static: dict[int, tuple[int, float, Table]] = {}  # id -> (version, monotonic read, table)
_views: OrderedDict[tuple, dict | None] = OrderedDict()
_lock = threading.Lock()


def _wait_for_version(table_id: int, since: int, wait: float) -> tuple | None:
    """The table's ``games.sql.LIVE_FIELDS`` once its version is no longer ``since`` or
    ``wait`` seconds (capped by ``TRIX_STATE_WAIT_MAX``) passed (None: no such table); a
    ``since`` beyond the version is answered at once. On PostgreSQL it waits for the table's
    notification (:mod:`games.live.long_poll`), else it polls."""
    end = time.monotonic() + min(max(wait, 0.0), settings.TRIX_STATE_WAIT_MAX)
    with long_poll.watch(table_id) as watch:
        fields = sql.live_fields(table_id)
        while (
            fields is not None and fields[0] == since and watch.wait(since, end - time.monotonic())
        ):
            fields = sql.live_fields(table_id)
    return fields


def _static_table(table_id: int, version: int, after: int, rows: list[tuple]) -> Table | None:
    """The cached table with its seats if it is still current at ``version``, judged by the
    events ``rows`` (those after ``after``), and then noted as current at ``version``; else
    None."""
    with _lock:
        hit = _static.get(table_id)
        if hit is None or time.monotonic() - hit[1] >= _STATIC_TTL:
            return None
        if not after <= hit[0] <= version:  # not covered by the rows, or newer
            return None
        if any(r[0] > hit[0] and r[1] in _SEAT_EVENTS for r in rows):
            return None
        if hit[0] < version:
            _static[table_id] = (version, hit[1], hit[2])
        return hit[2]


def _remember_static(table: Table) -> None:
    with _lock:
        if len(_static) > 2048:
            _static.clear()
        _static[table.pk] = (table.version, time.monotonic(), table)


def _view(table: Table, seat: int | None, logs: tuple[int, list] | None):
    """The view of the table's match at its version for ``seat`` (None: a spectator), computed
    once per process (do not change it); None before the match starts. ``logs``: the log
    increments after a version, for :func:`games.state_store.read`."""
    key = (table.pk, table.commitment, table.version, seat)
    with _lock:
        if key in _views:
            return _views[key]

    def see(state):
        if state is None:
            return None
        return spectator_view(state) if seat is None else view(state, seat)

    seen = state_store.read(table, see, logs)
    with _lock:
        _views[key] = seen
        while len(_views) > 1024:
            _views.popitem(last=False)
    return seen


def _with_pick(table_id: int, seat: int, seen: dict[str, Any]) -> dict[str, Any]:
    """``seat``'s view with its private doubling pick (``doubling.selected``) while it is
    still to answer a simultaneous doubling: the pick is kept apart from the match
    (:mod:`games.services.picks`), so the view of a version does not hold it. A new dict
    when changed (the cached view is shared)."""
    doubling = seen.get("doubling")
    if not doubling or "selected" not in doubling:
        return seen
    mine = DoublingPick.objects.filter(table_id=table_id, seat=seat, deal=seen["deal_number"])
    cards = mine.values_list("cards", flat=True).first()
    if cards is None:
        return seen
    return {**seen, "doubling": {**doubling, "selected": cards}}


def table_state(
    table_id: int,
    user,
    since: int | None,
    wait: float = 0.0,
    *,
    fields: tuple | None = None,
    read: tuple[int, list[tuple]] | None = None,
) -> dict[str, Any]:
    """The caller's view of a table: ``version``, ``table``, ``view`` (their seat's view or
    the spectator view; None before the match starts), ``events`` after ``since`` that the
    caller may see, ``my_seat``, ``deadline``, ``server_time`` (ISO 8601 UTC) and
    ``returned_from_away``: True in the answer whose events (with a ``since``) hold the
    caller's seat's ``seat_back`` (their away mark cleared: :mod:`games.services.presence`).
    A seat's view carries its private doubling pick, which changes no version (so a seat's
    answer at one version may show a newer pick than an earlier answer at it).

    With ``since`` equal to the current version, waits up to ``wait`` seconds (capped by
    ``TRIX_STATE_WAIT_MAX``) for a newer one. ``fields``: the table's ``games.sql.LIVE_FIELDS``
    as the caller just read them (a live stream's feed), instead of reading them here;
    ``read``: with them, ``(after, rows)``, the events after version ``after`` that
    ``games.sql.live_reading`` read in the same statement (used when they cover the events
    this answer needs, else those are read here). Raises :class:`NotFound`."""
    if fields is None and since is not None and wait > 0:
        fields = _wait_for_version(table_id, since, wait)
    elif fields is None:
        fields = sql.live_fields(table_id)
    if fields is None:
        raise NotFound(_("There is no table %(id)s.") % {"id": table_id})
    version = fields[0]
    after, with_log = _events_needed(table_id, version, since)
    if read is not None and read[0] <= after:
        rows = [r for r in read[1] if r[0] > after]  # (each with its log)
    else:
        rows = sql.events(table_id, after, version, with_log)
    static = _static_table(table_id, version, after, rows)
    if static is None:
        static = get_table(table_id)  # read after ``fields``: at ``version`` or newer
        with_seat_ratings([static])  # kept with the cached table (copies carry them)
        _remember_static(static)
        if static.version > version:  # changed meanwhile: answer at the newer version
            rows += sql.events(table_id, version, static.version, False)
            fields = tuple(getattr(static, f) for f in sql.LIVE_FIELDS)
            version = static.version
            with_log = False
    table = copy.copy(static)
    for name, value in zip(sql.LIVE_FIELDS, fields, strict=True):
        setattr(table, name, value)
    logs = (after, [(r[0], r[4]) for r in rows if r[4] is not None]) if with_log else None
    my_seat = seat_of(table, user)
    seen = None if table.status == TableStatus.OPEN else _view(table, my_seat, logs)
    if seen is not None and my_seat is not None:
        seen = _with_pick(table.pk, my_seat, seen)
    events = _visible_events(rows, since, version, my_seat)
    return {
        "version": version,
        "table": table_data(table, user),
        "view": seen,
        "events": events,
        "my_seat": my_seat,
        "deadline": table.deadline.isoformat() if table.deadline else None,
        "server_time": timezone.now().isoformat(),
        "returned_from_away": since is not None
        and my_seat is not None
        and any(e["type"] == SEAT_BACK and e.get("seat") == my_seat for e in events),
    }


def _events_needed(table_id: int, version: int, since: int | None) -> tuple[int, bool]:
    """``(after, with_log)``: the events after the oldest version the answer at ``version``
    or a cache needs (the cached table's, the cached match state's), and whether their logs
    are needed to bring the cached match state up to ``version``."""
    after = 0 if since is None else min(since, version)
    with _lock:
        hit = _static.get(table_id)
    static_at = hit[0] if hit is not None and 0 <= version - hit[0] <= _BEHIND else None
    state_at = None
    if static_at is not None:
        state_at = state_store.cached_version(hit[2])
        if state_at is not None and not 0 <= version - state_at <= _BEHIND:
            state_at = None
    after = min(v for v in (after, static_at, state_at) if v is not None)
    return after, state_at is not None and state_at < version


def _visible_events(
    rows: list[tuple], since: int | None, version: int, my_seat: int | None
) -> list[dict[str, Any]]:
    """The events of ``rows`` after ``since`` that ``my_seat`` (None: a watcher) may see."""
    events = []
    if since is None or since < version:
        for ev_version, ev_type, payload, visible_to, *_rest in rows:
            if ev_version <= (since or 0):
                continue
            if visible_to is None or (my_seat is not None and my_seat in visible_to):
                events.append({"version": ev_version, "type": ev_type, **payload})
    return events


def table_over(table_id: int) -> int | None:
    """The table's last version once nothing more will change at it (no new version): it was
    cancelled, or it finished and has no pot left to pay (paid already, free, or of a kind
    whose pot no worker settles: :func:`games.services.deadlines.schedule`); else None (an
    unknown table too). A live stream ends there (:mod:`games.live.streams`)."""
    row = (
        Table.objects.filter(pk=table_id)
        .values("version", "status", "settled", "stake", "kind", "seat_kinds")
        .first()
    )
    if row is None or row["status"] not in (TableStatus.FINISHED, TableStatus.CANCELLED):
        return None
    if row["status"] == TableStatus.FINISHED:
        pays = policy(row["kind"]).pot_settled and "human" in (row["seat_kinds"] or [])
        if pays and row["stake"] > 0 and not row["settled"]:
            return None
    return row["version"]


def rebuild_from_events(table_id: int):
    """Rebuild a table's match state from its event log alone (hands from the ``hand``
    events, seat actions from the public events), as an audit of the stored state.

    Returns a :class:`games.engine.MatchState` (None before the match started)."""
    from games.engine import new_match
    from games.engine.match import rebuild
    from games.engine.options import Options

    table = get_table(table_id)
    if table.status == TableStatus.OPEN:
        return None
    rows = list(TableEvent.objects.filter(table_id=table_id).order_by("version"))
    deals: list[dict[str, list[str]]] = []
    actions: list[dict[str, Any]] = []
    for i, ev in enumerate(rows):
        p = ev.payload
        if ev.type == "deal_started":
            deals.append({})
        elif ev.type == "hand":
            deals[-1][str(p["seat"])] = p["cards"]
        elif ev.type == "contract_chosen" and not p["auto"]:
            actions.append({"type": "contract", "seat": p["seat"], "contract": p["contract"]})
        elif ev.type == "double_selected":
            actions.append({"type": "select", "seat": p["seat"], "cards": p["cards"]})
        elif ev.type == "double":
            actions.append({"type": "double", "seat": p["seat"], "cards": p["cards"]})
        elif ev.type == "double_ready":
            revealed = next((r for r in rows[i:] if r.type == "doubles_revealed"), None)
            cards = revealed.payload["doubles"].get(str(p["seat"]), []) if revealed else []
            actions.append({"type": "double", "seat": p["seat"], "cards": cards})
        elif ev.type == "card_played":
            actions.append({"type": "play", "seat": p["seat"], "card": p["card"]})
        elif ev.type in ("pass", "forfeit"):
            actions.append({"type": ev.type, "seat": p["seat"]})
    options = Options.from_dict(table.options)
    if not deals:
        return new_match(options)
    return rebuild(options, deals, actions)


def table_for_invite(token: str, user=None) -> tuple[Table, int | None]:
    """The table an invite token opens and the seat to offer ``user``: at a rematch the one
    held for them, else the first free seat not held for another (None: no such seat any
    more). Raises :class:`NotFound` for an unknown token."""
    if not token:
        raise NotFound(_("no such invitation"))
    table = Table.objects.filter(invite_token=token).first()
    if table is None:
        raise NotFound(_("no such invitation"))
    if table.status != TableStatus.OPEN:
        return table, None
    now = timezone.now()
    me = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
    free = [s for s in Seat.objects.filter(table=table).order_by("seat") if s.kind is None]
    held = [s for s in free if s.held(table, now)]
    mine = [s.seat for s in held if me is not None and s.held_for_id == me]
    if mine:
        return table, mine[0]
    open_seats = [s.seat for s in free if s not in held]
    return table, open_seats[0] if open_seats else None


def rematch_data(table_id: int, user) -> dict[str, Any]:
    """The rematch of table ``table_id`` as ``user`` sees it (shape:
    ``games.api.answers.RematchSerializer``): whether they may propose it now
    (``can_propose``: a person of its seats, the match finished within
    ``TRIX_REMATCH_WINDOW``, none made yet), until when (``open_until``), and the rematch
    (None before one is made): its table, its invite link (to the match's players only),
    who proposed it, until when its seats are held and each seat's answer: ``bot``,
    ``accepted`` (sits), ``waiting`` (held), ``declined`` or ``lapsed`` (the hold ran out).
    Raises :class:`NotFound`."""
    source = get_table(table_id)
    me = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
    player = me is not None and any(s.user_id == me for s in source.seats.all())
    until = rematch_open_until(source)
    now = timezone.now()
    rematch = tables().filter(rematch_of=source).first()
    can = (
        player
        and rematch is None
        and until is not None
        and now < until
        and not policy(source.kind).seats_assigned
    )
    answer: dict[str, Any] = {
        "table_id": source.pk,
        "can_propose": bool(can),
        "open_until": until.isoformat() if until and can else None,
        "rematch": None,
    }
    if rematch is None:
        return answer

    def seat_answer(s: Seat) -> str:
        if s.held_for_id is None:
            return "bot" if s.bot else "open"
        if s.user_id == s.held_for_id:
            return "accepted"
        if s.hold_declined:
            return "declined"
        return "waiting" if rematch.holds_until and now < rematch.holds_until else "lapsed"

    answer["rematch"] = {
        "table_id": rematch.pk,
        "url": f"/tables/{rematch.pk}/",
        "invite_url": f"/invite/{rematch.invite_token}/" if player else None,
        "status": rematch.status,
        "proposed_by": person(rematch.created_by),
        "holds_until": rematch.holds_until.isoformat() if rematch.holds_until else None,
        "seats": [
            {
                "seat": s.seat,
                "player": person(s.held_for) if s.held_for_id else None,
                "bot": s.bot or None,
                "answer": seat_answer(s),
                "is_me": me is not None and s.held_for_id == me,
            }
            for s in sorted(rematch.seats.all(), key=lambda s: s.seat)
        ],
    }
    return answer


def tables_in_play(user) -> list[int]:
    """The ids of the tables not over where ``user`` holds a seat, ascending: open, playing,
    or finished with the pot not yet paid (account closure waits for none)."""
    return list(
        Seat.objects.filter(user=user)
        .filter(
            Q(table__status__in=(TableStatus.OPEN, TableStatus.PLAYING))
            | Q(table__status=TableStatus.FINISHED, table__settled=False, table__stake__gt=0)
        )
        .order_by("table_id")
        .values_list("table_id", flat=True)
        .distinct()
    )
