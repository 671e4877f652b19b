"""Auditors' checks of deal records: ``verify_record`` and ``verify_match`` (the public
verification payloads are ``games.fairness.payloads``, the ``trix verify`` command
``games.fairness.verify_command``).

A ``trix-deal/1`` record carries a ``"shuffle"`` object (``MatchShuffle.shuffle_record`` and
the site's receipt)::

    {"algorithm": "trix-shuffle/1", "match_id": str, "deal_number": int (1..deals),
     "commitment": hex, "server_seed": hex, "client_seeds": {"0": str, ..., "3": str},
     "deals": int, "receipt": {trix-receipt/1}, "signature": hex}   # the last three: new

A record verifies when (1) SHA-256 applied ``deal_number`` times to ``server_seed`` gives
``commitment``, (2) the shuffle of those inputs deals exactly the record's hands, (3) the
rules engine replays the plays (``games.engine.record.replay_record``), and (4) when it
carries a receipt: the receipt is well formed (a seat it names a bot has the bots' client
seed ``bot``), names the record's match id, algorithm, commitment, client seeds, deal count,
variant and options, and (given the site's public key) its signature is valid. A match
verifies when every record does, they all carry the same receipt, and their deal numbers are
1..deals, each once. A record without a receipt (written
before receipts existed) verifies as "cards only, no receipt" and is refused when a public key
or a log is given. Every mismatch is one line naming the field that differs. No Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.fairness.canonical import sha256_hex
from games.fairness.chain import MAX_LENGTH, hash_times
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_index, check_text, seed_bytes
from games.fairness.receipt import (
    check_hex,
    check_receipt,
    check_signature,
)
from games.fairness.shuffle import ALGORITHM, CANONICAL_DECK, SEATS, deal_hands, shuffle
from games.fairness.signing_keys import Keyring
from games.fairness.transparency import logged
from games.fairness.verify_log import (
    bot_moves,
    deal_label,
    receipt_in_log,
    records_in_log,
    withheld_records,
)

RECORD_FORMAT = "trix-deal/1"
"""The tournament seating draw record (``games.fairness.draw.ALGORITHM``)."""
SEAT_KEYS = [str(seat) for seat in range(SEATS)]
"""A record's seat keys, ``"0"`` to ``"3"``."""
_SHUFFLE_FIELDS = {"algorithm", "match_id", "deal_number", "commitment", "server_seed"}
_SHUFFLE_FIELDS |= {"client_seeds", "deals", "receipt", "signature"}


def _shuffle_inputs(record: Any, problems: list[str]) -> dict[str, Any] | None:
    """The validated ``shuffle`` object of ``record``, or None with ``problems`` filled in."""
    if not isinstance(record, dict):
        problems.append("record: must be a JSON object")
        return None
    if record.get("format") != RECORD_FORMAT:
        problems.append(
            f"format: expected {RECORD_FORMAT!r}, the record has {record.get('format')!r}"
        )
    shuffle_object = record.get("shuffle")
    if not isinstance(shuffle_object, dict):
        problems.append("shuffle: the record has no shuffle object, so no revealed seed to check")
        return None
    algorithm = shuffle_object.get("algorithm")
    if algorithm != ALGORITHM:
        problems.append(f"shuffle.algorithm: {algorithm!r} is not {ALGORITHM!r}")
        return None
    before = len(problems)
    unknown = sorted(set(shuffle_object) - _SHUFFLE_FIELDS)
    if unknown:
        problems.append(f"shuffle: unknown field(s) {', '.join(map(str, unknown))}")
    problems.extend(_field_problems(shuffle_object))
    problems.extend(_deal_number_problems(record, shuffle_object))
    client_seeds = shuffle_object.get("client_seeds")
    problems.extend(_client_seed_problems(client_seeds))
    if len(problems) > before:
        return None
    return {
        "match_id": shuffle_object["match_id"],
        "deal_number": shuffle_object["deal_number"],
        "commitment": shuffle_object["commitment"].lower(),
        "server_seed": shuffle_object["server_seed"].lower(),
        "client_seeds": [client_seeds[seat] for seat in SEAT_KEYS],
    }


def _field_problems(shuffle_object: dict[str, Any]) -> list[str]:
    """The mismatches of the shuffle's match id, deal number, commitment and server seed."""
    problems = []
    checks = {
        "match_id": lambda v: check_text(v, "match id"),
        "deal_number": lambda v: check_index(v, "deal number"),
        "commitment": lambda v: seed_bytes(v, "commitment"),
        "server_seed": lambda v: seed_bytes(v, "server seed"),
    }
    for field, check in checks.items():
        if field not in shuffle_object:
            problems.append(f"shuffle.{field}: missing")
            continue
        try:
            check(shuffle_object[field])
        except FairnessError as error:
            problems.append(f"shuffle.{field}: {error}")
            continue
        if field == "server_seed" and shuffle_object[field] != shuffle_object[field].lower():
            problems.append("shuffle.server_seed: must be 64 lower-case hex digits")
    return problems


def _deal_number_problems(record: dict[str, Any], shuffle_object: dict[str, Any]) -> list[str]:
    """The mismatches of the deal count and the deal number (at most the count and
    :data:`MAX_LENGTH`; the record's top-level ``deal_number``, if any, the same)."""
    problems = []
    deal_number = shuffle_object.get("deal_number")
    number_ok = isinstance(deal_number, int) and not isinstance(deal_number, bool)
    deals = shuffle_object.get("deals", MAX_LENGTH)
    if "deals" in shuffle_object:
        try:
            check_index(deals, "deal count")
            if deals > MAX_LENGTH:
                raise FairnessError(f"deal count must be at most {MAX_LENGTH}")
        except FairnessError as error:
            problems.append(f"shuffle.deals: {error}")
            deals = MAX_LENGTH
    if number_ok and deal_number > deals:
        problems.append(f"shuffle.deal_number: must be at most shuffle.deals ({deals})")
    elif number_ok and deal_number > MAX_LENGTH:
        problems.append(f"shuffle.deal_number: must be at most {MAX_LENGTH}")
    top_number = record.get("deal_number", deal_number)
    if type(top_number) is not type(deal_number) or top_number != deal_number:
        problems.append(
            f"deal_number: {record['deal_number']!r} differs from shuffle.deal_number "
            f"{deal_number!r}"
        )
    return problems


def _client_seed_problems(client_seeds: Any) -> list[str]:
    """The mismatches of the shuffle's client seeds: one valid seed per seat "0".."3"."""
    if not isinstance(client_seeds, dict) or sorted(client_seeds) != SEAT_KEYS:
        return ['shuffle.client_seeds: must map each seat "0".."3" to its client seed']
    problems = []
    for seat in SEAT_KEYS:
        try:
            check_text(client_seeds[seat], f"client seed of seat {seat}")
        except FairnessError as error:
            problems.append(f"shuffle.client_seeds.{seat}: {error}")
    return problems


def _record_hands(record: dict[str, Any], problems: list[str]) -> list[list[str]] | None:
    hands = record.get("hands")
    if (
        not isinstance(hands, dict)
        or sorted(hands) != SEAT_KEYS
        or not all(
            isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands.values()
        )
    ):
        problems.append('hands: must map each seat "0".."3" to a list of card codes')
        return None
    return [hands[seat] for seat in SEAT_KEYS]


def _cards(cards: Counter) -> str:
    """Card codes in deck order (unknown codes last), comma-separated."""
    order = {code: index for index, code in enumerate(CANONICAL_DECK)}
    return ", ".join(sorted(cards.elements(), key=lambda c: (order.get(c, 52), c)))


def _compare_hands(recorded: list[list[str]], dealt: list[list[str]]) -> list[str]:
    problems = []
    for seat in range(SEATS):
        if sorted(recorded[seat]) == sorted(dealt[seat]):
            continue
        extra = Counter(recorded[seat]) - Counter(dealt[seat])
        missing = Counter(dealt[seat]) - Counter(recorded[seat])
        if not extra and not missing:
            continue
        parts = []
        if extra:
            parts.append(f"the record has {_cards(extra)}")
        if missing:
            parts.append(f"the shuffle dealt {_cards(missing)}")
        problems.append(f"hands.{seat}: {' where '.join(parts)}")
    if len(problems) == SEATS:
        problems.insert(
            0,
            "hands: no seat holds the hand dealt by this shuffle.server_seed, "
            "shuffle.client_seeds, shuffle.match_id and shuffle.deal_number",
        )
    return problems


def _replay(record: dict[str, Any], problems: list[str]) -> dict[str, Any] | None:
    try:
        from games.engine.errors import InvalidRecord
        from games.engine.record import replay_record
    except ImportError:
        problems.append("replay: not done: the rules engine (games.engine.record) is missing")
        return None
    try:
        return replay_record(record)
    except InvalidRecord as error:
        problems.append(f"replay: {error}")
        return None


def rules_of(variant: Any, options: Any) -> Any:
    """The engine's ``Options`` of ``variant`` and ``options``, or None if they are not
    rules the engine plays."""
    from games.engine.errors import EngineError
    from games.engine.options import Options

    if not isinstance(options, dict):
        return None
    try:
        return Options.from_dict({**options, "variant": variant})
    except EngineError:
        return None


def _same_rules(record: dict[str, Any], receipt: dict[str, Any]) -> bool:
    """Whether the record's variant and options are the receipt's (compared as the engine's
    ``Options``, so defaults written out or left out are the same rules)."""
    mine = rules_of(record.get("variant"), record.get("options", {}))
    return mine is not None and mine == rules_of(receipt["variant"], receipt["options"])


def _receipt_problems(record: dict[str, Any], public_key: Any) -> list[str]:
    """The receipt checks of a record whose shuffle object carries ``receipt`` or
    ``signature`` (both are then required); ``public_key``: an Ed25519 public key, a
    ``signing_keys.Keyring`` (the key the receipt's ``key_id`` names, in use at its
    ``issued_at``) or None."""
    shuffle_object = record["shuffle"]
    try:
        receipt = check_receipt(shuffle_object.get("receipt"))
    except FairnessError as error:
        return [f"shuffle.receipt: {error}"]
    try:
        signature = check_hex(shuffle_object.get("signature"), "signature", 128)
    except FairnessError as error:
        return [f"shuffle.signature: {error}"]
    problems = []
    for field in ("match_id", "algorithm", "commitment", "client_seeds", "deals"):
        mine = shuffle_object.get(field)
        if field == "commitment" and isinstance(mine, str):
            mine = mine.lower()
        if mine != receipt[field] or isinstance(mine, bool):
            problems.append(
                f"shuffle.{field}: {mine!r} differs from the receipt's {receipt[field]!r}"
            )
    if not _same_rules(record, receipt):
        problems.append(
            "variant/options: the record's rules differ from the receipt's "
            f"{receipt['variant']!r} {receipt['options']!r}"
        )
    rules = rules_of(receipt["variant"], receipt["options"])
    if rules is not None and rules.deals_per_match != receipt["deals"]:
        problems.append(
            f"shuffle.receipt.deals: {receipt['deals']} deals, where the receipt's rules play "
            f"{rules.deals_per_match}: a match's chain covers exactly its deals"
        )
    if public_key is not None:
        ring = public_key if isinstance(public_key, Keyring) else Keyring.of(public_key)
        try:
            key = ring.key(receipt.get("key_id"), receipt["issued_at"], "the receipt")
            check_signature(receipt, signature, key.public_key)
        except FairnessError as error:
            problems.append(f"shuffle.signature: {error}")
    return problems


def _expected_problems(
    inputs: dict[str, Any], commitment: str | None, client_seeds: dict[str, str] | None
) -> list[str]:
    """What the player saw and sent (``--commitment``, ``--client-seed``) against a record."""
    problems = []
    if commitment is not None and inputs["commitment"] != commitment.lower():
        problems.append(
            f"shuffle.commitment: {inputs['commitment']} is not the commitment you saw, "
            f"{commitment.lower()}"
        )
    for seat, seed in (client_seeds or {}).items():
        recorded = inputs["client_seeds"][int(seat)]
        if recorded != seed:
            problems.append(
                f"shuffle.client_seeds.{seat}: {recorded!r} is not the client seed you sent, "
                f"{seed!r}"
            )
    return problems


def check_deal(
    record: Any,
    replay: bool,
    public_key: Any = None,
    commitment: str | None = None,
    client_seeds: dict[str, str] | None = None,
    require_receipt: bool = False,
) -> tuple[list[str], dict[str, Any]]:
    """``(mismatches, details)`` of one record: :func:`verify_record`'s checks, and what
    was recomputed (``commitment_matches``, ``deck``, ``hands``, ``result``; None where a
    check could not run)."""
    problems: list[str] = []
    details: dict[str, Any] = {"commitment_matches": None, "deck": None, "hands": None}
    details["result"] = None
    inputs = _shuffle_inputs(record, problems)
    if inputs is None:
        return problems, details
    deal_number = inputs["deal_number"]
    computed = hash_times(bytes.fromhex(inputs["server_seed"]), deal_number).hex()
    details["commitment_matches"] = computed == inputs["commitment"]
    if not details["commitment_matches"]:
        problems.append(
            f"shuffle.server_seed does not match shuffle.commitment: SHA-256 applied "
            f"{deal_number} time{'s' if deal_number != 1 else ''} to the seed gives {computed}, "
            f"the commitment is {inputs['commitment']}"
        )
    deck = shuffle(inputs["server_seed"], inputs["client_seeds"], inputs["match_id"], deal_number)
    dealt = deal_hands(deck)
    details["deck"] = deck
    details["hands"] = {str(seat): hand for seat, hand in enumerate(dealt)}
    problems.extend(_expected_problems(inputs, commitment, client_seeds))
    shuffle_object = record["shuffle"]
    if "receipt" in shuffle_object or "signature" in shuffle_object:
        problems.extend(_receipt_problems(record, public_key))
    elif require_receipt:
        problems.append(
            "shuffle.receipt: missing (a record from before receipts): nothing to check "
            "against the public key or the log"
        )
    recorded = _record_hands(record, problems)
    if recorded is None:
        return problems, details
    problems.extend(_compare_hands(recorded, dealt))
    if replay:
        details["result"] = _replay(record, problems)
    return problems, details


def verify_record(
    record: Any,
    *,
    replay: bool = True,
    public_key: Any = None,
    commitment: str | None = None,
    client_seeds: dict[str, str] | None = None,
    require_receipt: bool = False,
) -> list[str]:
    """The mismatches of one ``trix-deal/1`` record; an empty list means verified.

    ``record`` is the parsed JSON. Checks the revealed seed against the commitment, the hands
    against the shuffle of the revealed seed and client seeds, (``replay=True``) replays the
    plays with the rules engine, and checks the record's receipt if it carries one (see the
    module docstring). ``public_key`` (an Ed25519 public key,
    ``games.fairness.receipt.load_public_key``): the receipt's signature must be valid under
    it. ``commitment`` (hex) and ``client_seeds`` (``{"0".."3": text}``, some seats): what
    the player saw and sent; the record must carry them. ``require_receipt``: a record
    without a receipt is a mismatch. Each mismatch is one line naming the field, e.g.
    ``"hands.2: the record has QS where the shuffle dealt QH"``. Never raises on bad input:
    malformed fields are mismatches too.
    """
    return check_deal(record, replay, public_key, commitment, client_seeds, require_receipt)[0]


_MATCH_FIELDS = ("algorithm", "match_id", "commitment", "client_seeds", "deals", "receipt")


def _field_key(value: Any) -> Any:
    """A comparable form of a shuffle field (``True`` and ``1`` differ; receipts by hash)."""
    try:
        return sha256_hex(value)
    except FairnessError:
        return repr(value)


def verify_match(
    records: Sequence[Any],
    *,
    replay: bool = True,
    public_key: Any = None,
    commitment: str | None = None,
    client_seeds: dict[str, str] | None = None,
    require_receipt: bool = False,
    partial: bool = False,
    log: Sequence[dict[str, Any]] | None = None,
) -> list[str]:
    """The mismatches of all deal records of one match (any order); empty means verified.

    Each record is checked by ``verify_record`` with the same keyword arguments (lines
    prefixed ``"deal N: "``). Across records, the algorithm, match id, commitment, client
    seeds, deal count, receipt and signature must agree (the receipt binds them for the whole
    match), and the deal numbers must be exactly 1..deals, each once (``deals``: the records'
    deal count; records without one, from before receipts, 1..the highest number).
    ``partial=True`` accepts 1..k (a match still running, or ended early by a forfeit);
    with ``log``, only when the log holds no other ``deal-record`` entry of the match
    (:func:`withheld_records` names the deals left out). A record's place in the match is
    its deal number: a deal moved to another number fails the commitment (its seed hashes to
    the commitment in exactly that many steps).
    ``log``: the entries of a ``trix-log/1`` log whose chain the caller checked
    (``transparency.verify_log``, which admits one receipt per match, after its commitment):
    the log's ``match-receipt`` entry of the match id must hold the records' receipt and
    signature, and each record must hash to the ``record_hash`` of the log's ``deal-record``
    entry of its match id and deal number (a record without a receipt is refused); once
    the log holds the match's ``bot-seed`` (it ended), every move of a seat the receipt
    names a bot must be that bot's (:func:`verify_log.bot_moves`, run when nothing else is
    wrong: it replays the whole match).
    """
    if isinstance(records, dict) or not isinstance(records, Sequence) or not records:
        return ["records: expected a non-empty list of deal records"]
    require_receipt = require_receipt or log is not None
    problems: list[str] = []
    for position, record in enumerate(records):
        label = deal_label(record, position)
        lines = verify_record(
            record,
            replay=replay,
            public_key=public_key,
            commitment=commitment,
            client_seeds=client_seeds,
            require_receipt=require_receipt,
        )
        problems.extend(f"{label}: {line}" for line in lines)
    shuffles = [
        (position, record["shuffle"])
        for position, record in enumerate(records)
        if isinstance(record, dict) and isinstance(record.get("shuffle"), dict)
    ]
    if not shuffles:
        return problems
    first = shuffles[0][1]
    problems.extend(_agreement(records, shuffles))
    problems.extend(_completeness(shuffles, first, partial))
    if log is not None:
        index = logged(log)
        if isinstance(first.get("receipt"), dict):
            problems.extend(receipt_in_log(first, index))
        problems.extend(records_in_log(records, index))
        if partial:
            problems.extend(withheld_records(shuffles, first, log))
        if not problems:
            problems.extend(bot_moves(records, first, index)[0])
    return problems


def _agreement(records: Sequence[Any], shuffles: list[tuple[int, dict]]) -> list[str]:
    """Where a record's shuffle (``shuffles``: ``(position, shuffle)``) differs from the
    first one's in a field the whole match shares, or in its signature."""
    problems: list[str] = []
    first_position, first = shuffles[0]
    first_label = deal_label(records[first_position], first_position)
    for position, other in shuffles[1:]:
        label = deal_label(records[position], position)
        for field in _MATCH_FIELDS:
            if _field_key(other.get(field)) == _field_key(first.get(field)):
                continue
            if field == "receipt":
                problems.append(f"{label}: shuffle.receipt differs from {first_label}'s")
            elif field == "client_seeds":
                problems.extend(_seed_differences(label, other, first_label, first))
            else:
                problems.append(
                    f"{label}: shuffle.{field} {other.get(field)!r} differs from "
                    f"{first_label}'s {first.get(field)!r}"
                )
        if other.get("signature") != first.get("signature"):
            problems.append(f"{label}: shuffle.signature differs from {first_label}'s")
    return problems


def _seed_differences(label: str, other: dict, first_label: str, first: dict) -> list[str]:
    mine, theirs = other.get("client_seeds"), first.get("client_seeds")
    if not (isinstance(mine, dict) and isinstance(theirs, dict)):
        return [f"{label}: shuffle.client_seeds differ from {first_label}'s"]
    return [
        f"{label}: shuffle.client_seeds.{seat} {mine.get(seat)!r} differs from "
        f"{first_label}'s {theirs.get(seat)!r}"
        for seat in SEAT_KEYS
        if mine.get(seat) != theirs.get(seat)
    ]


def _completeness(shuffles: list[tuple[int, dict]], first: dict, partial: bool) -> list[str]:
    """Deal numbers 1..deals (``partial``: 1..the highest), each once."""
    numbers = Counter(
        s.get("deal_number")
        for _, s in shuffles
        if isinstance(s.get("deal_number"), int) and not isinstance(s.get("deal_number"), bool)
    )
    if not numbers:
        return []
    problems = [
        f"deal {number}: {count} records carry this deal number"
        for number, count in sorted(numbers.items())
        if count > 1
    ]
    deals = first.get("deals")
    if partial or not isinstance(deals, int) or isinstance(deals, bool):
        last = max(numbers)
    else:
        last = min(deals, MAX_LENGTH)
    missing = [number for number in range(1, last + 1) if number not in numbers]
    if missing:
        problems.append(
            f"deal{'s' if len(missing) > 1 else ''} {_ranges(missing)}: missing from the "
            "match's records "
            f"(it has {last} deal{'s' if last != 1 else ''}"
            f"{'' if partial else '; --partial checks the first deals only'})"
        )
    return problems


def _ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3, 5"`` (``numbers`` sorted, not empty)."""
    parts = []
    start = previous = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if number is not None:
            start = previous = number
    return ", ".join(parts)
