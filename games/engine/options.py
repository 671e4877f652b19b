"""Table options: the default rule set and every named alternative.

Source: ``docs/rules.md`` ("Table options"); defaults from ``000_99eaae97bc5f03eb.txt``,
alternatives from ``001_8fb95d8b2ec9ab3b.txt``, ``003_90b5bd840447e506.txt`` and
``004_918501b053ed3a2d.txt`` as that table names them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .errors import InvalidOptions

VARIANTS = ("trix", "trix_partner", "complex", "complex_partner")
CLASSIC_CONTRACTS = ("king", "queens", "diamonds", "ltoosh", "trix")
COMPLEX_CONTRACTS = ("complex", "trix")
CONTRACTS = ("king", "queens", "diamonds", "ltoosh", "trix", "complex")

# The contracts of one kingdom per variant (a lookup: the bots' observation reads it often).
_KINGDOM_CONTRACTS = {
    v: COMPLEX_CONTRACTS if v.startswith("complex") else CLASSIC_CONTRACTS for v in VARIANTS
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "variant": VARIANTS,
    "doubling": ("simultaneous", "sequential"),
    "self_double": ("leader_gains", "single_penalty", "double_no_gain"),
    "double_scoring": ("seat", "team"),
    "double_asked": ("everyone", "holders"),
    "partner_tie": ("draw", "last_trix_first_out"),
    "contract_timeout": ("first_unplayed",),
    "leave_paid_table": ("forfeit",),
}


#: The options whose rule is about partners or teams: in a solo variant they change nothing
#: (``docs/rules.md``, "Table options"), so a solo table's rules do not list them.
PARTNERSHIP_ONLY = ("show_twos", "twos_complex_only", "double_scoring", "partner_tie")


@dataclass(frozen=True, slots=True)
class Options:
    """One table's options. Timers are whole seconds; ``0`` means no timer.

    ``show_twos`` only matters in partnership ``trix`` deals (000; ``false`` is 003's rule);
    ``twos_complex_only`` keeps them hidden in ``trix_partner`` (shown in ``complex_partner``
    only). ``double_scoring`` ``team`` (partnership only) scores a doubled card taken inside
    the doubler's own team against that team ("not sold") and pays the other team; it then
    decides every such case, ``self_double`` included. ``double_asked`` ``holders`` asks only
    the seats holding a doublable card (001, 003); it needs ``simultaneous`` doubling.
    ``docs/rules.md`` ("Table options") gives each rule and its source.
    """

    variant: str = "complex_partner"
    doubling: str = "simultaneous"
    self_double: str = "leader_gains"
    show_twos: bool = True
    twos_complex_only: bool = False
    double_scoring: str = "seat"
    double_asked: str = "everyone"
    partner_tie: str = "draw"
    contract_timeout: str = "first_unplayed"
    choose_timer: int = 15
    double_timer: int = 8
    play_timer: int = 12
    auto_play_forced: bool = False
    leave_paid_table: str = "forfeit"

    @property
    def partnership(self) -> bool:
        return self.variant.endswith("_partner")

    @property
    def is_complex(self) -> bool:
        return self.variant.startswith("complex")

    @property
    def contracts(self) -> tuple[str, ...]:
        """The contracts of one kingdom, in the ``contract_timeout`` order (003)."""
        return _KINGDOM_CONTRACTS[self.variant]

    @property
    def deals_per_match(self) -> int:
        return 4 * len(self.contracts)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """Options from a JSON object; missing keys take defaults.

        Raises :class:`InvalidOptions` naming an unknown key or a value it does not take, or
        ``double_asked`` ``holders`` with ``sequential`` doubling.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InvalidOptions("options must be a JSON object", rule="object")
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise InvalidOptions(f"unknown option {key!r}", key, "unknown")
            default = known[key].default
            if key in _CHOICES:
                if value not in _CHOICES[key]:
                    raise InvalidOptions(
                        f"option {key!r} must be one of {', '.join(_CHOICES[key])}, not {value!r}",
                        key,
                        "choice",
                    )
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise InvalidOptions(f"option {key!r} must be true or false", key, "bool")
            elif isinstance(default, int):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise InvalidOptions(
                        f"option {key!r} must be a whole number of seconds >= 0", key, "seconds"
                    )
            values[key] = value
        if values.get("double_asked") == "holders" and values.get("doubling") == "sequential":
            raise InvalidOptions(
                "option 'double_asked' holders needs doubling simultaneous: asked in turn, "
                "only the holders' turns would show the table who holds the cards",
                "double_asked",
                "holders_simultaneous",
            )
        return cls(**values)

    @classmethod
    def for_variant(cls, variant: str, options: dict[str, Any] | None = None) -> Options:
        """A table's options for ``variant`` given apart from the other ``options`` (the way
        tables and tournaments are created): ``options`` may repeat the variant, not
        contradict it. Raises :class:`InvalidOptions` as :meth:`from_dict` does, or with
        rule ``variant_twice`` when ``options`` names another variant."""
        if options is not None and not isinstance(options, dict):
            raise InvalidOptions("options must be a JSON object", rule="object")
        data = dict(options or {})
        if data.get("variant", variant) != variant:
            raise InvalidOptions(
                "variant is given twice with different values", "variant", "variant_twice"
            )
        data["variant"] = variant
        return cls.from_dict(data)

    def to_dict(self, *, non_defaults_only: bool = False) -> dict[str, Any]:
        """The options as JSON; with ``non_defaults_only`` only those that differ from default."""
        data = asdict(self)
        if non_defaults_only:
            default = Options()
            data = {k: v for k, v in data.items() if getattr(default, k) != v}
        return data


def option_choices() -> dict[str, tuple[str, ...]]:
    """Each option with a fixed set of values, and those values (default first)."""
    return dict(_CHOICES)
