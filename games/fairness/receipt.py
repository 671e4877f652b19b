"""The match-start receipt ``trix-receipt/1`` and the site's Ed25519 signatures.

When the fourth seat of a match is taken and its client seeds lock, the site issues a receipt
naming everything the match's deals depend on (match id, algorithm, commitment, deal count,
variant and options, the four client seeds, the seats that are bots, the time) and signs its
canonical bytes
(``games.fairness.canonical``) with the site's Ed25519 key (RFC 8032). Every deal record of
the match carries the receipt and its signature, and the public log holds it
(``games.fairness.transparency``), so a match rebuilt afterwards from its last revealed seed,
with other client seeds, no longer matches what was signed and logged at the start. A seat
the receipt names a bot (``bots``) has the bots' client seed ``BOT_CLIENT_SEED``, so a bot
seat's seed binds nothing the site could choose (``check_receipt`` refuses any other).

Signatures are 64 bytes written as 128 lower-case hex digits; public keys are the 32 raw
bytes of RFC 8032 as 64 hex digits. The site's key: ``TRIX_SIGNING_KEY``; its public half is
served at ``/fairness/public-key.json``. Spec and test vectors: ``docs/fairness.md``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from games.fairness import bot_play as bot_plays
from games.fairness import event_tables
from games.fairness.canonical import canonical_bytes, sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.match_shuffle import BOT_CLIENT_SEED
from games.fairness.random_stream import check_hex, check_index, check_text
from games.fairness.shuffle import SEATS

__all__ = [
    "RECEIPT_FORMAT",
    "build_receipt",
    "check_receipt",
    "check_signature",
    "key_id",
    "load_private_key",
    "load_public_key",
    "new_private_key",
    "private_key_text",
    "public_key_hex",
    "receipt_hash",
    "sign",
]

RECEIPT_FORMAT = "trix-receipt/1"
"""The receipt's format name; a change to the meaning of its fields gets a new name. The
fields added since are optional: a receipt without ``bots`` (issued before receipts named
their bots) keeps its meaning, and a verifier says which seats were bots is unknown; one
without ``commitment_entry`` and ``seed_entries`` (issued before the log held each seat's
seed, or a table whose seats were assigned with it) cannot show its commitment came first;
one with bots but without ``bot_play`` (issued before the bots' seed was committed) cannot
have its bots' moves checked; one without ``key_id`` (issued before receipts named their
key) is checked with the key in use at its ``issued_at``."""

_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
_FIELDS = {
    "format": str,
    "match_id": str,
    "algorithm": str,
    "commitment": str,
    "deals": int,
    "variant": str,
    "options": dict,
    "client_seeds": dict,
    "issued_at": str,
}
_OPTIONAL = {
    "bots",
    "bot_play",
    "commitment_entry",
    "key_id",
    "seed_entries",
    "tables_commitment",
}
"""Fields a receipt may lack: receipts issued before them did (``check_receipt``)."""


def check_time(value: object, field: str) -> str:
    """``value`` if it is a UTC time ``YYYY-MM-DDTHH:MM:SSZ``, else FairnessError."""
    if not (isinstance(value, str) and _TIME.fullmatch(value)):
        raise FairnessError(f"{field} must be a UTC time written YYYY-MM-DDTHH:MM:SSZ")
    return value


def build_receipt(
    *,
    match_id: str,
    algorithm: str,
    commitment: str,
    deals: int,
    variant: str,
    options: Mapping[str, Any],
    client_seeds: Sequence[str],
    issued_at: str,
    bots: Sequence[int],
    order: tuple[int, Mapping[str, int]] | None = None,
    tables_commitment: Mapping[str, Any] | None = None,
    bot_play: Mapping[str, Any] | None = None,
    key_id: str | None = None,
) -> dict[str, Any]:
    """The receipt of a match whose client seeds just locked (a dict, see ``docs/fairness.md``).

    ``client_seeds``: the four seats' seeds in seat order; ``bots``: the seats (0..3) bots hold
    when the match starts, ascending, whose seeds must be ``BOT_CLIENT_SEED``; ``issued_at``:
    ``YYYY-MM-DDTHH:MM:SSZ``; ``order``: ``(commitment_entry, seed_entries)``, the log index
    of the match's commitment and of each seat's ``seat-seed`` entry (every seat not a bot,
    ``"0"``..``"3"``), when the log holds them (``docs/fairness.md``, "Commit first");
    ``tables_commitment``: ``{"event", "entry"}`` for a tournament's table, whose secret
    comes from the event's committed key (``games.fairness.event_tables``); ``bot_play``:
    the bots' rule, kinds and seed commitment (``games.fairness.bot_play.build``), when
    bots hold seats; ``key_id``: the id of the key that signs it (16 hex,
    ``games.fairness.signing_keys``). Raises FairnessError for any malformed field."""
    if isinstance(client_seeds, str | bytes) or len(client_seeds) != SEATS:
        raise FairnessError(f"a receipt needs exactly {SEATS} client seeds")
    receipt = {
        "format": RECEIPT_FORMAT,
        "match_id": match_id,
        "algorithm": algorithm,
        "commitment": commitment,
        "deals": deals,
        "variant": variant,
        "options": dict(options),
        "client_seeds": {str(seat): seed for seat, seed in enumerate(client_seeds)},
        "bots": list(bots) if isinstance(bots, tuple | range) else bots,
        "issued_at": issued_at,
    }
    if order is not None:
        receipt["commitment_entry"], receipt["seed_entries"] = order[0], dict(order[1])
    if tables_commitment is not None:
        receipt["tables_commitment"] = dict(tables_commitment)
    if bot_play is not None:
        receipt["bot_play"] = dict(bot_play)
    if key_id is not None:
        receipt["key_id"] = key_id
    check_receipt(receipt)
    return receipt


def check_receipt(receipt: object) -> dict[str, Any]:
    """Return ``receipt`` if it is a well-formed ``trix-receipt/1``, else raise FairnessError
    naming the first bad field (``receipt.<field>``). ``bots``, when present, lists seats
    0..3 in ascending order, each once, and each seat it names has the client seed
    ``BOT_CLIENT_SEED`` (``docs/fairness.md``, section 8); ``bot_play``, when present, names
    exactly those seats (``games.fairness.bot_play.check``). Does not check any signature."""
    if not isinstance(receipt, dict):
        raise FairnessError("receipt must be a JSON object")
    missing = sorted(set(_FIELDS) - set(receipt))
    extra = sorted(set(receipt) - set(_FIELDS) - _OPTIONAL)
    if missing:
        raise FairnessError(f"receipt: missing {', '.join(missing)}")
    if extra:
        raise FairnessError(f"receipt: unknown field {', '.join(extra)}")
    for field, kind in _FIELDS.items():
        value = receipt[field]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise FairnessError(f"receipt.{field} must be a {kind.__name__}")
    if receipt["format"] != RECEIPT_FORMAT:
        raise FairnessError(f"receipt.format must be {RECEIPT_FORMAT!r}")
    check_text(receipt["match_id"], "receipt.match_id")
    check_text(receipt["algorithm"], "receipt.algorithm")
    check_text(receipt["variant"], "receipt.variant")
    check_hex(receipt["commitment"], "receipt.commitment")
    check_index(receipt["deals"], "receipt.deals")
    canonical_bytes(receipt["options"])
    seeds = receipt["client_seeds"]
    if sorted(seeds) != [str(seat) for seat in range(SEATS)]:
        raise FairnessError(f"receipt.client_seeds must have the seats 0..{SEATS - 1}")
    for seat, seed in seeds.items():
        check_text(seed, f"receipt.client_seeds.{seat}")
    if "bots" in receipt:
        _check_bots(receipt["bots"], seeds)
    if "bot_play" in receipt:
        if "bots" not in receipt:
            raise FairnessError("receipt: bot_play needs bots")
        bot_plays.check(receipt["bot_play"], receipt["bots"])
    if "commitment_entry" in receipt or "seed_entries" in receipt:
        _check_order(receipt)
    if "tables_commitment" in receipt:
        _check_tables(receipt)
    if "key_id" in receipt:
        check_hex(receipt["key_id"], "receipt.key_id", 16)
    check_time(receipt["issued_at"], "receipt.issued_at")
    return receipt


def _check_tables(receipt: Mapping[str, Any]) -> None:
    """A tournament table's ``tables_commitment``: ``{"event", "entry"}``, the event its
    match id names (``games.fairness.event_tables``) and the log index of that event's
    ``tables-commitment`` entry; never with ``commitment_entry`` (its seeds are not logged
    one by one)."""
    tables = receipt["tables_commitment"]
    if "commitment_entry" in receipt:
        raise FairnessError("receipt: tables_commitment and commitment_entry exclude each other")
    if not (isinstance(tables, dict) and set(tables) == {"event", "entry"}):
        raise FairnessError("receipt.tables_commitment must be an object with event and entry")
    check_text(tables["event"], "receipt.tables_commitment.event")
    if type(tables["entry"]) is not int or tables["entry"] < 0:
        raise FairnessError("receipt.tables_commitment.entry must be a log index")
    if event_tables.event_of(receipt["match_id"]) != tables["event"]:
        raise FairnessError(
            f"receipt.match_id {receipt['match_id']!r} is not a table of event "
            f"{tables['event']!r} (<event>/round:<n>/table:<i>)"
        )


def _check_order(receipt: Mapping[str, Any]) -> None:
    """``commitment_entry`` and ``seed_entries`` come together (with ``bots``): a log index,
    and the log index of every seat's ``seat-seed`` entry that is not a bot, each after the
    commitment's (commit first: ``docs/fairness.md``)."""
    if not {"commitment_entry", "seed_entries", "bots"} <= set(receipt):
        raise FairnessError("receipt: commitment_entry, seed_entries and bots come together")
    first = receipt["commitment_entry"]
    if type(first) is not int or first < 0:
        raise FairnessError("receipt.commitment_entry must be a log index (a whole number from 0)")
    entries = receipt["seed_entries"]
    people = [str(seat) for seat in range(SEATS) if seat not in receipt["bots"]]
    if not isinstance(entries, dict) or sorted(entries) != people:
        raise FairnessError(
            "receipt.seed_entries must name exactly the seats that are not bots"
            + (f" ({', '.join(people)})" if people else " (none)")
        )
    for seat, index in entries.items():
        if type(index) is not int or index <= first:
            raise FairnessError(
                f"receipt.seed_entries.{seat} must be a log index after the commitment's "
                f"({first}): the commitment is logged before any client seed"
            )


def _check_bots(bots: object, seeds: Mapping[str, str]) -> None:
    """``bots`` lists seats 0..3, ascending, each once, each with the bots' client seed."""
    seats = range(SEATS)
    if not (
        isinstance(bots, list)
        and all(type(seat) is int and seat in seats for seat in bots)
        and bots == sorted(set(bots))
    ):
        raise FairnessError(
            f"receipt.bots must be a list of seats 0..{SEATS - 1}, ascending, each once"
        )
    for seat in bots:
        seed = seeds[str(seat)]
        if seed != BOT_CLIENT_SEED:
            raise FairnessError(
                f"receipt.client_seeds.{seat}: {seed!r} is not the bots' client seed "
                f"{BOT_CLIENT_SEED!r}, and receipt.bots names seat {seat} a bot"
            )


def receipt_hash(receipt: Mapping[str, Any]) -> str:
    """The receipt's id: hex SHA-256 of its canonical bytes."""
    return sha256_hex(dict(receipt))


# --- Ed25519 keys and signatures ------------------------------------------------------------


def new_private_key() -> Ed25519PrivateKey:
    """A fresh Ed25519 signing key (for the embedded default and tests)."""
    return Ed25519PrivateKey.generate()


def load_private_key(text: str) -> Ed25519PrivateKey:
    """A signing key from 64 hex digits (the raw 32-byte RFC 8032 secret) or a PEM PKCS#8
    block. Raises FairnessError (never echoing the key) when it is neither."""
    text = text.strip()
    if re.fullmatch(r"[0-9a-fA-F]{64}", text):
        return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(text))
    try:
        key = serialization.load_pem_private_key(text.encode(), password=None)
    except (ValueError, TypeError):
        raise FairnessError("the signing key must be 64 hex digits or a PEM Ed25519 key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise FairnessError("the signing key is not an Ed25519 key")
    return key


def private_key_text(key: Ed25519PrivateKey) -> str:
    """The raw 32-byte secret of ``key`` as 64 hex digits (what ``load_private_key`` reads)."""
    raw = key.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    return raw.hex()


def _public(key: Ed25519PrivateKey | Ed25519PublicKey) -> Ed25519PublicKey:
    return key.public_key() if isinstance(key, Ed25519PrivateKey) else key


def public_key_hex(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The 32 raw bytes of the public key (RFC 8032) as 64 hex digits."""
    raw = _public(key).public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def load_public_key(text: str) -> Ed25519PublicKey:
    """A public key from 64 hex digits (raw RFC 8032 bytes) or a PEM SubjectPublicKeyInfo.
    Raises FairnessError when it is neither."""
    text = text.strip()
    if re.fullmatch(r"[0-9a-fA-F]{64}", text):
        return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
    try:
        key = serialization.load_pem_public_key(text.encode())
    except (ValueError, TypeError):
        raise FairnessError("the public key must be 64 hex digits or a PEM Ed25519 key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise FairnessError("the public key is not an Ed25519 key")
    return key


def key_id(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """A short name of a key: the first 16 hex digits of SHA-256 of its raw public bytes."""
    return hashlib.sha256(bytes.fromhex(public_key_hex(key))).hexdigest()[:16]


def sign(payload: Mapping[str, Any], private_key: Ed25519PrivateKey) -> str:
    """The Ed25519 signature (128 hex digits) of ``canonical_bytes(payload)``."""
    return private_key.sign(canonical_bytes(dict(payload))).hex()


def check_signature(
    payload: Mapping[str, Any], signature: object, public_key: Ed25519PublicKey
) -> None:
    """Raise FairnessError unless ``signature`` (128 hex digits) is ``public_key``'s
    Ed25519 signature of ``canonical_bytes(payload)``."""
    check_hex(signature, "signature", 128)
    try:
        _public(public_key).verify(bytes.fromhex(signature), canonical_bytes(dict(payload)))
    except InvalidSignature:
        raise FairnessError("the signature does not match the site's public key") from None


def checkpoint_signed(
    text: str,
    signatures: Sequence[tuple[str, bytes, bytes]],
    origin: str,
    public_key: Ed25519PrivateKey | Ed25519PublicKey,
) -> bool | None:
    """Whether the signed note ``text`` (a checkpoint: ``merkle.parse_signed_note``'s text and
    signature lines) is signed by the log's ``public_key``: True for a valid line of the log
    (``origin`` as its key name, the key's signed-note key hash), False for an invalid one,
    None when no line is that key's."""
    from games.fairness import merkle

    key = _public(public_key)
    wanted = merkle.ed25519_key_hash(origin, bytes.fromhex(public_key_hex(key)))
    for name, key_hash, signature in signatures:
        if name == origin and key_hash == wanted:
            try:
                key.verify(signature, text.encode())
            except InvalidSignature:
                return False
            return True
    return None
