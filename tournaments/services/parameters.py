"""A tournament's parameters as the admin gives them, checked. Rules:
``docs/tournaments.md``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import options_text
from games.engine import InvalidOptions, Options
from tournaments.errors import BadRequest
from tournaments.models import BASIS_POINTS, Format
from wallet.selectors import format_money


def check_parameters(
    *,
    name: str,
    format: str,
    variant: str,
    options: dict[str, Any] | None,
    advance: int,
    rounds: int,
    final_table: bool,
    entry_fee: int,
    house_fee_bps: int,
    capacity: int,
    min_entrants: int,
    registration_opens_at: datetime,
    registration_closes_at: datetime,
    starts_at: datetime,
    prize_bps: Sequence[int],
    refund_bps: int,
    review_seconds: int,
    no_show_without_action: bool = True,
) -> dict[str, Any]:
    """Check a tournament's parameters; returns the model fields (``options`` complete with
    defaults, ``team_mode`` from the variant, ``advance`` 1 for teams).
    ``no_show_without_action`` (True or False) ranks an entrant with no move of their own at
    a table last there (``docs/tournaments.md``, "No-shows"). Raises
    :class:`BadRequest` naming the first bad parameter. Used by :func:`create_tournament`
    and the admin's form."""

    def whole(value: Any, field: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadRequest(
                _("%(field)s must be a whole number from %(low)s to %(high)s")
                % {"field": field, "low": low, "high": high}
            )
        return value

    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        raise BadRequest(_("name must be 1 to 100 characters"))
    if format not in Format.values:
        raise BadRequest(
            _("format must be one of %(formats)s, not %(format)r")
            % {"formats": ", ".join(Format.values), "format": format}
        )
    if options is not None and not isinstance(options, dict):
        raise BadRequest(_("table options must be an object of option names and values"))
    try:
        parsed = Options.for_variant(variant, options)
    except InvalidOptions as exc:
        raise BadRequest(options_text.options_problem(exc)) from None
    for timer in ("choose_timer", "double_timer", "play_timer"):
        seconds = getattr(parsed, timer)
        if seconds > settings.TRIX_MAX_TIMER:
            raise BadRequest(options_text.timer_too_long(timer))
        if seconds == 0:
            raise BadRequest(options_text.timer_required(timer))
    team_mode = parsed.partnership
    if format == Format.KNOCKOUT:
        advance = 1 if team_mode else whole(advance, _("advance (top k of each table)"), 1, 2)
        rounds, final_table = 0, False
    else:
        rounds = whole(rounds, _("rounds"), 1, settings.TRIX_TOURNAMENT_MAX_ROUNDS)
        final_table = bool(final_table)
        advance = 1 if team_mode else 2
    if isinstance(entry_fee, bool) or not isinstance(entry_fee, int) or entry_fee < 0:
        raise BadRequest(_("The entry fee must be 0 (free) or a whole number of cents."))
    if entry_fee > settings.TRIX_MAX_STAKE:
        raise BadRequest(
            _("The entry fee can be at most %(amount)s.")
            % {"amount": format_money(settings.TRIX_MAX_STAKE)}
        )
    house_fee_bps = whole(house_fee_bps, _("house fee (basis points)"), 0, BASIS_POINTS)
    refund_bps = whole(refund_bps, _("refund on unregistering (basis points)"), 0, BASIS_POINTS)
    unit = _("teams") if team_mode else _("entrants")
    least = 4 if final_table and not team_mode else 2
    most = settings.TRIX_TOURNAMENT_MAX_ENTRANTS
    capacity_label = _("capacity (%(unit)s)") % {"unit": unit}
    capacity = whole(capacity, capacity_label, 2, most)
    min_entrants = whole(min_entrants, _("minimum (%(unit)s)") % {"unit": unit}, least, most)
    if capacity < min_entrants:
        raise BadRequest(
            _(
                "%(field)s is %(capacity)s, below the minimum to start (%(minimum)s): raise "
                "the capacity or lower the minimum"
            )
            % {"field": capacity_label, "capacity": capacity, "minimum": min_entrants}
        )
    review_seconds = whole(review_seconds, _("review window (seconds)"), 0, 7 * 24 * 3600)
    if not (
        isinstance(prize_bps, (list, tuple))
        and prize_bps
        and all(isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in prize_bps)
        and sum(prize_bps) == BASIS_POINTS
    ):
        raise BadRequest(
            _(
                "prize table must be a list of basis points by final place (whole numbers >= 0) "
                "summing to %(total)s (100 %%)"
            )
            % {"total": BASIS_POINTS}
        )
    if len(prize_bps) > capacity:
        raise BadRequest(
            _("prize table pays %(places)s places; the event takes %(capacity)s %(unit)s")
            % {"places": len(prize_bps), "capacity": capacity, "unit": unit}
        )
    for when, field in (
        (registration_opens_at, pgettext("tournament field", "registration opens")),
        (registration_closes_at, pgettext("tournament field", "registration closes")),
        (starts_at, pgettext("tournament field", "start")),
    ):
        if not isinstance(when, datetime) or timezone.is_naive(when):
            raise BadRequest(
                _("%(field)s must be a date and time with its time zone") % {"field": field}
            )
    if not isinstance(no_show_without_action, bool):
        raise BadRequest(_("no_show_without_action must be true or false"))
    if not registration_opens_at < registration_closes_at <= starts_at:
        raise BadRequest(_("registration must open before it closes, and close by the start"))
    if registration_closes_at <= timezone.now():
        raise BadRequest(
            _(
                "registration must close in the future (a tournament created with its window "
                "over would be cancelled at once)"
            )
        )
    return {
        "name": name.strip(),
        "format": format,
        "team_mode": team_mode,
        "advance": advance,
        "rounds": rounds,
        "final_table": final_table,
        "variant": variant,
        "options": parsed.to_dict(),
        "entry_fee": entry_fee,
        "house_fee_bps": house_fee_bps,
        "capacity": capacity,
        "min_entrants": min_entrants,
        "registration_opens_at": registration_opens_at,
        "registration_closes_at": registration_closes_at,
        "starts_at": starts_at,
        "prize_bps": list(prize_bps),
        "refund_bps": refund_bps,
        "review_seconds": review_seconds,
        "no_show_without_action": no_show_without_action,
    }
