"""What the tournament pages call things, and a tournament's rules and parameters in words.

Bilingual names are shown as web/names.py shows the contracts (``English · العربية``): the
formats' Arabic names are ``selectors.FORMAT_NAMES_AR`` («خروج المغلوب», «النظام السويسري»);
partnership is «شراكة» (as in the variants' names, web/names.py), solo «فردي». Money always
goes through the wallet's one formatter (``web.money.format_money``).
"""

from __future__ import annotations

from typing import Any

from tournaments.models import BASIS_POINTS, Format
from tournaments.selectors import FORMAT_NAMES_AR
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
    """``600`` -> ``"10 minutes"``; ``90`` -> ``"90 seconds"``."""
    if seconds and seconds % 3600 == 0:
        hours = seconds // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    if seconds and seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds} seconds"


def names(t: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The bilingual names of a tournament summary: ``{"format": {"en", "ar"}, "mode": ...}``."""
    return {"format": FORMATS[t["format"]], "mode": TEAM_MODES[bool(t["team_mode"])]}


def rules_in_words(t: dict[str, Any]) -> list[tuple[str, str]]:
    """``[(label, sentence)]``: every rule and parameter of a tournament summary
    (``selectors.summary``) in words, for the tournament page."""
    unit = "teams" if t["team_mode"] else "entrants"
    if t["format"] == Format.KNOCKOUT:
        who = "the winning team" if t["team_mode"] else f"the top {t['advance']}"
        fmt = (
            f"Each round seats the {unit} at four-seat tables; {who} of each table advance, "
            "until one final table. Bots fill only the seats the entrants do not fill; they "
            "never advance and never take a prize."
        )
    else:
        final = (
            f"; then a final table of the top {'2 teams' if t['team_mode'] else '4'}"
            if t["final_table"]
            else ""
        )
        points = "win 2, draw 1, loss 0" if t["team_mode"] else "3/2/1/0 by table place"
        fmt = (
            f"{t['rounds']} round{'s' if t['rounds'] != 1 else ''}, each seating the {unit} by "
            f"standing, avoiding repeat opponents{final}. Standing points: {points} (tied "
            "places share); tie-breaks: match score total, opponents' points, the seating draw."
        )
    mode = (
        "Teams of two: register, then invite a partner by display name; the partner accepts "
        "and pays their own entry fee. A team incomplete when registration closes is refunded."
        if t["team_mode"]
        else "Every entrant plays for themself."
    )
    fee = t["entry_fee"]
    refund = t["refund_bps"]
    if fee == 0:
        refund_text = "The event is free: no money moves."
    elif refund == BASIS_POINTS:
        refund_text = "Unregister before registration closes and the whole entry fee comes back."
    else:
        refund_text = (
            f"Unregister before registration closes and {percent(refund)} of the entry fee "
            f"({format_money(fee * refund // BASIS_POINTS)}) comes back."
        )
    options = "; ".join(f"{label}: {text}" for label, text in describe_options(t["options"]))
    return [
        ("Format", fmt),
        ("Players", mode),
        ("Variant", variant_name(t["variant"])),
        ("Table options", options),
        ("Entry fee", "free" if fee == 0 else f"{format_money(fee)} each, into the prize pool"),
        (
            "House fee",
            "none" if not t["house_fee_bps"] else f"{percent(t['house_fee_bps'])} of the pool",
        ),
        ("Places", f"at most {t['capacity']} {unit}; at least {t['min_entrants']} to start"),
        ("Refunds", refund_text),
        (
            "Prizes",
            "paid from the pool (less the house fee) by final place, "
            f"{duration(t['review_seconds'])} after the end (the review window); tied places "
            "share the prizes they span.",
        ),
        (
            "No-shows",
            "A seat whose player has not looked at the table by the round's show-up deadline is "
            "played by the timeout rules and ranks last at that table.",
        ),
    ]
