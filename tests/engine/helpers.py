"""Helpers for the engine tests: hand-crafted hands, deal records, matches through ``apply``.

Hands are written as text, one suit at a time: ``"C:2345 H:KA S:Q"`` (ranks from
``23456789TJQKA``, suits from ``CDHS``). :func:`build_hands` fills the unnamed cards into the
seats that still need them, keeping any seat's ``voids`` empty of those suits.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import apply, new_match
from games.engine.cards import CODES, RANKS, SUITS, cards_of, code
from games.engine.record import replay_record, start_deal
from games.engine.turns import default_action

SEATS = (0, 1, 2, 3)


def cards(text: str) -> list[str]:
    """Card codes from ``"C:2345 H:KA"`` (or plain codes ``"2C KH"``)."""
    out: list[str] = []
    for part in text.split():
        if ":" in part:
            suit, ranks = part.split(":")
            out += [r + suit for r in ranks]
        else:
            out.append(part)
    return out


def suit_hands() -> dict[int, list[str]]:
    """Seat 0 every club, seat 1 every diamond, seat 2 every heart, seat 3 every spade."""
    return {s: [r + SUITS[s] for r in RANKS] for s in SEATS}


def build_hands(
    fixed: dict[int, str | list[str]], voids: dict[int, str] | None = None
) -> dict[int, list[str]]:
    """Four 13-card hands holding the ``fixed`` cards; the other cards go, in canonical order
    (suits with the most void seats first), to the first seat that needs cards and is not
    void in their suit (``voids``: seat -> suit letters)."""
    voids = voids or {}
    hands = {s: list(cards(v) if isinstance(v, str) else v) for s, v in fixed.items()}
    for s in SEATS:
        hands.setdefault(s, [])
    used = {c for h in hands.values() for c in h}
    assert len(used) == sum(len(h) for h in hands.values()), "a fixed card is listed twice"

    # Cards of the suits most seats are void in go first, so the greedy fill cannot strand them.
    def void_count(c: str) -> int:
        return -sum(1 for v in voids.values() if c[1] in v)

    for c in sorted(CODES, key=void_count):
        if c in used:
            continue
        for s in SEATS:
            if len(hands[s]) < 13 and c[1] not in voids.get(s, ""):
                hands[s].append(c)
                break
        else:
            raise AssertionError(f"no seat can take {c}")
    assert all(len(h) == 13 for h in hands.values()), {s: len(h) for s, h in hands.items()}
    return hands


def make_record(
    contract: str,
    hands: dict[int, list[str]],
    plays: list[str] | str,
    *,
    owner: int = 0,
    variant: str = "trix",
    options: dict[str, Any] | None = None,
    doubles: dict[int, list[str] | str] | None = None,
) -> dict[str, Any]:
    """A ``trix-deal/1`` record."""
    if isinstance(plays, str):
        plays = plays.split()
    return {
        "format": "trix-deal/1",
        "variant": variant,
        "options": dict(options or {}),
        "contract": contract,
        "owner": owner,
        "hands": {str(s): list(hands[s]) for s in SEATS},
        "doubles": {
            str(s): cards(v) if isinstance(v, str) else list(v) for s, v in (doubles or {}).items()
        },
        "plays": list(plays),
    }


def lowest_policy(deal) -> str:
    """The lowest legal card of the seat on turn (rank first), or ``"pass"``."""
    mask = deal.legal_mask(deal.turn)
    if not mask:
        return "pass"
    return code(min(cards_of(mask), key=lambda c: (c % 13, c // 13)))


def complete(record: dict[str, Any], policy=lowest_policy) -> dict[str, Any]:
    """The record with its plays completed (after the given ones) by ``policy(deal)``."""
    deal = start_deal(record)
    plays = list(record["plays"])
    for item in plays:
        if item == "pass":
            deal.pass_turn()
        else:
            deal.play(CODES.index(item))
    while not deal.finished:
        item = policy(deal)
        if item == "pass":
            deal.check_pass(deal.turn)
            deal.pass_turn()
        else:
            c = CODES.index(item)
            deal.check_play(deal.turn, c)
            deal.play(c)
        plays.append(item)
    return {**record, "plays": plays}


def scores(record: dict[str, Any]) -> dict[int, int]:
    """The replayed scores of ``record`` keyed by int seat."""
    return {int(s): v for s, v in replay_record(record)["scores"].items()}


def match_with(hands: dict[int, list[str]], options: dict[str, Any] | None = None):
    """A new match (``options`` as JSON) with its first deal dealt; returns (state, events)."""
    state = new_match(options or {})
    return apply(state, {"type": "deal", "hands": {str(s): hands[s] for s in SEATS}})


def random_hands(rng: random.Random) -> dict[str, list[str]]:
    deck = list(CODES)
    rng.shuffle(deck)
    return {str(s): sorted(deck[s * 13 : s * 13 + 13]) for s in SEATS}


def play_out_deal(state, act=default_action) -> list[dict]:
    """Apply ``act(state, seat)`` for the seats to act until the current deal ends; returns
    every event."""
    events: list[dict] = []
    n = len(state.records)
    while len(state.records) == n and state.phase not in ("deal", "over"):
        seat = state.to_act()[0]
        _, evs = apply(state, act(state, seat))
        events += evs
    return events
