"""Interim stand-in for ``games.fairness`` (issue 3) until that module lands on main.

Same surface as ``games.fairness.MatchShuffle`` (the subset :mod:`games.dealing` uses), the
same commit-reveal order (commitment at creation, seeds revealed only after their deal), but
not the published ``trix-shuffle/1`` algorithm: delete this file when fairness lands.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Any

BOT_CLIENT_SEED = "bot"
ALGORITHM = "interim-shuffle/0"
RANKS = "23456789TJQKA"
DECK = [r + s for s in "CDHS" for r in RANKS]


class FairnessError(ValueError):
    """A malformed seed or an out-of-order step."""


def new_client_seed() -> str:
    return secrets.token_hex(16)


def validate_client_seed(value: object) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 64 or not value.isprintable():
        raise FairnessError("client seed must be 1..64 printable ASCII characters")
    if not value.isascii():
        raise FairnessError("client seed must be 1..64 printable ASCII characters")
    return value


class MatchShuffle:
    def __init__(self, data: dict[str, Any]):
        self.data = data

    @classmethod
    def create(cls, match_id: str, deals: int) -> MatchShuffle:
        return cls.from_secret(match_id, deals, secrets.token_bytes(32))

    @classmethod
    def from_secret(cls, match_id: str, deals: int, secret: bytes) -> MatchShuffle:
        return cls(
            {
                "algorithm": ALGORITHM,
                "match_id": match_id,
                "secret": secret.hex(),
                "deals": deals,
                "ended_through": 0,
                "client_seeds": None,
            }
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchShuffle:
        return cls(dict(data))

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)

    def _seed(self, d: int) -> str:
        return hashlib.sha256(bytes.fromhex(self.data["secret"]) + d.to_bytes(4, "big")).hexdigest()

    @property
    def commitment(self) -> str:
        joined = "".join(
            hashlib.sha256(self._seed(d).encode()).hexdigest()
            for d in range(1, self.data["deals"] + 1)
        )
        return hashlib.sha256(joined.encode()).hexdigest()

    def lock_client_seeds(self, seeds: list[str]) -> None:
        if self.data["client_seeds"] is not None:
            raise FairnessError("client seeds are already locked")
        self.data["client_seeds"] = [validate_client_seed(s) for s in seeds]

    def deal(self, d: int) -> list[list[str]]:
        if self.data["client_seeds"] is None:
            raise FairnessError("client seeds are not locked yet")
        key = bytes.fromhex(self._seed(d))
        msg = "|".join([self.data["match_id"], str(d), *self.data["client_seeds"]]).encode()
        deck = list(DECK)
        random.Random(hmac.new(key, msg, hashlib.sha256).digest()).shuffle(deck)
        return [deck[s::4] for s in range(4)]

    def end_deal(self, d: int) -> None:
        self.data["ended_through"] = max(self.data["ended_through"], d)

    def reveal(self, d: int) -> str:
        if d > self.data["ended_through"]:
            raise FairnessError(f"deal {d} has not ended: its seed stays secret")
        return self._seed(d)

    def shuffle_record(self, d: int) -> dict[str, Any]:
        return {
            "algorithm": ALGORITHM,
            "match_id": self.data["match_id"],
            "deal_number": d,
            "commitment": self.commitment,
            "server_seed": self.reveal(d),
            "client_seeds": {str(s): v for s, v in enumerate(self.data["client_seeds"])},
        }

    def public(self) -> dict[str, Any]:
        seeds = self.data["client_seeds"]
        return {
            "algorithm": ALGORITHM,
            "match_id": self.data["match_id"],
            "deals": self.data["deals"],
            "commitment": self.commitment,
            "client_seeds": None if seeds is None else {str(s): v for s, v in enumerate(seeds)},
            "ended_through": self.data["ended_through"],
            "revealed_seeds": {
                str(d): self._seed(d) for d in range(1, self.data["ended_through"] + 1)
            },
        }
