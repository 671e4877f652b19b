"""A tournament's parameters as the admin gives them, and their checks.

:class:`Parameters` holds the admin's input (the create form, the staff API, the Django
admin); :meth:`Parameters.problems` runs the checkers below in a fixed order and gives every
bad parameter's message at once (the staff page shows them all); :meth:`Parameters.checked`
names the first of them, or returns the checked copy whose :meth:`Parameters.fields` are
the model fields. Every checker raises :class:`~tournaments.errors.BadRequest` with the
message the admin sees. Rules: ``docs/tournaments.md`` ("Creating").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from datetime import datetime, timedelta
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

#: The longest review window an admin may set (seconds): a week.
MAX_REVIEW_SECONDS = 7 * 24 * 3600
#: How far ahead an event may start (so its window too), from when it is created or edited:
#: a bound of sanity, far beyond any event's planning, that keeps the arithmetic on its times
#: (the overlap span, the review window) within the calendar.
MAX_AHEAD = timedelta(days=100 * 365)


@dataclass(frozen=True, kw_only=True)
class Parameters:
    """A tournament's parameters. ``format`` ``knockout`` (``advance`` k = 1 or 2, solo) or
    ``swiss`` (``rounds`` R, ``final_table``); a ``*_partner`` variant makes a partnership
    event. Money in minor units; ``house_fee_bps``, ``refund_bps`` and ``prize_bps`` (by
    final place) in basis points; ``capacity`` and ``min_entrants`` count entrants (solo) or
    teams; ``review_seconds`` the window before the prizes are paid.
    ``no_show_without_action`` ranks an entrant with no move of their own at a table last
    there (``docs/tournaments.md``, "No-shows"). Built from the admin's input as given (any
    type): :meth:`checked` checks it."""

    name: str
    format: str
    variant: str
    options: dict[str, Any] | None
    advance: int
    rounds: int
    final_table: bool
    entry_fee: int
    house_fee_bps: int
    capacity: int
    min_entrants: int
    registration_opens_at: datetime
    registration_closes_at: datetime
    starts_at: datetime
    prize_bps: Sequence[int]
    refund_bps: int
    review_seconds: int
    no_show_without_action: bool = True

    def checked(self) -> Parameters:
        """The parameters checked and completed: ``name`` stripped, ``options`` complete
        with the variant's defaults, the format's unused fields reset (a knockout has no
        rounds, a Swiss event advances 2; a partnership event advances 1), ``prize_bps`` a
        list. Raises :class:`BadRequest` naming the first bad parameter (:meth:`problems`'
        first)."""
        problems = self.problems()
        if problems:
            raise BadRequest(next(iter(problems.values())))
        parsed = _check_options(self.variant, self.options)
        team_mode = parsed.partnership
        advance, rounds, final_table = _check_shape(self, team_mode)
        return replace(
            self,
            name=self.name.strip(),
            options=parsed.to_dict(),
            advance=advance,
            rounds=rounds,
            final_table=final_table,
            prize_bps=list(self.prize_bps),
        )

    def problems(self, *, named: bool = True) -> dict[str, str]:
        """Every bad parameter at once: parameter name -> the message :meth:`checked` would
        give for it, in :meth:`checked`'s order ({} when it passes); with ``named=False``
        a message shown at its own field (the create form's) does not begin with the
        field's name (:class:`FieldProblem`'s ``bare``). Each check runs on its
        own; a parameter that is None (the form could not read it) is left out, with the
        checks that need it (the prize table's places need the capacity). The schedule's
        rules name ``registration_closes_at`` (the order of the times, a window over) or
        ``starts_at`` (too far ahead); the table options' ``options``."""
        out: dict[str, str] = {}

        def check(field: str, rule: Any, *args: Any) -> Any:
            if field in out:
                return None
            try:
                return rule(*args)
            except BadRequest as exc:
                out[field] = _text(exc, named)
                return None

        if self.name is not None:
            check("name", _check_name, self.name)
        check("format", _check_format, self.format)
        parsed = None
        if self.variant is not None:
            parsed = check("options", _check_options, self.variant, self.options)
        team_mode = bool(parsed and parsed.partnership)
        if self.format == Format.KNOCKOUT and self.advance is not None:
            check("advance", _check_shape, self, team_mode)
        elif self.format == Format.SWISS and self.rounds is not None:
            check("rounds", _check_shape, self, team_mode)
        final_table = self.format == Format.SWISS and bool(self.final_table)
        if self.entry_fee is not None:
            check("entry_fee", _check_entry_fee, self.entry_fee)
        if self.house_fee_bps is not None:
            check("house_fee_bps", _whole, self.house_fee_bps, _("house fee (basis points)"),
                  0, BASIS_POINTS)  # fmt: skip
        if self.refund_bps is not None:
            refund_label = _("refund on unregistering (basis points)")
            check("refund_bps", _whole, self.refund_bps, refund_label, 0, BASIS_POINTS)
        out.update(_size_problems(self, team_mode, final_table, named))
        if self.review_seconds is not None:
            review_label = _("review window (seconds)")
            check("review_seconds", _whole, self.review_seconds, review_label, 0,
                  MAX_REVIEW_SECONDS)  # fmt: skip
        if self.prize_bps is not None:
            if self.capacity is None or "capacity" in out:
                check("prize_bps", check_prize_table, self.prize_bps)
            else:
                check("prize_bps", _check_prizes, self.prize_bps, self.capacity, team_mode)
        times = (self.registration_opens_at, self.registration_closes_at, self.starts_at)
        if None not in times:
            for field, message in _schedule_problems(self, named).items():
                out.setdefault(field, message)
        return out

    @property
    def team_mode(self) -> bool:
        """Whether the variant is a partnership one (teams of two). Raises
        :class:`games.engine.InvalidOptions` for options :meth:`checked` refuses."""
        return Options.for_variant(self.variant, self.options).partnership

    def fields(self) -> dict[str, Any]:
        """The ``Tournament`` model fields of checked parameters (``team_mode`` included)."""
        out = {f.name: getattr(self, f.name) for f in dataclass_fields(self)}
        out["team_mode"] = self.team_mode
        return out


class FieldProblem(BadRequest):
    """A bad parameter: ``message`` names its field (``"capacity (entrants): …"``, for the
    API, which has no label around it); ``bare`` does not (for a form that shows it at the
    field, under the field's label)."""

    def __init__(self, field: str, bare: str):
        super().__init__(_("%(field)s: %(message)s") % {"field": field, "message": bare})
        self.bare = bare


def _text(exc: BadRequest, named: bool) -> str:
    """``exc``'s message, or its ``bare`` one (a :class:`FieldProblem`) when not ``named``."""
    return exc.message if named else getattr(exc, "bare", exc.message)


def _whole(value: Any, field: str, low: int, high: int) -> int:
    """``value`` if a whole number (not a bool) from ``low`` to ``high``. Raises
    :class:`FieldProblem` naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FieldProblem(
            field,
            _("“%(value)s” is not a whole number from %(low)s to %(high)s.")
            % {"value": value, "low": low, "high": high},
        )
    return value


def _unit(team_mode: bool) -> str:
    """What the event counts, in the active language: teams or entrants."""
    return _("teams") if team_mode else _("entrants")


def _check_name(name: Any) -> None:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        raise BadRequest(_("name must be 1 to 100 characters"))


def _check_format(format: Any) -> None:
    if format not in Format.values:
        raise BadRequest(
            _("format must be one of %(formats)s, not %(format)r")
            % {"formats": ", ".join(Format.values), "format": format}
        )


def _check_options(variant: Any, options: Any) -> Options:
    """The table options of ``variant`` (``Options.for_variant``), every phase timer on and
    at most ``TRIX_MAX_TIMER`` seconds (a tournament table must not wait for ever)."""
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
    return parsed


def _check_shape(p: Parameters, team_mode: bool) -> tuple[int, int, bool]:
    """``(advance, rounds, final_table)`` of the format: a knockout advances the top k = 1
    or 2 of each table (1 for teams) and has no rounds; a Swiss event plays 1 to
    ``TRIX_TOURNAMENT_MAX_ROUNDS`` rounds."""
    if p.format == Format.KNOCKOUT:
        advance = 1 if team_mode else _whole(p.advance, _("advance (top k of each table)"), 1, 2)
        return advance, 0, False
    rounds = _whole(p.rounds, _("rounds"), 1, settings.TRIX_TOURNAMENT_MAX_ROUNDS)
    return (1 if team_mode else 2), rounds, bool(p.final_table)


def _check_entry_fee(entry_fee: Any) -> None:
    """0 (free) or whole cents up to ``TRIX_MAX_STAKE``."""
    if isinstance(entry_fee, bool) or not isinstance(entry_fee, int) or entry_fee < 0:
        raise FieldProblem(_("entry fee"), _("Give 0 (free) or a whole number of cents."))
    if entry_fee > settings.TRIX_MAX_STAKE:
        raise FieldProblem(
            _("entry fee"),
            _("Give at most %(amount)s.") % {"amount": format_money(settings.TRIX_MAX_STAKE)},
        )


def _size_problems(
    p: Parameters, team_mode: bool, final_table: bool, named: bool = True
) -> dict[str, str]:
    """The problems of ``capacity`` and ``min_entrants`` by field: each from 2 (4 entrants
    for a solo final table) to ``TRIX_TOURNAMENT_MAX_ENTRANTS``, the capacity not below the
    minimum (named on the capacity). A field that is None is left out."""
    unit = _unit(team_mode)
    least = 4 if final_table and not team_mode else 2
    most = settings.TRIX_TOURNAMENT_MAX_ENTRANTS
    capacity_label = _("capacity (%(unit)s)") % {"unit": unit}
    out: dict[str, str] = {}
    whole = {}
    for field, value, label, low in (
        ("capacity", p.capacity, capacity_label, 2),
        ("min_entrants", p.min_entrants, _("minimum (%(unit)s)") % {"unit": unit}, least),
    ):
        if value is None:
            continue
        try:
            whole[field] = _whole(value, label, low, most)
        except BadRequest as exc:
            out[field] = _text(exc, named)
    if len(whole) == 2 and whole["capacity"] < whole["min_entrants"]:
        problem = FieldProblem(
            capacity_label,
            _(
                "%(capacity)s is below the minimum to start (%(minimum)s): raise the "
                "capacity or lower the minimum."
            )
            % {"capacity": whole["capacity"], "minimum": whole["min_entrants"]},
        )
        out["capacity"] = _text(problem, named)
    return out


def check_prize_table(prize_bps: Any) -> None:
    """A list of basis points by final place, whole numbers >= 0 summing to 100 %; raises
    :class:`BadRequest` otherwise. Shared by creation and the staff's edit
    (``tournaments/edits.py``)."""
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


def _check_prizes(prize_bps: Any, capacity: int, team_mode: bool) -> None:
    """:func:`check_prize_table`, paying at most ``capacity`` places."""
    check_prize_table(prize_bps)
    if len(prize_bps) > capacity:
        raise FieldProblem(
            pgettext("tournament field", "prize table"),
            _("It pays %(places)s places; the event takes %(capacity)s %(unit)s.")
            % {"places": len(prize_bps), "capacity": capacity, "unit": _unit(team_mode)},
        )


def check_not_too_far(when: datetime, field: str) -> None:
    """Refuse a time more than :data:`MAX_AHEAD` from now (``field``: its label), at creation
    and at an edit: an event's play is compared over ``TRIX_TOURNAMENT_SPAN`` after its start
    (``registration._check_overlap``), which must stay within the calendar. Raises
    :class:`FieldProblem`."""
    if when - timezone.now() > MAX_AHEAD:
        raise FieldProblem(
            field,
            _("Give a time within 100 years from now (%(latest)s UTC at the latest).")
            % {"latest": f"{timezone.now() + MAX_AHEAD:%Y-%m-%d}"},
        )


def _schedule_problems(p: Parameters, named: bool = True) -> dict[str, str]:
    """The schedule's problems by the field they name: the three times aware; registration
    opens before it closes, closes by the start (``registration_closes_at``) and in the
    future (an event created with its window over would be cancelled at once); the start
    within :data:`MAX_AHEAD` (``starts_at``). ``no_show_without_action`` a bool (checked
    here to keep the order of the messages)."""
    out: dict[str, str] = {}
    for when, name, field in (
        (p.registration_opens_at, "registration_opens_at",
         pgettext("tournament field", "registration opens")),
        (p.registration_closes_at, "registration_closes_at",
         pgettext("tournament field", "registration closes")),
        (p.starts_at, "starts_at", pgettext("tournament field", "start")),
    ):  # fmt: skip
        if not isinstance(when, datetime) or timezone.is_naive(when):
            problem = FieldProblem(field, _("Give a date and time with its time zone."))
            out[name] = _text(problem, named)
    if out:
        return out
    if not isinstance(p.no_show_without_action, bool):
        out["no_show_without_action"] = _("no_show_without_action must be true or false")
    if not p.registration_opens_at < p.registration_closes_at <= p.starts_at:
        out["registration_closes_at"] = _(
            "registration must open before it closes, and close by the start"
        )
    try:
        check_not_too_far(p.starts_at, pgettext("tournament field", "start"))
    except BadRequest as exc:
        out["starts_at"] = _text(exc, named)
    if p.registration_closes_at <= timezone.now() and "registration_closes_at" not in out:
        out["registration_closes_at"] = _(
            "registration must close in the future (a tournament created with its window "
            "over would be cancelled at once)"
        )
    return out
