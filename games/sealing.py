"""Secrets sealed at rest: the one module that encrypts and decrypts the server's secrets in
the database.

Two secrets are stored: a match's shuffle chain secret (``MatchRecord.shuffle``, through
:mod:`games.shuffles`) and a tournament's draw secret (``Tournament.draw_secret``). Both are
kept sealed with AES-256-GCM (``cryptography``'s ``AESGCM``) under ``TRIX_SEED_KEY``, a key
held outside the database (settings: environment or, for the embedded default, a file in
``var/``), so read access to the database alone (a dump, a replica, a staff member's SQL
console) shows no secret and no future deal.

A sealed secret is one line of text::

    trix-seal/1:<key id, 16 hex>:<nonce, 24 hex>:<ciphertext and tag, hex>

- the key id is the first 16 hex digits of SHA-256("trix-seal-key/1" || key): it names the
  key that sealed it, so a rotation (``TRIX_SEED_KEY`` new, the old one in
  ``TRIX_SEED_OLD_KEYS``) still opens older secrets until ``manage.py reseal_secrets``
  seals them anew;
- the nonce is 12 random bytes, new for every sealing;
- the associated data is ``"trix-seal/1|" + context``, where the context names what the
  secret belongs to (``match:<match id>``, ``draw:tournament:<id>``): a ciphertext moved to
  another match or tournament does not open.

Errors: :class:`SealError` (malformed text, unknown key id, wrong context or key, tampered).
"""

from __future__ import annotations

import hashlib
import os
import re

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.conf import settings

FORMAT = "trix-seal/1"
NONCE_BYTES = 12
KEY_HEX = re.compile(r"[0-9a-fA-F]{64}")
_SEALED = re.compile(r"trix-seal/1:([0-9a-f]{16}):([0-9a-f]{24}):((?:[0-9a-f]{2}){17,})")


class SealError(Exception):
    """A secret could not be sealed or opened (the message says why; never the secret)."""


def parse_key(text: str, name: str = "TRIX_SEED_KEY") -> bytes:
    """The 32 bytes of a key given as 64 hex digits. Raises :class:`SealError` naming
    ``name``."""
    if not isinstance(text, str) or not KEY_HEX.fullmatch(text.strip()):
        raise SealError(f"{name} must be 64 hex digits (32 bytes)")
    return bytes.fromhex(text.strip())


def key_id(key: bytes) -> str:
    """The public id of a sealing key: 16 hex digits (SHA-256 of a prefix and the key)."""
    return hashlib.sha256(b"trix-seal-key/1" + key).hexdigest()[:16]


def current_key() -> bytes:
    """``TRIX_SEED_KEY`` as 32 bytes. Raises :class:`SealError` if malformed."""
    return parse_key(settings.TRIX_SEED_KEY)


def _keys() -> dict[str, bytes]:
    """Every key that may open a secret, by key id: the current one and the retired ones."""
    keys = [current_key()] + [
        parse_key(text, "TRIX_SEED_OLD_KEYS") for text in settings.TRIX_SEED_OLD_KEYS
    ]
    return {key_id(key): key for key in keys}


def _associated(context: str) -> bytes:
    if not isinstance(context, str) or not context:
        raise SealError("a sealed secret needs its context (what it belongs to)")
    return f"{FORMAT}|{context}".encode()


def seal(secret: bytes, *, context: str) -> str:
    """``secret`` sealed under ``TRIX_SEED_KEY`` for ``context`` (e.g. ``match:table-12``):
    the ``trix-seal/1:...`` text to store. Raises :class:`SealError`."""
    if not isinstance(secret, bytes) or not secret:
        raise SealError("only a non-empty byte string can be sealed")
    key = current_key()
    nonce = os.urandom(NONCE_BYTES)
    ciphertext = AESGCM(key).encrypt(nonce, secret, _associated(context))
    return f"{FORMAT}:{key_id(key)}:{nonce.hex()}:{ciphertext.hex()}"


def is_sealed(value: object) -> bool:
    """Whether ``value`` is the text of a sealed secret (not whether it opens)."""
    return isinstance(value, str) and _SEALED.fullmatch(value) is not None


def sealed_key_id(value: str) -> str:
    """The id of the key that sealed ``value``. Raises :class:`SealError` if malformed."""
    match = _SEALED.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise SealError(f"not a {FORMAT} sealed secret")
    return match.group(1)


def unseal(value: str, *, context: str) -> bytes:
    """The secret sealed in ``value`` for ``context``. Raises :class:`SealError` when it is
    malformed, its key is not configured, or it was sealed for another context, under
    another key or changed."""
    match = _SEALED.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise SealError(f"not a {FORMAT} sealed secret")
    kid, nonce, ciphertext = match.groups()
    key = _keys().get(kid)
    if key is None:
        raise SealError(
            f"the secret was sealed with key {kid}, which is neither TRIX_SEED_KEY nor in "
            "TRIX_SEED_OLD_KEYS"
        )
    try:
        return AESGCM(key).decrypt(
            bytes.fromhex(nonce), bytes.fromhex(ciphertext), _associated(context)
        )
    except InvalidTag:
        raise SealError(
            f"the secret sealed for {context} does not open: another match's or tournament's "
            "secret, or changed"
        ) from None


def needs_resealing(value: str) -> bool:
    """Whether ``value`` is sealed under another key than ``TRIX_SEED_KEY`` (a rotation)."""
    return sealed_key_id(value) != key_id(current_key())
