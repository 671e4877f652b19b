"""Commit-reveal for a sequence of secret seeds: a SHA-256 hash chain used in reverse.

For a match of ``length`` deals (or a tournament of ``length`` draws) the server draws one
32-byte ``secret`` with ``secrets`` and derives (SHA-256 from FIPS 180-4)::

    seed_length = secret
    seed_(i-1)  = SHA-256(seed_i)
    commitment  = seed_0 = SHA-256^length(secret)

Seed ``i`` is used for deal ``i`` (1-based), and the commitment is published before anyone
contributes input. Once deal ``i`` ends its seed is revealed and anyone checks
``SHA-256^i(seed_i) == commitment``. A revealed seed discloses the earlier seeds (they are its
hashes, and those deals have ended) but not the later ones (that would need a SHA-256 preimage).

``SeedChain`` enforces "reveal after, never before": ``reveal(i)`` raises RevealRefused until
``end(i)`` was called. ``to_dict``/``from_dict`` give plain JSON data for a database field;
that data holds the secret and must stay on the server. ``repr``/``str`` show no secret.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from games.fairness.errors import FairnessError, RevealRefused, StateError
from games.fairness.random_stream import SEED_BYTES, check_index, seed_bytes

MAX_LENGTH = 100_000
"""Most seeds one chain may cover (a match needs 20)."""


def hash_times(seed: bytes, times: int) -> bytes:
    """SHA-256 applied ``times`` times to ``seed`` (``times`` >= 0)."""
    for _ in range(times):
        seed = hashlib.sha256(seed).digest()
    return seed


def reveal_matches(seed: bytes | str, index: int, commitment: bytes | str) -> bool:
    """Whether ``SHA-256^index(seed) == commitment``: the check anyone runs on a revealed seed.

    ``seed`` and ``commitment`` are 32 bytes or 64 hex digits; ``index`` is the 1-based deal
    number. Raises FairnessError on malformed input.
    """
    check_index(index, "deal number")
    if index > MAX_LENGTH:
        raise FairnessError(f"deal number must be at most {MAX_LENGTH}")
    computed = hash_times(seed_bytes(seed), index)
    return hmac.compare_digest(computed, seed_bytes(commitment, "commitment"))


class SeedChain:
    """``length`` secret seeds behind one public commitment; seeds are revealed in order.

    Make one with ``SeedChain.create(length)``. Public attributes: ``length``, ``commitment``
    (64 hex digits) and ``ended_through`` (the last ended index, 0 before any).
    """

    __slots__ = ("length", "commitment", "ended_through", "_secret")

    def __init__(self, secret: bytes, length: int, ended_through: int = 0) -> None:
        check_index(length, "chain length")
        if length > MAX_LENGTH:
            raise FairnessError(f"chain length must be at most {MAX_LENGTH}")
        if isinstance(ended_through, bool) or not isinstance(ended_through, int):
            raise FairnessError("ended_through must be an integer")
        if not 0 <= ended_through <= length:
            raise FairnessError(f"ended_through must be from 0 to {length}")
        self._secret = seed_bytes(secret, "chain secret")
        self.length = length
        self.ended_through = ended_through
        self.commitment = hash_times(self._secret, length).hex()

    @classmethod
    def create(cls, length: int) -> SeedChain:
        """A new chain of ``length`` seeds from a fresh ``secrets.token_bytes(32)``."""
        return cls(secrets.token_bytes(SEED_BYTES), length)

    def __repr__(self) -> str:
        return (
            f"<SeedChain length={self.length} commitment={self.commitment} "
            f"ended_through={self.ended_through}>"
        )

    __str__ = __repr__

    def __reduce__(self):
        raise TypeError("SeedChain is not picklable; store to_dict() in a private field")

    def _check(self, index: int) -> int:
        check_index(index, "deal number")
        if index > self.length:
            raise FairnessError(f"deal number must be at most {self.length}")
        return index

    def seed(self, index: int) -> bytes:
        """The secret seed ``index`` (1-based), for the server's own use while dealing.

        Only the current seed (``ended_through + 1``) and ended ones are given out, so no code
        path can look at a later deal. Raises StateError for a later index.
        """
        self._check(index)
        if index > self.ended_through + 1:
            raise StateError(
                f"deal {index} is not current: deal {self.ended_through + 1} has not ended"
            )
        return hash_times(self._secret, self.length - index)

    def end(self, index: int) -> None:
        """Record that deal ``index`` ended, which allows revealing its seed.

        Deals end in order: ending ``ended_through + 1`` advances; ending an already ended
        deal is a no-op (safe to retry); ending a later deal raises StateError.
        """
        self._check(index)
        if index > self.ended_through + 1:
            raise StateError(
                f"deal {index} cannot end before deal {self.ended_through + 1} has ended"
            )
        self.ended_through = max(self.ended_through, index)

    def reveal(self, index: int) -> str:
        """The seed of ended deal ``index``, as 64 hex digits.

        Raises RevealRefused if deal ``index`` has not ended.
        """
        self._check(index)
        if index > self.ended_through:
            raise RevealRefused(
                f"deal {index} has not ended; its seed is revealed only after it ends"
            )
        return self.seed(index).hex()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data for a private database field. It holds the secret: never publish it."""
        return {
            "length": self.length,
            "commitment": self.commitment,
            "ended_through": self.ended_through,
            "secret": self._secret.hex(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> SeedChain:
        """Rebuild from ``to_dict()`` data; raises FairnessError if it is malformed or corrupt."""
        if not isinstance(data, dict):
            raise FairnessError("stored seed chain must be an object")
        missing = {"length", "commitment", "ended_through", "secret"} - data.keys()
        if missing:
            raise FairnessError(f"stored seed chain lacks {', '.join(sorted(missing))}")
        chain = cls(
            seed_bytes(data["secret"], "stored secret"), data["length"], data["ended_through"]
        )
        if not hmac.compare_digest(chain.commitment, str(data["commitment"])):
            raise FairnessError(
                "stored seed chain is corrupt: the secret does not match the commitment"
            )
        return chain
