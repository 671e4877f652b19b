"""What players call the table options, and the refusals of a table's options in their words.

The labels are those of the lobby's form (``web.names.OPTION_INFO`` shows them); a refusal
names the option by its label, never by its field name (``play_timer``), in the request's
language (``gettext``)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import InvalidOptions

#: Each option of :class:`games.engine.Options` as the lobby's form labels it.
OPTION_LABELS = {
    "variant": gettext_lazy("Variant"),
    "doubling": gettext_lazy("Doubling"),
    "self_double": gettext_lazy("Taking your own doubled card"),
    "show_twos": gettext_lazy("Show 2s in partnership Trix"),
    "twos_complex_only": gettext_lazy("2s in Complex Partner only"),
    "double_scoring": gettext_lazy("Doubles scored per"),
    "double_asked": gettext_lazy("Who is asked to double"),
    "partner_tie": gettext_lazy("Level team totals"),
    "contract_timeout": gettext_lazy("Contract on timeout"),
    "choose_timer": gettext_lazy("Choose timer (s)"),
    "double_timer": gettext_lazy("Double timer (s)"),
    "play_timer": gettext_lazy("Play timer (s)"),
    "auto_play_forced": gettext_lazy("Auto-play forced moves"),
    "leave_paid_table": gettext_lazy("Leaving a paid table"),
}


def option_label(name: str) -> str:
    """``"play_timer"`` -> ``"Play timer (s)"`` in the active language (an unknown name as
    given)."""
    label = OPTION_LABELS.get(name)
    return str(label) if label is not None else name


def options_problem(exc: InvalidOptions) -> str:
    """The refusal :class:`games.engine.InvalidOptions` stands for, for a player: the option
    by its label, what it takes."""
    label = option_label(exc.option or "")
    if exc.rule == "unknown":
        return _("There is no table option “%(option)s”.") % {"option": exc.option}
    if exc.rule == "choice":
        return _("“%(option)s” does not take that value: choose one of the list.") % {
            "option": label
        }
    if exc.rule == "bool":
        return _("“%(option)s” is either on or off.") % {"option": label}
    if exc.rule == "seconds":
        return _("“%(option)s” is a whole number of seconds, 0 or more.") % {"option": label}
    if exc.rule == "variant_twice":
        return _("The variant is given twice, with different values.")
    if exc.rule == "holders_simultaneous":
        return _(
            "“%(option)s”: holders only needs simultaneous doubling (asked in turn, the table "
            "would see who holds the cards)."
        ) % {"option": label}
    return _("The table options are not valid: give each option by its name and value.")


def timer_too_long(name: str) -> str:
    """The refusal of timer ``name`` above ``TRIX_MAX_TIMER`` seconds."""
    return _("“%(option)s” can be at most %(max)s seconds.") % {
        "option": option_label(name),
        "max": settings.TRIX_MAX_TIMER,
    }


def timer_required(name: str) -> str:
    """The refusal of timer ``name`` at 0 (no timer) where the table must have every timer
    (staked and tournament tables: ``games.policy``)."""
    return _(
        "A table with stakes or in a tournament needs every timer: set “%(option)s” from 1 "
        "to %(max)s seconds (0, no timer, is for free tables only)."
    ) % {"option": option_label(name), "max": settings.TRIX_MAX_TIMER}
