"""How the public pages write cards and seats (the verify pages).

Seats are numbered 1-4 on every page, as on the table page; records, the API and ``trix
verify`` number them 0-3 (``docs/rules.md``, "Vocabulary"), so the page's seat is the
record's seat plus one. A hand is shown grouped by suit in the table page's order (♠ ♥ ♣ ♦,
suits alternating colour; ranks low to high, ``10`` for ``T``: ``web/static/web/api.js``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine.cards import RANKS

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_ORDER = "SHCD"


def seat_label(seat: int | str) -> int:
    """The page's number of a record's seat: ``"0"`` -> 1 ... ``3`` -> 4."""
    return int(seat) + 1


def rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


def hand_by_suit(codes: Iterable[str]) -> list[dict[str, Any]]:
    """``["8C", "QD", "TS"]`` -> ``[{"suit": "S", "symbol": "♠", "red": False, "ranks":
    ["10"]}, {"suit": "C", ...}, {"suit": "D", "symbol": "♦", "red": True, "ranks": ["Q"]}]``:
    the suits held, in ♠ ♥ ♣ ♦ order, each with its ranks low to high."""
    codes = list(codes)
    groups = []
    for suit in SUIT_ORDER:
        ranks = sorted((c[0] for c in codes if c[1] == suit), key=RANKS.index)
        if ranks:
            groups.append(
                {
                    "suit": suit,
                    "symbol": SUIT_SYMBOLS[suit],
                    "red": suit in "HD",
                    "ranks": [rank_text(r) for r in ranks],
                }
            )
    return groups


def seat_hands(hands: dict[str, list[str]] | None) -> list[dict[str, Any]]:
    """A record's ``{"0": [codes], ...}`` -> ``[{"seat": 1, "record_seat": 0, "codes": [...],
    "suits": hand_by_suit(codes)}, ...]`` in seat order (empty when there are no hands)."""
    rows = []
    for seat, codes in sorted((hands or {}).items(), key=lambda item: int(item[0])):
        rows.append(
            {
                "seat": seat_label(seat),
                "record_seat": int(seat),
                "codes": list(codes),
                "suits": hand_by_suit(codes),
            }
        )
    return rows


def seat_seeds(seeds: dict[str, str] | None) -> list[dict[str, Any]]:
    """A record's client seeds ``{"0": seed, ...}`` -> ``[{"seat": 1, "seed": seed}, ...]``."""
    return [
        {"seat": seat_label(seat), "seed": seed}
        for seat, seed in sorted((seeds or {}).items(), key=lambda item: int(item[0]))
    ]
