"""What the tournament pages call things, and a tournament's rules and parameters in words.

Bilingual names are shown as web/names.py shows the contracts (``English · العربية``): the
formats' Arabic names are ``selectors.FORMAT_NAMES_AR`` («خروج المغلوب», «النظام السويسري»);
partnership is «شراكة» (as in the variants' names, web/names.py), solo «فردي». Money always
goes through the wallet's one formatter (``web.money.format_money``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.models import BASIS_POINTS, Format
from tournaments.selectors.pages import FORMAT_NAMES_AR
from web.money import format_money
from web.names import describe_options, variant_name

#: Solo and partnership events in English and Arabic.
TEAM_MODES: dict[bool, dict[str, str]] = {
    False: {"en": "Solo", "ar": "فردي"},
    True: {"en": "Partnership", "ar": "شراكة"},
}

#: The formats' names as the pages show them.
FORMATS: dict[str, dict[str, str]] = {
    Format.KNOCKOUT: {"en": "Knockout (shoot-out)", "ar": FORMAT_NAMES_AR["knockout"]},
    Format.SWISS: {"en": "Swiss pods", "ar": FORMAT_NAMES_AR["swiss"]},
}


def percent(bps: int) -> str:
    """Basis points as a percentage: ``5000`` -> ``"50 %"``, ``1250`` -> ``"12.5 %"``."""
    whole, rest = divmod(int(bps), 100)
    return f"{whole} %" if not rest else f"{whole}.{rest:02d}".rstrip("0") + " %"


def duration(seconds: int) -> str:
    """``600`` -> ``"10 minutes"``; ``90`` -> ``"90 seconds"`` (in the active language)."""
    if seconds and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    if seconds and seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def names(t: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The bilingual names of a tournament summary: ``{"format": {"en", "ar"}, "mode": ...}``."""
    return {"format": FORMATS[t["format"]], "mode": TEAM_MODES[bool(t["team_mode"])]}


def _format(t: dict[str, Any]) -> str:
    teams = t["team_mode"]
    if t["format"] == Format.KNOCKOUT:
        if teams:
            return _(
                "Each round seats the teams at four-seat tables; the winning team of each table "
                "advances, until one final table. Bots fill only the seats the entrants do not "
                "fill; they never advance and never take a prize."
            )
        return _(
            "Each round seats the entrants at four-seat tables; the top %(advance)s of each "
            "table advance, until one final table. Bots fill only the seats the entrants do not "
            "fill; they never advance and never take a prize."
        ) % {"advance": t["advance"]}
    rounds = t["rounds"]
    text = (
        ngettext(
            "%(rounds)d round, each seating the teams by standing, avoiding repeat opponents",
            "%(rounds)d rounds, each seating the teams by standing, avoiding repeat opponents",
            rounds,
        )
        if teams
        else ngettext(
            "%(rounds)d round, each seating the entrants by standing, avoiding repeat opponents",
            "%(rounds)d rounds, each seating the entrants by standing, avoiding repeat opponents",
            rounds,
        )
    ) % {"rounds": rounds}
    if t["final_table"]:
        text += (
            _("; then a final table of the top 2 teams")
            if teams
            else _("; then a final table of the top 4")
        )
    points = _("win 2, draw 1, loss 0") if teams else _("3/2/1/0 by table place")
    return (
        text
        + ". "
        + _(
            "Standing points: %(points)s (tied places share); tie-breaks: match score total, "
            "opponents' points, the seating draw."
        )
        % {"points": points}
    )


def rules_in_words(t: dict[str, Any]) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """``[(label, sentence, items)]``: every rule and parameter of a tournament summary
    (``selectors.summary``) in words, for the tournament page, in the active language.
    ``items`` is empty but for the table options, which are a list of ``(option's label,
    its value)`` (``web.names.describe_options``) with no sentence: the page shows them one a
    line (joined into one sentence they would need a separator of the page's language)."""
    fee = t["entry_fee"]
    return [
        (_("Format"), _format(t), []),
        (_("Players"), _players_text(t), []),
        (_("Variant"), variant_name(t["variant"]), []),
        (_("Table options"), "", describe_options(t["options"])),
        (
            _("Entry fee"),
            pgettext("no entry fee", "free")
            if fee == 0
            else _("%(amount)s each, into the prize pool") % {"amount": format_money(fee)},
            [],
        ),
        (
            _("House fee"),
            pgettext("no house fee", "none")
            if not t["house_fee_bps"]
            else _("%(percent)s of the pool") % {"percent": percent(t["house_fee_bps"])},
            [],
        ),
        (_("Places"), _places_text(t), []),
        (_("Refunds"), _refund_text(t), []),
        (
            _("Prizes"),
            _(
                "paid from the pool (less the house fee) by final place, %(duration)s after the "
                "end (the review window); tied places share the prizes they span."
            )
            % {"duration": duration(t["review_seconds"])},
            [],
        ),
        (_("No-shows"), no_show_rule(t), []),
    ]


def _players_text(t: dict[str, Any]) -> str:
    """Who plays for whom: teams of two (how a team forms, and its refund) or each alone."""
    if t["team_mode"]:
        return _(
            "Teams of two: register, then invite a partner by display name; the partner accepts "
            "and pays their own entry fee. A team incomplete when registration closes is "
            "refunded."
        )
    return _("Every entrant plays for themself.")


def _refund_text(t: dict[str, Any]) -> str:
    """What comes back to an entrant who unregisters before registration closes."""
    fee, refund = t["entry_fee"], t["refund_bps"]
    if fee == 0:
        return _("The event is free: no money moves.")
    if refund == BASIS_POINTS:
        return _("Unregister before registration closes and the whole entry fee comes back.")
    return _(
        "Unregister before registration closes and %(percent)s of the entry fee "
        "(%(amount)s) comes back."
    ) % {"percent": percent(refund), "amount": format_money(fee * refund // BASIS_POINTS)}


def _places_text(t: dict[str, Any]) -> str:
    """The event's capacity and the fewest units it starts with."""
    capacity = t["capacity"]
    if t["team_mode"]:
        text = ngettext(
            "at most %(capacity)d team; at least %(minimum)d to start",
            "at most %(capacity)d teams; at least %(minimum)d to start",
            capacity,
        )
    else:
        text = ngettext(
            "at most %(capacity)d entrant; at least %(minimum)d to start",
            "at most %(capacity)d entrants; at least %(minimum)d to start",
            capacity,
        )
    return text % {"capacity": capacity, "minimum": t["min_entrants"]}


def no_show_rule(t: dict[str, Any]) -> str:
    """The event's no-show rule in words (``docs/tournaments.md``, "No-shows"), by its
    ``no_show_without_action`` flag, in the active language."""
    if t["no_show_without_action"]:
        return _(
            "A player who makes no move themself at a table (the timer plays every turn, even "
            "after they opened it) is a no-show there, as is one who has not looked at the "
            "table by the round's show-up deadline: the timeout rules play the seat and it "
            "ranks last at that table (several no-shows share the last places). A player who "
            "was a no-show at every table takes no prize."
        )
    return _(
        "A seat whose player has not looked at the table by the round's show-up deadline is "
        "played by the timeout rules and ranks last at that table. A player who opened the "
        "table is ranked by the score, even if the timer plays every turn (the admin turned "
        "the no-move rule off)."
    )
