"""The records checked against a transparency log the caller verified
(``transparency.verify_log``; ``index``: ``transparency.logged``): the match's one receipt
(:func:`receipt_in_log`), each record's ``deal-record`` entry binding its contract, plays
and scores (:func:`records_in_log`), and, under ``--partial``, no deal record the log holds
left out (:func:`withheld_records`), and the bots' moves replayed from the seed the log
revealed (:func:`bot_moves`); a tournament's draw record against its logged commitment and
key (:func:`draw_in_log`). No Django."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.fairness import bot_play, event_tables
from games.fairness.canonical import sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.receipt import receipt_hash
from games.fairness.transparency import logged_deals


def deal_label(record: Any, position: int) -> str:
    """How a mismatch names a record: ``deal N``, or ``record P`` (its place, from 1) when
    it has no deal number."""
    try:
        number = record["shuffle"]["deal_number"]
    except (TypeError, KeyError):
        number = None
    if isinstance(number, int) and not isinstance(number, bool):
        return f"deal {number}"
    return f"record {position + 1}"


def receipt_in_log(
    first: dict[str, Any], index: dict[tuple[str, str], dict[str, Any]]
) -> list[str]:
    """The match's receipt is the one receipt the checked log holds for its match id
    (``index``: ``transparency.logged``); the log put it after its commitment."""
    receipt = first["receipt"]
    try:
        wanted = receipt_hash(receipt)
    except FairnessError:
        return []  # already a mismatch of the record
    match_id = receipt["match_id"]
    entry = index.get(("match-receipt", match_id))
    if entry is None:
        return [f"log: no match-receipt entry of match {match_id!r} (receipt {wanted})"]
    if receipt_hash(entry["body"]["receipt"]) != wanted:
        return [
            f"log: the log holds another receipt for match {match_id!r} (entry "
            f"{entry['index']}), not the records' receipt {wanted}"
        ]
    if entry["body"].get("signature") != first.get("signature"):
        return [
            f"log: entry {entry['index']} holds this receipt with another signature than "
            "the records'"
        ]
    return table_key_problems(receipt, index)


def table_key_problems(
    receipt: dict[str, Any], index: dict[tuple[str, str], dict[str, Any]]
) -> list[str]:
    """A tournament table's receipt (``tables_commitment``) once the log holds its event's
    revealed key (``tables-key``): its commitment must be the one that key gives its match
    id (``games.fairness.event_tables``); nothing to check before the key is revealed."""
    tables = receipt.get("tables_commitment")
    if not tables:
        return []
    key = index.get(("tables-key", tables["event"]))
    if key is None:
        return []
    try:
        event_tables.check_match(
            key["body"]["key"], receipt["match_id"], receipt["deals"], receipt["commitment"]
        )
    except FairnessError as error:
        return [f"log: {error} (the key is entry {key['index']})"]
    return []


def records_in_log(
    records: Sequence[Any], index: dict[tuple[str, str], dict[str, Any]]
) -> list[str]:
    """Each record hashes to the ``record_hash`` of the log's one ``deal-record`` entry of
    its match id and deal number (binding its contract, plays and scores)."""
    problems = []
    for position, record in enumerate(records):
        shuffle_object = record.get("shuffle") if isinstance(record, dict) else None
        if not isinstance(shuffle_object, dict):
            continue
        match_id, number = shuffle_object.get("match_id"), shuffle_object.get("deal_number")
        label = deal_label(record, position)
        entry = index.get(("deal-record", f"{match_id}/{number}"))
        if entry is None:
            problems.append(
                f"{label}: log: no deal-record entry of match {match_id!r} deal {number}: "
                "nothing binds its contract, plays and scores"
            )
            continue
        try:
            mine = sha256_hex(record)
        except FairnessError as error:
            problems.append(f"{label}: record: {error}")
            continue
        if mine != entry["body"]["record_hash"]:
            problems.append(
                f"{label}: log: the record hashes to {mine}, not to the record_hash of entry "
                f"{entry['index']} ({entry['body']['record_hash']}): its contract, plays or "
                "scores differ from the deal logged"
            )
    return problems


def withheld_records(
    shuffles: list[tuple[int, dict]], first: dict, log: Sequence[dict[str, Any]]
) -> list[str]:
    """Under ``--partial``: the deal numbers of the log's ``deal-record`` entries of the
    match (``first``'s match id) that no given record carries, as one mismatch naming them
    (none: nothing the log holds of the match was withheld). The log shows the match
    finished when it holds a record of every deal 1..the receipt's deal count."""
    match_id = first.get("match_id")
    numbers = logged_deals(log, match_id)
    given = {n for _, s in shuffles if type(n := s.get("deal_number")) is int}
    missing = [number for number in numbers if number not in given]
    if not missing:
        return []
    deals = first.get("deals")
    finished = (
        isinstance(deals, int)
        and not isinstance(deals, bool)
        and set(range(1, deals + 1)) <= set(numbers)
    )
    many = len(missing) > 1
    line = (
        f"log: the log holds deal record{'s' if many else ''} "
        f"{', '.join(map(str, missing))} of match {match_id!r} that "
        f"{'were' if many else 'was'} not given: "
    )
    if finished:
        return [line + "a verification of part of a match that the log shows finished is refused"]
    return [
        line + "--partial accepts a match's first deals only when they are every deal record "
        "the log holds of it"
    ]


def bot_moves(
    records: Sequence[Any], first: dict[str, Any], index: dict[tuple[str, str], dict[str, Any]]
) -> tuple[list[str], dict[str, Any] | None]:
    """The bots' moves of a match whose records (deals 1..k, checked already) carry a
    receipt with ``bot_play``, against the log (``index``: ``transparency.logged``):

    - with its ``bot-seed`` entry (the match ended): the seed must be the one the match's
      committed secret gives, checked when the last deal's record (whose seed is that
      secret) is among ``records``, and every bot decision is replayed
      (``games.fairness.bot_play``);
    - without it: refused when the log shows the match ended (a ``deal-record`` of every
      deal, its ``match-payout``, or, for a tournament's table, its event's ``tables-key``
      or ``event-payout``): the site withheld the seed that would show its bots' moves.

    Returns ``(mismatches, done)``: ``done`` is ``{"checked", "deals", "entry",
    "derived"}`` (decisions compared, records replayed, the seed's log index, whether its
    derivation from the secret was checked) when the replay ran, None otherwise."""
    receipt = first.get("receipt")
    block = receipt.get("bot_play") if isinstance(receipt, dict) else None
    if not isinstance(block, dict):
        return [], None
    match_id = receipt["match_id"]
    entry = index.get(("bot-seed", match_id))
    if entry is None:
        return _withheld_seed(receipt, index), None
    ordered = sorted(records, key=lambda record: record["shuffle"]["deal_number"])
    last = [r for r in ordered if r["shuffle"]["deal_number"] == receipt["deals"]]
    try:
        seed = bot_play.check_seed(block, entry["body"]["seed"])
        if last:
            bot_play.check_derived(seed, match_id, last[0]["shuffle"]["server_seed"])
        result = bot_play.check_bot_moves(ordered, block, seed)
    except FairnessError as error:
        return [f"bots: {error} (log entry {entry['index']})"], None
    problems = [f"bots: {line}" for line in result["problems"]]
    done = {
        "checked": result["checked"],
        "deals": len(ordered),
        "entry": entry["index"],
        "derived": bool(last),
    }
    return problems, done


def _withheld_seed(
    receipt: dict[str, Any], index: dict[tuple[str, str], dict[str, Any]]
) -> list[str]:
    """A match with bots that the log shows ended, without its ``bot-seed`` entry."""
    match_id = receipt["match_id"]
    deals = receipt["deals"]
    every = all(("deal-record", f"{match_id}/{n}") in index for n in range(1, deals + 1))
    event = (receipt.get("tables_commitment") or {}).get("event")
    ended = [
        (every, f"a deal record of each of its {deals} deals"),
        (("match-payout", match_id) in index, "its payout"),
        (("tables-key", event) in index, f"the key of its event {event!r}, revealed at its end"),
        (("event-payout", event) in index, f"the payout of its event {event!r}"),
    ]
    shown = next((said for found, said in ended if found), None)
    if shown is None:
        return []
    return [
        f"log: match {match_id!r} ended (the log holds {shown}) but not its bots' seed, "
        "which its receipt committed: the site withheld what shows its bots' moves"
    ]


def draw_in_log(record: dict[str, Any], index: dict[tuple[str, str], dict[str, Any]]) -> list[str]:
    """A verified ``trix-draw/1`` record against the checked log: the event's
    ``draw-commitment`` entry holds the record's commitment, and its ``draw-key`` entry
    (the draw was made: the record reveals its seed) the record's server seed and the hash
    of its entrant list."""
    event = record["event"]
    committed = index.get(("draw-commitment", event))
    if committed is None:
        return [f"log: no draw-commitment entry of {event!r}"]
    if committed["body"]["commitment"] != record["commitment"].lower():
        return [
            f"log: entry {committed['index']} commits {event!r} to "
            f"{committed['body']['commitment']}, not to the record's {record['commitment']}"
        ]
    key = index.get(("draw-key", event))
    if key is None:
        return [f"log: no draw-key entry of {event!r}: its draw is not logged"]
    problems = []
    if key["body"]["server_seed"] != record["server_seed"].lower():
        problems.append(f"log: entry {key['index']} reveals another server_seed for {event!r}")
    if key["body"]["entrants_hash"] != sha256_hex(record["entrants"]):
        problems.append(
            f"log: the record's entrants hash to {sha256_hex(record['entrants'])}, not to the "
            f"entrants_hash of entry {key['index']}: an entrant or a seed differs from the "
            "draw logged"
        )
    return problems
