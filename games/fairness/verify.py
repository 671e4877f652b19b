"""Auditors' checks of deal records: ``verify_record``, ``verify_match``, the public
verification payloads, and ``verify_cli`` behind ``trix verify FILE|-``.

A ``trix-deal/1`` record carries a ``"shuffle"`` object (written by
``MatchShuffle.shuffle_record``)::

    {"algorithm": "trix-shuffle/1", "match_id": str, "deal_number": int,
     "commitment": hex, "server_seed": hex, "client_seeds": {"0": str, ..., "3": str}}

A record verifies when (1) SHA-256 applied ``deal_number`` times to ``server_seed`` gives
``commitment``, (2) the shuffle of those inputs deals exactly the record's hands, and (3) the
rules engine replays the plays (``games.engine.record.replay_record``). Every mismatch is one
line naming the field that differs. No Django; the engine is imported only to replay.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from games.fairness.chain import MAX_LENGTH, hash_times
from games.fairness.errors import FairnessError
from games.fairness.shuffle import ALGORITHM, CANONICAL_DECK, SEATS, deal_hands, shuffle
from games.fairness.stream import check_index, check_text, seed_bytes

RECORD_FORMAT = "trix-deal/1"
DRAW_FORMAT = "trix-draw/1"
"""The tournament seating draw record (``games.fairness.draw.ALGORITHM``)."""
_SEAT_KEYS = [str(seat) for seat in range(SEATS)]


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
    if isinstance(shuffle_object.get("deal_number"), int) and shuffle_object["deal_number"] > (
        MAX_LENGTH
    ):
        problems.append(f"shuffle.deal_number: must be at most {MAX_LENGTH}")
    client_seeds = shuffle_object.get("client_seeds")
    if not isinstance(client_seeds, dict) or sorted(client_seeds) != _SEAT_KEYS:
        problems.append('shuffle.client_seeds: must map each seat "0".."3" to its client seed')
    else:
        for seat in _SEAT_KEYS:
            try:
                check_text(client_seeds[seat], f"client seed of seat {seat}")
            except FairnessError as error:
                problems.append(f"shuffle.client_seeds.{seat}: {error}")
    if len(problems) > before:
        return None
    return {
        "match_id": shuffle_object["match_id"],
        "deal_number": shuffle_object["deal_number"],
        "commitment": shuffle_object["commitment"].lower(),
        "server_seed": shuffle_object["server_seed"].lower(),
        "client_seeds": [client_seeds[seat] for seat in _SEAT_KEYS],
    }


def _record_hands(record: dict[str, Any], problems: list[str]) -> list[list[str]] | None:
    hands = record.get("hands")
    if (
        not isinstance(hands, dict)
        or sorted(hands) != _SEAT_KEYS
        or not all(
            isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands.values()
        )
    ):
        problems.append('hands: must map each seat "0".."3" to a list of card codes')
        return None
    return [hands[seat] for seat in _SEAT_KEYS]


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


def _check(record: Any, replay: bool) -> tuple[list[str], dict[str, Any]]:
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
    recorded = _record_hands(record, problems)
    if recorded is None:
        return problems, details
    problems.extend(_compare_hands(recorded, dealt))
    if replay:
        details["result"] = _replay(record, problems)
    return problems, details


def verify_record(record: Any, *, replay: bool = True) -> list[str]:
    """The mismatches of one ``trix-deal/1`` record; an empty list means verified.

    ``record`` is the parsed JSON. Checks the revealed seed against the commitment, the hands
    against the shuffle of the revealed seed and client seeds, and (``replay=True``) replays
    the plays with the rules engine. Each mismatch is one line naming the field, e.g.
    ``"hands.2: the record has QS where the shuffle dealt QH"``. Never raises on bad
    input: malformed fields are mismatches too.
    """
    return _check(record, replay)[0]


def _deal_label(record: Any, position: int) -> str:
    try:
        return f"deal {int(record['shuffle']['deal_number'])}"
    except (TypeError, KeyError, ValueError):
        return f"record {position + 1}"


def verify_match(records: Sequence[Any], *, replay: bool = True) -> list[str]:
    """The mismatches of all deal records of one match (any order); empty means verified.

    Each record is checked by ``verify_record`` (lines prefixed ``"deal N: "``); across
    records, the algorithm, match id, commitment and client seeds must agree (client seeds are
    locked for the whole match) and the deal numbers must run 1, 2, ... without gaps or repeats.
    """
    if isinstance(records, dict) or not isinstance(records, Sequence) or not records:
        return ["records: expected a non-empty list of deal records"]
    problems: list[str] = []
    for position, record in enumerate(records):
        label = _deal_label(record, position)
        problems.extend(f"{label}: {line}" for line in verify_record(record, replay=replay))
    shuffles = [
        (position, record["shuffle"])
        for position, record in enumerate(records)
        if isinstance(record, dict) and isinstance(record.get("shuffle"), dict)
    ]
    if not shuffles:
        return problems
    first_position, first = shuffles[0]
    first_label = _deal_label(records[first_position], first_position)
    for position, other in shuffles[1:]:
        label = _deal_label(records[position], position)
        for field in ("algorithm", "match_id", "commitment"):
            if other.get(field) != first.get(field):
                problems.append(
                    f"{label}: shuffle.{field} {other.get(field)!r} differs from "
                    f"{first_label}'s {first.get(field)!r}"
                )
        mine, theirs = other.get("client_seeds"), first.get("client_seeds")
        if isinstance(mine, dict) and isinstance(theirs, dict):
            for seat in _SEAT_KEYS:
                if mine.get(seat) != theirs.get(seat):
                    problems.append(
                        f"{label}: shuffle.client_seeds.{seat} {mine.get(seat)!r} differs from "
                        f"{first_label}'s {theirs.get(seat)!r}"
                    )
    numbers = Counter(
        s.get("deal_number") for _, s in shuffles if isinstance(s.get("deal_number"), int)
    )
    for number, count in sorted(numbers.items()):
        if count > 1:
            problems.append(f"deal {number}: {count} records carry this deal number")
    if numbers:
        for number in range(1, max(numbers) + 1):
            if number not in numbers:
                problems.append(f"deal {number}: missing from the match's records")
    return problems


def deal_verification(record: Any) -> dict[str, Any]:
    """The public verification payload of one ended deal, for a page or an API (JSON)::

        {"algorithm", "match_id", "deal_number", "commitment", "server_seed",
         "client_seeds": {"0": str, ...},   # as the record states them (None if absent)
         "commitment_matches": bool | None, # SHA-256^deal_number(server_seed) == commitment
         "deck": [52 codes] | None,         # the recomputed shuffle, position 0 dealt first
         "hands": {"0": [13 codes], ...} | None,  # recomputed, in dealt order
         "result": replay output (scores, ...) | None,
         "verified": bool, "mismatches": [str, ...]}

    Call it only with the record of an ended deal (that is the only kind carrying a seed).
    """
    problems, details = _check(record, replay=True)
    shuffle_object = record.get("shuffle") if isinstance(record, dict) else None
    if not isinstance(shuffle_object, dict):
        shuffle_object = {}
    payload = {
        field: shuffle_object.get(field)
        for field in (
            "algorithm",
            "match_id",
            "deal_number",
            "commitment",
            "server_seed",
            "client_seeds",
        )
    }
    payload.update(details)
    payload["verified"] = not problems
    payload["mismatches"] = problems
    return payload


def match_verification(records: Sequence[Any], public: dict[str, Any] | None = None) -> dict:
    """The public verification payload of a match (JSON)::

        {"match": public or None,            # MatchShuffle.public(): commitment, deals, ...
         "deals": [deal_verification(record), ...] sorted by deal number,
         "verified": bool, "mismatches": [str, ...]}   # verify_match over the ended deals

    ``records`` are the ended deals' records (possibly none yet); ``public`` is
    ``MatchShuffle.public()``, whose commitment every record must carry.
    """
    deals = sorted(
        (deal_verification(record) for record in records),
        key=lambda payload: (not isinstance(payload["deal_number"], int), payload["deal_number"]),
    )
    problems = verify_match(list(records)) if records else []
    if public is not None:
        for payload in deals:
            if payload["commitment"] != public.get("commitment"):
                problems.append(
                    f"deal {payload['deal_number']}: shuffle.commitment differs from the "
                    "match's published commitment"
                )
    return {
        "match": public,
        "deals": deals,
        "verified": not problems,
        "mismatches": problems,
    }


class _Unreadable(ValueError):
    """Input ``trix verify`` cannot parse; its message is the whole error line."""


def _parse(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _Unreadable(
            f"invalid JSON: {name}: line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise _Unreadable(f"invalid JSON: {name}: nested too deep") from None


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _load(path: str, stdin: TextIO) -> list[tuple[str, Any]]:
    """(name, parsed JSON) pairs: one for a file or ``-``, one per ``*.json`` in a directory."""
    if path == "-":
        return [("-", _parse(stdin.read(), "-"))]
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
        if not names:
            raise ValueError(f"{path}: no .json deal records in this directory")
        return [(name, _parse(_read_text(os.path.join(path, name)), name)) for name in names]
    return [(path, _parse(_read_text(path), path))]


def _verify_draw_cli(record: dict[str, Any], stdout: TextIO, stderr: TextIO) -> int:
    """A ``trix-draw/1`` record: one OK line and 0, or one error line and 1."""
    from games.fairness.seating import verify_record as verify_draw_record

    try:
        summary = verify_draw_record(record)
    except FairnessError as error:
        print(f"{DRAW_FORMAT}: {error}", file=stderr)
        return 1
    print(
        f"verified: {DRAW_FORMAT} {summary['event']}, {summary['format']}"
        f"{' partnership' if summary['team_mode'] else ''}, {summary['entrants']} entrants, "
        f"{summary['rounds']} rounds ({summary['played']} with results)",
        file=stdout,
    )
    return 0


def verify_cli(path: str, stdout: TextIO, stderr: TextIO, stdin: TextIO | None = None) -> int:
    """``trix verify FILE|-``: verify a deal record and print ``verified`` or the mismatches.

    A file holding one ``trix-draw/1`` record (a tournament's seating draw) is checked by
    ``games.fairness.seating.verify_record`` instead: one ``verified: ...`` line and 0, or one
    ``trix-draw/1: ...`` error line on ``stderr`` and 1.

    ``path`` is a record file, ``-`` for stdin, a file holding a JSON list of one match's
    records, or a directory of ``*.json`` records (grouped by match). Prints ``verified`` on
    ``stdout`` and returns 0, or one line per mismatch on ``stderr`` and returns 1 (also for an
    unreadable file or invalid JSON).
    """
    try:
        loaded = _load(path, stdin if stdin is not None else sys.stdin)
    except _Unreadable as error:
        print(error, file=stderr)
        return 1
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"cannot read {path}: {error}", file=stderr)
        return 1
    if (
        len(loaded) == 1
        and isinstance(loaded[0][1], dict)
        and loaded[0][1].get("format") == DRAW_FORMAT
    ):
        return _verify_draw_cli(loaded[0][1], stdout, stderr)
    problems: list[str] = []
    if len(loaded) == 1 and isinstance(loaded[0][1], dict):
        problems = verify_record(loaded[0][1])
        count = 1
    elif len(loaded) == 1 and isinstance(loaded[0][1], list):
        problems = verify_match(loaded[0][1])
        count = len(loaded[0][1])
    else:
        matches: dict[Any, list[Any]] = {}
        for name, record in loaded:
            try:
                key = record["shuffle"]["match_id"]
            except (TypeError, KeyError):
                problems.extend(f"{name}: {line}" for line in verify_record(record))
                continue
            matches.setdefault(key, []).append(record)
        for match_id, records in matches.items():
            problems.extend(f"match {match_id}: {line}" for line in verify_match(records))
        count = len(loaded)
    if problems:
        for line in problems:
            print(line, file=stderr)
        return 1
    print("verified" if count == 1 else f"verified: {count} deal records", file=stdout)
    return 0
