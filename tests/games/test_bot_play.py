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


def test_the_decision_source_is_the_documented_one():
    """docs/fairness.md 8a: random.Random seeded with the integer of the text's UTF-8 bytes
    followed by their SHA-512 (CPython's string seeding), and its published vector."""
    import hashlib

    from games.engine.bots import decision_rng

    text = ("b0" * 16 + ":3:17:2").encode()
    by_hand = random.Random(int.from_bytes(text + hashlib.sha512(text).digest(), "big"))
    rng = decision_rng("b0" * 16, 3, 17, 2)
    assert rng.random() == by_hand.random() == 0.5416008493091387
    seed = bot_play.derived_seed(bytes(range(32)), "table-12")
    assert seed == "ae88a2ca70c879357e26bbb4d42a5f0bc4bb870156b8b5bc1676f890e3ded1b5"
    assert bot_play.seed_commitment(seed) == (
        "5c07011ced0fc8dea56a40d5596870ddb796d3bb2c0a8f629a1109e04dc628e1"
    )
    assert decision_rng(seed, 3, 17, 2).random() == 0.4597493728917573


def test_a_seed_not_drawn_with_the_shuffle_is_refused_once_the_last_seed_shows():
    """The site could pick, after seeing every client seed, a bot seed that steers its
    random bots: the seed must be the HMAC of the match's secret (the last deal's seed)."""
    from games.fairness.verify_log import bot_moves

    secret = bytes(range(32))
    honest = bot_play.derived_seed(secret, "table-12")
    chosen = "c" * 64  # chosen after the cards were known
    kinds = {1: "random", 3: "random"}
    records = _match(kinds, {"variant": "trix"}, seed=chosen)
    for number, record in enumerate(records, 1):
        record["shuffle"] = {"deal_number": number, "server_seed": secret.hex()}
    receipt = {"match_id": "table-12", "deals": len(records), "bots": [1, 3]}
    receipt["bot_play"] = bot_play.build(kinds, chosen)
    index = {("bot-seed", "table-12"): {"index": 40, "body": {"seed": chosen}}}

    problems, done = bot_moves(records, {"receipt": receipt}, index)

    assert done is None
    assert problems == [
        "bots: the bots' seed is not the one the match's committed secret gives (HMAC-SHA256 "
        "of its last deal's seed): it was chosen, not drawn with the shuffle (log entry 40)"
    ]
    # the same match with the seed drawn with the shuffle, replayed without the last deal
    records = _match(kinds, {"variant": "trix"}, seed=honest)
    for number, record in enumerate(records, 1):
        record["shuffle"] = {"deal_number": number, "server_seed": secret.hex()}
    receipt["bot_play"] = bot_play.build(kinds, honest)
    index = {("bot-seed", "table-12"): {"index": 40, "body": {"seed": honest}}}
    assert bot_moves(records, {"receipt": receipt}, index)[1]["derived"] is True
    assert bot_moves(records[:-1], {"receipt": receipt}, index)[1]["derived"] is False


def test_a_receipt_claiming_more_deals_than_its_rules_play_is_refused():
    """Trial 10: a receipt re-signed with one deal more than the rules play left the last
    deal unplayed, so the bots' seed was never shown to come from the secret."""
    from games.fairness import verify_record
    from games.fairness.receipt import load_private_key
    from tests.games.fairness_helpers import (
        RFC8032_TEST1_SECRET,
        carrying,
        played_records,
        with_receipt,
    )

    records = played_records("complex", "table-12", bytes(range(32)).hex(), ["a", "bot", "b", "c"])
    records, receipt, signature = with_receipt(records, load_private_key(RFC8032_TEST1_SECRET))
    assert verify_record(records[0]) == []
    (forged, *_), _, _ = carrying(records, {**receipt, "deals": 9}, signature)

    assert (
        "shuffle.receipt.deals: 9 deals, where the receipt's rules play 8: a match's chain "
        "covers exactly its deals"
    ) in verify_record(forged)


def test_a_tournament_table_whose_event_ended_without_its_bots_seed_is_refused():
    """Trial 10: a tournament's table ended early (a forfeit) and the site withheld its bots'
    seed; the log shows the event ended (its key revealed, its payout)."""
    from games.fairness.verify_log import bot_moves

    receipt = {
        "match_id": "tournament:4/round:2/table:0",
        "deals": 20,
        "bots": [0],
        "bot_play": bot_play.build({0: "rules"}, SEED),
        "tables_commitment": {"event": "tournament:4", "entry": 3},
    }
    first = {"receipt": receipt}
    records = [{"shuffle": {"deal_number": n}} for n in (1, 2, 3)]
    running = {("deal-record", f"tournament:4/round:2/table:0/{n}"): {} for n in (1, 2, 3)}

    assert bot_moves(records, first, running) == ([], None)  # it may still be playing
    for end in ("tables-key", "event-payout"):
        problems, done = bot_moves(records, first, {**running, (end, "tournament:4"): {}})
        assert done is None
        assert problems[0].startswith(
            "log: match 'tournament:4/round:2/table:0' ended (the log holds the "
        )
        assert problems[0].endswith("the site withheld what shows its bots' moves")
