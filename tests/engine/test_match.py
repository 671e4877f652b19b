"""The match state machine through :func:`apply`: the 7♥ owner, kingdoms, contract choice,
doubling modes, shown 2s and match results (``docs/rules.md``; 000, 003, 004)."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    IllegalAction,
    apply,
    default_action,
    events_for,
    legal_actions,
    match_result,
    new_match,
    view,
)

from .helpers import SEATS, build_hands, match_with, play_out_deal, random_hands, suit_hands


def hands_with_7h_at(seat: int, rng: random.Random) -> dict[str, list[str]]:
    hands = random_hands(rng)
    holder = next(s for s in hands if "7H" in hands[s])
    if int(holder) != seat:
        other = hands[str(seat)][0]
        hands[holder] = sorted([c for c in hands[holder] if c != "7H"] + [other])
        hands[str(seat)] = sorted(hands[str(seat)][1:] + ["7H"])
    return hands


def play_match(options, rng, first_owner=1):
    """A whole match by timeouts (``default_action``); returns (state, owner and contract of
    every deal, events)."""
    state = new_match(options)
    deals, events = [], []
    first = True
    while state.phase != "over":
        hands = hands_with_7h_at(first_owner, rng) if first else random_hands(rng)
        first = False
        _, evs = apply(state, {"type": "deal", "hands": hands})
        events += evs
        events += play_out_deal(state)
        deals.append((state.records[-1]["owner"], state.records[-1]["contract"]))
    return state, deals, events


@pytest.mark.parametrize("seat", SEATS)
def test_the_7h_holder_owns_the_first_kingdom(seat):
    rng = random.Random(seat)
    state, events = match_with(
        {int(s): h for s, h in hands_with_7h_at(seat, rng).items()}, {"variant": "trix"}
    )
    assert state.owner == seat and state.kingdom == 1
    assert state.to_act() == [seat] and state.phase == "choose"
    assert events[0]["type"] == "deal_started" and events[0]["owner"] == seat


@pytest.mark.parametrize(
    "variant, per_kingdom",
    [("trix", 5), ("trix_partner", 5), ("complex", 2), ("complex_partner", 2)],
)
def test_kingdoms_rotate_and_a_match_has_20_or_8_deals(variant, per_kingdom):
    state, deals, events = play_match({"variant": variant}, random.Random(7), first_owner=3)
    assert len(deals) == len(state.records) == 4 * per_kingdom
    owners = [o for o, _ in deals]
    assert owners == [o for o in (3, 0, 1, 2) for _ in range(per_kingdom)]
    contracts = (
        ["king", "queens", "diamonds", "ltoosh", "trix"]
        if per_kingdom == 5
        else ["complex", "trix"]
    )
    for k in range(4):
        # The timeout picks the first unplayed contract in the order of 003.
        assert [c for _, c in deals[k * per_kingdom : (k + 1) * per_kingdom]] == contracts
    assert sum(state.totals) == 0  # complete kingdoms sum to zero
    assert state.result["deals_played"] == 4 * per_kingdom
    assert events[-1]["type"] == "match_ended"
    with pytest.raises(IllegalAction, match="the match is over"):
        apply(state, {"type": "play", "seat": 0, "card": "2C"})
    with pytest.raises(IllegalAction, match="cannot deal now"):
        apply(state, {"type": "deal", "hands": random_hands(random.Random(1))})


def test_the_last_contract_is_picked_automatically_and_timeouts_follow_the_order():
    rng = random.Random(3)
    state = new_match({"variant": "trix"})
    apply(state, {"type": "deal", "hands": hands_with_7h_at(0, rng)})
    # The owner plays trix and king first; the timeout then picks queens, diamonds, ltoosh.
    for picked in ("trix", "king"):
        apply(state, {"type": "contract", "seat": 0, "contract": picked})
        play_out_deal(state)
        apply(state, {"type": "deal", "hands": random_hands(rng)})
    for expected in ("queens", "diamonds"):
        assert default_action(state, 0) == {"type": "contract", "seat": 0, "contract": expected}
        with pytest.raises(IllegalAction, match="contract king already played in this kingdom"):
            apply(state, {"type": "contract", "seat": 0, "contract": "king"})
        apply(state, default_action(state, 0))
        play_out_deal(state)
        apply(state, {"type": "deal", "hands": random_hands(rng)})
    # The fifth deal (dealt at the end of the loop) started ltoosh by itself: no choice.
    assert state.played == ["trix", "king", "queens", "diamonds", "ltoosh"]
    assert state.phase == "play" and state.deal.contract == "ltoosh"
    assert all(a["type"] == "play" for a in legal_actions(state))


def test_auto_pick_event_and_complex_timeout():
    rng = random.Random(5)
    state = new_match({"variant": "complex"})
    apply(state, {"type": "deal", "hands": hands_with_7h_at(2, rng)})
    assert default_action(state, 2)["contract"] == "complex"
    apply(state, {"type": "contract", "seat": 2, "contract": "trix"})
    play_out_deal(state)
    _, events = apply(state, {"type": "deal", "hands": random_hands(rng)})
    chosen = [e for e in events if e["type"] == "contract_chosen"]
    assert chosen == [
        {
            "type": "contract_chosen",
            "seat": 2,
            "contract": "complex",
            "auto": True,
            "visible_to": "all",
        }
    ]
    assert state.phase == "double"


def test_wrong_contract_for_the_variant():
    state, _ = match_with(suit_hands(), {"variant": "complex"})
    with pytest.raises(IllegalAction, match="'king' is not a contract of this variant"):
        apply(state, {"type": "contract", "seat": 2, "contract": "king"})
    with pytest.raises(IllegalAction, match="not your turn: seat 0"):
        apply(state, {"type": "contract", "seat": 0, "contract": "trix"})


# -- doubling modes ----------------------------------------------------------------------------

# Seat 2 holds 7♥ (owner); seat 0 holds K♥ and Q♣; seat 3 holds Q♠; seat 1 holds Q♦ and Q♥.
DOUBLING_HANDS = build_hands({0: "H:K C:Q", 1: "D:Q H:Q", 2: "H:7", 3: "S:Q"})


def test_sequential_doubling_answers_in_turn_from_the_owner_and_shows_each_answer():
    state, _ = match_with(DOUBLING_HANDS, {"variant": "complex", "doubling": "sequential"})
    assert state.owner == 2
    apply(state, {"type": "contract", "seat": 2, "contract": "complex"})
    order = []
    answers = {0: ["KH"], 1: [], 3: ["QS"]}
    while state.phase == "double":
        (seat,) = state.to_act()
        order.append(seat)
        for other in SEATS:
            if other != seat:
                with pytest.raises(IllegalAction, match="not your turn"):
                    apply(state, {"type": "double", "seat": other, "cards": []})
        _, events = apply(state, {"type": "double", "seat": seat, "cards": answers.get(seat, [])})
        ev = events[0]
        assert ev == {
            "type": "double",
            "seat": seat,
            "cards": answers.get(seat, []),
            "visible_to": "all",
        }
        if state.phase == "double":
            # Every answer so far is visible to every seat.
            for s in SEATS:
                shown = view(state, s)["doubles"]
                assert shown == {str(a): answers[a] for a in order if answers.get(a)}
    # In turn from the owner (2), then 3, 0, 1, among the seats asked.
    assert [s for s in order if s in (3, 0, 1)] == [3, 0, 1]
    assert order == sorted(order, key=lambda s: (s - 2) % 4)
    assert state.phase == "play"
    assert view(state, 1)["shown"] == {"0": ["KH"], "3": ["QS"]}


def test_simultaneous_doubling_is_secret_until_all_are_ready():
    state, _ = match_with(DOUBLING_HANDS, {"variant": "complex"})
    apply(state, {"type": "contract", "seat": 2, "contract": "complex"})
    pending = state.to_act()
    assert len(pending) > 1 and {0, 1, 3} <= set(pending)
    answers = {0: ["KH", "QC"], 1: ["QD"], 3: []}
    all_events = []
    for seat in pending:
        _, events = apply(state, {"type": "double", "seat": seat, "cards": answers.get(seat, [])})
        all_events += events
        if state.phase == "double":
            assert events == [{"type": "double_ready", "seat": seat, "visible_to": "all"}]
            for s in SEATS:
                v = view(state, s)
                assert v["doubles"] == {} and v["shown"] == {}
            with pytest.raises(IllegalAction, match="not your turn"):
                apply(state, {"type": "double", "seat": seat, "cards": []})
            with pytest.raises(IllegalAction, match="not the time for that"):
                apply(state, {"type": "play", "seat": 2, "card": "7H"})
    revealed = [e for e in all_events if e["type"] == "doubles_revealed"]
    assert revealed == [
        {
            "type": "doubles_revealed",
            "doubles": {"0": ["QC", "KH"], "1": ["QD"]},
            "visible_to": "all",
        }
    ]
    assert state.phase == "play"
    for s in SEATS:
        assert view(state, s)["shown"] == {"0": ["QC", "KH"], "1": ["QD"]}
    play_out_deal(state)
    assert state.records[-1]["doubles"] == {"0": ["QC", "KH"], "1": ["QD"]}


def test_doubling_does_not_reveal_who_holds_the_king_of_hearts():
    """During doubling, what a seat (or a spectator) sees must not depend on which other seat
    holds the K♥ (000: doubles are picked in secret, then revealed together)."""
    base = build_hands({0: "H:7", 1: "H:K", 2: "C:2", 3: "C:3"})
    swapped = {s: list(h) for s, h in base.items()}
    swapped[1] = [c for c in base[1] if c != "KH"] + ["2C"]
    swapped[2] = [c for c in base[2] if c != "2C"] + ["KH"]
    seen = []
    for hands in (base, swapped):
        state, _ = match_with(hands, {"variant": "trix"})
        _, events = apply(state, {"type": "contract", "seat": 0, "contract": "king"})
        assert state.phase == "double"
        seen.append(
            (
                view(state, None),
                view(state, 3),
                events_for(events, None),
                [e for e in events_for(events, 3) if e["type"] != "hand"],
            )
        )
    assert seen[0] == seen[1]


# -- shown 2s ----------------------------------------------------------------------------------


def twos_hands(team_with_all: str | None) -> dict[int, list[str]]:
    hands = suit_hands()  # seat s holds every card of suit s; seat 2 holds 7♥ and owns
    if team_with_all == "0+2":
        swaps = [(0, 1, "3C", "2D"), (2, 3, "3H", "2S")]
    elif team_with_all == "1+3":
        swaps = [(0, 1, "2C", "3D"), (2, 3, "2H", "3S")]
    else:
        swaps = []
    for a, b, ca, cb in swaps:
        hands[a] = [c for c in hands[a] if c != ca] + [cb]
        hands[b] = [c for c in hands[b] if c != cb] + [ca]
    return hands


@pytest.mark.parametrize(
    "variant, options, team_with_all, shown",
    [
        ("trix_partner", {}, None, True),
        ("complex_partner", {}, None, True),
        ("trix_partner", {}, "0+2", False),
        ("complex_partner", {}, "1+3", False),
        ("trix_partner", {"show_twos": False}, None, False),
        ("complex_partner", {"show_twos": False}, None, False),
        ("trix", {}, None, False),
        ("complex", {}, None, False),
        ("trix_partner", {"twos_complex_only": True}, None, False),
        ("complex_partner", {"twos_complex_only": True}, None, True),
        ("complex_partner", {"twos_complex_only": True}, "0+2", False),
        ("complex_partner", {"twos_complex_only": True, "show_twos": False}, None, False),
    ],
)
def test_shown_twos(variant, options, team_with_all, shown):
    hands = twos_hands(team_with_all)
    state, _ = match_with(hands, {"variant": variant, **options})
    _, events = apply(state, {"type": "contract", "seat": 2, "contract": "trix"})
    twos = {str(s): [c for c in hands[s] if c[0] == "2"] for s in SEATS}
    twos = {s: v for s, v in twos.items() if v}
    expected = twos if shown else {}
    for s in (None, *SEATS):
        assert view(state, s)["shown"] == expected
    shown_events = [e for e in events if e["type"] == "twos_shown"]
    assert shown_events == (
        [{"type": "twos_shown", "shown": twos, "visible_to": "all"}] if shown else []
    )
    if shown:
        # A shown 2 leaves the table's "shown" once it is laid.
        play_out_deal(state)
        assert state.records[-1]["contract"] == "trix"
        assert view(state, 0)["shown"] == {}


def test_twos_are_shown_only_in_trix_deals():
    state, _ = match_with(twos_hands(None), {"variant": "trix_partner"})
    apply(state, {"type": "contract", "seat": 2, "contract": "diamonds"})
    assert view(state, 0)["shown"] == {}


# -- match results -----------------------------------------------------------------------------


def finished(variant, totals, **kw):
    state = new_match({"variant": variant, **kw.pop("options", {})})
    state.totals = list(totals)
    for k, v in kw.items():
        setattr(state, k, v)
    return match_result(state)


@pytest.mark.parametrize(
    "totals, places",
    [
        ((100, -50, -50, 0), (1, 3, 3, 2)),
        ((100, 100, -100, -100), (1, 1, 3, 3)),
        ((0, 0, 0, 0), (1, 1, 1, 1)),
        ((-10, 20, 20, -30), (3, 1, 1, 4)),
        ((5, 4, 3, -12), (1, 2, 3, 4)),
    ],
)
def test_solo_places_share_ties(totals, places):
    result = finished("trix", totals)
    assert result["placements"] == {str(s): p for s, p in enumerate(places)}
    assert "teams" not in result and result["forfeit"] is None


@pytest.mark.parametrize(
    "totals, options, last_first_out, winner",
    [
        ((100, -50, 20, -70), {}, None, "0+2"),
        ((-100, 50, -20, 70), {}, None, "1+3"),
        ((100, -50, -100, 50), {}, 1, None),
        ((100, -50, -100, 50), {"partner_tie": "last_trix_first_out"}, 1, "1+3"),
        ((100, -50, -100, 50), {"partner_tie": "last_trix_first_out"}, 2, "0+2"),
    ],
)
def test_partnership_win_draw_and_last_trix_first_out(totals, options, last_first_out, winner):
    result = finished(
        "complex_partner", totals, options=options, last_trix_first_out=last_first_out
    )
    assert result["teams"] == {"0+2": totals[0] + totals[2], "1+3": totals[1] + totals[3]}
    assert result["winner"] == winner
    assert result["draw"] is (winner is None)
    for s in SEATS:
        expected = 1 if winner is None or (s % 2 == 0) == (winner == "0+2") else 3
        assert result["placements"][str(s)] == expected


def test_last_trix_first_out_is_taken_from_the_latest_trix_deal():
    state, _, _ = play_match({"variant": "trix_partner"}, random.Random(11))
    trix_records = [r for r in state.records if r["contract"] == "trix"]
    from games.engine import replay_record

    assert state.last_trix_first_out == replay_record(trix_records[-1])["order"][0]


def test_forfeit_solo_ranks_the_leaver_last():
    state, _ = match_with(suit_hands(), {"variant": "trix"})
    state.totals = [300, 200, -400, -100]
    _, events = apply(state, {"type": "forfeit", "seat": 0})
    assert state.phase == "over"
    result = state.result
    assert result["forfeit"] == 0
    assert result["placements"] == {"0": 4, "1": 1, "2": 3, "3": 2}
    assert events[-1]["type"] == "match_ended" and events[-1]["visible_to"] == "all"
    with pytest.raises(IllegalAction, match="the match is over"):
        apply(state, {"type": "forfeit", "seat": 1})


@pytest.mark.parametrize("leaver", SEATS)
def test_forfeit_partnership_ranks_leaver_and_partner_last(leaver):
    state, _ = match_with(suit_hands(), {"variant": "complex_partner"})
    state.totals = [300, -300, 300, -300]
    apply(state, {"type": "forfeit", "seat": leaver})
    result = state.result
    losers = {leaver, (leaver + 2) % 4}
    assert result["winner"] == ("1+3" if leaver % 2 == 0 else "0+2")
    assert result["draw"] is False
    assert result["placements"] == {str(s): 3 if s in losers else 1 for s in SEATS}
