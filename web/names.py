"""What the pages call things: contracts and variants in English and Arabic, option labels.

Arabic contract names: ``shared/seeds/004_918501b053ed3a2d.txt`` («شايب الهاص», «البنات», «الديمن»,
«اللطوش», «كمبلكس»; «دبل» to double, «تحقق» to verify). The labels of options follow
``shared/trix-rules.md`` ("Table options").
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from games.engine.cards import RANKS
from games.engine.options import Options, option_choices
from web.links import linked_paths

CONTRACTS: dict[str, dict[str, str]] = {
    "king": {"en": "King of Hearts", "ar": "شايب الهاص"},
    "queens": {"en": "Queens", "ar": "البنات"},
    "diamonds": {"en": "Diamonds", "ar": "الديمن"},
    "ltoosh": {"en": "Ltoosh", "ar": "اللطوش"},
    "trix": {"en": "Trix", "ar": "تركس"},
    "complex": {"en": "Complex", "ar": "كمبلكس"},
}

VARIANTS: dict[str, dict[str, str]] = {
    "trix": {"en": "Trix (solo)", "ar": "تركس"},
    "trix_partner": {"en": "Trix Partner", "ar": "تركس شراكة"},
    "complex": {"en": "Trix Complex (solo)", "ar": "كمبلكس"},
    "complex_partner": {"en": "Trix Complex Partner", "ar": "كمبلكس شراكة"},
}

TERMS: dict[str, dict[str, str]] = {
    "double": {"en": "Double", "ar": "دبل"},
    "verify": {"en": "Verify", "ar": "تحقق"},
}

#: Each option: label, a one-line explanation, and a label per value (default first).
OPTION_INFO: dict[str, dict[str, Any]] = {
    "variant": {"label": "Variant", "help": "Solo or partners; classic (20 deals) or Complex (8)."},
    "doubling": {
        "label": "Doubling",
        "help": "How holders double the K♥ and queens before the first lead.",
        "values": {
            "simultaneous": "Simultaneous: secret picks, Ready, revealed together",
            "sequential": "Sequential: each holder answers in turn from the owner",
        },
    },
    "self_double": {
        "label": "Taking your own doubled card",
        "help": "What happens when a doubler takes the card they doubled.",
        "values": {
            "leader_gains": "Taker pays double, the trick's leader gains the single value",
            "single_penalty": "Doubler pays only the single value, nobody gains",
            "double_no_gain": "Doubler pays double, nobody gains",
        },
    },
    "show_twos": {
        "label": "Show 2s in partnership Trix",
        "help": "Each 2 is shown beside its holder until played (unless one team holds all four).",
    },
    "partner_tie": {
        "label": "Level team totals",
        "help": "Partnership matches that end level.",
        "values": {
            "draw": "Draw: every stake refunded",
            "last_trix_first_out": "The team whose seat went out first in the latest Trix wins",
        },
    },
    "contract_timeout": {
        "label": "Contract on timeout",
        "help": "What the owner gets when the choose timer runs out.",
        "values": {"first_unplayed": "The first unplayed contract"},
    },
    "choose_timer": {"label": "Choose timer (s)", "help": "0 = no timer (free tables only)."},
    "double_timer": {"label": "Double timer (s)", "help": "0 = no timer (free tables only)."},
    "play_timer": {"label": "Play timer (s)", "help": "0 = no timer (free tables only)."},
    "auto_play_forced": {
        "label": "Auto-play forced moves",
        "help": "A seat with exactly one legal action plays it after a short delay.",
    },
    "leave_paid_table": {
        "label": "Leaving a paid table",
        "help": "The leaver (and partner) rank last; the others keep their places by score.",
        "values": {"forfeit": "Forfeit"},
    },
}


def contract_name(code: str | None) -> str:
    """``"king"`` -> ``"King of Hearts · شايب الهاص"``."""
    if not code:
        return ""
    names = CONTRACTS.get(code)
    return f"{names['en']} · {names['ar']}" if names else code


def variant_name(code: str) -> str:
    names = VARIANTS.get(code)
    return f"{names['en']} · {names['ar']}" if names else code


def option_specs() -> list[dict[str, Any]]:
    """Every table option (from :class:`games.engine.Options`) with its default, kind
    (``choice``, ``bool`` or ``seconds``), label, help and its values' labels."""
    choices = option_choices()
    specs = []
    for f in fields(Options):
        info = OPTION_INFO.get(f.name, {"label": f.name.replace("_", " ").capitalize()})
        spec: dict[str, Any] = {
            "name": f.name,
            "default": f.default,
            "label": info["label"],
            "help": info.get("help", ""),
        }
        if f.name in choices:
            spec["kind"] = "choice"
            labels = VARIANTS if f.name == "variant" else {}
            spec["values"] = [
                (
                    value,
                    variant_name(value)
                    if labels
                    else info.get("values", {}).get(value, value.replace("_", " ")),
                )
                for value in choices[f.name]
            ]
        elif isinstance(f.default, bool):
            spec["kind"] = "bool"
        else:
            spec["kind"] = "seconds"
        specs.append(spec)
    return specs


def describe_options(options: dict[str, Any]) -> list[tuple[str, str]]:
    """``[(label, value text)]`` for every option of a table (its full option set)."""
    out = []
    for spec in option_specs():
        if spec["name"] == "variant":
            continue
        value = options.get(spec["name"], spec["default"])
        if spec["kind"] == "choice":
            text = dict(spec["values"]).get(value, str(value))
        elif spec["kind"] == "bool":
            text = "yes" if value else "no"
        else:
            text = f"{value} s" if value else "no timer"
        out.append((spec["label"], text))
    return out


def js_names() -> dict[str, Any]:
    """The names the pages' scripts need (passed with ``json_script``), the card ranks
    low to high (``games.engine.cards.RANKS``: the scripts' one source of them) and the
    site paths a message may name (``web.links.linked_paths``)."""
    return {
        "contracts": CONTRACTS,
        "variants": VARIANTS,
        "terms": TERMS,
        "ranks": RANKS,
        "links": linked_paths(),  # paths a message may name, shown as links (web/links.py)
    }
