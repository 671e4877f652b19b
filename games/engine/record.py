"""Deal records (``trix-deal/1``): parse, validate and replay one deal.

A record (see ``docs/engine.md`` and ``docs/example-deal.json``)::

    {"format": "trix-deal/1", "variant": "complex_partner", "options": {...non-defaults...},
     "contract": "complex", "owner": 2,
     "hands": {"0": [13 codes], "1": [...], "2": [...], "3": [...]},
     "doubles": {"1": ["KH"], "3": ["QS", "QD"]},
     "plays": ["2C", "5C", ..., "pass", ...]}

``plays`` lists every card played and, in the ``trix`` contract, every pass as ``"pass"``; the
seat of each is implied by the rules. An optional ``"shuffle"`` object (the verifiable
shuffle's commitment, seeds and algorithm, ``docs/fairness.md``) is carried and ignored here.
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


def load_record(text: str) -> dict[str, Any]:
    """Parse JSON text into a record object; raises :class:`InvalidRecord` on bad JSON."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidRecord(f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidRecord("a deal record must be a JSON object")
    return data


def _hands(record: dict[str, Any]) -> list[int]:
    try:
        return parse_hands(record.get("hands"))
    except EngineError as exc:
        raise InvalidRecord(str(exc)) from None


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
    raw_options = record.get("options") or {}
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
    if isinstance(owner, bool) or owner not in (0, 1, 2, 3):
        raise InvalidRecord(f"owner must be a seat 0..3, not {owner!r}")
    deal = Deal(options, _hands(record), owner)
    deal.start(contract)
    doubles = record.get("doubles") or {}
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
