"""``check(state, action)`` says exactly what ``apply`` would, and changes nothing: for random
states (every phase, the match over included) and random actions, legal and illegal (bad
seats, cards, contracts, types, hands; not even JSON objects), ``check`` raises iff ``apply``
on a deep copy raises, with the same exception type and message."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import MatchState, apply, check, legal_actions, new_match, view
from games.engine.cards import CODES
from games.engine.options import CONTRACTS
from games.engine.turns import default_action

from .helpers import SEATS, random_hands
from .test_properties import options_strategy

SEAT = st.one_of(st.sampled_from(SEATS), st.sampled_from([-1, 4, True, None, "1", 1.0]))
CARD = st.one_of(st.sampled_from(CODES), st.sampled_from(["qs", "1X", "", None, 5, "10H"]))
CARDS = st.one_of(
    st.lists(st.sampled_from([*CODES, "1X"]), max_size=4),
    st.sampled_from([None, "KH", {}, ["KH", "KH"], ["QS", "QD", "QH", "QC", "KH"]]),
)
CONTRACT = st.one_of(st.sampled_from(CONTRACTS), st.sampled_from(["x", None, 3, ["king"]]))
TYPE = st.sampled_from(
    ["deal", "contract", "double", "select", "play", "pass", "forfeit", "bogus", None]
)


@st.composite
def any_action(draw, state: MatchState, rng: random.Random):
    """A legal action, a timeout's default, or a fuzzed one (most of them illegal now)."""
    way = draw(st.sampled_from(["legal", "default", "fuzzed", "fuzzed", "fuzzed", "not_object"]))
    if way == "legal":
        legal = legal_actions(state)
        if legal:
            return legal[draw(st.integers(0, len(legal) - 1))]
    if way == "default" and state.to_act():
        return default_action(state, draw(st.sampled_from(state.to_act())))
    if way == "not_object":
        return draw(st.sampled_from([None, "play", ["play", 0, "QS"], 3]))
    action = {"type": draw(TYPE)}
    if draw(st.booleans()):
        action["seat"] = draw(SEAT)
    kind = action["type"]
    if kind == "play" or draw(st.integers(0, 9)) == 0:
        action["card"] = draw(CARD)
    if kind in ("double", "select") or draw(st.integers(0, 9)) == 0:
        action["cards"] = draw(CARDS)
    if kind == "contract":
        action["contract"] = draw(CONTRACT)
    if kind == "deal":
        hands = random_hands(rng)
        spoil = draw(st.sampled_from(["none", "short", "twice", "seats", "missing"]))
        if spoil == "short":
            hands["2"] = hands["2"][:12]
        elif spoil == "twice":
            hands["1"][0] = hands["0"][0]
        elif spoil == "seats":
            hands = [hands[str(s)] for s in SEATS][:3]
        if spoil != "missing":
            action["hands"] = hands
    return action


def random_state(options: dict, seed: int, steps: int, end: str) -> MatchState:
    """A match after ``steps`` random legal actions (with simultaneous-doubling picks mixed
    in); ``end`` leaves it waiting for a deal, or forfeited (the match over)."""
    rng = random.Random(seed)
    state = new_match(options)
    for _ in range(steps):
        if state.phase == "over":
            break
        if state.phase == "deal":
            apply(state, {"type": "deal", "hands": random_hands(rng)})
            continue
        seat = rng.choice(state.to_act())
        legal = legal_actions(state, seat)
        if state.phase == "double" and options["doubling"] == "simultaneous" and rng.random() < 0.3:
            apply(state, {"type": "select", "seat": seat, "cards": rng.choice(legal)["cards"]})
        apply(state, rng.choice(legal))
    if end == "forfeit" and state.phase != "over":
        apply(state, {"type": "forfeit", "seat": rng.randrange(4)})
    elif end == "deal_over":
        while state.phase not in ("deal", "over"):
            apply(state, default_action(state, state.to_act()[0]))
    return state


def outcome(fn, state, action):
    """``None`` if ``fn(state, action)`` returns, else the exception's type and message."""
    try:
        fn(state, action)
    except Exception as exc:  # noqa: BLE001 - any difference at all must show
        return type(exc).__name__, str(exc)
    return None


def snapshot(state: MatchState) -> str:
    """The log and summary, and every seat's and a spectator's view (selections, turn, ...)."""
    return json.dumps([state.to_json(), [view(state, s) for s in (None, *SEATS)]], sort_keys=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=options_strategy,
    seed=st.integers(0, 2**32 - 1),
    steps=st.one_of(st.integers(0, 60), st.integers(0, 700)),
    end=st.sampled_from(["here", "here", "deal_over", "forfeit"]),
    data=st.data(),
)
def test_check_raises_iff_apply_raises_with_the_same_message_and_changes_nothing(
    options, seed, steps, end, data
):
    state = random_state(options, seed, steps, end)
    rng = random.Random(seed + 1)
    for _ in range(5):
        action = data.draw(any_action(state, rng))
        before = state.to_json()
        before_all = snapshot(state)
        checked = outcome(check, state, action)
        assert state.to_json() == before
        assert snapshot(state) == before_all
        applied = outcome(apply, copy.deepcopy(state), action)
        assert checked == applied, action
        if checked is not None:
            assert checked[0] == "IllegalAction"
