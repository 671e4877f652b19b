"""The site's Ed25519 signing key: it signs every match-start receipt and the transparency
log's heads and checkpoints (``games.fairness.receipt.sign``). Private keys come from the
environment, never from the database: ``TRIX_SIGNING_KEY`` (PEM or 64 hex digits; the
embedded default draws one into ``var/``) and, during a rotation, ``TRIX_SIGNING_NEW_KEY``.

The key in use is the one the log names last: the key of the log's last ``signing-key``
entry (``games.fairness.signing_keys``), or ``TRIX_SIGNING_KEY`` while the log holds none.
A rotation (``manage.py rotate_signing_key``, docs/operations.md) logs the new key, endorsed
by the old one, and every process signs with the new key from the moment that entry commits;
the key in use is read once per signature (:func:`current`), so a receipt names the key that
signed it. Public keys: ``/fairness/public-key.json`` (the key in use) and
``/fairness/keys.json`` (every key with its period)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.utils.translation import gettext as _

from games.errors import Unavailable
from games.fairness import receipt as receipts

logger = logging.getLogger(__name__)


@lru_cache(maxsize=8)
def configured_key(text: str) -> Ed25519PrivateKey:
    """The private key of a setting's text (PEM or 64 hex). Raises ``FairnessError``."""
    return receipts.load_private_key(text)


def configured() -> dict[str, Ed25519PrivateKey]:
    """The private keys the environment holds, by key id: ``TRIX_SIGNING_KEY`` first, then
    ``TRIX_SIGNING_NEW_KEY`` when set. Raises ``FairnessError`` for a malformed key (the
    message never shows it)."""
    keys = [configured_key(settings.TRIX_SIGNING_KEY)]
    if settings.TRIX_SIGNING_NEW_KEY:
        keys.append(configured_key(settings.TRIX_SIGNING_NEW_KEY))
    return {receipts.key_id(key): key for key in keys}


@dataclass(frozen=True)
class SiteKey:
    """The key in use: its private key and its id (16 hex)."""

    private_key: Ed25519PrivateKey
    key_id: str

    def sign(self, payload: dict[str, Any]) -> str:
        """The signature (128 hex digits) of ``payload``'s canonical bytes."""
        return receipts.sign(payload, self.private_key)

    def public(self) -> dict[str, str]:
        """``{"algorithm": "ed25519", "public_key": 64 hex, "key_id": 16 hex}``."""
        return {
            "algorithm": "ed25519",
            "public_key": receipts.public_key_hex(self.private_key),
            "key_id": self.key_id,
        }

    def public_bytes(self) -> bytes:
        """The 32 raw bytes of the public key (RFC 8032)."""
        return bytes.fromhex(receipts.public_key_hex(self.private_key))


def current() -> SiteKey:
    """The key in use now (see the module docstring). Raises ``FairnessError`` when a key is
    malformed, and ``games.errors.Unavailable`` (503, ``signing_unavailable``) when the log's
    last key is not in the environment (a rotation logged before this process was given the
    new key): the site then signs nothing rather than sign with a retired key, and the
    operator's log says which key is missing."""
    from games.services import fairness_log

    keys = configured()
    logged = fairness_log.last_signing_key()
    if logged is None:  # TRIX_SIGNING_KEY: the first of configured()
        first = next(iter(keys))
        return SiteKey(keys[first], first)
    if logged not in keys:
        logger.error(
            "the log's signing key is %s, which is neither TRIX_SIGNING_KEY nor "
            "TRIX_SIGNING_NEW_KEY (docs/operations.md, rotating the signing key)",
            logged,
        )
        raise Unavailable(
            _(
                "Matches cannot start right now: this server does not have the site's signing "
                "key. Try again later."
            ),
            "signing_unavailable",
        )
    return SiteKey(keys[logged], logged)


def public_key() -> dict[str, str]:
    """``{"algorithm": "ed25519", "public_key": 64 hex, "key_id": 16 hex}`` of the key in use:
    what ``/fairness/public-key.json`` serves. The log's last key, read from its entry (so it
    is served even by a process that lacks that private key), else ``TRIX_SIGNING_KEY``'s."""
    from games.services import fairness_log

    body = fairness_log.last_signing_key_body()
    if body is None:
        return current().public()
    return {field: body[field] for field in ("algorithm", "public_key", "key_id")}
