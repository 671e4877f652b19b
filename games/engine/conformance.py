"""Conformance scenarios (``trix-conformance/1``): the rules as data, for any Trix engine.

A suite file (``docs/conformance/*.json``, described in ``docs/conformance/README.md``) is::

    {"format": "trix-conformance/1", "title": "...",
     "scenarios": [{"id": "king-taker-pays", "rule": "<a sentence of docs/rules.md>",
                    "variant": "trix", "options": {...non-defaults...},
                    "hands": {"0": [13 codes], ...},
                    "actions": [{"type": "contract", "seat": 0, "contract": "king"}, ...],
                    "expect": {"scores": {"0": 0, ...}, ...}}, ...]}

Each scenario is the first deal of a new match (the holder of the 7♥ owns it) dealt
``hands``; its ``actions`` are applied in order through :func:`games.engine.apply`, and
``expect`` says what must follow: the deal's ``scores`` (and ``teams``, the layout's ``order``)
once the last action has ended the deal, the seats ``asked`` to double, the cards ``shown``
face up when play starts, the one action refused (``illegal``), or options refused
(``invalid_options``).

:func:`load_suite` parses and checks a file (raises :class:`InvalidSuite`);
:func:`run_scenario` returns a scenario's failures (none: it passes).
"""

from __future__ import annotations

from typing import Any

from .cards import codes_of, mask_of
from .errors import EngineError
from .match import PHASE_DOUBLE, PHASE_PLAY, apply, new_match
from .options import Options
from .record import load_json

FORMAT = "trix-conformance/1"
SEAT_KEYS = ("0", "1", "2", "3")
_SUITE_KEYS = {"format", "title", "scenarios"}
_SCENARIO_KEYS = {"id", "rule", "variant", "options", "hands", "actions", "expect"}
_EXPECT_KEYS = {"scores", "teams", "order", "asked", "shown", "illegal", "invalid_options"}


class InvalidSuite(EngineError):
    """A conformance file that is not a well-formed ``trix-conformance/1`` suite."""


def load_suite(text: str | bytes) -> dict[str, Any]:
    """Parse and check a suite's JSON text. Returns the suite object.

    Raises :class:`InvalidSuite` naming the scenario and field at fault (malformed JSON, a
    missing or unknown field, a field of the wrong type, a repeated scenario id). The rules
    themselves (are the hands a deck, are the actions legal) are the engine's to judge when
    the scenario runs."""
    try:
        data = load_json(text)
    except EngineError as exc:
        raise InvalidSuite(str(exc)) from None
    if not isinstance(data, dict):
        raise InvalidSuite("a suite must be a JSON object")
    if data.get("format") != FORMAT:
        raise InvalidSuite(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    _fields(data, _SUITE_KEYS, _SUITE_KEYS, "suite")
    if not isinstance(data["title"], str) or not data["title"].strip():
        raise InvalidSuite("title must be text")
    scenarios = data["scenarios"]
    if not isinstance(scenarios, list) or not scenarios:
        raise InvalidSuite("scenarios must be a non-empty list")
    seen: set[str] = set()
    for i, scenario in enumerate(scenarios):
        where = f"scenario {i}"
        if not isinstance(scenario, dict):
            raise InvalidSuite(f"{where}: must be an object")
        sid = scenario.get("id")
        if not isinstance(sid, str) or not sid:
            raise InvalidSuite(f"{where}: id must be text")
        if sid in seen:
            raise InvalidSuite(f"{where}: id {sid!r} is used twice")
        seen.add(sid)
        _check_scenario(scenario, f"scenario {sid!r}")
    return data


def _fields(obj: dict, required: set[str], allowed: set[str], where: str) -> None:
    missing = required - set(obj)
    if missing:
        raise InvalidSuite(f"{where}: missing field(s): {', '.join(sorted(missing))}")
    unknown = set(obj) - allowed
    if unknown:
        raise InvalidSuite(f"{where}: unknown field(s): {', '.join(sorted(unknown))}")


def _per_seat(value: Any, where: str, kind: type) -> None:
    if not isinstance(value, dict) or set(value) != set(SEAT_KEYS):
        raise InvalidSuite(f'{where} must be an object keyed "0".."3"')
    for v in value.values():
        if kind is int and (type(v) is not int):
            raise InvalidSuite(f"{where}: every value must be a whole number")
        if kind is list and not (isinstance(v, list) and all(isinstance(c, str) for c in v)):
            raise InvalidSuite(f"{where}: every value must be a list of card codes")


def _seats(value: Any, where: str) -> None:
    if not isinstance(value, list) or any(type(s) is not int or not 0 <= s <= 3 for s in value):
        raise InvalidSuite(f"{where} must be a list of seats 0..3")


def _check_scenario(scenario: dict[str, Any], where: str) -> None:
    expect = scenario.get("expect")
    if isinstance(expect, dict) and expect.get("invalid_options") is True:
        # Only the options are tried: no deal is played.
        _fields(scenario, {"id", "rule", "variant", "options", "expect"}, _SCENARIO_KEYS, where)
        if set(expect) != {"invalid_options"}:
            raise InvalidSuite(f"{where}: expect invalid_options stands alone")
    else:
        _fields(scenario, _SCENARIO_KEYS - {"options"}, _SCENARIO_KEYS, where)
    if not isinstance(scenario["rule"], str) or not scenario["rule"].strip():
        raise InvalidSuite(f"{where}: rule must be the sentence of the rules it tests")
    if not isinstance(scenario["variant"], str):
        raise InvalidSuite(f"{where}: variant must be text")
    options = scenario.get("options", {})
    if not isinstance(options, dict) or "variant" in options:
        raise InvalidSuite(f"{where}: options must be an object of table options (not variant)")
    if not isinstance(expect, dict) or not expect:
        raise InvalidSuite(f"{where}: expect must be a non-empty object")
    _fields(expect, set(), _EXPECT_KEYS, f"{where}: expect")
    if "invalid_options" in expect:
        if expect["invalid_options"] is not True:
            raise InvalidSuite(f"{where}: expect invalid_options must be true")
        return
    _per_seat(scenario["hands"], f"{where}: hands", list)
    actions = scenario["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise InvalidSuite(f"{where}: actions must be a list of action objects")
    if "illegal" in expect:
        i = expect["illegal"]
        if type(i) is not int or not 0 <= i < len(actions):
            raise InvalidSuite(f"{where}: expect illegal must be the index of an action")
        if i != len(actions) - 1:
            raise InvalidSuite(f"{where}: the illegal action must be the last one")
        if "scores" in expect or "teams" in expect or "order" in expect:
            raise InvalidSuite(f"{where}: a scenario that expects a refusal expects no scores")
    if "scores" in expect:
        _per_seat(expect["scores"], f"{where}: expect scores", int)
    if "teams" in expect:
        teams = expect["teams"]
        if not isinstance(teams, dict) or set(teams) != {"0+2", "1+3"}:
            raise InvalidSuite(f'{where}: expect teams must be keyed "0+2" and "1+3"')
        if any(type(v) is not int for v in teams.values()):
            raise InvalidSuite(f"{where}: expect teams: every value must be a whole number")
    if "order" in expect:
        _seats(expect["order"], f"{where}: expect order")
    if "asked" in expect:
        _seats(expect["asked"], f"{where}: expect asked")
    if "shown" in expect:
        shown = expect["shown"]
        if not isinstance(shown, dict) or not set(shown) <= set(SEAT_KEYS):
            raise InvalidSuite(f'{where}: expect shown must be an object keyed by seat "0".."3"')
        for v in shown.values():
            if not (isinstance(v, list) and all(isinstance(c, str) for c in v)):
                raise InvalidSuite(f"{where}: expect shown: every value must be a list of codes")
    if not set(expect) & {"scores", "illegal"}:
        raise InvalidSuite(f"{where}: expect needs scores (the deal ends) or illegal")


def run_scenario(scenario: dict[str, Any]) -> list[str]:
    """Run one checked scenario (see :func:`load_suite`) through the engine. Returns its
    failures, each one line; an empty list means it passes."""
    expect = scenario["expect"]
    raw = {**scenario.get("options", {}), "variant": scenario["variant"]}
    try:
        options = Options.from_dict(raw)
    except EngineError as exc:
        if expect.get("invalid_options"):
            return []
        return [f"options refused: {exc}"]
    if expect.get("invalid_options"):
        return ["options accepted, expected them refused"]
    state = new_match(options)
    try:
        apply(state, {"type": "deal", "hands": scenario["hands"]})
    except EngineError as exc:
        return [f"hands refused: {exc}"]
    failures: list[str] = []
    asked: list[int] | None = None
    shown: dict[str, list[str]] | None = None
    refused = expect.get("illegal")
    for i, action in enumerate(scenario["actions"]):
        try:
            _, events = apply(state, action)
        except EngineError as exc:
            if i == refused:
                break
            return [f"action {i} refused: {exc}"]
        if i == refused:
            return [f"action {i} accepted, expected it refused"]
        if asked is None and state.phase == PHASE_DOUBLE:
            asked = sorted(state.to_act())
        if shown is None and state.phase == PHASE_PLAY:
            shown = _face_up(state)
    if "asked" in expect and (asked or []) != sorted(expect["asked"]):
        failures.append(f"seats asked to double: {asked or []}, expected {expect['asked']}")
    if "shown" in expect and (shown or {}) != _sorted_codes(expect["shown"]):
        failures.append(f"shown at the start of play: {shown or {}}, expected {expect['shown']}")
    if refused is not None:
        return failures
    deal = state.deal
    if deal is None or not deal.finished:
        return [*failures, "the deal is not over after the last action"]
    scores = {str(s): deal.scores[s] for s in range(4)}
    if scores != expect["scores"]:
        failures.append(f"scores {scores}, expected {expect['scores']}")
    if "teams" in expect:
        teams = {"0+2": deal.scores[0] + deal.scores[2], "1+3": deal.scores[1] + deal.scores[3]}
        if teams != expect["teams"]:
            failures.append(f"teams {teams}, expected {expect['teams']}")
    if "order" in expect and list(deal.out) != expect["order"]:
        failures.append(f"out in the order {list(deal.out)}, expected {expect['order']}")
    return failures


def _face_up(state) -> dict[str, list[str]]:
    deal = state.deal
    mask = deal.doubled_open | deal.shown_twos
    return {str(s): codes_of(deal.hands[s] & mask) for s in range(4) if deal.hands[s] & mask}


def _sorted_codes(shown: dict[str, list[str]]) -> dict[str, list[str]]:
    out = {}
    for seat, codes in shown.items():
        try:
            out[seat] = codes_of(mask_of(codes))
        except EngineError:
            out[seat] = list(codes)
    return {s: v for s, v in out.items() if v}


def run_suite(suite: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """``[(scenario id, failures)]`` for every scenario of a suite from :func:`load_suite`."""
    return [(s["id"], run_scenario(s)) for s in suite["scenarios"]]
