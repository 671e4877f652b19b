"""The stream, the unbiased draws, the shuffle and its input checks (games.fairness)."""

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.fairness import (
    CANONICAL_DECK,
    FairnessError,
    RandomStream,
    deal_hands,
    fisher_yates,
    shuffle,
)
from tests.games.fairness_helpers import REPO, load_standalone

SEED = "ab" * 32
BOTS = ["bot", "bot", "bot", "bot"]


class ScriptedStream(RandomStream):
    """A RandomStream whose words are given, to test the rejection rule directly."""

    def __init__(self, words):  # noqa: D107 - no parent init: the words are scripted
        self._script = iter(words)
        self.blocks = 0

    def word(self):
        return next(self._script)


@pytest.mark.parametrize(
    ("n", "words", "expected"),
    [
        (52, [2**32 - 48, 2**32 - 1, 2**32 - 49], (2**32 - 49) % 52),  # two rejected
        (52, [2**32 - 49], (2**32 - 49) % 52),  # the last word of the accepted range
        (3, [2**32 - 1, 5], 2),  # 2**32 % 3 == 1: the single top word is rejected
        (2**32, [2**32 - 1], 2**32 - 1),  # nothing to reject
        (1, [123], 0),
    ],
)
def test_below_rejects_the_biased_top_of_the_range(n, words, expected):
    assert ScriptedStream(words).below(n) == expected


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1, True, 2.0])
def test_below_refuses_a_bad_range(n):
    with pytest.raises(FairnessError, match="n must be"):
        ScriptedStream([1]).below(n)


def test_fisher_yates_swaps_downwards_from_the_last_position():
    # abcd; i = 3, j = 0: dbca; i = 2, j = 2: dbca; i = 1, j = 0: bdca
    assert fisher_yates("abcd", ScriptedStream([0, 2, 0])) == ["b", "d", "c", "a"]


def test_shuffle_is_a_permutation_and_deterministic():
    deck = shuffle(SEED, BOTS, "m-1", 1)
    assert sorted(deck) == sorted(CANONICAL_DECK)
    assert deck == shuffle(bytes.fromhex(SEED), BOTS, "m-1", 1)
    assert deck == shuffle(SEED.upper(), tuple(BOTS), "m-1", 1)


@pytest.mark.parametrize(
    "change",
    [
        lambda a: {**a, "server_seed": "ac" + SEED[2:]},
        lambda a: {**a, "client_seeds": ["bot", "bot", "bot", "bou"]},
        lambda a: {**a, "client_seeds": ["bot", "bot", "bot", "bot "]},
        lambda a: {**a, "match_id": "m-2"},
        lambda a: {**a, "deal_number": 2},
    ],
    ids=["seed", "client-seed", "client-seed-space", "match", "deal"],
)
def test_every_input_changes_the_deck(change):
    inputs = {"server_seed": SEED, "client_seeds": BOTS, "match_id": "m-1", "deal_number": 1}
    assert shuffle(**change(inputs)) != shuffle(**inputs)


def test_length_prefixes_keep_fields_apart():
    # Moving characters between adjacent client seeds must not give the same message.
    a = shuffle(SEED, ["ab", "c", "bot", "bot"], "m", 1)
    b = shuffle(SEED, ["a", "bc", "bot", "bot"], "m", 1)
    assert a != b


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"server_seed": "abc"}, "server seed must be 64 hex digits"),
        ({"server_seed": "zz" * 32}, "server seed must be 64 hex digits"),
        ({"server_seed": b"short"}, "server seed must be 32 bytes"),
        ({"server_seed": 5}, "server seed must be bytes or a hex string"),
        ({"client_seeds": ["bot"] * 3}, "client seeds must be 4"),
        ({"client_seeds": "botbotbotbot"}, "client seeds must be a list"),
        ({"client_seeds": ["bot", "", "bot", "bot"]}, "client seed 1 must be 1 to 64"),
        ({"client_seeds": ["bot", "x" * 65, "bot", "bot"]}, "client seed 1 must be 1 to 64"),
        ({"client_seeds": ["bot", "é", "bot", "bot"]}, "client seed 1 must be printable ASCII"),
        ({"client_seeds": ["bot", "a\nb", "bot", "bot"]}, "must be printable ASCII"),
        ({"client_seeds": ["bot", 7, "bot", "bot"]}, "client seed 1 must be a string"),
        ({"match_id": 17}, "scope must be a string"),
        ({"deal_number": 0}, "index must be from 1"),
        ({"deal_number": True}, "index must be an integer"),
        ({"deal_number": "1"}, "index must be an integer"),
    ],
)
def test_bad_input_is_a_clear_error_without_the_seed(kwargs, message):
    inputs = {"server_seed": SEED, "client_seeds": BOTS, "match_id": "m-1", "deal_number": 1}
    with pytest.raises(FairnessError, match=message) as error:
        shuffle(**{**inputs, **kwargs})
    assert SEED not in str(error.value)
    assert "zz" * 32 not in str(error.value)


def test_deal_hands_needs_52_cards():
    with pytest.raises(FairnessError, match="52 cards"):
        deal_hands(CANONICAL_DECK[:51])


def test_random_stream_repr_hides_the_key():
    stream = RandomStream(SEED, "trix-shuffle/1", "m-1", 1, BOTS)
    assert SEED not in repr(stream) and "ab" * 4 not in repr(stream)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    client_seeds=st.lists(
        st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=64),
        min_size=4,
        max_size=4,
    ),
    match_id=st.text(alphabet="abcdef0123456789-", min_size=1, max_size=64),
    deal_number=st.integers(min_value=1, max_value=2**32 - 1),
)
def test_standalone_verifier_shuffles_identically(seed, client_seeds, match_id, deal_number):
    ours = shuffle(seed, client_seeds, match_id, deal_number)
    assert sorted(ours) == sorted(CANONICAL_DECK)
    theirs = load_standalone().shuffle(seed.hex(), client_seeds, match_id, deal_number)
    assert ours == theirs


def test_the_package_imports_no_django():
    code = (
        "import sys; import games.fairness, games.fairness.simulation; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
