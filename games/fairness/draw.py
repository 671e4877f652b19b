"""The tournament seating draw ``trix-draw/1``: a committed secret, the entrants' client seeds,
one 32-byte draw key and the draw order. Spec: ``docs/fairness.md`` ("trix-draw/1").

Built on the same stream as the shuffles (``games.fairness.random_stream``)::

    secret      = 32 random bytes (secrets), drawn when the tournament is created
    commitment  = SHA-256(secret)                    published at once (64 hex digits)
    key         = block 0 of RandomStream(secret, "trix-draw/1", event, 1,
                      [entrant_0, client_seed_0, entrant_1, client_seed_1, ...])
                = HMAC-SHA256(secret, enc("trix-draw/1") || enc(event) || uint32_be(1)
                      || uint32_be(2n) || enc(entrant_0) || enc(client_seed_0) || ...
                      || uint64_be(0))
                  with the n entrants sorted by their UTF-8 bytes (ids are ASCII)
    draw order  = fisher_yates(sorted(units), RandomStream(key, "trix-draw/1", "order", 1, []))

The secret is committed before anyone registers, so the operator cannot try secrets against
the entrants' client seeds; each entrant's client seed enters the key, so no entrant can
predict the order it produces. The draw order is the round-1 seating order and the last
tie-break of every standing (``docs/tournaments.md``).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping, Sequence

from games.fairness.chain import hash_times
from games.fairness.errors import FairnessError
from games.fairness.random_stream import (
    SEED_BYTES,
    RandomStream,
    check_text,
    fisher_yates,
    seed_bytes,
)

ALGORITHM = "trix-draw/1"
"""Version name of the seating draw; the ``format`` of a draw record."""

ORDER_SCOPE = "order"
"""The stream scope of the draw order (the stream's second field)."""

DRAW_INDEX = 1
"""The stream index of the key and of the draw order (one draw per tournament)."""


def new_secret() -> bytes:
    """A fresh 32-byte draw secret (``secrets.token_bytes``); store it privately."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(secret: bytes | str) -> str:
    """The public commitment of a draw secret: SHA-256(secret) as 64 hex digits.

    ``secret`` is 32 bytes or 64 hex digits; raises FairnessError otherwise.
    """
    return hash_times(seed_bytes(secret, "draw secret"), 1).hex()


def sorted_entrants(entrants: Sequence[str]) -> list[str]:
    """``entrants`` sorted by their bytes; raises FairnessError on a malformed id or a repeat.

    An entrant id is 1..64 printable ASCII characters (``check_text``).
    """
    if isinstance(entrants, str) or not isinstance(entrants, Sequence | set | frozenset):
        raise FairnessError("entrants must be a list of entrant ids")
    ordered = sorted(check_text(e, "entrant id") for e in entrants)
    for first, second in zip(ordered, ordered[1:], strict=False):
        if first == second:
            raise FairnessError(f"entrant {first!r} is listed twice")
    return ordered


def draw_key(
    *,
    secret: bytes | str,
    event: str,
    entrants: Sequence[str],
    client_seeds: Mapping[str, str],
) -> bytes:
    """The 32-byte draw key of a tournament (see the module docstring for the bytes).

    ``secret``: the committed 32-byte secret (bytes or hex); ``event``: the public tournament
    id, e.g. ``"tournament:12"`` (1..64 printable ASCII); ``entrants``: entrant ids (any order,
    sorted here; unique); ``client_seeds``: entrant id -> client seed, exactly the entrants.
    Raises FairnessError on malformed input.
    """
    ordered = sorted_entrants(entrants)
    if not ordered:
        raise FairnessError("a draw needs at least one entrant")
    if not isinstance(client_seeds, Mapping):
        raise FairnessError("client seeds must map each entrant to its client seed")
    extra = set(client_seeds) - set(ordered)
    if extra:
        raise FairnessError(f"client seed given for {min(extra)!r}, who is not an entrant")
    fields: list[str] = []
    for entrant in ordered:
        if entrant not in client_seeds:
            raise FairnessError(f"entrant {entrant!r} has no client seed")
        fields.append(entrant)
        fields.append(check_text(client_seeds[entrant], f"client seed of {entrant}"))
    stream = RandomStream(secret, ALGORITHM, check_text(event, "event"), DRAW_INDEX, fields)
    return stream.block(0)


def draw_order(key: bytes | str, units: Sequence[str]) -> list[str]:
    """The seating draw: ``units`` (entrants or teams) in drawn order, a new list.

    ``units`` are sorted first (so their given order does not matter), then shuffled by
    Fisher-Yates over ``RandomStream(key, "trix-draw/1", "order", 1, [])``. Raises
    FairnessError on a malformed key, unit id or a repeated unit.
    """
    stream = RandomStream(key, ALGORITHM, ORDER_SCOPE, DRAW_INDEX, [])
    return fisher_yates(sorted_entrants(units), stream)


def draw_ranks(key: bytes | str, units: Sequence[str]) -> dict[str, int]:
    """Unit -> its 1-based position in ``draw_order(key, units)`` (1 drawn first).

    The result is shared between calls with the same key and units (the seating of a round
    asks for it several times): treat it as read-only.
    """
    return _ranks(key, tuple(sorted(units)))


@functools.lru_cache(maxsize=8)
def _ranks(key: bytes | str, units: tuple[str, ...]) -> dict[str, int]:
    return {unit: position for position, unit in enumerate(draw_order(key, units), start=1)}
