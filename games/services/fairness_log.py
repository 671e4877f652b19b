"""The one writer of the public transparency log ``trix-log/1`` (the format is
``games.fairness.transparency``, docs/fairness.md "The transparency log").

:func:`append` adds entries at the head inside the caller's transaction, so an entry is
logged exactly when what it records is committed (a table and its commitment, a match start
and its receipt, a tournament and its draw commitment, a draw and its key, an escrow's
ledger transaction and its payout entry). Appends are
serialised: on PostgreSQL a transaction-scoped advisory lock (:data:`LOCK_KEY`) is taken
before the head is read and held until the caller commits; SQLite serialises writing
transactions itself (the embedded default takes the write lock when a transaction starts).
The log's unique index on ``index`` and ``hash`` refuses a fork even so.

The log admits one entry per kind and subject (``transparency.admit``: one match-commitment
and one match-receipt per match, the receipt after its commitment; one draw-commitment and
one draw-key per event; one deal-record per deal; one payout per match and per event):
:func:`append` refuses another
(``FairnessError``, nothing appended), and each entry's :class:`~games.models.LogKey`, unique
per kind and subject, refuses it in the database too.

The bodies are made here (:func:`match_commitment`, :func:`match_receipt`,
:func:`draw_commitment`, :func:`draw_key`, :func:`deal_record`, :func:`match_payout`,
:func:`event_payout`, :func:`signing_key`) from public values only: the log is public (a
payout names seats and entrant ids, never an account or a person).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games.fairness import event_tables, signing_keys, transparency
from games.fairness.canonical import sha256_hex
from games.models import LogEntry, LogKey
from games.services import log_tree

LOCK_KEY = 0x7472_6978_6C6F_67  # "trixlog": pg_advisory_xact_lock's key for the log's head
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def stamp(moment: datetime) -> str:
    """A time as the log and the receipts write it: UTC, whole seconds."""
    return moment.astimezone(UTC).strftime(TIME_FORMAT)


def entry_of(row: LogEntry) -> dict[str, Any]:
    """A stored entry as the log's JSON object (what is hashed and served)."""
    return {
        "index": row.index,
        "prev": row.prev,
        "kind": row.kind,
        "body": row.body,
        "logged_at": stamp(row.logged_at),
    }


def lock_head() -> None:
    """Take the log's head for the caller's transaction (on PostgreSQL the advisory lock
    :data:`LOCK_KEY`, held until it ends; SQLite serialises writers itself): what the
    caller reads of the log until then stays the log's last word."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


def append(items: Sequence[tuple[str, dict[str, Any]]]) -> list[LogEntry]:
    """Append ``(kind, body)`` entries in order, in the caller's transaction (one of its own
    if there is none); returns the new rows. An entry's ``logged_at`` is the time now, or the
    entry before's if that is later: times never go back along the log. Raises
    ``FairnessError`` for a malformed body (nothing appended)."""
    if not items:
        return []
    with transaction.atomic():
        lock_head()
        head = LogEntry.objects.order_by("-index").first()
        prev = None if head is None else entry_of(head)
        now = timezone.now().replace(microsecond=0)
        if head is not None and head.logged_at > now:  # another host's clock ran ahead
            now = head.logged_at  # never before the entry before: a day's entries are a run
        logged_at = stamp(now)
        entries = []
        for kind, body in items:
            prev = transparency.next_entry(prev=prev, kind=kind, body=body, logged_at=logged_at)
            entries.append((transparency.entry_key(kind, prev["body"]), prev))
        # What the log holds already about these matches, events, deals and seats, and the
        # entries they name: one query.
        subjects = {subject for subject, _ in entries}
        for _, entry in entries:
            subjects.update(key for _, key in transparency.references(entry["kind"], entry["body"]))
        known = {
            (row.key.kind, row.key.subject): entry_of(row)
            for row in LogEntry.objects.filter(key__subject__in=subjects).select_related("key")
        }
        if any(entry["kind"] == "signing-key" for _, entry in entries):
            signing_key = last_signing_key()
            for _, entry in entries:  # a chain of keys, never a fork (as verify_log checks)
                if entry["kind"] == "signing-key":
                    signing_key = transparency.follow_key(entry, signing_key)
        rows, keys = [], []
        for subject, entry in entries:
            transparency.admit(entry, lambda kind, key: known.get((kind, key)))
            known[(entry["kind"], subject)] = entry
            keys.append(LogKey(entry_id=entry["index"], kind=entry["kind"], subject=subject))
            rows.append(
                LogEntry(
                    index=entry["index"],
                    prev=entry["prev"],
                    kind=entry["kind"],
                    body=entry["body"],
                    logged_at=now,
                    hash=transparency.entry_hash(entry),
                )
            )
        LogEntry.objects.bulk_create(rows)
        LogKey.objects.bulk_create(keys)
        log_tree.add_nodes([entry for _, entry in entries])
    return rows


def match_commitment(*, match_id: str, algorithm: str, commitment: str, deals: int) -> tuple:
    """A ``match-commitment`` entry (a table created, before any seat is taken)."""
    body = {"match_id": match_id, "algorithm": algorithm, "commitment": commitment, "deals": deals}
    return ("match-commitment", body)


def seat_seed(*, match_id: str, seat: int, client_seed: str, source: str) -> tuple:
    """A ``seat-seed`` entry (a seat taken before its match started, with ``client_seed``;
    ``source``: ``"player"`` or ``"server"``, who chose it)."""
    body = {"match_id": match_id, "seat": seat, "client_seed": client_seed, "source": source}
    return ("seat-seed", body)


def receipt_order(*, match_id: str, seeds: Mapping[int, str]) -> tuple[int, dict[str, int]] | None:
    """A receipt's ``order`` (``games.fairness.receipt.build_receipt``): the log index of
    match ``match_id``'s commitment and of the ``seat-seed`` entry of each seat and client
    seed of ``seeds`` (the seats that are not bots); None when the log holds one of them not
    (a tournament's seats, assigned with their seeds when the table was made). One query."""
    wanted = {("match-commitment", match_id): None}
    for seat, seed in seeds.items():
        wanted[("seat-seed", transparency.seat_seed_key(match_id, seat, seed))] = seat
    found = {
        (kind, subject): index
        for kind, subject, index in LogKey.objects.filter(
            kind__in={kind for kind, _ in wanted}, subject__in={key for _, key in wanted}
        ).values_list("kind", "subject", "entry_id")
        if (kind, subject) in wanted
    }
    if len(found) != len(wanted):
        return None
    entries = {str(seat): found[key] for key, seat in wanted.items() if seat is not None}
    return found[("match-commitment", match_id)], entries


def match_receipt(*, receipt: dict[str, Any], signature: str) -> tuple:
    """A ``match-receipt`` entry (a match started: its signed receipt)."""
    return ("match-receipt", {"receipt": receipt, "signature": signature})


def bot_seed(*, match_id: str, seed: str) -> tuple:
    """A ``bot-seed`` entry (a match whose receipt committed to its bots' seed ended: the
    seed, ``games.fairness.bot_play``)."""
    return ("bot-seed", {"match_id": match_id, "seed": seed})


def draw_commitment(*, event: str, commitment: str) -> tuple:
    """A ``draw-commitment`` entry (a tournament created, before anyone registers)."""
    return (
        "draw-commitment",
        {"event": event, "algorithm": "trix-draw/1", "commitment": commitment},
    )


def draw_key(*, event: str, commitment: str, server_seed: str, entrants: list) -> tuple:
    """A ``draw-key`` entry (a tournament's draw made): its revealed seed and the hash of the
    draw record's ``entrants`` list (``[{"entrant", "client_seed"}, ...]``)."""
    body = {
        "event": event,
        "commitment": commitment,
        "server_seed": server_seed,
        "entrants_hash": sha256_hex(entrants),
    }
    return ("draw-key", body)


def tables_commitment(*, event: str, commitment: str) -> tuple:
    """A ``tables-commitment`` entry (a tournament created: the commitment of the key its
    tables' secrets come from, ``games.fairness.event_tables``)."""
    body = {"event": event, "algorithm": event_tables.ALGORITHM, "commitment": commitment}
    return ("tables-commitment", body)


def tables_key(*, event: str, commitment: str, key: str) -> tuple:
    """A ``tables-key`` entry (the event ended: its table key revealed, 64 hex digits)."""
    return ("tables-key", {"event": event, "commitment": commitment, "key": key})


def signing_key_entries():
    """The log's ``signing-key`` entries (``LogEntry`` rows), in log order, found through
    their keys' ``(kind, subject)`` index: the log itself has no index on ``kind``, and
    grows without end."""
    return LogEntry.objects.filter(key__kind="signing-key").order_by("index")


def last_signing_key() -> str | None:
    """The key id of the log's last ``signing-key`` entry, or None (one indexed read)."""
    rows = LogKey.objects.filter(kind="signing-key").order_by("-entry_id")
    return rows.values_list("subject", flat=True).first()


def last_signing_key_body() -> dict[str, Any] | None:
    """The body of the log's last ``signing-key`` entry, or None (one indexed read)."""
    row = signing_key_entries().reverse().first()
    return None if row is None else row.body


def signing_key(*, key, previous=None) -> tuple:
    """A ``signing-key`` entry: the private ``key`` in use from this entry on, endorsed by
    the private key ``previous`` in use until now (None for the log's first key;
    ``games.fairness.signing_keys.build_body``)."""
    return ("signing-key", signing_keys.build_body(key=key, previous=previous))


def entry_index(kind: str, subject: str) -> int | None:
    """The log index of the entry of ``kind`` about ``subject``
    (``transparency.entry_key``), or None when the log holds none."""
    rows = LogKey.objects.filter(kind=kind, subject=subject).values_list("entry_id", flat=True)
    return rows.first()


def logged_records(deals: Mapping[str, int]) -> dict[str, list[str]]:
    """The ``record_hash`` of each ``deal-record`` entry of the matches ``deals`` names
    (match id -> its deal count), deal 1 first, up to the first deal the log does not hold;
    read through the entries' ``(kind, subject)`` index."""
    subjects = [f"{match}/{d}" for match, count in deals.items() for d in range(1, count + 1)]
    found: dict[str, dict[int, str]] = {}
    for start in range(0, len(subjects), 2000):
        rows = LogEntry.objects.filter(
            key__kind="deal-record", key__subject__in=subjects[start : start + 2000]
        ).values_list("body", flat=True)
        for body in rows:
            found.setdefault(body["match_id"], {})[body["deal_number"]] = body["record_hash"]
    out = {}
    for match in deals:
        logged, hashes = found.get(match, {}), []
        while len(hashes) + 1 in logged:
            hashes.append(logged[len(hashes) + 1])
        out[match] = hashes
    return out


def deal_record(*, match_id: str, deal_number: int, record: dict[str, Any]) -> tuple:
    """A ``deal-record`` entry (deal ``deal_number`` of match ``match_id`` ended and its
    ``trix-deal/1`` record was written, final: never changed after): ``record_hash`` is
    ``sha256_hex`` of the whole record (canonical JSON; ``FairnessError`` for a float),
    binding its contract choices, plays and scores."""
    body = {"match_id": match_id, "deal_number": deal_number, "record_hash": sha256_hex(record)}
    return ("deal-record", body)


def _payout(
    reason: str,
    transaction: int,
    stakes: Mapping[Any, int],
    payouts: Mapping[Any, int],
    house_fee: int,
) -> dict[str, Any]:
    return {
        "reason": reason,
        "transaction": transaction,
        "stakes": {str(who): amount for who, amount in sorted(stakes.items())},
        "payouts": {str(who): amount for who, amount in sorted(payouts.items()) if amount},
        "house_fee": house_fee,
    }


def match_payout(
    *,
    match_id: str,
    reason: str,
    transaction: int,
    stakes: Mapping[int, int],
    payouts: Mapping[int, int],
    house_fee: int,
) -> tuple:
    """A ``match-payout`` entry (table's escrow paid out by ledger transaction
    ``transaction``): ``reason`` ``"result"`` (the pot split by the match's result) or
    ``"refund"`` (the table cancelled: every stake back); ``stakes`` and ``payouts`` map seat
    (0..3) -> minor units (payouts of 0 are left out), ``house_fee`` minor units."""
    body = {"match_id": match_id, **_payout(reason, transaction, stakes, payouts, house_fee)}
    return ("match-payout", body)


def event_payout(
    *,
    event: str,
    reason: str,
    transaction: int,
    stakes: Mapping[str, int],
    payouts: Mapping[str, int],
    house_fee: int,
) -> tuple:
    """An ``event-payout`` entry (a tournament's escrow paid out by ledger transaction
    ``transaction``): ``reason`` ``"result"`` (the prizes) or ``"refund"`` (every fee back);
    ``stakes`` and ``payouts`` map entrant id (``"E12"``, as the draw record names entrants)
    -> minor units (payouts of 0 are left out), ``house_fee`` minor units."""
    body = {"event": event, **_payout(reason, transaction, stakes, payouts, house_fee)}
    return ("event-payout", body)


def entries_of(kind: str):
    """The log's entries of ``kind``, in order, as JSON objects (an iterator reading in
    chunks)."""
    for row in LogEntry.objects.filter(kind=kind).order_by("index").iterator(chunk_size=2000):
        yield entry_of(row)


def entries(after: int = -1, before: int | None = None):
    """The log's entries after index ``after`` (all by default) and before index ``before``
    (the size of a head read first, so the lines match it), in order, as JSON objects; an
    iterator reading in chunks (the log grows without end)."""
    rows = LogEntry.objects.filter(index__gt=after).order_by("index")
    if before is not None:
        rows = rows.filter(index__lt=before)
    for row in rows.iterator(chunk_size=2000):
        yield entry_of(row)


def head_hash() -> tuple[int, str]:
    """``(size, head hash)`` of the log as committed now (``(0, GENESIS)`` when empty)."""
    last = LogEntry.objects.order_by("-index").values_list("index", "hash").first()
    return (0, transparency.GENESIS) if last is None else (last[0] + 1, last[1])


def head() -> dict[str, Any]:
    """The signed head: ``{"format": "trix-log-head/1", "size": n, "head": hex, "key_id":
    16 hex, "signature": hex}`` (the signature over the first four, by the key in use,
    ``games.signing``)."""
    from games import signing

    size, head_hash_now = head_hash()  # then the key: in use at that head's last entry or later
    key = signing.current()
    payload = transparency.log_head(size, head_hash_now, key_id=key.key_id)
    return {**payload, "signature": key.sign(payload)}


def check() -> list[str]:
    """Every problem of the stored log (``manage.py fairness_log_check``): the chain from
    entry 0 (``transparency.verify_log``), each stored hash, then each stored subtree hash
    of its Merkle tree (``log_tree.check``). Empty when it is whole."""
    from games.fairness.errors import FairnessError

    problems = []

    def stream():
        for row in LogEntry.objects.order_by("index").iterator(chunk_size=2000):
            entry = entry_of(row)
            if transparency.entry_hash(entry) != row.hash:
                problems.append(f"log entry {row.index}: its stored hash is not its hash")
            yield entry

    try:
        transparency.verify_log(stream())
    except FairnessError as exc:
        problems.append(str(exc))
    if not problems:  # the Merkle tree's stored subtree hashes, from the same entries
        problems += log_tree.check(entries())
    return problems
