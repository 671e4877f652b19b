"""Editing a tournament after its creation: the changes that touch no registered entrant's
money or seat, each recorded with who, when, why, and the value before and after
(:class:`~tournaments.models.TournamentEdit`). Rules: ``docs/tournaments.md`` ("Editing an
event").

What may change, and when:

- ``name``, ``description``: at any time (text only).
- ``registration_opens_at``: before the start, while the moment has not come (or in a draft).
- ``registration_closes_at``: while registration is not closed, and the moment has not come
  (or in a draft).
- ``starts_at``: before the start.
- ``prize_bps`` (the prize table): before the first registration (no entry, withdrawn ones
  included: whoever registered saw the table they paid for).
- ``capacity``: up while registration is not closed; down as well before the first
  registration. Never below the minimum to start nor below the places the prize table pays.

Everything else (format, variant, options, fees, the minimum, the refund rule, the review
window) is fixed at creation: it touches the entrants' money or seats. A refused edit raises
a :class:`~tournaments.errors.TournamentError` and changes nothing, the other fields given with
it included. The tournament row is locked for the check and the write, as by every service
(``tournaments.services``), so a registration cannot slip between them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.errors import BadRequest, Conflict
from tournaments.models import Entry, Status, Tournament, TournamentEdit
from tournaments.services.common import STARTED, _lock, _named, _reason, _require_staff, _save

#: The fields an edit may change, in the order they are checked and recorded.
EDITABLE = (
    "name",
    "description",
    "registration_opens_at",
    "registration_closes_at",
    "starts_at",
    "prize_bps",
    "capacity",
)
TIMES = ("registration_opens_at", "registration_closes_at", "starts_at")
#: The longest description (characters).
DESCRIPTION_MAX = 2000
#: Statuses before registration closes.
BEFORE_CLOSE = (Status.DRAFT, Status.REGISTRATION)


def field_label(field: str) -> str:
    """An editable field's name in the active language (for messages and the pages)."""
    return {
        "name": pgettext("tournament field", "name"),
        "description": pgettext("tournament field", "description"),
        "registration_opens_at": pgettext("tournament field", "registration opens"),
        "registration_closes_at": pgettext("tournament field", "registration closes"),
        "starts_at": pgettext("tournament field", "start"),
        "prize_bps": pgettext("tournament field", "prize table"),
        "capacity": pgettext("tournament field", "capacity"),
    }.get(field, field)


def check_description(description: Any) -> str:
    """A description: text of at most :data:`DESCRIPTION_MAX` characters (trimmed; empty
    allowed). Raises :class:`BadRequest`."""
    if not isinstance(description, str) or len(description.strip()) > DESCRIPTION_MAX:
        raise BadRequest(
            _("description must be text of at most %(count)s characters")
            % {"count": DESCRIPTION_MAX}
        )
    return description.strip()


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        raise BadRequest(_("name must be 1 to 100 characters"))
    return name.strip()


def _check_time(t: Tournament, field: str, value: Any, now: datetime) -> datetime:
    label = field_label(field)
    if not isinstance(value, datetime) or timezone.is_naive(value):
        raise BadRequest(
            _("%(field)s must be a date and time with its time zone") % {"field": label}
        )
    if t.status in STARTED or t.status == Status.CANCELLED:
        raise Conflict(
            _("%(field)s can change only before the start (%(name)s is %(status)s)")
            % {"field": label, **_named(t)},
            "wrong_status",
        )
    if field != "starts_at":
        if t.status not in BEFORE_CLOSE:
            raise Conflict(
                _(
                    "%(field)s can change only while registration is not closed (%(name)s is "
                    "%(status)s)"
                )  # fmt: skip
                % {"field": label, **_named(t)},
                "wrong_status",
            )
        current = getattr(t, field)
        if t.status != Status.DRAFT and current <= now:
            raise Conflict(
                _("%(field)s has passed (%(when)s UTC): it can no longer change")
                % {"field": label, "when": f"{current:%Y-%m-%d %H:%M}"},
                "wrong_status",
            )
    if field != "registration_opens_at" and value <= now:
        raise BadRequest(_("%(field)s must be in the future") % {"field": label})
    from tournaments.services.parameters import check_not_too_far

    check_not_too_far(value, label)
    return value


def _registered_ever(t: Tournament) -> bool:
    """Whether anyone ever registered (withdrawn and refunded entries count)."""
    return Entry.objects.filter(tournament=t).exists()


def _check_prizes(t: Tournament, prize_bps: Any) -> list[int]:
    if t.status not in BEFORE_CLOSE or _registered_ever(t):
        raise Conflict(
            _("the prize table can change only before the first registration"), "registered"
        )
    from tournaments.services.parameters import check_prize_table

    check_prize_table(prize_bps)
    return list(prize_bps)


def _check_capacity(t: Tournament, capacity: Any) -> int:
    label = field_label("capacity")
    if isinstance(capacity, bool) or not isinstance(capacity, int):
        raise BadRequest(_("%(field)s must be a whole number") % {"field": label})
    if t.status not in BEFORE_CLOSE:
        raise Conflict(
            _(
                "%(field)s can change only while registration is not closed (%(name)s is "
                "%(status)s)"
            )  # fmt: skip
            % {"field": label, **_named(t)},
            "wrong_status",
        )
    if capacity < t.capacity and _registered_ever(t):
        raise Conflict(
            _(
                "capacity can only grow once anyone registered (it is %(capacity)s): a lower "
                "one could leave a registered entrant without a seat"
            )
            % {"capacity": t.capacity},
            "registered",
        )
    most = settings.TRIX_TOURNAMENT_MAX_ENTRANTS
    if capacity > most:
        raise BadRequest(_("%(field)s must be at most %(most)s") % {"field": label, "most": most})
    if capacity < t.min_entrants:
        raise BadRequest(
            _(
                "%(field)s is %(capacity)s, below the minimum to start (%(minimum)s): raise "
                "the capacity or lower the minimum"
            )
            % {"field": label, "capacity": capacity, "minimum": t.min_entrants}
        )
    return capacity


def _json(value: Any) -> Any:
    """A value as it is recorded: times in ISO 8601 (UTC)."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    return value


def fixed_message(fields: list[str]) -> str:
    """The refusal of an edit of ``fields`` outside :data:`EDITABLE`."""
    return _(
        "%(fields)s cannot change once the tournament is created (an edit changes the name, "
        "description, times before the start, the prize table before the first registration, "
        "and the capacity)"
    ) % {"fields": ", ".join(sorted(map(str, fields)))}


def check_edit(t: Tournament, changes: dict[str, Any], now: datetime | None = None) -> dict:
    """The edit ``changes`` (field -> new value; fields of :data:`EDITABLE` only) would make
    to tournament ``t``: ``{field: (old, new)}`` for the fields whose value changes (a value
    equal to the current one is left out). Checks every rule of this module against ``t``
    as it is now; writes nothing. Raises :class:`BadRequest` (an unknown or fixed field, a
    bad value, nothing to change) or :class:`Conflict` (``wrong_status``, ``registered``:
    too late for that field)."""
    now = now or timezone.now()
    fixed = sorted(set(changes) - set(EDITABLE))
    if fixed:
        raise BadRequest(fixed_message(fixed))
    checked: dict[str, Any] = {}
    for field in EDITABLE:
        if field not in changes:
            continue
        value = changes[field]
        if field == "name":
            checked[field] = _check_name(value)
        elif field == "description":
            checked[field] = check_description(value)
        elif field in TIMES:
            if isinstance(value, datetime) and value == getattr(t, field):
                continue  # unchanged: no rule to pass
            checked[field] = _check_time(t, field, value, now)
        elif field == "prize_bps":
            if value == t.prize_bps:
                continue
            checked[field] = _check_prizes(t, value)
        else:
            if value == t.capacity:
                continue
            checked[field] = _check_capacity(t, value)
    diff = {f: (getattr(t, f), v) for f, v in checked.items() if getattr(t, f) != v}
    if not diff:
        raise BadRequest(_("nothing to change: every value given is the tournament's already"))
    opens, closes, starts = (diff.get(f, (getattr(t, f),) * 2)[1] for f in TIMES)
    if any(f in diff for f in TIMES) and not opens < closes <= starts:
        raise BadRequest(_("registration must open before it closes, and close by the start"))
    places = len(diff.get("prize_bps", (None, t.prize_bps))[1])
    capacity = diff.get("capacity", (None, t.capacity))[1]
    if places > capacity:
        raise BadRequest(
            _("prize table pays %(places)s places; the event takes %(capacity)s")
            % {"places": places, "capacity": capacity}
        )
    return diff


def edit_tournament(
    *,
    tournament_id: int,
    by: Any,
    reason: str,
    name: str | None = None,
    description: str | None = None,
    registration_opens_at: datetime | None = None,
    registration_closes_at: datetime | None = None,
    starts_at: datetime | None = None,
    prize_bps: list[int] | None = None,
    capacity: int | None = None,
) -> Tournament:
    """Change the given fields of a tournament (staff; ``reason`` required, at most 500
    characters, shown with the edit). A field left ``None`` is not changed. Times are aware
    datetimes; ``prize_bps`` basis points of the pool by final place summing to 10,000;
    ``capacity`` entrants (solo) or teams. One :class:`TournamentEdit` row per changed field,
    in the same transaction as the change; the tournament's version grows (the live page).
    Raises :class:`~tournaments.errors.NotAllowed` (not staff),
    :class:`~tournaments.errors.NotFound`, :class:`BadRequest`, :class:`Conflict` (see
    :func:`check_edit`); a refused edit changes nothing."""
    _require_staff(by, _("edit tournaments"))
    reason = _reason(reason)
    given = {
        "name": name,
        "description": description,
        "registration_opens_at": registration_opens_at,
        "registration_closes_at": registration_closes_at,
        "starts_at": starts_at,
        "prize_bps": prize_bps,
        "capacity": capacity,
    }
    changes = {f: v for f, v in given.items() if v is not None}
    with transaction.atomic():
        t = _lock(tournament_id)
        diff = check_edit(t, changes)
        for field, (_old, new) in diff.items():
            setattr(t, field, new)
        _save(t, *diff)
        TournamentEdit.objects.bulk_create(
            TournamentEdit(
                tournament=t, by=by, field=f, old=_json(old), new=_json(new), reason=reason
            )
            for f, (old, new) in diff.items()
        )
    return t
