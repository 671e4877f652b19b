"""The public transparency log ``trix-log/1``: an append-only, hash-chained list of every
match commitment, every match-start receipt, every finished deal, every tournament draw and
every payout of a table's or a tournament's escrow.

Each entry holds the hash of the one before, so changing, removing or reordering any entry
changes every hash after it: a head hash saved by anyone at any time (``log_head``) exposes a
rewritten past. Entries (``docs/fairness.md``, "The transparency log")::

    {"index": i, "prev": <hash of entry i-1, or GENESIS>, "kind": <kind>, "body": {...},
     "logged_at": "YYYY-MM-DDTHH:MM:SSZ"}
    hash(entry) = hex SHA-256 of canonical_bytes(entry)

Kinds and bodies:

- ``match-commitment``: ``{"match_id", "algorithm", "commitment", "deals"}`` (a table created);
- ``seat-seed``: ``{"match_id", "seat", "client_seed", "source"}`` (a seat taken before its
  match started, with that client seed: ``source`` ``"player"``, the seat's person sent it,
  or ``"server"``, a casual seat whose person sent none and the server made it);
- ``match-receipt``: ``{"receipt": {...}, "signature": hex}`` (a match started;
  ``games.fairness.receipt``; its ``commitment_entry`` and ``seed_entries`` name the
  entries above, so the log shows the commitment came before every seat's seed);
- ``draw-commitment``: ``{"event", "algorithm": "trix-draw/1", "commitment"}`` (a tournament
  created);
- ``draw-key``: ``{"event", "commitment", "server_seed", "entrants_hash"}`` (its draw made;
  ``entrants_hash`` is ``sha256_hex`` of the draw record's ``entrants`` list);
- ``tables-commitment``: ``{"event", "algorithm": "trix-tables/1", "commitment"}`` (a
  tournament created: the commitment of the key its tables' secrets come from,
  ``games.fairness.event_tables``);
- ``tables-key``: ``{"event", "commitment", "key"}`` (that key revealed when the event
  ended);
- ``deal-record``: ``{"match_id", "deal_number", "record_hash"}`` (a deal ended and its
  ``trix-deal/1`` record was written; ``record_hash`` is ``sha256_hex`` of the whole record,
  binding its contract, plays and scores);
- ``match-payout``: ``{"match_id", "reason", "transaction", "stakes", "payouts",
  "house_fee"}`` (a table's escrow paid out: its pot by the match's result, or every stake
  back when it was cancelled);
- ``event-payout``: ``{"event", "reason", "transaction", "stakes", "payouts", "house_fee"}``
  (a tournament's escrow paid out: its prizes, or every fee back);
- ``bot-seed``: ``{"match_id", "seed"}`` (a match with bots ended: the seed its bots drew
  from, which its receipt's ``bot_play`` committed to; ``games.fairness.bot_play``);
- ``signing-key``: ``{"algorithm", "key_id", "public_key", "previous", "previous_key",
  "endorsement", "signature"}`` (the site's signing key from this entry on, signed by itself
  and endorsed by the key before it; ``games.fairness.signing_keys``).

A payout's ``reason`` is ``"result"`` (paid by the match's result or the event's final
places) or ``"refund"`` (every stake or fee back); ``transaction`` is the id of the ledger
transaction that paid it; ``stakes`` maps each staker (a seat ``"0"``..``"3"`` of the
match, an entrant id of the event: the names the receipts and draw records use, never an
account) to what it had in the escrow, ``payouts`` each one paid (amount above 0) to what it
was paid, and ``house_fee`` is the house's cut, all in integer minor units; what was staked
is what was paid out: ``sum(stakes) == sum(payouts) + house_fee`` (:func:`check_payout`).

A log admits at most one ``match-commitment`` and one ``match-receipt`` per match id (the
receipt after its commitment, with the same commitment, algorithm and deal count, and the
commitment and seat-seed entries it names at the indexes it names), a ``seat-seed`` only
after its match's commitment and before its receipt (one per match, seat and seed), one
``draw-commitment``, one ``draw-key``, one ``tables-commitment`` and one ``tables-key``
(after its commitment, hashing to it) per event, one ``deal-record`` per match id and
deal number, one ``match-payout`` per match id and ``event-payout`` per event (an escrow
is paid out once), and one ``bot-seed`` per match id, after its receipt and hashing to the
receipt's ``bot_play.seed_commitment`` (:func:`entry_key`, :func:`admit`): "the receipt of
match M" is one entry. Its ``signing-key`` entries are a chain: one per key, the first naming
no previous key, each next one naming the key of the ``signing-key`` entry before it
(:func:`verify_log`).

Pure Python; the site keeps the log in ``games.models`` and serves it at
``/fairness/log.jsonl`` with its signed head at ``/fairness/log-head.json``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.fairness import bot_play, event_tables, signing_keys
from games.fairness.canonical import canonical_bytes, loads, sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.merkle import leaf_hash
from games.fairness.random_stream import check_text
from games.fairness.receipt import check_hex, check_receipt, check_time

__all__ = [
    "GENESIS",
    "HEAD_FORMAT",
    "KINDS",
    "LOG_FORMAT",
    "PAYOUT_REASONS",
    "SEED_SOURCES",
    "admit",
    "check_entry",
    "check_payout",
    "entry_hash",
    "entry_leaf_hash",
    "entry_key",
    "find_receipt",
    "follow_key",
    "logged",
    "logged_deals",
    "log_head",
    "next_entry",
    "parse_log",
    "references",
    "seat_seed_key",
    "verify_log",
]

LOG_FORMAT = "trix-log/1"
HEAD_FORMAT = "trix-log-head/1"
GENESIS = "0" * 64
"""The ``prev`` of the first entry (index 0), and the head of an empty log."""

KINDS: dict[str, frozenset[str]] = {
    "match-commitment": frozenset({"match_id", "algorithm", "commitment", "deals"}),
    "seat-seed": frozenset({"match_id", "seat", "client_seed", "source"}),
    "match-receipt": frozenset({"receipt", "signature"}),
    "draw-commitment": frozenset({"event", "algorithm", "commitment"}),
    "draw-key": frozenset({"event", "commitment", "server_seed", "entrants_hash"}),
    "tables-commitment": frozenset({"event", "algorithm", "commitment"}),
    "tables-key": frozenset({"event", "commitment", "key"}),
    "deal-record": frozenset({"match_id", "deal_number", "record_hash"}),
    "match-payout": frozenset(
        {"match_id", "reason", "transaction", "stakes", "payouts", "house_fee"}
    ),
    "event-payout": frozenset({"event", "reason", "transaction", "stakes", "payouts", "house_fee"}),
    "bot-seed": frozenset({"match_id", "seed"}),
    "signing-key": signing_keys.BODY_FIELDS,
}
"""Each kind of entry and the exact fields of its body."""

PAYOUT_REASONS = ("result", "refund")
"""A payout's ``reason``: paid by the result (a match's places, an event's final places), or
every stake or fee given back (a table or event cancelled, nobody who may be paid)."""

SEED_SOURCES = ("player", "server")
"""Who chose a ``seat-seed`` entry's client seed: the seat's person, or the server (a casual
seat taken without one; the server then chose that seat's part of the shuffle)."""

_SEAT_NAMES = frozenset({"0", "1", "2", "3"})

_ENTRY_FIELDS = frozenset({"index", "prev", "kind", "body", "logged_at"})


def entry_hash(entry: Mapping[str, Any]) -> str:
    """Hex SHA-256 of the entry's canonical bytes (64 digits)."""
    return sha256_hex(dict(entry))


def entry_leaf_hash(entry: Mapping[str, Any]) -> bytes:
    """The entry's leaf hash in the log's Merkle tree (``games.fairness.merkle``):
    ``SHA-256(0x00 || canonical bytes)``, over the same bytes :func:`entry_hash` hashes."""
    return leaf_hash(canonical_bytes(dict(entry)))


def check_entry(entry: object, where: str = "entry") -> dict[str, Any]:
    """Return ``entry`` if it is a well-formed log entry, else FairnessError naming ``where``
    and the field. Does not check the chain (``verify_log`` does)."""
    if not isinstance(entry, dict):
        raise FairnessError(f"{where}: must be a JSON object")
    if set(entry) != _ENTRY_FIELDS:
        raise FairnessError(f"{where}: fields must be {', '.join(sorted(_ENTRY_FIELDS))}")
    index = entry["index"]
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise FairnessError(f"{where}: index must be a whole number from 0")
    check_hex(entry["prev"], f"{where}: prev")
    check_time(entry["logged_at"], f"{where}: logged_at")
    kind, body = entry["kind"], entry["body"]
    if kind not in KINDS:
        raise FairnessError(f"{where}: kind must be one of {', '.join(sorted(KINDS))}")
    if not isinstance(body, dict) or set(body) != KINDS[kind]:
        raise FairnessError(
            f"{where}: a {kind} body has the fields {', '.join(sorted(KINDS[kind]))}"
        )
    if kind == "match-receipt":
        try:
            check_receipt(body["receipt"])
        except FairnessError as error:
            raise FairnessError(f"{where}: {error}") from None
        check_hex(body["signature"], f"{where}: signature", 128)
    elif kind in ("match-payout", "event-payout"):
        check_payout(body, where)
    elif kind == "seat-seed":
        check_text(body["match_id"], f"{where}: match_id")
        if type(body["seat"]) is not int or not 0 <= body["seat"] <= 3:
            raise FairnessError(f"{where}: seat must be 0..3")
        check_text(body["client_seed"], f"{where}: client_seed")
        if body["source"] not in SEED_SOURCES:
            raise FairnessError(f"{where}: source must be one of {', '.join(SEED_SOURCES)}")
    elif kind == "bot-seed":
        check_text(body["match_id"], f"{where}: match_id")
        check_text(body["seed"], f"{where}: seed")
    elif kind == "signing-key":
        signing_keys.check_body(body, where)
    elif kind == "deal-record":
        check_text(body["match_id"], f"{where}: match_id")
        number = body["deal_number"]
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise FairnessError(f"{where}: deal_number must be a whole number from 1")
        check_hex(body["record_hash"], f"{where}: record_hash")
    else:
        check_hex(body["commitment"], f"{where}: commitment")
        if kind == "match-commitment":
            check_text(body["match_id"], f"{where}: match_id")
            check_text(body["algorithm"], f"{where}: algorithm")
            deals = body["deals"]
            if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
                raise FairnessError(f"{where}: deals must be a whole number from 1")
        else:
            check_text(body["event"], f"{where}: event")
        if kind == "draw-commitment" and body["algorithm"] != "trix-draw/1":
            raise FairnessError(f"{where}: algorithm must be 'trix-draw/1'")
        if kind == "tables-commitment" and body["algorithm"] != event_tables.ALGORITHM:
            raise FairnessError(f"{where}: algorithm must be {event_tables.ALGORITHM!r}")
        if kind == "tables-key":
            check_hex(body["key"], f"{where}: key")
        if kind == "draw-key":
            check_hex(body["server_seed"], f"{where}: server_seed")
            check_hex(body["entrants_hash"], f"{where}: entrants_hash")
    return entry


def _amount(value: object, field: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise FairnessError(f"{field} must be a whole number of minor units from {least}")
    return value


def _amounts(value: object, field: str, seats: bool) -> dict[str, int]:
    """``value`` if it maps seats ``"0"``..``"3"`` (``seats``) or entrant ids to amounts of 1
    minor unit or more, else FairnessError naming ``field``."""
    if not isinstance(value, dict):
        raise FairnessError(f"{field} must be a JSON object")
    for name, amount in value.items():
        if seats and name not in _SEAT_NAMES:
            raise FairnessError(f"{field}: {name!r} is not a seat 0..3")
        check_text(name, f"{field}: a name")
        _amount(amount, f"{field}.{name}", 1)
    return value


def check_payout(body: Mapping[str, Any], where: str = "payout") -> None:
    """Raise FairnessError unless the body of a ``match-payout`` (recipients: seats) or
    ``event-payout`` (recipients: entrant ids) is well formed: a subject, a ``reason`` of
    :data:`PAYOUT_REASONS`, a ``transaction`` id from 1, at least one staker, every payee a
    staker, every amount a whole number of minor units (stakes and payouts from 1, the house
    fee from 0), and nothing created or lost: ``sum(stakes) == sum(payouts) + house_fee``; a
    refund gives each staker exactly its stake and the house nothing."""
    seats = "match_id" in body
    check_text(body["match_id"] if seats else body["event"], f"{where}: subject")
    if body["reason"] not in PAYOUT_REASONS:
        raise FairnessError(f"{where}: reason must be one of {', '.join(PAYOUT_REASONS)}")
    _amount(body["transaction"], f"{where}: transaction", 1)
    stakes = _amounts(body["stakes"], f"{where}: stakes", seats)
    payouts = _amounts(body["payouts"], f"{where}: payouts", seats)
    fee = _amount(body["house_fee"], f"{where}: house_fee", 0)
    if not stakes:
        raise FairnessError(f"{where}: stakes must name at least one staker")
    strangers = sorted(set(payouts) - set(stakes))
    if strangers:
        raise FairnessError(f"{where}: payouts to {', '.join(strangers)}, who staked nothing")
    staked, paid = sum(stakes.values()), sum(payouts.values())
    if staked != paid + fee:
        raise FairnessError(
            f"{where}: the stakes ({staked}) are not the payouts ({paid}) plus the house fee "
            f"({fee})"
        )
    if body["reason"] == "refund" and (payouts != stakes or fee):
        raise FairnessError(f"{where}: a refund gives each staker its stake, the house nothing")


def next_entry(
    *, prev: Mapping[str, Any] | None, kind: str, body: Mapping[str, Any], logged_at: str
) -> dict[str, Any]:
    """The entry that follows ``prev`` (``None`` for the first entry). Raises FairnessError
    for an unknown kind or a malformed body."""
    entry = {
        "index": 0 if prev is None else prev["index"] + 1,
        "prev": GENESIS if prev is None else entry_hash(prev),
        "kind": kind,
        "body": dict(body),
        "logged_at": logged_at,
    }
    return check_entry(entry, f"entry {entry['index']}")


def entry_key(kind: str, body: Mapping[str, Any]) -> str:
    """What an entry of ``kind`` is about, unique per kind in a log: the match id (match
    entries, a match's payout), the event (draw entries, an event's payout),
    ``"<match id>/<deal number>"`` (a deal record), the key id (a signing key)."""
    if kind == "match-receipt":
        return body["receipt"]["match_id"]
    if kind == "deal-record":
        return f"{body['match_id']}/{body['deal_number']}"
    if kind == "seat-seed":
        return seat_seed_key(body["match_id"], body["seat"], body["client_seed"])
    if kind == "signing-key":
        return body["key_id"]
    return body["event"] if "event" in KINDS[kind] else body["match_id"]


def seat_seed_key(match_id: str, seat: int, client_seed: str) -> str:
    """The :func:`entry_key` of a ``seat-seed`` entry: ``"<match id>/<seat>/<hex SHA-256 of
    the seed's UTF-8>"`` (the same seat retaken with the same seed is one entry)."""
    return f"{match_id}/{seat}/{hashlib.sha256(client_seed.encode()).hexdigest()}"


def references(kind: str, body: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The ``(kind, key)`` of every earlier entry :func:`admit` looks up for an entry of
    ``kind``: a receipt's commitment and the seat-seed entries it names, a seat-seed's
    commitment and receipt."""
    if kind == "match-receipt":
        receipt = body["receipt"]
        seeds = receipt["client_seeds"]
        tables = receipt.get("tables_commitment")
        return (
            [("match-commitment", receipt["match_id"])]
            + [
                ("seat-seed", seat_seed_key(receipt["match_id"], int(seat), seeds[seat]))
                for seat in receipt.get("seed_entries", {})
            ]
            + ([("tables-commitment", tables["event"])] if tables else [])
        )
    if kind == "seat-seed":
        return [("match-commitment", body["match_id"]), ("match-receipt", body["match_id"])]
    if kind == "tables-key":
        return [("tables-commitment", body["event"])]
    if kind == "bot-seed":
        return [("match-receipt", body["match_id"])]
    if kind == "signing-key" and body["previous"] is not None:
        return [("signing-key", body["previous"])]
    return []


_NAMES = {
    "match-commitment": "match",
    "seat-seed": "seat",
    "match-receipt": "match",
    "deal-record": "deal",
    "match-payout": "match",
    "bot-seed": "match",
    "signing-key": "key",
}


def admit(
    entry: Mapping[str, Any], earlier: Callable[[str, str], Mapping[str, Any] | None]
) -> None:
    """Raise FairnessError unless a well-formed ``entry`` may follow the entries before it.
    ``earlier(kind, key)`` is the entry of that kind and :func:`entry_key` before it, or
    ``None``. One entry per kind and key; a match-receipt after its match's commitment, with
    its commitment, algorithm and deal count, and with the commitment and seat-seed entries
    its ``commitment_entry`` and ``seed_entries`` name at those indexes; a seat-seed after
    its match's commitment and before its receipt."""
    kind, body = entry["kind"], entry["body"]
    key = entry_key(kind, body)
    where = f"log entry {entry['index']}"
    name = _NAMES.get(kind, "event")
    other = earlier(kind, key)
    if other is not None:
        raise FairnessError(
            f"{where}: a second {kind} of {name} {key!r} (the log holds one at entry "
            f"{other['index']}): the log admits one"
        )
    if kind == "match-receipt":
        commitment = earlier("match-commitment", key)
        receipt = body["receipt"]
        fields = ("match_id", "algorithm", "commitment", "deals")
        if commitment is None or any(commitment["body"][f] != receipt[f] for f in fields):
            raise FairnessError(
                f"{where}: the match-receipt of match {key!r} has no match-commitment entry "
                "before it with its commitment, algorithm and deal count"
            )
        _admit_order(receipt, commitment, earlier, where)
    if kind == "tables-key":
        committed = earlier("tables-commitment", body["event"])
        if committed is None or committed["body"]["commitment"] != body["commitment"]:
            raise FairnessError(
                f"{where}: the tables-key of event {body['event']!r} has no tables-commitment "
                "entry before it with its commitment"
            )
        if event_tables.commitment(body["key"]) != body["commitment"]:
            raise FairnessError(
                f"{where}: the key of event {body['event']!r} does not hash to its commitment"
            )
    if kind == "bot-seed":
        receipt = earlier("match-receipt", body["match_id"])
        block = receipt.get("body", {}).get("receipt", {}).get("bot_play") if receipt else None
        if block is None:
            raise FairnessError(
                f"{where}: the bots' seed of match {body['match_id']!r} has no match-receipt "
                "before it whose bot_play commits to a seed"
            )
        if bot_play.seed_commitment(body["seed"]) != block["seed_commitment"]:
            raise FairnessError(
                f"{where}: the bots' seed of match {body['match_id']!r} does not hash to the "
                f"bot_play.seed_commitment of its receipt (entry {receipt['index']})"
            )
    if kind == "signing-key" and body["previous"] is not None:
        if earlier("signing-key", body["previous"]) is None:
            raise FairnessError(
                f"{where}: signing key {key!r} names key {body['previous']!r} as the one "
                "before it, which the log has not recorded"
            )
    if kind == "seat-seed":
        if earlier("match-commitment", body["match_id"]) is None:
            raise FairnessError(
                f"{where}: a client seed of match {body['match_id']!r} before its "
                "match-commitment: the commitment is logged before any seed"
            )
        if earlier("match-receipt", body["match_id"]) is not None:
            raise FairnessError(
                f"{where}: a client seed of match {body['match_id']!r} after its receipt"
            )


def _admit_order(
    receipt: Mapping[str, Any],
    commitment: Mapping[str, Any],
    earlier: Callable[[str, str], Mapping[str, Any] | None],
    where: str,
) -> None:
    """A receipt's ``commitment_entry`` is its commitment's index, and each of its
    ``seed_entries`` the index of the ``seat-seed`` entry of that seat and client seed."""
    tables = receipt.get("tables_commitment")
    if tables is not None:
        entry = earlier("tables-commitment", tables["event"])
        if entry is None or entry["index"] != tables["entry"]:
            raise FairnessError(
                f"{where}: the receipt of match {receipt['match_id']!r} names entry "
                f"{tables['entry']} for the tables commitment of event {tables['event']!r}, "
                "but the log holds none there"
            )
    if "commitment_entry" not in receipt:
        return
    match_id = receipt["match_id"]
    if receipt["commitment_entry"] != commitment["index"]:
        raise FairnessError(
            f"{where}: the receipt of match {match_id!r} names commitment entry "
            f"{receipt['commitment_entry']}, but its match-commitment is entry "
            f"{commitment['index']}"
        )
    for seat, index in receipt["seed_entries"].items():
        seed = receipt["client_seeds"][seat]
        entry = earlier("seat-seed", seat_seed_key(match_id, int(seat), seed))
        if entry is None or entry["index"] != index:
            raise FairnessError(
                f"{where}: the receipt of match {match_id!r} names entry {index} for seat "
                f"{seat}'s client seed, but the log holds no seat-seed of that seat and seed "
                "there"
            )


def follow_key(entry: Mapping[str, Any], current: str | None) -> str:
    """The id of the site's key after the ``signing-key`` ``entry``, which must name
    ``current`` (the key of the log's last ``signing-key`` entry, None before the first) as
    the key before it: the keys are a chain, never a fork. Raises FairnessError."""
    body = entry["body"]
    if body["previous"] != current:
        raise FairnessError(
            f"log entry {entry['index']}: signing key {body['key_id']} names "
            f"{body['previous']} as the key before it, but the log's key until then is "
            f"{current}"
        )
    return body["key_id"]


def logged(entries: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """``{(kind, entry_key): entry}`` of a log :func:`verify_log` accepted (one per key)."""
    return {(e["kind"], entry_key(e["kind"], e["body"])): dict(e) for e in entries}


def logged_deals(entries: Iterable[Mapping[str, Any]], match_id: str) -> list[int]:
    """The deal numbers of the ``deal-record`` entries of match ``match_id`` in a log
    :func:`verify_log` accepted, in order (each once: the log admits one per deal)."""
    return sorted(
        entry["body"]["deal_number"]
        for entry in entries
        if entry["kind"] == "deal-record" and entry["body"]["match_id"] == match_id
    )


def verify_log(entries: Iterable[Mapping[str, Any]]) -> str:
    """Check a whole log from index 0 and return its head hash (``GENESIS`` when empty).

    Raises FairnessError naming the first entry that is malformed, out of place (index not
    0, 1, 2, ...), whose ``prev`` is not the hash of the entry before it, or that the log
    does not admit (:func:`admit`: a second entry of its kind for its match, event or deal,
    naming both entries; a receipt without its commitment before it; a second payout of a
    match or event; a signing key that does not follow the one logged before it)."""
    head, expected = GENESIS, 0
    signing_key = None
    seen: dict[tuple[str, str], Mapping[str, Any]] = {}
    for entry in entries:
        where = f"log entry {expected}"
        check_entry(entry, where)
        if entry["index"] != expected:
            raise FairnessError(
                f"{where}: has index {entry['index']} (an entry is missing or moved)"
            )
        if entry["prev"] != head:
            raise FairnessError(f"{where}: prev is not the hash of entry {expected - 1}")
        admit(entry, lambda kind, key: seen.get((kind, key)))
        if entry["kind"] == "signing-key":
            signing_key = follow_key(entry, signing_key)
        kept = {"index": entry["index"]}  # a commitment's body too: its receipt is checked on it
        if entry["kind"] in ("match-commitment", "seat-seed", "tables-commitment"):
            kept["body"] = entry["body"]
        elif entry["kind"] == "match-receipt" and "bot_play" in entry["body"]["receipt"]:
            # of a receipt, only what a bot-seed entry is checked on
            kept["body"] = {"receipt": {"bot_play": entry["body"]["receipt"]["bot_play"]}}
        seen[(entry["kind"], entry_key(entry["kind"], entry["body"]))] = kept
        head, expected = entry_hash(entry), expected + 1
    return head


def parse_log(text: str) -> list[dict[str, Any]]:
    """The entries of a JSON-lines log (one object per non-empty line). Raises FairnessError
    naming the line that is not a JSON object."""
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = loads(line)
        except FairnessError as error:
            raise FairnessError(f"log line {number}: {error}") from None
        except (ValueError, RecursionError):
            raise FairnessError(f"log line {number}: not JSON") from None
        if not isinstance(entry, dict):
            raise FairnessError(f"log line {number}: not a JSON object")
        entries.append(entry)
    return entries


def log_head(size: int, head: str, key_id: str | None = None) -> dict[str, Any]:
    """The payload the site signs to publish its head: ``{"format": "trix-log-head/1",
    "size": n, "head": hex, "key_id": 16 hex}`` (sign it with
    ``games.fairness.receipt.sign``); ``key_id``, the signing key's id, is left out when
    None (heads signed before heads named their key)."""
    payload = {"format": HEAD_FORMAT, "size": size, "head": check_hex(head, "head")}
    if key_id is not None:
        payload["key_id"] = check_hex(key_id, "key_id", 16)
    return payload


def find_receipt(entries: Iterable[Mapping[str, Any]], match_id: str) -> dict[str, Any] | None:
    """The ``match-receipt`` entry of match ``match_id`` (a log holds at most one), or
    ``None``. Inclusion of a record's receipt means this entry's receipt *is* it."""
    for entry in entries:
        body = entry.get("body")
        if entry.get("kind") == "match-receipt" and isinstance(body, dict):
            receipt = body.get("receipt")
            if isinstance(receipt, dict) and receipt.get("match_id") == match_id:
                return dict(entry)
    return None
