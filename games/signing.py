"""The site's Ed25519 signing key: it signs every match-start receipt and the
transparency log's head (``games.fairness.receipt.sign``). The private key comes from
``TRIX_SIGNING_KEY`` (PEM or 64 hex digits; the embedded default draws one into ``var/``),
never from the database; its public half is published at ``/fairness/public-key.json``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings

from games.fairness import receipt as receipts


@lru_cache(maxsize=4)
def _load(text: str):
    return receipts.load_private_key(text)


def private_key():
    """The site's signing key (``Ed25519PrivateKey``). Raises ``FairnessError`` when
    ``TRIX_SIGNING_KEY`` is malformed (the message never shows the key)."""
    return _load(settings.TRIX_SIGNING_KEY)


def public_key() -> dict[str, str]:
    """``{"algorithm": "ed25519", "public_key": 64 hex, "key_id": 16 hex}``: what
    ``/fairness/public-key.json`` serves."""
    key = private_key()
    return {
        "algorithm": "ed25519",
        "public_key": receipts.public_key_hex(key),
        "key_id": receipts.key_id(key),
    }


def sign(payload: dict[str, Any]) -> str:
    """The site's signature (128 hex digits) of ``payload``'s canonical bytes."""
    return receipts.sign(payload, private_key())


def sign_bytes(data: bytes) -> bytes:
    """The site's raw Ed25519 signature (64 bytes) of ``data`` (a checkpoint's note text)."""
    return private_key().sign(data)


def public_key_bytes() -> bytes:
    """The site's public key, the 32 raw bytes of RFC 8032."""
    return bytes.fromhex(receipts.public_key_hex(private_key()))
