"""The site's signing keys over time: ``trix-signing-key/1`` statements, the key history a
log's ``signing-key`` entries make, the ``trix-keys/1`` list served at
``/fairness/keys.json``, and the choice of key by id a verifier makes (docs/fairness.md,
"Signing keys and rotation").

A key's **statement** names it and the key before it::

    {"format": "trix-signing-key/1", "algorithm": "ed25519", "key_id": 16 hex,
     "public_key": 64 hex, "previous": 16 hex | null, "previous_key": 64 hex | null}

Its log body is the statement's fields but ``format``, plus ``signature`` (the key's own
Ed25519 signature of the statement's canonical bytes: whoever logged it holds the key) and
``endorsement`` (the previous key's signature of the same bytes: the old key hands over to
the new one; ``null`` for the first key). A key is valid from its entry's ``logged_at``
until, inclusive, the ``logged_at`` of the next key's entry (the last: until now), so every
signature can be matched with the key the site signed with at that time; the first key is
valid from the start (it signed everything before the log recorded any key, which the site
does only at its first rotation). The history is a
chain: the first key has no previous, each next key names the one before it.

A :class:`Keyring` answers "which key signed this?" by the ``key_id`` a receipt, a log head
or a checkpoint names, and refuses a signature made outside its key's period.

Pure Python (``cryptography`` for Ed25519). Errors: ``FairnessError``, naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_hex
from games.fairness.receipt import (
    check_signature,
    check_time,
    key_id,
    load_public_key,
    public_key_hex,
    sign,
)

__all__ = [
    "BODY_FIELDS",
    "KEYS_FORMAT",
    "KEY_FORMAT",
    "Key",
    "Keyring",
    "build_body",
    "check_body",
    "keyring_from_document",
    "keyring_from_log",
    "keys_document",
    "statement",
]

KEY_FORMAT = "trix-signing-key/1"
KEYS_FORMAT = "trix-keys/1"
BODY_FIELDS = frozenset(
    {"algorithm", "key_id", "public_key", "previous", "previous_key", "endorsement", "signature"}
)
"""The fields of a ``signing-key`` log entry's body."""

_LISTED = BODY_FIELDS | {"valid_from", "valid_until", "log_index"}
"""The fields of each key of a ``trix-keys/1`` list."""


def statement(body: Mapping[str, Any]) -> dict[str, Any]:
    """The ``trix-signing-key/1`` statement a ``signing-key`` body's signatures are of."""
    fields = ("algorithm", "key_id", "public_key", "previous", "previous_key")
    return {"format": KEY_FORMAT, **{field: body[field] for field in fields}}


def build_body(
    *, key: Ed25519PrivateKey, previous: Ed25519PrivateKey | None = None
) -> dict[str, Any]:
    """The ``signing-key`` body logging ``key``, endorsed by ``previous`` (the key in use
    until now; None for the first key of a log)."""
    body = {
        "algorithm": "ed25519",
        "key_id": key_id(key),
        "public_key": public_key_hex(key),
        "previous": None if previous is None else key_id(previous),
        "previous_key": None if previous is None else public_key_hex(previous),
    }
    said = statement(body)
    body["signature"] = sign(said, key)
    body["endorsement"] = None if previous is None else sign(said, previous)
    return body


def check_body(body: object, where: str = "signing-key") -> dict[str, Any]:
    """Return ``body`` if it is a well-formed ``signing-key`` body whose ``key_id`` is its
    key's, whose ``previous`` is its ``previous_key``'s, signed by its key and (unless it is
    a first key) endorsed by the previous one; else FairnessError naming ``where``."""
    if not isinstance(body, dict) or set(body) != BODY_FIELDS:
        raise FairnessError(
            f"{where}: a signing-key has the fields {', '.join(sorted(BODY_FIELDS))}"
        )
    if body["algorithm"] != "ed25519":
        raise FairnessError(f"{where}: algorithm must be 'ed25519'")
    key = load_public_key(check_hex(body["public_key"], f"{where}: public_key"))
    if body["key_id"] != key_id(key):
        raise FairnessError(f"{where}: key_id {body['key_id']!r} is not its key's id {key_id(key)}")
    said = statement(body)
    try:
        check_signature(said, body["signature"], key)
    except FairnessError:
        raise FairnessError(
            f"{where}: key {body['key_id']}'s own signature of its statement is not valid"
        ) from None
    links = (body["previous"], body["previous_key"], body["endorsement"])
    if links == (None, None, None):
        return body
    if None in links:
        raise FairnessError(f"{where}: previous, previous_key and endorsement come together")
    previous = load_public_key(check_hex(body["previous_key"], f"{where}: previous_key"))
    if body["previous"] != key_id(previous):
        raise FairnessError(
            f"{where}: previous {body['previous']!r} is not previous_key's id {key_id(previous)}"
        )
    if previous == key or body["previous"] == body["key_id"]:
        raise FairnessError(f"{where}: a key cannot follow itself")
    try:
        check_signature(said, body["endorsement"], previous)
    except FairnessError:
        raise FairnessError(
            f"{where}: the endorsement of key {body['key_id']} is not key "
            f"{body['previous']}'s signature"
        ) from None
    return body


@dataclass(frozen=True)
class Key:
    """One key of a history: its id, public key, the first and last second (UTC,
    ``YYYY-MM-DDTHH:MM:SSZ``, both inclusive) it signed in, None where open (the first key
    has no start, the current key no end), and the log index of its ``signing-key`` entry
    and of the next key's (None where there is none): the log entries it signed lie
    between them (the first key's: from entry 0)."""

    key_id: str
    public_key: Ed25519PublicKey
    valid_from: str | None = None
    valid_until: str | None = None
    log_index: int | None = None
    until_index: int | None = None

    def signed_at(self, index: int) -> bool:
        """Whether an entry at log index ``index`` was appended while the key was in use:
        after its own entry (the first key: from the start) and before the next key's."""
        after = self.valid_from is None or self.log_index is None or index > self.log_index
        return after and (self.until_index is None or index < self.until_index)

    def covers(self, moment: str) -> bool:
        """Whether the key was in use at ``moment`` (the times compare as text)."""
        after = self.valid_from is None or self.valid_from <= moment
        return after and (self.valid_until is None or moment <= self.valid_until)

    def period(self) -> str:
        start = self.valid_from or "the start"
        return f"from {start} until {self.valid_until or 'now'}"


class Keyring:
    """The keys a verifier accepts signatures from, by id, each with its period."""

    def __init__(self, keys: Sequence[Key], source: str):
        self.keys = {key.key_id: key for key in keys}
        self.order = [key.key_id for key in keys]
        self.source = source
        """What the keys came from, for messages (``--public-key``, ``--keys keys.json``)."""

    @classmethod
    def of(cls, public_key: Ed25519PublicKey, source: str = "--public-key") -> Keyring:
        """The one key ``public_key``, in use at any time."""
        return cls([Key(key_id(public_key), public_key)], source)

    def ids(self) -> str:
        return ", ".join(self.order)

    def key(self, wanted: str | None, at: str | None, what: str) -> Key:
        """The key (its id, public key and period) named ``wanted`` (a signature's
        ``key_id``), which must have been in use at ``at`` (the signature's time, when
        known). ``wanted`` None (a signature made before signatures named their key): the key
        in use at ``at``, or the only key.
        Raises FairnessError naming ``what`` was signed."""
        if wanted is None:
            if len(self.keys) == 1:
                return next(iter(self.keys.values()))
            covering = [key for key in self.keys.values() if at is not None and key.covers(at)]
            if len(covering) != 1:
                raise FairnessError(
                    f"{what} names no key id and has no time: which of {self.ids()} signed it "
                    "is unknown"
                    if at is None
                    else f"{what} names no key id, and {at} is not in the period of exactly "
                    f"one key of {self.source}"
                )
            return covering[0]
        key = self.keys.get(wanted)
        if key is None:
            raise FairnessError(
                f"{what} is signed by key {wanted}, which is not in {self.source} "
                f"(it holds {self.ids()})"
                + ("; give --keys with the site's keys.json" if len(self.keys) == 1 else "")
            )
        if at is not None and not key.covers(at):
            raise FairnessError(
                f"{what} was signed at {at} by key {wanted}, which was in use {key.period()} "
                f"({self.source})"
            )
        return key


def _history(
    bodies: Iterable[tuple[Mapping[str, Any], str | None, int | None]], where: str
) -> list[Key]:
    """The keys of a chain of ``(signing-key body, logged_at, log index)`` in order, each
    valid from its time (the first: from the start) until its successor's. Raises
    FairnessError unless each body is well formed and names the one before as previous (the
    first: none), and each key was logged after the one before it."""
    keys: list[Key] = []
    last_time = None
    for number, (body, logged_at, index) in enumerate(bodies):
        check_body(body, f"{where} {number}")
        if last_time is not None and logged_at is not None and logged_at < last_time:
            raise FairnessError(
                f"{where} {number}: key {body['key_id']} was logged at {logged_at}, before the "
                f"key before it ({last_time})"
            )
        last_time = logged_at or last_time
        before = keys[-1].key_id if keys else None
        if body["previous"] != before:
            raise FairnessError(
                f"{where} {number}: key {body['key_id']} names {body['previous']} as the key "
                f"before it, but the key before it is {before}"
            )
        if body["key_id"] in {key.key_id for key in keys}:
            raise FairnessError(f"{where} {number}: key {body['key_id']} comes back")
        if keys:
            keys[-1] = replace(keys[-1], valid_until=logged_at, until_index=index)
        start = logged_at if keys else None  # the first key: from the start
        keys.append(Key(body["key_id"], load_public_key(body["public_key"]), start, None, index))
    return keys


def keyring_from_log(entries: Iterable[Mapping[str, Any]]) -> Keyring | None:
    """The key history of a log's ``signing-key`` entries (None when it holds none)."""
    bodies = [
        (e["body"], e["logged_at"], e["index"]) for e in entries if e.get("kind") == "signing-key"
    ]
    if not bodies:
        return None
    return Keyring(_history(bodies, "signing-key"), "the log's signing-key entries")


def keys_document(
    logged: Sequence[tuple[Mapping[str, Any], int, str]], unlogged: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The ``trix-keys/1`` list: ``logged`` is each ``signing-key`` entry's ``(body, log
    index, logged_at)`` in log order; ``unlogged`` the body of the key in use when the log
    holds none yet (a site that has never rotated its key), listed without a period."""
    keys = []
    for number, (body, index, logged_at) in enumerate(logged):
        until = logged[number + 1][2] if number + 1 < len(logged) else None
        start = logged_at if number else None  # the first key: from the start
        keys.append({**body, "log_index": index, "valid_from": start, "valid_until": until})
    if not logged and unlogged is not None:
        keys.append({**unlogged, "log_index": None, "valid_from": None, "valid_until": None})
    return {"format": KEYS_FORMAT, "keys": keys}


def keyring_from_document(document: object, source: str = "--keys") -> Keyring:
    """The keys of a ``trix-keys/1`` list (``/fairness/keys.json``): a chain, each key
    signed by itself and endorsed by the one before, each valid from its ``valid_from``
    until the next one's. Raises FairnessError for anything else."""
    if not isinstance(document, dict) or document.get("format") != KEYS_FORMAT:
        raise FairnessError(f"{source}: not a {KEYS_FORMAT} list (/fairness/keys.json)")
    listed = document.get("keys")
    if not isinstance(listed, list) or not listed:
        raise FairnessError(f"{source}: keys must be a non-empty list")
    bodies = []
    for number, item in enumerate(listed):
        if not isinstance(item, dict) or set(item) != _LISTED:
            raise FairnessError(
                f"{source}: key {number} has the fields {', '.join(sorted(_LISTED))}"
            )
        start, index = item["valid_from"], item["log_index"]
        if number == 0 and start is not None:
            raise FairnessError(f"{source}: key 0: valid_from must be null (from the start)")
        if number:
            check_time(start, f"{source}: key {number}: valid_from")
        before = bodies[-1][2] if bodies else -1
        if index is None and len(listed) > 1:
            raise FairnessError(f"{source}: key {number}: log_index is needed after a rotation")
        if index is not None and (type(index) is not int or index <= before):
            raise FairnessError(
                f"{source}: key {number}: log_index must be a log index after the key before"
            )
        bodies.append(({field: item[field] for field in BODY_FIELDS}, start, index))
    keys = _history(bodies, f"{source}: key")
    for number, (item, key) in enumerate(zip(listed, keys, strict=True)):
        if item["valid_until"] != key.valid_until:
            raise FairnessError(
                f"{source}: key {number}: valid_until must be the next key's valid_from "
                f"({key.valid_until})"
            )
    return Keyring(keys, source)
