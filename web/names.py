"""What the pages call things: contracts and variants in English and Arabic, option labels.

Arabic contract names: ``docs/rules.md`` ("Vocabulary", from seed 004: «شايب الهاص»,
«البنات», «الديمن», «اللطوش», «كمبلكس»; «دبل» to double, «تحقق» to verify). The labels of
options follow ``docs/rules.md`` ("Table options"); they are translated (``gettext_lazy``: Arabic in
``trix_site/locale/ar``). In Arabic the contract and variant names are shown in Arabic only; in
English as ``English · العربية``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from games.engine.cards import RANKS
from games.engine.options import PARTNERSHIP_ONLY, Options, option_choices
from games.options_text import OPTION_LABELS
from web.links import linked_pages

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

#: Each option: label (``games.options_text``), a one-line explanation, and a label per
#: value (default first).
OPTION_INFO: dict[str, dict[str, Any]] = {
    "variant": {
        "label": OPTION_LABELS["variant"],
        "help": gettext_lazy("Solo or partners; classic (20 deals) or Complex (8)."),
    },
    "doubling": {
        "label": OPTION_LABELS["doubling"],
        "help": gettext_lazy("How holders double the K♥ and queens before the first lead."),
        "values": {
            "simultaneous": gettext_lazy("Simultaneous: secret picks, Ready, revealed together"),
            "sequential": gettext_lazy("Sequential: each holder answers in turn from the owner"),
        },
    },
    "self_double": {
        "label": OPTION_LABELS["self_double"],
        "help": gettext_lazy("What happens when a doubler takes the card they doubled."),
        "values": {
            "leader_gains": gettext_lazy(
                "Taker pays double, the trick's leader gains the single value"
            ),
            "single_penalty": gettext_lazy("Doubler pays only the single value, nobody gains"),
            "double_no_gain": gettext_lazy("Doubler pays double, nobody gains"),
        },
    },
    "show_twos": {
        "label": OPTION_LABELS["show_twos"],
        "help": gettext_lazy(
            "Each 2 is shown beside its holder until played (unless one team holds all four)."
        ),
    },
    "twos_complex_only": {
        "label": OPTION_LABELS["twos_complex_only"],
        "help": gettext_lazy("The 2s are shown in Trix Complex Partner only, not in Trix Partner."),
    },
    "double_scoring": {
        "label": OPTION_LABELS["double_scoring"],
        "help": gettext_lazy(
            "Partnership: who pays when a doubled card stays in the doubler's team."
        ),
        "values": {
            "seat": gettext_lazy("Player: each doubled card scored player by player"),
            "team": gettext_lazy(
                "Team: taken in the doubler's team it is not sold, the other team gains"
            ),
        },
    },
    "double_asked": {
        "label": OPTION_LABELS["double_asked"],
        "help": gettext_lazy("Before the first lead of King of Hearts, Queens and Complex."),
        "values": {
            "everyone": gettext_lazy("Everyone answers, holder or not"),
            "holders": gettext_lazy("Holders only, in secret (simultaneous doubling)"),
        },
    },
    "partner_tie": {
        "label": OPTION_LABELS["partner_tie"],
        "help": gettext_lazy("Partnership matches that end level."),
        "values": {
            "draw": gettext_lazy("Draw: every stake refunded"),
            "last_trix_first_out": gettext_lazy(
                "The team whose seat went out first in the latest Trix wins"
            ),
        },
    },
    "contract_timeout": {
        "label": OPTION_LABELS["contract_timeout"],
        "help": gettext_lazy("What the owner gets when the choose timer runs out."),
        "values": {"first_unplayed": gettext_lazy("The first unplayed contract")},
    },
    "choose_timer": {
        "label": OPTION_LABELS["choose_timer"],
        "help": gettext_lazy("0 = no timer (free tables only)."),
    },
    "double_timer": {
        "label": OPTION_LABELS["double_timer"],
        "help": gettext_lazy("0 = no timer (free tables only)."),
    },
    "play_timer": {
        "label": OPTION_LABELS["play_timer"],
        "help": gettext_lazy("0 = no timer (free tables only)."),
    },
    "auto_play_forced": {
        "label": OPTION_LABELS["auto_play_forced"],
        "help": gettext_lazy("A seat with exactly one legal action plays it after a short delay."),
    },
    "leave_paid_table": {
        "label": OPTION_LABELS["leave_paid_table"],
        "help": gettext_lazy(
            "The leaver (and partner) rank last; the others keep their places by score."
        ),
        "values": {"forfeit": gettext_lazy("Forfeit")},
    },
}


def _in_language(names: dict[str, str]) -> str:
    """Arabic only in Arabic; ``English · العربية`` otherwise."""
    if (get_language() or "en").split("-")[0] == "ar":
        return names["ar"]
    return f"{names['en']} · {names['ar']}"


def contract_name(code: str | None) -> str:
    """``"king"`` -> ``"King of Hearts · شايب الهاص"`` (in Arabic: ``"شايب الهاص"``)."""
    if not code:
        return ""
    names = CONTRACTS.get(code)
    return _in_language(names) if names else code


def variant_name(code: str) -> str:
    """``"trix_partner"`` -> ``"Trix Partner · تركس شراكة"`` (in Arabic: ``"تركس شراكة"``)."""
    names = VARIANTS.get(code)
    return _in_language(names) if names else code


def option_specs() -> list[dict[str, Any]]:
    """Every table option (from :class:`games.engine.Options`) with its default, kind
    (``choice``, ``bool`` or ``seconds``), label, help and its values' labels."""
    choices = option_choices()
    specs = []
    for f in fields(Options):
        info = OPTION_INFO.get(f.name, {"label": f.name.replace("_", " ").capitalize()})
        # The labels are lazy (translated when the page renders): str() them here, in the
        # request's language, so the specs are plain JSON for the scripts.
        spec: dict[str, Any] = {
            "name": f.name,
            "default": f.default,
            "label": str(info["label"]),
            "help": str(info.get("help", "")),
        }
        if f.name in choices:
            spec["kind"] = "choice"
            labels = VARIANTS if f.name == "variant" else {}
            spec["values"] = [
                (
                    value,
                    variant_name(value)
                    if labels
                    else str(info.get("values", {}).get(value, value.replace("_", " "))),
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
    """``[(label, value text)]`` for every option of a table (its full option set) that
    applies to its variant: a solo variant's leaves out the partnership-only options
    (``games.engine.options.PARTNERSHIP_ONLY``)."""
    solo = not Options.from_dict(options).partnership
    out = []
    for spec in option_specs():
        if spec["name"] == "variant" or (solo and spec["name"] in PARTNERSHIP_ONLY):
            continue
        value = options.get(spec["name"], spec["default"])
        if spec["kind"] == "choice":
            text = dict(spec["values"]).get(value, str(value))
        elif spec["kind"] == "bool":
            text = _("yes") if value else _("no")
        else:
            text = _("%(seconds)s s") % {"seconds": value} if value else _("no timer")
        out.append((spec["label"], text))
    return out


def js_names() -> dict[str, Any]:
    """The names the pages' scripts need (passed with ``json_script``), the card ranks
    low to high (``games.engine.cards.RANKS``: the scripts' one source of them) and the
    site paths a message may name with their links' words (``web.links.linked_pages``)."""
    return {
        "contracts": CONTRACTS,
        "variants": VARIANTS,
        "terms": TERMS,
        "ranks": RANKS,
        "links": linked_pages(),  # [path, link text]: a message's paths as links (web/links.py)
    }
