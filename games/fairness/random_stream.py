"""The byte stream and the unbiased draws every random choice uses (shuffles, seat draws).

The stream for a draw is HMAC-SHA256 in counter mode (RFC 2104 HMAC over FIPS 180-4 SHA-256)::

    block_k = HMAC-SHA256(key=server_seed, msg=prefix || uint64_be(k))   for k = 0, 1, 2, ...
    prefix  = enc(algorithm) || enc(scope) || uint32_be(index)
              || uint32_be(len(client_seeds)) || enc(client_seed_0) || enc(client_seed_1) || ...
    enc(s)  = uint32_be(len(utf8(s))) || utf8(s)

Every field is length-prefixed, so no two different inputs give the same message. The stream
is read as big-endian 32-bit words. ``below(n)`` rejects words ``>= 2**32 - (2**32 % n)``
(the largest multiple of ``n`` that fits) and returns ``word % n``: no modulo bias.
``fisher_yates`` is Durstenfeld's in-place shuffle: for ``i`` from ``len - 1`` down to 1,
swap item ``i`` with item ``below(i + 1)``.

Nothing here imports Django; only ``hashlib`` and ``hmac`` from the standard library.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from collections.abc import Sequence
from typing import TypeVar

from games.fairness.errors import FairnessError

SEED_BYTES = 32
"""Length of a server seed in bytes (64 hex digits in records)."""

MAX_TEXT_CHARS = 64
"""Longest client seed, match id or scope, in characters."""

_WORD = 2**32
_WORDS = struct.Struct(">8I")
T = TypeVar("T")


def seed_bytes(seed: bytes | str, field: str = "server seed") -> bytes:
    """Return a server seed as 32 bytes; accepts the bytes or 64 hex digits.

    Raises FairnessError naming ``field`` (never echoing the value) when it is malformed.
    """
    if isinstance(seed, bytes | bytearray):
        raw = bytes(seed)
    elif isinstance(seed, str):
        if len(seed) != 2 * SEED_BYTES:
            raise FairnessError(f"{field} must be {2 * SEED_BYTES} hex digits")
        try:
            raw = bytes.fromhex(seed)
        except ValueError:
            raise FairnessError(f"{field} must be {2 * SEED_BYTES} hex digits") from None
    else:
        raise FairnessError(f"{field} must be bytes or a hex string")
    if len(raw) != SEED_BYTES:
        raise FairnessError(f"{field} must be {SEED_BYTES} bytes")
    return raw


def check_hex(value: object, field: str, digits: int = 64) -> str:
    """``value`` if it is ``digits`` lower-case hex digits, else FairnessError naming ``field``."""
    if not (isinstance(value, str) and re.fullmatch(f"[0-9a-f]{{{digits}}}", value)):
        raise FairnessError(f"{field} must be {digits} lower-case hex digits")
    return value


def check_text(value: object, field: str) -> str:
    """Return ``value`` if it is 1..64 printable ASCII characters, else raise FairnessError."""
    if not isinstance(value, str):
        raise FairnessError(f"{field} must be a string")
    if not 1 <= len(value) <= MAX_TEXT_CHARS:
        raise FairnessError(f"{field} must be 1 to {MAX_TEXT_CHARS} characters")
    # For ASCII text, isprintable() is exactly the range space..'~' (0x20..0x7E).
    if not (value.isascii() and value.isprintable()):
        raise FairnessError(f"{field} must be printable ASCII (space to '~')")
    return value


def check_index(value: object, field: str) -> int:
    """Return ``value`` if it is an int in 1..2**32-1 (a deal or draw number), else raise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise FairnessError(f"{field} must be an integer")
    if not 1 <= value < _WORD:
        raise FairnessError(f"{field} must be from 1 to {_WORD - 1}")
    return value


def _enc(text: str) -> bytes:
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "big") + data


def stream_prefix(algorithm: str, scope: str, index: int, client_seeds: Sequence[str]) -> bytes:
    """The HMAC message prefix of a draw (see the module docstring); inputs are validated."""
    check_text(algorithm, "algorithm")
    check_text(scope, "scope")
    check_index(index, "index")
    if isinstance(client_seeds, str) or not isinstance(client_seeds, Sequence):
        raise FairnessError("client seeds must be a list of strings")
    parts = [_enc(algorithm), _enc(scope), index.to_bytes(4, "big")]
    parts.append(len(client_seeds).to_bytes(4, "big"))
    for position, client_seed in enumerate(client_seeds):
        parts.append(_enc(check_text(client_seed, f"client seed {position}")))
    return b"".join(parts)


class RandomStream:
    """Unbiased integers drawn from HMAC-SHA256(server_seed, prefix || counter).

    ``RandomStream(server_seed, algorithm, scope, index, client_seeds)``; ``server_seed`` is
    32 bytes or 64 hex digits. ``blocks`` counts the blocks read so far. The repr never shows
    the seed.
    """

    __slots__ = ("_mac", "_words", "blocks")

    def __init__(
        self,
        server_seed: bytes | str,
        algorithm: str,
        scope: str,
        index: int,
        client_seeds: Sequence[str],
    ) -> None:
        prefix = stream_prefix(algorithm, scope, index, client_seeds)
        # HMAC state after the key and the prefix; each block copies it and adds the counter.
        self._mac = hmac.new(seed_bytes(server_seed), prefix, hashlib.sha256)
        self._words: list[int] = []
        self.blocks = 0

    def __repr__(self) -> str:
        return f"<RandomStream blocks={self.blocks}>"

    def block(self, counter: int) -> bytes:
        """The 32-byte block number ``counter`` of this stream (for test vectors)."""
        mac = self._mac.copy()
        mac.update(counter.to_bytes(8, "big"))
        return mac.digest()

    def word(self) -> int:
        """The next big-endian 32-bit word of the stream."""
        if not self._words:
            # Eight words per block, reversed so that pop() takes them in stream order.
            self._words = list(reversed(_WORDS.unpack(self.block(self.blocks))))
            self.blocks += 1
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``1 <= n <= 2**32``), by rejection sampling."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= _WORD:
            raise FairnessError("n must be an integer from 1 to 2**32")
        limit = _WORD - _WORD % n
        while True:
            word = self.word()
            if word < limit:
                return word % n


def fisher_yates(items: Sequence[T], stream: RandomStream) -> list[T]:
    """A new list: ``items`` shuffled by Durstenfeld's Fisher-Yates with ``stream.below``."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = stream.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result
