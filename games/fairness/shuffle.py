"""The ``trix-shuffle/1`` shuffle of a deal and the dealing rule.

- Input deck, index 0..51: suit-major in ``CDHS`` order, rank ascending ``23456789TJQKA``
  within a suit (index = suit * 13 + rank: 2C=0, AC=12, 2D=13, AS=51).
- Stream: ``RandomStream(server_seed, "trix-shuffle/1", match_id, deal_number, client_seeds)``
  with the four client seeds in seat order 0..3 (see ``games.fairness.random_stream``).
- Shuffle: Fisher-Yates (Durstenfeld) with rejection sampling over that stream.
- Dealing: one card at a time starting at seat 0, so card ``i`` of the shuffled deck goes to
  seat ``i % 4`` (``003_90b5bd840447e506.txt``: "dealt one at a time starting at seat 0").
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import CODES
from games.fairness.errors import FairnessError
from games.fairness.random_stream import RandomStream, fisher_yates

ALGORITHM = "trix-shuffle/1"
"""Version name of this shuffle; written into every deal record's ``shuffle`` object."""

SEATS = 4
CANONICAL_DECK: tuple[str, ...] = CODES
"""The 52 card codes in the order the shuffle starts from (2C, 3C, ..., AC, 2D, ..., AS): the
engine's card codes (``games.engine.cards``: ranks and suits are defined there once; the
published test vectors pin this order)."""


def _seat_seeds(client_seeds: Sequence[str]) -> list[str]:
    if isinstance(client_seeds, str) or not isinstance(client_seeds, Sequence):
        raise FairnessError("client seeds must be a list of 4 strings, in seat order")
    if len(client_seeds) != SEATS:
        raise FairnessError(f"client seeds must be {SEATS}, one per seat in seat order")
    return list(client_seeds)


def shuffle(
    server_seed: bytes | str,
    client_seeds: Sequence[str],
    match_id: str,
    deal_number: int,
) -> list[str]:
    """The shuffled deck of a deal: 52 card codes, position 0 dealt first.

    ``server_seed``: the deal's 32-byte seed (bytes or 64 hex digits); ``client_seeds``: four
    strings of 1..64 printable ASCII characters, seat 0 first (bots use ``BOT_CLIENT_SEED``);
    ``match_id``: the public match id (1..64 printable ASCII); ``deal_number``: 1-based.
    Raises FairnessError on malformed input. Deterministic: the same inputs give the same deck.
    """
    stream = RandomStream(server_seed, ALGORITHM, match_id, deal_number, _seat_seeds(client_seeds))
    return fisher_yates(CANONICAL_DECK, stream)


def deal_hands(deck: Sequence[str]) -> list[list[str]]:
    """The four hands dealt from a 52-card ``deck``: ``hands[seat]`` is 13 codes, in dealt order.

    Card ``i`` goes to seat ``i % 4`` (one at a time from seat 0, ``003_90b5bd840447e506.txt``).
    Raises FairnessError unless ``deck`` holds 52 cards.
    """
    if len(deck) != len(CANONICAL_DECK):
        raise FairnessError(f"a deck has {len(CANONICAL_DECK)} cards, got {len(deck)}")
    return [list(deck[seat::SEATS]) for seat in range(SEATS)]
