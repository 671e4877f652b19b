"""Rotating the site's signing key (``manage.py rotate_signing_key``, docs/operations.md):
the one writer of the log's ``signing-key`` entries (``games.fairness.signing_keys``).

A rotation has two steps so that no process ever signs with a key the log has retired:
the new key is first given to every process as ``TRIX_SIGNING_NEW_KEY`` (they go on
signing with the key the log names), then :func:`rotate` logs it, endorsed by the key in
use; from that commit every process signs with it (``games.signing.current``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from games import signing
from games.fairness import receipt as receipts
from games.fairness.errors import FairnessError
from games.services import fairness_log


def _in_use(keys: dict[str, Any]) -> tuple[str | None, Any]:
    """The log's last key id (None when it holds none) and the private key in use."""
    logged = fairness_log.last_signing_key()
    if logged is None:
        return None, signing.current().private_key
    if logged not in keys:
        raise FairnessError(
            f"the log's signing key is {logged}, which is neither TRIX_SIGNING_KEY nor "
            "TRIX_SIGNING_NEW_KEY: give this process the key in use"
        )
    return logged, keys[logged]


def log_current() -> dict[str, Any]:
    """Log the key in use as the log's first ``signing-key`` entry (a site that has never
    rotated, to start its key's period in the log); returns the entry's body. Raises
    ``FairnessError`` when the log holds a signing key already."""
    with transaction.atomic():
        fairness_log.lock_head()
        logged, key = _in_use(signing.configured())
        if logged is not None:
            raise FairnessError(f"the log records signing keys already (the last: {logged})")
        row = fairness_log.append([fairness_log.signing_key(key=key)])[0]
    return row.body


def rotate() -> list[dict[str, Any]]:
    """Log ``TRIX_SIGNING_NEW_KEY`` as the site's signing key from now on, endorsed by the
    key in use (and, when the log holds no key yet, that key first, so the new one has a key
    to follow); returns the bodies logged. Raises ``FairnessError`` when
    ``TRIX_SIGNING_NEW_KEY`` is unset, is the key in use already, or was used before."""
    keys = signing.configured()
    if len(keys) < 2:
        raise FairnessError(
            "TRIX_SIGNING_NEW_KEY is not set (or is TRIX_SIGNING_KEY): give every process the "
            "new key first (docs/operations.md)"
        )
    new = signing.configured_key(settings.TRIX_SIGNING_NEW_KEY)
    new_id = receipts.key_id(new)
    with transaction.atomic():
        fairness_log.lock_head()
        logged, old = _in_use(keys)
        if new_id == (logged or receipts.key_id(old)):
            raise FairnessError(f"key {new_id} is the signing key in use already")
        if fairness_log.entry_index("signing-key", new_id) is not None:
            raise FairnessError(f"key {new_id} was the site's signing key before: never reuse one")
        items = [] if logged is not None else [fairness_log.signing_key(key=old)]
        items.append(fairness_log.signing_key(key=new, previous=old))
        rows = fairness_log.append(items)
    return [row.body for row in rows]
