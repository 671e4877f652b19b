"""A bot's observation: what its seat may see, the same as the seat's JSON view says, and no
card of another hand that the rules keep face down."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Observation, apply, events_for, new_match, observe, view
from games.engine.bots import BOTS, make_bot
from games.engine.cards import cards_of, codes_of

from .helpers import SEATS, build_hands, match_with, random_hands
from .test_check import random_state
from .test_properties import options_strategy, own_mask, public_mask


def check_against_view(state, seat: int) -> None:
    obs = observe(state, seat)
    v = view(state, seat)
    assert isinstance(obs, Observation) and obs.seat == seat
    assert (obs.phase, obs.deal_number, obs.kingdom, obs.contract) == (
        v["phase"],
        v["deal_number"],
        v["kingdom"],
        v["contract"],
    )
    assert (obs.owner if obs.owner >= 0 else None) == v["owner"]
    assert list(obs.remaining) == v["remaining"]
    assert {str(s): obs.totals[s] for s in SEATS} == v["totals"]
    assert codes_of(obs.hand) == (v["hand"] or [])
    assert (obs.hand == 0 and state.deal is not None) or not v["hand_face_down"]
    plays = [a["card"] for a in v["legal"] if a["type"] == "play"]
    assert codes_of(obs.legal) == plays
    if state.deal is None:
        assert v["hand_counts"] is None and obs.played == 0 and obs.trick == ()
        return
    assert {str(s): obs.hand_counts[s] for s in SEATS} == v["hand_counts"]
    assert {str(s): codes_of(m) for s, m in enumerate(obs.shown) if m} == v["shown"]
    if v["doubling"] is not None:
        assert codes_of(obs.doublable) == v["doubling"]["doublable"]
        assert codes_of(obs.selected) == v["doubling"].get("selected", [])
        assert codes_of(obs.doubles[seat]) == v["doubling"].get("mine", [])
    else:
        assert obs.doublable == 0 and obs.selected == 0
    others = {str(s): codes_of(m) for s, m in enumerate(obs.doubles) if m and s != seat}
    assert others == {s: c for s, c in v["doubles"].items() if s != str(seat)}
    trick = v["trick"]
    if trick is None:
        assert obs.trick == ()
    else:
        assert obs.leader == trick["leader"]
        assert [c["card"] for c in trick["cards"]] == [codes_of(1 << c)[0] for c in obs.trick]
    if obs.layout is not None:
        rows = v["layout"]
        for suit, row in zip("CDHS", obs.layout, strict=True):
            if row is None:
                assert rows[suit] is None
            else:
                assert rows[suit] == {
                    "low": codes_of(1 << (13 * "CDHS".index(suit) + row[0]))[0],
                    "high": codes_of(1 << (13 * "CDHS".index(suit) + row[1]))[0],
                }
    # Every card it names is public (played, revealed, shown) or the seat's own.
    named = obs.hand | obs.legal | obs.doublable | obs.selected | obs.played
    for m in (*obs.doubles, *obs.shown):
        named |= m
    for c in obs.trick:
        named |= 1 << c
    assert not named & ~(public_mask(state) | own_mask(state, seat))
    assert not obs.played & ~public_mask(state)


@settings(max_examples=60, deadline=None)
@given(
    options=options_strategy,
    seed=st.integers(0, 2**32 - 1),
    steps=st.one_of(st.integers(0, 60), st.integers(0, 700)),
    end=st.sampled_from(["here", "deal_over", "forfeit"]),
)
def test_an_observation_says_what_the_seats_view_says_and_hides_other_hands(
    options, seed, steps, end
):
    state = random_state(options, seed, steps, end)
    for seat in SEATS:
        check_against_view(state, seat)


def test_an_observation_is_a_snapshot():
    rng = random.Random(3)
    state = new_match({"variant": "trix"})
    apply(state, {"type": "deal", "hands": random_hands(rng)})
    apply(state, {"type": "contract", "seat": state.owner, "contract": "ltoosh"})
    seat = state.to_act()[0]
    obs = observe(state, seat)
    card = cards_of(obs.legal)[0]
    apply(state, {"type": "play", "seat": seat, "card": codes_of(1 << card)[0]})
    assert obs.hand >> card & 1 and obs.legal >> card & 1 and obs.trick == ()
    assert observe(state, seat).trick == (card,)
    with pytest.raises(AttributeError):
        obs.hand = 0  # immutable


@pytest.mark.parametrize("kind", sorted(BOTS))
def test_a_bot_acts_on_the_observation_alone(kind):
    """The same observation gives the same action whatever the hidden hands are: the bot
    is given two states that differ only in cards its seat cannot see."""
    rng = random.Random(11)
    hands = random_hands(rng)
    state = new_match({"variant": "complex"})
    apply(state, {"type": "deal", "hands": hands})
    apply(state, {"type": "contract", "seat": state.owner, "contract": "complex"})
    while state.phase == "double":
        seat = state.to_act()[0]
        apply(state, {"type": "double", "seat": seat, "cards": []})
    seat = state.to_act()[0]
    other = (seat + 1) % 4, (seat + 2) % 4
    swapped = dict(hands)
    swapped[str(other[0])], swapped[str(other[1])] = hands[str(other[1])], hands[str(other[0])]
    twin = new_match({"variant": "complex"})
    apply(twin, {"type": "deal", "hands": swapped})
    apply(twin, {"type": "contract", "seat": twin.owner, "contract": "complex"})
    while twin.phase == "double":
        apply(twin, {"type": "double", "seat": twin.to_act()[0], "cards": []})
    if twin.owner != state.owner or twin.to_act() != [seat]:
        pytest.skip("the swap moved the 7♥ (the owner)")
    assert observe(twin, seat) == observe(state, seat)
    bot = make_bot(kind)
    assert bot.act(observe(state, seat), random.Random(5)) == bot.act(
        observe(twin, seat), random.Random(5)
    )


@pytest.mark.parametrize("variant", ["complex", "trix"])
def test_a_finished_deal_has_a_public_summary_until_the_next_deal(variant):
    rng = random.Random(21)
    state = new_match({"variant": variant})
    apply(state, {"type": "deal", "hands": random_hands(rng)})
    for seat in SEATS:
        assert view(state, seat)["deal_summary"] is None  # not before the deal ends
    bot = make_bot("rules")
    while state.phase != "deal":
        seat = state.to_act()[0]
        apply(state, bot.act(observe(state, seat), rng))
    deal = state.deal
    summary = view(state, 0)["deal_summary"]
    # The same for every seat and a spectator: nothing private in it.
    assert all(view(state, s)["deal_summary"] == summary for s in (1, 2, 3, None))
    assert summary["deal_number"] == 1 and summary["contract"] == deal.contract
    assert summary["owner"] == deal.owner
    assert summary["scores"] == {str(s): deal.scores[s] for s in SEATS}
    assert summary["totals"] == {str(s): state.totals[s] for s in SEATS}
    assert summary["doubles"] == {str(s): codes_of(deal.doubles[s]) for s in SEATS}
    if deal.contract == "trix":
        assert summary["out"] == list(deal.out) and summary["captured"] is None
    else:
        assert summary["out"] is None
        assert sum(summary["tricks"].values()) == len(deal.tricks)
        taken = [c for s in SEATS for c in summary["captured"][str(s)]]
        assert len(taken) == len(set(taken)) == 4 * len(deal.tricks)
        # Each trick's four cards are credited to its taker.
        for _, cards, taker in deal.tricks:
            assert set(codes_of(sum(1 << c for c in cards))) <= set(summary["captured"][str(taker)])
    # The next deal replaces it.
    apply(state, {"type": "deal", "hands": random_hands(rng)})
    assert view(state, 0)["deal_summary"] is None


# -- Doubling asked of the holders only (double_asked: holders) --------------------------------

# Seat 1 owns the kingdom (it holds the 7♥) and holds no queen in either deal; the queens are
# with seats 0 and 2 in one deal and all with seat 3 in the other.
OWNER_HAND = "C:23456789TJ H:7 S:23"
QUEENS_SPLIT = {1: OWNER_HAND, 0: "S:Q H:Q", 2: "C:Q D:Q"}
QUEENS_TOGETHER = {1: OWNER_HAND, 3: "S:Q H:Q C:Q D:Q"}


def _holders_match(fixed):
    state, events = match_with(build_hands(fixed), {"variant": "trix", "double_asked": "holders"})
    _, more = apply(state, {"type": "contract", "seat": 1, "contract": "queens"})
    return state, events + more


def _seen(state, events, seat):
    return view(state, seat), events_for(events, seat)


def test_only_holders_are_asked():
    state, _ = _holders_match(QUEENS_SPLIT)
    assert state.to_act() == [0, 2]
    with pytest.raises(Exception, match="not your turn: seat 1"):
        apply(state, {"type": "double", "seat": 1, "cards": []})
    assert view(state, 0)["to_act"] == [0] and view(state, 0)["doubling"]["waiting"] == [0]
    assert view(state, 0)["doubling"]["doublable"] == ["QH", "QS"]
    apply(state, {"type": "double", "seat": 0, "cards": ["QS"]})
    _, events = apply(state, {"type": "double", "seat": 2, "cards": []})
    assert state.phase == "play"
    revealed = [e for e in events if e["type"] == "doubles_revealed"]
    assert revealed == [{"type": "doubles_revealed", "doubles": {"0": ["QS"]}, "visible_to": "all"}]


def test_a_non_holder_cannot_tell_who_was_asked():
    """Seat 1 (no queen) and a spectator see the same doubling window whether the queens are
    with two seats or one: no list of seats asked, waiting or answered, no public Ready."""
    split, split_events = _holders_match(QUEENS_SPLIT)
    together, together_events = _holders_match(QUEENS_TOGETHER)
    for seat in (1, None):
        assert _seen(split, split_events, seat) == _seen(together, together_events, seat)
        assert view(split, seat)["to_act"] == []
    assert observe(split, 1) == observe(together, 1)
    # All holders but the last answer: still nothing changes for seat 1 or a spectator.
    _, more = apply(split, {"type": "double", "seat": 0, "cards": ["QH"]})
    split_events += more
    for seat in (1, None):
        assert _seen(split, split_events, seat) == _seen(together, together_events, seat)


def test_everyone_is_asked_by_default():
    state, _ = match_with(build_hands(QUEENS_SPLIT), {"variant": "trix"})
    _, events = apply(state, {"type": "contract", "seat": 1, "contract": "queens"})
    assert state.to_act() == [0, 1, 2, 3]
    assert {"type": "doubling_started", "seats": [0, 1, 2, 3], "visible_to": "all"} in events
