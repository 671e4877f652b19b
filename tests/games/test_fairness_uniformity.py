"""Statistical sanity of trix-shuffle/1: each card's position is uniform (chi-square).

Inputs are fixed (one seed, deals 1..100,000), so the test is reproducible, not flaky. The
bounds are the chi-square quantiles at one-sided p = 1e-6 (z = 4.753), from the
Wilson-Hilferty approximation. A control run with the classic naive shuffle (``j`` drawn from
the whole deck at every step, a known bias) must fail the same bounds with a fifth of the
samples, so the test can fail. (Modulo bias of 32-bit words is far too small for any sample:
rejection sampling is checked by the scripted-stream tests and the draw test vector.)
"""

import math

import pytest

from games.fairness import CANONICAL_DECK, RandomStream, shuffle

SHUFFLES = 100_000
CONTROL_SHUFFLES = 20_000
SEED = "5eed" * 16
CLIENT_SEEDS = ["alice", "bot", "bob", "bot"]
Z = 4.753  # standard normal quantile of 1 - 1e-6
N = len(CANONICAL_DECK)
INDEX = {code: i for i, code in enumerate(CANONICAL_DECK)}


def chi2_quantile(dof: int, z: float) -> float:
    """Wilson-Hilferty: the chi-square quantile with ``dof`` degrees at normal quantile z."""
    h = 2 / (9 * dof)
    return dof * (1 - h + z * math.sqrt(h)) ** 3


def position_counts(decks) -> list[list[int]]:
    """counts[card][position] over the given decks."""
    counts = [[0] * N for _ in range(N)]
    for deck in decks:
        for position, code in enumerate(deck):
            counts[INDEX[code]][position] += 1
    return counts


def chi2(row: list[int], expected: float) -> float:
    return sum((observed - expected) ** 2 / expected for observed in row)


def naive_shuffle(deal_number: int) -> list[str]:
    """The classic biased shuffle: swap each position with any position (control only)."""
    stream = RandomStream(SEED, "trix-shuffle/1", "uniformity", deal_number, CLIENT_SEEDS)
    deck = list(CANONICAL_DECK)
    for i in range(N):
        j = stream.below(N)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_chi2_quantile_matches_known_values():
    # Tabulated chi-square quantiles at p = 0.05 (z = 1.645): dof 10 -> 18.307, 50 -> 67.505.
    assert chi2_quantile(10, 1.645) == pytest.approx(18.307, rel=0.01)
    assert chi2_quantile(50, 1.645) == pytest.approx(67.505, rel=0.005)


def _statistics(decks, samples):
    counts = position_counts(decks)
    expected = samples / N
    per_card = [chi2(row, expected) for row in counts]
    return per_card, sum(per_card)


@pytest.mark.slow
def test_each_card_position_is_uniform_over_100000_shuffles():
    decks = (shuffle(SEED, CLIENT_SEEDS, "uniformity", d) for d in range(1, SHUFFLES + 1))
    per_card, total = _statistics(decks, SHUFFLES)
    card_bound = chi2_quantile(N - 1, Z)  # 51 degrees of freedom: about 114.5
    worst = max(range(N), key=per_card.__getitem__)
    assert per_card[worst] < card_bound, f"{CANONICAL_DECK[worst]}: chi2 {per_card[worst]:.1f}"
    dof = (N - 1) ** 2  # the whole card x position table, rows and columns fixed
    assert chi2_quantile(dof, -Z) < total < chi2_quantile(dof, Z)


@pytest.mark.slow
def test_the_bound_rejects_a_biased_shuffle():
    decks = (naive_shuffle(d) for d in range(1, CONTROL_SHUFFLES + 1))
    per_card, total = _statistics(decks, CONTROL_SHUFFLES)
    assert max(per_card) > chi2_quantile(N - 1, Z)
    assert total > chi2_quantile((N - 1) ** 2, Z)
