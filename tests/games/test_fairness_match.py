"""Commit before input, reveal after the deal: SeedChain and MatchShuffle."""

import json
import pickle

import pytest

from games.fairness import (
    BOT_CLIENT_SEED,
    FairnessError,
    MatchShuffle,
    RevealRefused,
    SeedChain,
    StateError,
    deal_hands,
    new_client_seed,
    reveal_matches,
    shuffle,
    validate_client_seed,
)

CLIENT_SEEDS = ["alice-7f3a", BOT_CLIENT_SEED, "bob's seed", BOT_CLIENT_SEED]


@pytest.fixture
def match():
    state = MatchShuffle.create("m-42", 20)
    state.lock_client_seeds(CLIENT_SEEDS)
    return state


def _all_seeds(state: MatchShuffle) -> list[str]:
    """Every seed of the chain and its secret, read from storage (what must not leak)."""
    data = state.to_dict()["chain"]
    secret = bytes.fromhex(data["secret"])
    chain = SeedChain(secret, data["length"], data["length"])
    return [data["secret"]] + [chain.reveal(d) for d in range(1, data["length"] + 1)]


def test_create_draws_a_fresh_secret_each_time():
    a, b = MatchShuffle.create("m-1", 20), MatchShuffle.create("m-1", 20)
    assert a.commitment != b.commitment
    assert len(a.commitment) == 64 and a.deals == 20 and a.ended_through == 0


def test_commitment_is_public_before_any_client_seed():
    state = MatchShuffle.create("m-1", 8)
    public = state.public()
    assert public["commitment"] == state.commitment
    assert public["client_seeds"] is None
    assert public["revealed_seeds"] == {}
    assert public["algorithm"] == "trix-shuffle/1" and public["deals"] == 8


def test_no_deal_before_the_client_seeds_are_locked():
    state = MatchShuffle.create("m-1", 20)
    with pytest.raises(StateError, match="client seeds are not locked"):
        state.deal(1)
    with pytest.raises(StateError, match="client seeds are not locked"):
        state.end_deal(1)


def test_client_seeds_lock_once():
    state = MatchShuffle.create("m-1", 20)
    state.lock_client_seeds(CLIENT_SEEDS)
    with pytest.raises(StateError, match="already locked"):
        state.lock_client_seeds(["x"] * 4)
    assert state.client_seeds == tuple(CLIENT_SEEDS)


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        (["a", "b", "c"], "must be 4"),
        (["a", "b", "c", ""], "client seed of seat 3 must be 1 to 64"),
        (["a", "b", None, "d"], "client seed of seat 2 must be a string"),
        ("abcd", "must be a list"),
    ],
)
def test_bad_client_seeds_are_refused_and_change_nothing(seeds, message):
    state = MatchShuffle.create("m-1", 20)
    with pytest.raises(FairnessError, match=message):
        state.lock_client_seeds(seeds)
    assert state.client_seeds is None
    state.lock_client_seeds(CLIENT_SEEDS)  # still possible afterwards


def test_client_seed_helpers():
    seed = new_client_seed()
    assert validate_client_seed(seed) == seed and len(seed) == 32
    assert new_client_seed() != seed
    with pytest.raises(FairnessError, match="printable ASCII"):
        validate_client_seed("tab\there")


def test_deal_gives_the_shuffle_of_the_committed_seed(match):
    hands = match.deal(1)
    match.end_deal(1)
    seed = match.reveal(1)
    assert reveal_matches(seed, 1, match.commitment)
    assert hands == deal_hands(shuffle(seed, CLIENT_SEEDS, "m-42", 1))
    assert sorted(sum(hands, [])) == sorted(shuffle(seed, CLIENT_SEEDS, "m-42", 1))


def test_reveal_before_the_deal_ended_is_refused(match):
    match.deal(1)
    for deal in (1, 2, 20):
        with pytest.raises(RevealRefused, match=f"deal {deal} has not ended"):
            match.reveal(deal)
        with pytest.raises(RevealRefused):
            match.shuffle_record(deal)
    match.end_deal(1)
    assert len(match.reveal(1)) == 64
    with pytest.raises(RevealRefused, match="deal 2 has not ended"):
        match.reveal(2)


def test_only_the_current_deal_can_be_computed(match):
    match.deal(1)
    with pytest.raises(StateError, match="deal 2 is not current"):
        match.deal(2)
    match.end_deal(1)
    assert match.deal(2)
    assert match.deal(1)  # an ended deal is public anyway


def test_deals_end_in_order_and_ending_twice_is_harmless(match):
    with pytest.raises(StateError, match="deal 3 cannot end before deal 1"):
        match.end_deal(3)
    match.end_deal(1)
    match.end_deal(1)
    match.end_deal(2)
    assert match.ended_through == 2
    with pytest.raises(FairnessError, match="at most 20"):
        match.end_deal(21)
    with pytest.raises(FairnessError, match="deal number must be from 1"):
        match.reveal(0)


def test_revealed_seeds_form_the_committed_chain(match):
    for deal in range(1, 21):
        match.deal(deal)
        match.end_deal(deal)
    seeds = [match.reveal(d) for d in range(1, 21)]
    assert len(set(seeds)) == 20
    for deal, seed in enumerate(seeds, start=1):
        assert reveal_matches(seed, deal, match.commitment)
        assert not reveal_matches(seed, deal + 1, match.commitment)
    assert match.public()["revealed_seeds"] == {str(d): s for d, s in enumerate(seeds, 1)}


def test_shuffle_record_of_an_ended_deal(match):
    match.end_deal(1)
    record = match.shuffle_record(1)
    assert record == {
        "algorithm": "trix-shuffle/1",
        "match_id": "m-42",
        "deal_number": 1,
        "commitment": match.commitment,
        "server_seed": match.reveal(1),
        "client_seeds": {"0": "alice-7f3a", "1": "bot", "2": "bob's seed", "3": "bot"},
    }


def test_storage_round_trip_through_json(match):
    match.end_deal(1)
    stored = json.loads(json.dumps(match.to_dict()))
    again = MatchShuffle.from_dict(stored)
    assert again.commitment == match.commitment
    assert again.ended_through == 1 and again.client_seeds == match.client_seeds
    assert again.deal(2) == match.deal(2)
    with pytest.raises(RevealRefused):
        again.reveal(2)


def test_storage_before_the_seeds_are_locked_round_trips():
    state = MatchShuffle.create("m-1", 8)
    again = MatchShuffle.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.client_seeds is None and again.commitment == state.commitment


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda d: d["chain"].update(secret="00" * 32), "corrupt"),
        (lambda d: d["chain"].update(commitment="00" * 32), "corrupt"),
        (lambda d: d["chain"].update(length=19), "corrupt"),
        (lambda d: d["chain"].update(ended_through=21), "ended_through must be from 0 to 20"),
        (lambda d: d["chain"].pop("secret"), "lacks secret"),
        (lambda d: d.update(algorithm="trix-shuffle/0"), "is not trix-shuffle/1"),
        (lambda d: d.update(chain=None), "must be an object"),
        (lambda d: d.update(client_seeds=["a"]), "must be 4"),
    ],
)
def test_corrupt_storage_is_refused(match, corrupt, message):
    data = match.to_dict()
    corrupt(data)
    with pytest.raises(FairnessError, match=message) as error:
        MatchShuffle.from_dict(data)
    for seed in _all_seeds(match):
        assert seed not in str(error.value)


def test_repr_str_and_public_data_leak_no_secret(match):
    match.deal(1)
    match.end_deal(1)
    match.deal(2)
    secrets_ = _all_seeds(match)
    unrevealed = [secrets_[0]] + secrets_[2:]  # the secret itself and seeds 2..20
    shown = " ".join(
        [
            repr(match),
            str(match),
            f"{match}",
            repr(match._chain),
            str(match._chain),
            json.dumps(match.public()),
            json.dumps(match.shuffle_record(1)),
        ]
    )
    for seed in unrevealed:
        assert seed not in shown
        assert seed[:16] not in shown
    assert match.commitment in repr(match)


def test_errors_never_carry_an_unrevealed_seed(match):
    secrets_ = _all_seeds(match)
    messages = []
    for call in (
        lambda: match.reveal(1),
        lambda: match.deal(2),
        lambda: match.end_deal(5),
        lambda: match.lock_client_seeds(CLIENT_SEEDS),
        lambda: match.shuffle_record(3),
    ):
        with pytest.raises(FairnessError) as error:
            call()
        messages.append(str(error.value))
    for seed in secrets_:
        assert all(seed not in message for message in messages)


def test_pickling_is_refused_so_secrets_do_not_slip_into_caches(match):
    with pytest.raises(TypeError, match="not picklable"):
        pickle.dumps(match)
    with pytest.raises(TypeError, match="not picklable"):
        pickle.dumps(match._chain)


def test_from_secret_is_reproducible():
    a = MatchShuffle.from_secret("sim-1", 8, "11" * 32)
    b = MatchShuffle.from_secret("sim-1", 8, bytes.fromhex("11" * 32))
    assert a.commitment == b.commitment
    with pytest.raises(FairnessError, match="secret must be 64 hex digits"):
        MatchShuffle.from_secret("sim-1", 8, "11")


def test_a_chain_covers_a_bounded_number_of_deals():
    with pytest.raises(FairnessError, match="chain length must be at most"):
        SeedChain.create(100_001)
    with pytest.raises(FairnessError, match="chain length must be from 1"):
        SeedChain.create(0)
