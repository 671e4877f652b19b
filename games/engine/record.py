"""Deal records (``trix-deal/1``): parse, validate and replay one deal.

A record (see ``docs/engine.md`` and ``docs/example-deal.json``)::

    {"format": "trix-deal/1", "variant": "complex_partner", "options": {...non-defaults...},
     "contract": "complex", "owner": 2,
     "hands": {"0": [13 codes], "1": [...], "2": [...], "3": [...]},
     "doubles": {"1": ["KH"], "3": ["QS", "QD"]},
     "plays": ["2C", "5C", ..., "pass", ...]}

``plays`` lists every card played and, in the ``trix`` contract, every pass as ``"pass"``; the
seat of each is implied by the rules. An optional ``"shuffle"`` object (the verifiable
shuffle's commitment, seeds and algorithm, ``docs/fairness.md``) is carried and checked only
for its type here, as are the optional ``"match"`` and ``"deal_number"``.

Required fields: ``format``, ``variant``, ``contract``, ``owner``, ``hands``, ``plays``;
``options`` and ``doubles`` may be left out (no option differs from the defaults, nothing
doubled) but, when present, must be objects. Card codes are exact: upper-case rank then suit.
"""

from __future__ import annotations

import json
from typing import Any

from .cards import CODES, codes_of, mask_of, parse_card, parse_hands
from .deal import DOUBLABLE, PHASE_DOUBLE, Deal
from .errors import EngineError, InvalidRecord
from .options import CONTRACTS, Options

FORMAT = "trix-deal/1"
_KEYS = {"format", "variant", "options", "contract", "owner", "hands", "doubles", "plays"}
_OPTIONAL_KEYS = {"shuffle", "match", "deal_number"}
MAX_TEXT_CHARS = 64
"""Longest ``match`` given as text (as for the shuffle's match id)."""


def load_json(text: str | bytes) -> Any:
    """Parse JSON text; raises :class:`InvalidRecord` (``malformed JSON: ...``) on bad JSON,
    text that is not UTF-8, or nesting deeper than Python's recursion limit (about 1,000)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise InvalidRecord("malformed JSON: nested too deep") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidRecord(f"malformed JSON: {exc}") from None


def load_record(text: str) -> dict[str, Any]:
    """Parse JSON text into a record object; raises :class:`InvalidRecord` on bad JSON."""
    data = load_json(text)
    if not isinstance(data, dict):
        raise InvalidRecord("a deal record must be a JSON object")
    return data


def _hands(record: dict[str, Any]) -> list[int]:
    hands = record.get("hands")
    if not isinstance(hands, dict):
        raise InvalidRecord('hands must be an object keyed by seat "0".."3"')
    try:
        return parse_hands(hands)
    except EngineError as exc:
        raise InvalidRecord(str(exc)) from None


def _is_count(value: Any) -> bool:
    """An int >= 1 that is not a bool (JSON ``true``) and not a float (``3.0``)."""
    return type(value) is int and value >= 1


def _check_optional(record: dict[str, Any]) -> None:
    """The optional fields' types: ``shuffle`` an object, ``deal_number`` an int >= 1,
    ``match`` an int >= 1 or 1..64 characters of text."""
    if "shuffle" in record and not isinstance(record["shuffle"], dict):
        raise InvalidRecord("shuffle must be an object (the deal's verifiable shuffle)")
    if "deal_number" in record and not _is_count(record["deal_number"]):
        raise InvalidRecord(
            f"deal_number must be a whole number from 1, not {record['deal_number']!r}"
        )
    if "match" in record:
        match = record["match"]
        text = isinstance(match, str) and 1 <= len(match) <= MAX_TEXT_CHARS
        if not (text or _is_count(match)):
            raise InvalidRecord(
                f"match must be a whole number from 1 or 1 to {MAX_TEXT_CHARS} characters of "
                f"text, not {match!r}"
            )


def start_deal(record: dict[str, Any]) -> Deal:
    """Validate everything but the plays and return the :class:`Deal` ready for its first
    play (its contract announced and its doubles answered).

    Raises :class:`InvalidRecord` naming the field at fault."""
    if record.get("format") != FORMAT:
        raise InvalidRecord(f"format must be {FORMAT!r}, not {record.get('format')!r}")
    unknown = set(record) - _KEYS - _OPTIONAL_KEYS
    if unknown:
        raise InvalidRecord(f"unknown field(s): {', '.join(sorted(unknown))}")
    missing = _KEYS - set(record) - {"options", "doubles"}
    if missing:
        raise InvalidRecord(f"missing field(s): {', '.join(sorted(missing))}")
    _check_optional(record)
    raw_options = record.get("options", {})
    if not isinstance(raw_options, dict) or "variant" in raw_options:
        raise InvalidRecord("options must be an object of non-default options (not variant)")
    try:
        options = Options.from_dict({**raw_options, "variant": record["variant"]})
    except EngineError as exc:
        raise InvalidRecord(str(exc)) from None
    contract = record["contract"]
    if contract not in CONTRACTS or contract not in options.contracts:
        raise InvalidRecord(f"contract {contract!r} is not played in variant {options.variant}")
    owner = record["owner"]
    if type(owner) is not int or owner not in (0, 1, 2, 3):
        raise InvalidRecord(f"owner must be a seat 0..3, not {owner!r}")
    deal = Deal(options, _hands(record), owner)
    deal.start(contract)
    doubles = record.get("doubles", {})
    if not isinstance(doubles, dict):
        raise InvalidRecord("doubles must be an object keyed by seat")
    for key, cards in doubles.items():
        if key not in ("0", "1", "2", "3"):
            raise InvalidRecord(f"doubles: {key!r} is not a seat")
        if not isinstance(cards, list):
            raise InvalidRecord(f"doubles of seat {key} must be a list of card codes")
        try:
            m = mask_of(cards)
        except EngineError as exc:
            raise InvalidRecord(f"doubles of seat {key}: {exc}") from None
        bad = m & ~deal.doublable(int(key))
        if bad:
            if not DOUBLABLE.get(contract):
                raise InvalidRecord(f"nothing can be doubled in {contract}")
            raise InvalidRecord(
                f"seat {key} cannot double {', '.join(codes_of(bad))} in {contract}"
            )
    if deal.phase == PHASE_DOUBLE:
        for seat in list(deal.double_pending):
            cards = doubles.get(str(seat)) or []
            deal.answer_double(seat, mask_of(cards))
    return deal


def replay_deal(record: dict[str, Any]) -> Deal:
    """Replay a record's plays; return the finished :class:`Deal`.

    Raises :class:`InvalidRecord` with the play index and reason at the first bad play, for
    plays after the deal ended, and for a record that stops before the deal is over."""
    deal = start_deal(record)
    plays = record["plays"]
    if not isinstance(plays, list):
        raise InvalidRecord("plays must be a list")
    for i, item in enumerate(plays):
        if deal.finished:
            raise InvalidRecord("the deal is over: no more plays", i)
        seat = deal.turn
        try:
            if item == "pass":
                deal.check_pass(seat)
                deal.pass_turn()
            else:
                card = parse_card(item)
                deal.check_play(seat, card)
                deal.play(card)
        except EngineError as exc:
            raise InvalidRecord(f"seat {seat}: {exc}", i) from None
    if not deal.finished:
        raise InvalidRecord(f"the record ends after {len(plays)} plays, before the deal is over")
    return deal


def deal_result(deal: Deal) -> dict[str, Any]:
    """The JSON result of a finished deal: ``scores`` keyed by seat, ``teams`` in
    partnership, ``tricks`` (trick contracts) or ``order`` (the layout)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "variant": deal.options.variant,
        "contract": deal.contract,
        "owner": deal.owner,
        "scores": {str(s): deal.scores[s] for s in range(4)},
    }
    if deal.options.partnership:
        out["teams"] = {
            "0+2": deal.scores[0] + deal.scores[2],
            "1+3": deal.scores[1] + deal.scores[3],
        }
    if deal.contract == "trix":
        out["order"] = list(deal.out)
    else:
        out["tricks"] = [
            {"leader": leader, "cards": [CODES[c] for c in cards], "taker": taker}
            for leader, cards, taker in deal.tricks
        ]
    return out


def replay_record(record: dict[str, Any]) -> dict[str, Any]:
    """Score a deal record: :func:`replay_deal` then :func:`deal_result`."""
    return deal_result(replay_deal(record))
