"""The fairness state of one match: its seed chain, its client seeds and what may be revealed.

The order a table follows (each step refuses to run out of order):

1. Match created: ``shuffle = MatchShuffle.create(match_id, deals)``; store
   ``shuffle.to_dict()`` in a private field and publish ``shuffle.public()`` (the commitment)
   before any seat is taken.
2. Seats taken: each human seat submits a client seed (made in the browser, editable, shown
   back; ``new_client_seed()`` is a server-side default); bots use ``BOT_CLIENT_SEED``. At the
   match start ``shuffle.lock_client_seeds([seat0, seat1, seat2, seat3])``; they hold for
   every deal of the match.
3. Deal ``d`` (1-based) starts: ``hands = shuffle.deal(d)`` (server only: each hand goes to its
   holder alone).
4. Deal ``d`` ends: ``shuffle.end_deal(d)``; now ``shuffle.reveal(d)`` and
   ``shuffle.shuffle_record(d)`` (the deal record's ``"shuffle"`` object) work.

``repr``/``str`` show only public fields; ``to_dict()`` holds the secret (server storage only).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from games.fairness.chain import SeedChain
from games.fairness.errors import FairnessError, StateError
from games.fairness.random_stream import check_text, seed_bytes
from games.fairness.shuffle import ALGORITHM, SEATS, deal_hands, shuffle

BOT_CLIENT_SEED = "bot"
"""The fixed public client seed of a seat played by a bot."""


def new_client_seed() -> str:
    """A fresh client seed (32 hex digits) for a seat whose player supplied none."""
    return secrets.token_hex(16)


def validate_client_seed(value: object) -> str:
    """Return ``value`` if it is a valid client seed (1..64 printable ASCII), else raise
    FairnessError naming the rule (for the seat form's error message)."""
    return check_text(value, "client seed")


class MatchShuffle:
    """Commitment, client seeds and reveals for the deals of one match (``trix-shuffle/1``).

    Public attributes: ``match_id``, ``deals``, ``commitment`` (hex), ``ended_through``,
    ``client_seeds`` (tuple in seat order, or None until locked).
    """

    __slots__ = ("match_id", "_chain", "_client_seeds")

    def __init__(
        self, match_id: str, chain: SeedChain, client_seeds: Sequence[str] | None = None
    ) -> None:
        self.match_id = check_text(match_id, "match id")
        self._chain = chain
        self._client_seeds: tuple[str, ...] | None = None
        if client_seeds is not None:
            self.lock_client_seeds(client_seeds)

    @classmethod
    def create(cls, match_id: str, deals: int) -> MatchShuffle:
        """A new match's state with a fresh secret; publish ``public()`` before seating."""
        return cls(match_id, SeedChain.create(deals))

    @classmethod
    def from_secret(cls, match_id: str, deals: int, secret: bytes | str) -> MatchShuffle:
        """Reproducible state from a given 32-byte secret: for ``trix simulate --seed`` and
        tests only. The site must use ``create()``, whose secret nobody chose."""
        return cls(match_id, SeedChain(seed_bytes(secret, "secret"), deals))

    def __repr__(self) -> str:
        return (
            f"<MatchShuffle match_id={self.match_id!r} deals={self.deals} "
            f"commitment={self.commitment} ended_through={self.ended_through}>"
        )

    __str__ = __repr__

    def __reduce__(self):
        raise TypeError("MatchShuffle is not picklable; store to_dict() in a private field")

    @property
    def deals(self) -> int:
        return self._chain.length

    @property
    def commitment(self) -> str:
        return self._chain.commitment

    @property
    def ended_through(self) -> int:
        return self._chain.ended_through

    @property
    def client_seeds(self) -> tuple[str, ...] | None:
        return self._client_seeds

    def lock_client_seeds(self, client_seeds: Sequence[str]) -> None:
        """Fix the four client seeds (seat order) for every deal; allowed once.

        Raises FairnessError for a malformed seed, StateError if already locked.
        """
        if self._client_seeds is not None:
            raise StateError("client seeds are already locked for this match")
        if isinstance(client_seeds, str) or not isinstance(client_seeds, Sequence):
            raise FairnessError("client seeds must be a list of 4 strings, in seat order")
        if len(client_seeds) != SEATS:
            raise FairnessError(f"client seeds must be {SEATS}, one per seat in seat order")
        for seat, value in enumerate(client_seeds):
            check_text(value, f"client seed of seat {seat}")
        self._client_seeds = tuple(client_seeds)

    def _seeds(self) -> tuple[str, ...]:
        if self._client_seeds is None:
            raise StateError("client seeds are not locked yet: no deal before every seat's input")
        return self._client_seeds

    def deck(self, deal_number: int) -> list[str]:
        """The shuffled deck of the current or an ended deal (server only).

        Raises StateError before the client seeds are locked or for a later deal.
        """
        client_seeds = self._seeds()
        seed = self._chain.seed(deal_number)
        return shuffle(seed, client_seeds, self.match_id, deal_number)

    def deal(self, deal_number: int) -> list[list[str]]:
        """The four hands (``hands[seat]``, 13 codes in dealt order) of the current deal.

        Server only: each hand may reach its holder alone. Raises like ``deck()``.
        """
        return deal_hands(self.deck(deal_number))

    def end_deal(self, deal_number: int) -> None:
        """Record that ``deal_number`` ended (for any reason); deals end in order; idempotent."""
        self._seeds()
        self._chain.end(deal_number)

    def reveal(self, deal_number: int) -> str:
        """The ended deal's server seed (hex). Raises RevealRefused before it ended."""
        return self._chain.reveal(deal_number)

    def shuffle_record(self, deal_number: int) -> dict[str, Any]:
        """The ``"shuffle"`` object of an ended deal's ``trix-deal/1`` record::

            {"algorithm": "trix-shuffle/1", "match_id": str, "deal_number": int,
             "commitment": hex, "server_seed": hex, "client_seeds": {"0": str, ..., "3": str}}

        Raises RevealRefused before the deal ended.
        """
        server_seed = self.reveal(deal_number)
        return {
            "algorithm": ALGORITHM,
            "match_id": self.match_id,
            "deal_number": deal_number,
            "commitment": self.commitment,
            "server_seed": server_seed,
            "client_seeds": {str(seat): seed for seat, seed in enumerate(self._seeds())},
        }

    def public(self) -> dict[str, Any]:
        """What anyone may see at any time (JSON)::

        {"algorithm", "match_id", "deals", "commitment",
         "client_seeds": {"0": str, ...} or None until locked,
         "ended_through": int, "revealed_seeds": {"1": hex, ...} (ended deals only)}
        """
        seeds = self._client_seeds
        return {
            "algorithm": ALGORITHM,
            "match_id": self.match_id,
            "deals": self.deals,
            "commitment": self.commitment,
            "client_seeds": None if seeds is None else {str(s): v for s, v in enumerate(seeds)},
            "ended_through": self.ended_through,
            "revealed_seeds": {
                str(d): self._chain.reveal(d) for d in range(1, self.ended_through + 1)
            },
        }

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON for a private database field (holds the secret: never publish it)."""
        return {
            "algorithm": ALGORITHM,
            "match_id": self.match_id,
            "client_seeds": None if self._client_seeds is None else list(self._client_seeds),
            "chain": self._chain.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchShuffle:
        """Rebuild from ``to_dict()`` data; raises FairnessError if malformed or corrupt."""
        if not isinstance(data, dict):
            raise FairnessError("stored match shuffle must be an object")
        if data.get("algorithm") != ALGORITHM:
            raise FairnessError(f"stored match shuffle is not {ALGORITHM}")
        return cls(
            data.get("match_id"), SeedChain.from_dict(data.get("chain")), data.get("client_seeds")
        )
