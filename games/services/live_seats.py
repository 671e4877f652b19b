"""One person, one live seat: the rule every way of sitting asks (a seat taken at a table,
quick play, creating a table, a tournament's table).

A *live seat* is a person's seat at a table whose match has not ended: a table waiting for
its four seats (``open``: the person has committed to play there, and the match starts the
moment the last seat fills) or being played (``playing``), of any kind (casual, staked,
tournament). A finished or cancelled table ties nobody. A person holds at most
``TRIX_MAX_LIVE_SEATS`` live seats (1: a four-seat game where one absent player spoils the
match for three; 0 lifts the limit).

The check is race-free: :func:`lock_person` locks the person's user row
(``SELECT ... FOR UPDATE``) inside the caller's transaction before the live seats are
counted, and every writer of a person's seat takes that lock first, before any table's
row, so two sits at once are made one after the other and the second sees the first's seat.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import ngettext

from games.errors import Conflict
from games.models import Seat, TableStatus

#: The statuses of a table whose seats are live (its match has not ended).
LIVE_STATUSES = (TableStatus.OPEN, TableStatus.PLAYING)


def lock_person(user_ids) -> None:
    """Lock the user rows of ``user_ids`` (one id or an iterable of ids) until the
    transaction ends, in id order (two lockers of the same people never wait on each other
    in a circle). Call it inside ``transaction.atomic()``, before locking any table."""
    ids = sorted({user_ids} if isinstance(user_ids, int) else set(user_ids))
    if ids:
        list(
            get_user_model()
            .objects.select_for_update()
            .filter(pk__in=ids)
            .order_by("pk")
            .values_list("pk", flat=True)
        )


def live_seats(user_id: int) -> QuerySet[Seat]:
    """The live seats of the person ``user_id``, oldest table first."""
    return Seat.objects.filter(user_id=user_id, table__status__in=LIVE_STATUSES).order_by(
        "table_id"
    )


def check_free(*, user, exclude_table_id: int | None = None) -> None:
    """Lock ``user``'s row (:func:`lock_person`) and refuse a new seat when they already hold
    ``TRIX_MAX_LIVE_SEATS`` live seats (not counting ``exclude_table_id``'s, the table being
    sat at). Raises :class:`~games.errors.Conflict` ``live_seat`` naming the tables; writes
    nothing."""
    lock_person(user.pk)
    cap = settings.TRIX_MAX_LIVE_SEATS
    if cap <= 0:
        return
    held = live_seats(user.pk)
    if exclude_table_id is not None:
        held = held.exclude(table_id=exclude_table_id)
    tables = list(held.values_list("table_id", flat=True)[:cap])
    if len(tables) < cap:
        return
    raise Conflict(
        ngettext(
            "You already have a seat at table %(tables)s, and its match has not ended: a "
            "player holds one seat at a time. Finish that match or leave that table first.",
            "You already have seats at tables %(tables)s, and their matches have not ended: "
            "a player holds at most %(cap)d seats at a time. Finish a match or leave a table "
            "first.",
            cap,
        )
        % {"tables": ", ".join(str(t) for t in tables), "cap": cap},
        "live_seat",
    )
