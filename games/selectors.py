"""Reads of tables: lists, one table as the API shows it, a seat's state and events.

No function here writes. Views call these; workers never do.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from accounts.selectors import display_name
from games import state_store
from games.engine import spectator_view, view
from games.errors import NotFound
from games.models import Deal, Seat, Table, TableEvent, TableStatus


def tables(status: str | None = None) -> QuerySet[Table]:
    """Tables, newest first, optionally of one status, with seats, their users and the creator
    loaded (with the profiles their display names come from)."""
    seats = Seat.objects.select_related("user__profile")
    qs = Table.objects.select_related("created_by__profile").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    if status:
        qs = qs.filter(status=status)
    return qs


def get_table(table_id: int) -> Table:
    """One table with its seats. Raises :class:`NotFound`."""
    try:
        return tables().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(f"no table {table_id}") from None


def seat_of(table: Table, user) -> int | None:
    """The seat ``user`` holds at ``table`` (seats belong to users, not connections)."""
    if user is None or not user.is_authenticated:
        return None
    for seat in table.seats.all():
        if seat.user_id == user.pk:
            return seat.seat
    return None


def table_data(table: Table, user) -> dict[str, Any]:
    """The table as the API shows it (see ``docs`` / the API contract)."""
    me = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
    seats: list[Seat] = sorted(table.seats.all(), key=lambda s: s.seat)
    return {
        "id": table.pk,
        "variant": table.variant,
        "options": table.options,
        "stake": table.stake,
        "status": table.status,
        "created_by": {"id": table.created_by_id, "name": display_name(table.created_by)},
        "created_at": table.created_at.isoformat(),
        "version": table.version,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": display_name(s.user) if s.user_id else (s.bot or None),
                "user_id": s.user_id,
                "bot": s.bot or None,
                "staked": s.staked,
                "is_me": me is not None and s.user_id == me,
            }
            for s in seats
        ],
        "commitment": table.commitment,
        "result": table.result,
    }


def _wait_for_version(table_id: int, since: int, wait: float) -> None:
    end = time.monotonic() + min(max(wait, 0.0), settings.TRIX_STATE_WAIT_MAX)
    while time.monotonic() < end:
        version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
        if version is None or version > since:
            return
        time.sleep(0.05)


# State polls: per process, the last table (with seats) read for each table id, reused while
# its version and deadline are unchanged, for up to a second (names may change meanwhile).
_POLLED_TTL = 1.0
_polled: dict[int, tuple[tuple, float, Table]] = {}
_polled_lock = threading.Lock()


def _polled_table(table_id: int) -> Table:
    """The table with its seats, as :func:`get_table`, for state polls: one small query (the
    table's version and deadline) while this process read the same table at the same version
    less than ``_POLLED_TTL`` seconds ago. Raises :class:`NotFound`. Do not change it."""
    key = Table.objects.filter(pk=table_id).values_list("version", "deadline").first()
    if key is None:
        raise NotFound(f"no table {table_id}")
    now = time.monotonic()
    with _polled_lock:
        hit = _polled.get(table_id)
    if hit is not None and hit[0] == key and now - hit[1] < _POLLED_TTL:
        return hit[2]
    table = get_table(table_id)
    with _polled_lock:
        if len(_polled) > 2048:
            _polled.clear()
        _polled[table_id] = ((table.version, table.deadline), now, table)
    return table


def table_state(table_id: int, user, since: int | None, wait: float = 0.0) -> dict[str, Any]:
    """The caller's view of a table: ``version``, ``table``, ``view`` (their seat's view or
    the spectator view; None before the match starts), ``events`` after ``since`` that the
    caller may see, ``my_seat``, ``deadline`` and ``server_time`` (ISO 8601 UTC).

    With ``since`` equal to the current version, waits up to ``wait`` seconds (capped by
    ``TRIX_STATE_WAIT_MAX``) for a newer one. Raises :class:`NotFound`."""
    if since is not None and wait > 0:
        _wait_for_version(table_id, since, wait)
    table = _polled_table(table_id)
    my_seat = seat_of(table, user)
    seen = None
    if table.status != TableStatus.OPEN:

        def see(state):
            if state is None:
                return None
            return spectator_view(state) if my_seat is None else view(state, my_seat)

        seen = state_store.read(table, see)
    events = []
    rows = TableEvent.objects.filter(
        table=table, version__gt=since or 0, version__lte=table.version
    )
    if since is not None and since >= table.version:
        rows = TableEvent.objects.none()  # nothing new: no query
    for ev in rows.order_by("version"):
        if ev.visible_to is None or (my_seat is not None and my_seat in ev.visible_to):
            events.append({"version": ev.version, "type": ev.type, **ev.payload})
    return {
        "version": table.version,
        "table": table_data(table, user),
        "view": seen,
        "events": events,
        "my_seat": my_seat,
        "deadline": table.deadline.isoformat() if table.deadline else None,
        "server_time": timezone.now().isoformat(),
    }


def deal(deal_id: int) -> Deal:
    """A finished deal (its record is public: its seed is revealed). Raises NotFound."""
    try:
        return Deal.objects.select_related("table").get(pk=deal_id)
    except Deal.DoesNotExist:
        raise NotFound(f"no finished deal {deal_id}") from None


def deals_of(table_id: int) -> list[Deal]:
    """The finished deals of a table, in order. Raises NotFound for an unknown table."""
    if not Table.objects.filter(pk=table_id).exists():
        raise NotFound(f"no table {table_id}")
    return list(Deal.objects.filter(table_id=table_id).order_by("number"))


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


def deal_verification(deal_id: int) -> dict[str, Any]:
    """The public check of one finished deal (``games.fairness.deal_verification``) with its
    table and deal ids. Raises :class:`NotFound`."""
    from games import dealing

    row = deal(deal_id)
    payload = dealing.deal_verification(row.record)
    payload.update({"deal_id": row.pk, "table_id": row.table_id, "number": row.number})
    return payload


def match_verification(table_id: int) -> dict[str, Any]:
    """The public check of a table's match so far: the commitment, the client seeds, the
    seeds revealed so far and every finished deal's check. Raises :class:`NotFound`."""
    from games import dealing
    from games.models import MatchRecord

    rows = deals_of(table_id)
    private = MatchRecord.objects.values_list("shuffle", flat=True).get(table_id=table_id)
    payload = dealing.match_verification([d.record for d in rows], dealing.public(private))
    for item, row in zip(payload["deals"], rows, strict=True):
        item["deal_id"] = row.pk
    payload["table_id"] = table_id
    return payload
