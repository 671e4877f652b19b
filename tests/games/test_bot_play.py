"""The bots' moves checked from a match's records and its revealed bot seed
(``games.fairness.bot_play``; ``docs/fairness.md``, "Bots' moves")."""

from __future__ import annotations

import copy
import random

import pytest

from games.engine.bots import bot_action
from games.engine.cards import CODES
from games.engine.match import apply, new_match
from games.engine.options import Options
from games.fairness import bot_play
from games.fairness.errors import FairnessError
from tests.games.fairness_helpers import toggle_a_bot_double

SEED = "5eed" * 8


def _match(kinds: dict[int, str], options: dict, seed: str = SEED) -> list[dict]:
    """The deal records of a whole match in which the seats of ``kinds`` are bots playing
    from ``seed`` and the others are people (random choices of their own)."""
    state = new_match(Options.from_dict(options))
    shuffler = random.Random(f"deck:{seed}")
    people = random.Random(f"people:{seed}")
    while state.phase != "over":
        if state.phase == "deal":
            deck = list(CODES)
            shuffler.shuffle(deck)
            hands = {str(s): deck[13 * s : 13 * s + 13] for s in range(4)}
            apply(state, {"type": "deal", "hands": hands}, emit=False)
            continue
        seat = state.to_act()[0]
        if seat in kinds:
            action = bot_action(state, seat, kinds[seat], seed)
        else:
            action = bot_action(state, seat, "random", f"person:{people.random()}")
        apply(state, action, emit=False)
    return state.records


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "trix"},
        {"variant": "complex_partner", "doubling": "sequential"},
        {"variant": "trix_partner", "double_asked": "holders"},
    ],
)
def test_every_bot_move_of_a_genuine_match_is_the_bots(options):
    kinds = {1: "rules", 2: "random", 3: "rules"}
    records = _match(kinds, options)
    block = bot_play.build(kinds, SEED)

    result = bot_play.check_bot_moves(records, block, SEED)

    assert result["problems"] == []
    # every bot seat chose, doubled and played: far more decisions than deals
    assert result["checked"] > 20 * len(records)


def test_a_bot_card_changed_in_a_record_is_named():
    kinds = {1: "rules", 2: "rules", 3: "rules"}
    records = _match(kinds, {"variant": "trix"})
    block = bot_play.build(kinds, SEED)
    forged = copy.deepcopy(records)
    # deal 1: the first trick's second card is seat (owner + 1)'s; give that seat another
    # card of its hand that the rules allow, replayed by the whole check
    honest = bot_play.check_bot_moves(forged, block, SEED)
    assert honest["problems"] == []
    deal = forged[0]
    plays = deal["plays"]
    for step in range(len(plays)):
        trial = copy.deepcopy(forged)
        trial[0]["plays"][step], trial[0]["plays"][step + 1] = plays[step + 1], plays[step]
        result = bot_play.check_bot_moves(trial, block, SEED)
        if result["problems"]:
            break
    else:
        pytest.fail("no swap of two plays was noticed")
    assert "bot" in result["problems"][0]
    assert result["problems"][0].startswith("deal 1")


def test_a_match_replayed_with_another_seed_is_refused():
    kinds = {0: "random", 2: "random"}
    records = _match(kinds, {"variant": "complex"})
    block = bot_play.build(kinds, SEED)

    result = bot_play.check_bot_moves(records, block, "another seed")

    assert result["problems"]
    assert "seat 0 (random bot)" in result["problems"][0] or "seat 2" in result["problems"][0]


def test_the_seed_must_hash_to_the_receipts_commitment():
    block = bot_play.build({1: "rules"}, SEED)

    assert bot_play.check_seed(block, SEED) == SEED
    with pytest.raises(FairnessError, match="does not hash"):
        bot_play.check_seed(block, SEED + "0")


def test_bot_play_names_exactly_the_bot_seats_and_known_kinds():
    block = bot_play.build({1: "rules", 3: "random"}, SEED)

    assert bot_play.check(block, [1, 3]) is block
    with pytest.raises(FairnessError, match="exactly the seats"):
        bot_play.check(block, [1])
    with pytest.raises(FairnessError, match="kinds.3"):
        bot_play.check({**block, "kinds": {"1": "rules", "3": "clever"}}, [1, 3])
    with pytest.raises(FairnessError, match="seed_commitment"):
        bot_play.check({**block, "seed_commitment": "ab"}, [1, 3])


def test_another_rule_of_decisions_is_refused_by_name():
    block = {**bot_play.build({1: "rules"}, SEED), "decisions": "trix-bots/9"}

    with pytest.raises(FairnessError, match="trix-bots/9"):
        bot_play.check_bot_moves([], block, SEED)


def test_a_bot_double_changed_is_named_with_what_the_bot_does():
    kinds = {1: "rules", 2: "rules", 3: "rules"}
    records = _match(kinds, {"variant": "complex"})
    block = bot_play.build(kinds, SEED)
    number, seat, card = toggle_a_bot_double(records, set(kinds))

    result = bot_play.check_bot_moves(records, block, SEED)

    assert result["problems"][0].startswith(f"deal {number}: seat {seat} (rules bot) doubled")
    assert "; the bot doubles" in result["problems"][0]
