"""Cards as integers and hands as 52-bit masks.

A card is an int 0..51: ``suit * 13 + rank``, suits in ``CDHS`` order, ranks ``2..A`` as 0..12
(so ``2C`` is 0 and ``AS`` is 51). Its code is the rank letter then the suit letter, e.g.
``TD`` (ten of diamonds), ``KH`` (king of hearts): the card codes of ``docs/rules.md``.
A hand is an int whose bit ``c`` is set when it holds card ``c``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidCard

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
JACK, QUEEN, KING, ACE = 9, 10, 11, 12

ALL_CARDS = (1 << 52) - 1
CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_INDEX = {code: i for i, code in enumerate(CODES)}

SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def card(suit: int, rank: int) -> int:
    """The card number of ``rank`` (0 = 2 .. 12 = ace) in ``suit`` (0..3, CDHS)."""
    return suit * 13 + rank


KING_OF_HEARTS = card(HEARTS, KING)
SEVEN_OF_HEARTS = card(HEARTS, 5)
QUEEN_OF_DIAMONDS = card(DIAMONDS, QUEEN)
QUEENS_MASK = sum(1 << card(s, QUEEN) for s in range(4))
TWOS_MASK = sum(1 << card(s, 0) for s in range(4))
DIAMONDS_MASK = SUIT_MASKS[DIAMONDS]
KH_MASK = 1 << KING_OF_HEARTS


def parse_card(code: object) -> int:
    """The card number of a code such as ``"TD"``; raises :class:`InvalidCard` otherwise.

    Codes are exact: ``"td"`` is not a code (records and actions carry the one spelling)."""
    if isinstance(code, str):
        c = _INDEX.get(code)
        if c is not None:
            return c
    raise InvalidCard(f"not a card code: {code!r} (rank from {RANKS}, then suit from {SUITS})")


def code(c: int) -> str:
    """The code of card number ``c``."""
    return CODES[c]


def mask_of(codes: Iterable[str]) -> int:
    """A hand mask from card codes; raises :class:`InvalidCard` on a bad or repeated code."""
    m = 0
    for cd in codes:
        c = parse_card(cd)
        if m >> c & 1:
            raise InvalidCard(f"card {CODES[c]} listed twice")
        m |= 1 << c
    return m


# SUIT_CARDS[s][m]: the card numbers of suit s whose rank bits are set in the 13-bit m.
SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(13 * s + r for r in range(13) if m >> r & 1) for m in range(1 << 13))
    for s in range(4)
)
_C0, _C1, _C2, _C3 = SUIT_CARDS


def cards_of(mask: int) -> tuple[int, ...]:
    """Card numbers in ``mask``, ascending (clubs first, low rank first)."""
    return (
        _C0[mask & 0x1FFF]
        + _C1[mask >> 13 & 0x1FFF]
        + _C2[mask >> 26 & 0x1FFF]
        + _C3[mask >> 39 & 0x1FFF]
    )


def codes_of(mask: int) -> list[str]:
    """Card codes in ``mask`` in canonical order (``CDHS``, rank ascending)."""
    return [CODES[c] for c in cards_of(mask)]


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


def parse_hands(hands: object) -> list[int]:
    """Four 13-card hand masks from JSON hands: an object keyed by seat ``"0"``..``"3"`` (or a
    list of four), each a list of 13 card codes, no card twice: together the whole deck.

    Raises :class:`InvalidCard` naming the seat and what is wrong."""
    if isinstance(hands, dict):
        if sorted(hands) != ["0", "1", "2", "3"]:
            raise InvalidCard("hands must be an object with seats '0'..'3'")
        hands = [hands[str(s)] for s in range(4)]
    if not isinstance(hands, list) or len(hands) != 4:
        raise InvalidCard("hands must give four seats")
    masks: list[int] = []
    seen = 0
    for seat, cards in enumerate(hands):
        if not isinstance(cards, list):
            raise InvalidCard(f"hand of seat {seat} must be a list of card codes")
        if len(cards) != 13:
            raise InvalidCard(f"hand of seat {seat} has {len(cards)} cards, not 13")
        try:
            mask = mask_of(cards)
        except InvalidCard as exc:
            raise InvalidCard(f"hand of seat {seat}: {exc}") from None
        if mask & seen:
            raise InvalidCard(f"card {codes_of(mask & seen)[0]} is in two hands")
        seen |= mask
        masks.append(mask)
    return masks  # 4 x 13 distinct cards: the whole deck
