"""Bad input: every malformed record or refused action is a clear error naming what was
wrong, and changes nothing."""

from __future__ import annotations

import json

import pytest

from games.engine import (
    IllegalAction,
    InvalidOptions,
    InvalidRecord,
    Options,
    apply,
    load_record,
    new_match,
    replay_record,
)

from .helpers import build_hands, complete, make_record, match_with, suit_hands

KING_HANDS = build_hands({0: "H:2", 1: "H:3", 2: "H:K", 3: "H:A C:A"})
GOOD = make_record("king", KING_HANDS, "2H 3H KH AH")


def with_hand(seat, hand):
    rec = json.loads(json.dumps(GOOD))
    rec["hands"][str(seat)] = hand
    return rec


@pytest.mark.parametrize(
    "record, message",
    [
        (with_hand(1, ["1X", *GOOD["hands"]["1"][1:]]), "hand of seat 1: not a card code: '1X'"),
        (with_hand(1, GOOD["hands"]["1"][:12]), "hand of seat 1 has 12 cards, not 13"),
        (with_hand(1, GOOD["hands"]["1"] + ["2C"]), "hand of seat 1 has 14 cards, not 13"),
        (
            with_hand(1, GOOD["hands"]["1"][:12] + [GOOD["hands"]["1"][0]]),
            "listed twice",
        ),
        (
            with_hand(1, GOOD["hands"]["1"][:12] + [GOOD["hands"]["0"][0]]),
            f"card {GOOD['hands']['0'][0]} is in two hands",
        ),
        ({**GOOD, "format": "trix-deal/2"}, "format must be 'trix-deal/1'"),
        ({**GOOD, "options": {"speed": 3}}, "unknown option 'speed'"),
        ({**GOOD, "options": {"self_double": "nobody"}}, "option 'self_double' must be one of"),
        ({**GOOD, "variant": "hearts"}, "option 'variant' must be one of"),
        ({**GOOD, "contract": "complex"}, "contract 'complex' is not played in variant trix"),
        ({**GOOD, "owner": 4}, "owner must be a seat 0..3"),
        ({**GOOD, "extra": 1}, "unknown field(s): extra"),
        ({k: v for k, v in GOOD.items() if k != "plays"}, "missing field(s): plays"),
        ({**GOOD, "doubles": {"1": ["QS"]}}, "seat 1 cannot double QS in king"),
        ({**GOOD, "doubles": {"0": ["KH"]}}, "seat 0 cannot double KH in king"),
        ({**GOOD, "doubles": {"7": []}}, "doubles: '7' is not a seat"),
        (
            make_record("diamonds", KING_HANDS, "2H", doubles={2: "KH"}),
            "nothing can be doubled in diamonds",
        ),
        ({**GOOD, "plays": "2H 3H"}, "plays must be a list"),
    ],
)
def test_invalid_record_fields(record, message):
    with pytest.raises(InvalidRecord) as info:
        replay_record(record)
    assert message in str(info.value)
    assert info.value.index is None


@pytest.mark.parametrize(
    "plays, index, message",
    [
        ("2H 3H 9C", 2, "seat 2: card 9C is not in the hand of seat 2"),
        ("2H 3H KH AC", 3, "seat 3: must follow suit: H was led"),
        ("2H 3H KH AH 2C", 4, "the deal is over: no more plays"),
        ("2H 3H KH AH pass", 4, "the deal is over: no more plays"),
        ("2H pass", 1, "seat 1: cannot pass in a trick contract"),
        (
            "2H ZZ",
            1,
            "seat 1: not a card code: 'ZZ' (rank from 23456789TJQKA, then suit from CDHS)",
        ),
        ("2H 3H 2H", 2, "seat 2: card 2H is not in the hand of seat 2"),
    ],
)
def test_invalid_plays_name_the_index(plays, index, message):
    with pytest.raises(InvalidRecord) as info:
        replay_record(make_record("king", KING_HANDS, plays))
    assert info.value.index == index
    assert str(info.value) == f"play {index}: {message}"


def test_a_record_that_stops_early():
    with pytest.raises(InvalidRecord, match="the record ends after 3 plays, before the deal"):
        replay_record(make_record("king", KING_HANDS, "2H 3H KH"))


def test_pass_while_holding_a_playable_card_in_trix():
    record = make_record("trix", suit_hands(), ["JC", "pass"])
    with pytest.raises(InvalidRecord, match="play 1: seat 1: cannot pass holding a playable card"):
        replay_record(record)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{bad json", "malformed JSON"),
        ("", "malformed JSON"),
        ("[1, 2]", "a deal record must be a JSON object"),
        ('"trix"', "a deal record must be a JSON object"),
    ],
)
def test_malformed_json(text, message):
    with pytest.raises(InvalidRecord, match=message):
        load_record(text)


def test_unknown_option():
    with pytest.raises(InvalidOptions, match="unknown option 'turbo'"):
        new_match({"turbo": True})
    with pytest.raises(InvalidOptions, match="option 'play_timer' must be a whole number"):
        Options.from_dict({"play_timer": -1})
    with pytest.raises(InvalidOptions, match="option 'show_twos' must be true or false"):
        Options.from_dict({"show_twos": "yes"})
    with pytest.raises(InvalidOptions, match="option 'twos_complex_only' must be true or false"):
        Options.from_dict({"twos_complex_only": 1})
    with pytest.raises(InvalidOptions, match="option 'double_scoring' must be one of seat, team"):
        Options.from_dict({"double_scoring": "partner"})
    with pytest.raises(InvalidOptions, match="option 'double_asked' must be one of everyone"):
        Options.from_dict({"double_asked": "nobody"})


def test_holders_only_doubling_needs_simultaneous_doubling():
    with pytest.raises(InvalidOptions, match="'double_asked' holders needs doubling simultaneous"):
        Options.from_dict({"double_asked": "holders", "doubling": "sequential"})
    assert Options.from_dict({"double_asked": "holders"}).double_asked == "holders"


# -- through apply: each refusal names the fault and leaves the state as it was ---------------


def refused(state, action, message):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert message in str(info.value), str(info.value)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_refused_actions():
    hands = build_hands({0: "H:7K C:2", 1: "D:2", 2: "C:A H:2", 3: "S:Q"}, voids={1: "C"})
    state, _ = match_with(hands, {"variant": "trix"})
    assert state.owner == 0 and state.phase == "choose"
    refused(state, {"type": "play", "seat": 0, "card": "2C"}, "not the time for that")
    refused(state, {"type": "contract", "seat": 1, "contract": "king"}, "not your turn: seat 1")
    refused(
        state, {"type": "contract", "seat": 0, "contract": "poker"}, "'poker' is not a contract"
    )
    refused(state, {"type": "deal", "hands": hands}, "cannot deal now")
    refused(state, {"type": "play", "seat": 9, "card": "2C"}, "seat must be 0..3")
    refused(state, {"type": "shuffle", "seat": 0}, "unknown action type 'shuffle'")
    refused(state, ["play"], "an action must be a JSON object")
    apply(state, {"type": "contract", "seat": 0, "contract": "king"})
    assert state.phase == "double"
    refused(state, {"type": "double", "seat": 0, "cards": ["QS"]}, "cannot double QS: not in your")
    refused(state, {"type": "double", "seat": 3, "cards": ["QS"]}, "cannot double QS in king")
    refused(state, {"type": "double", "seat": 0, "cards": "KH"}, "a list of card codes")
    refused(state, {"type": "double", "seat": 0, "cards": ["KH", "KH"]}, "listed twice")
    for seat in range(4):
        apply(state, {"type": "double", "seat": seat, "cards": []})
    assert state.phase == "play"
    refused(state, {"type": "play", "seat": 1, "card": "3C"}, "not your turn: seat 1")
    refused(
        state, {"type": "play", "seat": 0, "card": "AC"}, "card AC is not in the hand of seat 0"
    )
    refused(state, {"type": "play", "seat": 0, "card": "XX"}, "not a card code: 'XX'")
    refused(state, {"type": "pass", "seat": 0}, "cannot pass in a trick contract")
    apply(state, {"type": "play", "seat": 0, "card": "2C"})
    apply(state, {"type": "play", "seat": 1, "card": "2D"})  # void in clubs: any card
    refused(state, {"type": "play", "seat": 2, "card": "2H"}, "must follow suit: C was led")


def test_refused_deals():
    state = new_match({})
    hands = {str(s): h for s, h in suit_hands().items()}
    refused(state, {"type": "deal", "hands": {**hands, "3": hands["3"][:12]}}, "13")
    refused(state, {"type": "deal", "hands": {**hands, "3": hands["2"]}}, "is in two hands")
    refused(state, {"type": "deal", "hands": {"0": hands["0"]}}, "with seats '0'..'3'")
    refused(state, {"type": "deal", "hands": {**hands, "3": ["ZZ", *hands["3"][1:]]}}, "not a card")


def test_play_after_the_deal_ended_through_apply():
    state, _ = match_with(KING_HANDS, {"variant": "trix"})
    owner = state.owner
    apply(state, {"type": "contract", "seat": owner, "contract": "trix"})
    record = complete(make_record("trix", KING_HANDS, [], owner=owner))
    for item in record["plays"]:
        seat = state.deal.turn
        action = {"type": "pass", "seat": seat} if item == "pass" else None
        action = action or {"type": "play", "seat": seat, "card": item}
        apply(state, action)
    assert state.phase == "deal"
    refused(state, {"type": "play", "seat": 0, "card": "2C"}, "the deal is over")
    refused(state, {"type": "pass", "seat": 0}, "the deal is over")


@pytest.mark.parametrize(
    "data, message",
    [
        ({"format": "trix-match/2"}, "not a trix-match/1 state"),
        ({"format": "trix-match/1"}, "needs 'deals' and 'actions'"),
        ({"format": "trix-match/1", "deals": [], "actions": {}}, "needs 'deals' and 'actions'"),
        ({"format": "trix-match/1", "deals": [], "actions": ["x"]}, "an action must be"),
    ],
)
def test_bad_state_json(data, message):
    from games.engine import MatchState

    with pytest.raises(IllegalAction, match=message):
        MatchState.from_json(data)


@pytest.mark.parametrize(
    "compact",
    ["z0", "q1:KH", "", "p", "p9:QS", "pX:QS", "x0:", "f1x", "c2", "p0QS", 7, None],
)
def test_an_unknown_compact_action_is_an_error_never_a_forfeit(compact):
    """A stored log increment's compact action that is not one the engine writes is refused
    with a message naming it (it was once read as a forfeit of its seat)."""
    from games.engine.action_log import expand_action

    with pytest.raises(IllegalAction, match="not a compact action"):
        expand_action(compact)


@pytest.mark.parametrize(
    "compact, action",
    [
        ("c2:king", {"type": "contract", "seat": 2, "contract": "king"}),
        ("d1:", {"type": "double", "seat": 1, "cards": []}),
        ("d3:QS,QD", {"type": "double", "seat": 3, "cards": ["QS", "QD"]}),
        ("s0:KH", {"type": "select", "seat": 0, "cards": ["KH"]}),
        ("p0:QS", {"type": "play", "seat": 0, "card": "QS"}),
        ("x3", {"type": "pass", "seat": 3}),
        ("f1", {"type": "forfeit", "seat": 1}),
    ],
)
def test_every_compact_action_the_engine_writes_expands(compact, action):
    from games.engine.action_log import expand_action

    assert expand_action(compact) == action


# -- hostile records (issue 12): each refused with one clear line, never accepted silently ----


def _lower_first_card(record):
    rec = json.loads(json.dumps(record))
    rec["hands"]["0"][0] = rec["hands"]["0"][0].lower()
    return rec


@pytest.mark.parametrize(
    "record, message",
    [
        ({**GOOD, "owner": 0.0}, "owner must be a seat 0..3, not 0.0"),
        ({**GOOD, "owner": True}, "owner must be a seat 0..3, not True"),
        ({**GOOD, "options": []}, "options must be an object"),
        ({**GOOD, "options": False}, "options must be an object"),
        ({**GOOD, "options": ""}, "options must be an object"),
        ({**GOOD, "options": 0}, "options must be an object"),
        ({**GOOD, "options": None}, "options must be an object"),
        ({**GOOD, "options": {"variant": "trix"}}, "(not variant)"),
        ({**GOOD, "doubles": None}, "doubles must be an object keyed by seat"),
        ({**GOOD, "doubles": []}, "doubles must be an object keyed by seat"),
        ({**GOOD, "doubles": [["KH"]]}, "doubles must be an object keyed by seat"),
        (_lower_first_card(GOOD), "hand of seat 0: not a card code: '2h'"),
        ({**GOOD, "plays": ["2h", "3H", "KH", "AH"]}, "play 0: seat 0: not a card code: '2h'"),
        ({**GOOD, "hands": [GOOD["hands"][str(s)] for s in range(4)]}, "hands must be an object"),
        ({**GOOD, "shuffle": None}, "shuffle must be an object"),
        ({**GOOD, "shuffle": "trix-shuffle/1"}, "shuffle must be an object"),
        ({**GOOD, "shuffle": []}, "shuffle must be an object"),
        ({**GOOD, "deal_number": "3"}, "deal_number must be a whole number from 1"),
        ({**GOOD, "deal_number": 3.0}, "deal_number must be a whole number from 1"),
        ({**GOOD, "deal_number": True}, "deal_number must be a whole number from 1"),
        ({**GOOD, "deal_number": 0}, "deal_number must be a whole number from 1"),
        ({**GOOD, "deal_number": -2}, "deal_number must be a whole number from 1"),
        ({**GOOD, "deal_number": None}, "deal_number must be a whole number from 1"),
        ({**GOOD, "match": None}, "match must be"),
        ({**GOOD, "match": 1.5}, "match must be"),
        ({**GOOD, "match": False}, "match must be"),
        ({**GOOD, "match": {"id": 3}}, "match must be"),
        ({**GOOD, "match": ""}, "match must be"),
    ],
)
def test_hostile_record_fields(record, message):
    with pytest.raises(InvalidRecord) as info:
        replay_record(record)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "extra", [{"match": 12, "deal_number": 3}, {"match": "table-12"}, {"shuffle": {}}]
)
def test_optional_fields_of_the_right_type_are_carried(extra):
    assert replay_record({**GOOD, **extra})["scores"] == replay_record(GOOD)["scores"]


def test_json_nested_too_deep_is_malformed_json():
    with pytest.raises(InvalidRecord, match="malformed JSON: nested too deep"):
        load_record("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InvalidRecord, match="malformed JSON: nested too deep"):
        load_record('{"a":' * 100_000 + "1" + "}" * 100_000)


def test_options_for_variant_takes_the_variant_once():
    assert Options.for_variant("trix", {"variant": "trix"}).variant == "trix"
    assert Options.for_variant("trix", None) == Options(variant="trix")
    with pytest.raises(InvalidOptions) as err:
        Options.for_variant("trix", {"variant": "complex"})
    assert (err.value.option, err.value.rule) == ("variant", "variant_twice")
    with pytest.raises(InvalidOptions) as err:
        Options.for_variant("trix", ["variant"])
    assert err.value.rule == "object"
