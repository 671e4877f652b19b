"""split_prizes (docs/tournaments.md "Prizes"): the prize table by final place, ties sharing
the prizes they span, the wallet's leftover rule, every unit of the pool paid."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.prizes import split_prizes
from wallet.errors import InvalidSplit


@pytest.mark.parametrize(
    "pool, table, places, prizes",
    [
        (1000, [5000, 3000, 2000], {"a": 1, "b": 2, "c": 3, "d": 4}, [500, 300, 200, 0]),
        # Two tied first share 1st + 2nd: 8000 bps of 1000 -> 400 each.
        (1000, [5000, 3000, 2000], {"a": 1, "b": 1, "c": 3, "d": 4}, [400, 400, 200, 0]),
        # Three tied second share 2nd + 3rd + 4th (4th pays nothing): 5000 bps -> 166.67 each;
        # the 2 leftover units go to the best placed first (a), then by entrant id (b).
        (1000, [5000, 3000, 2000], {"a": 1, "b": 2, "c": 2, "d": 2}, [501, 167, 166, 166]),
        # The wallet's own example (docs/wallet.md): 400 split 60/30/10, three tied second:
        # 241, 53 x 3.
        (400, [6000, 3000, 1000], {"a": 1, "b": 2, "c": 2, "d": 2}, [241, 53, 53, 53]),
        # Fewer entrants than paid places: the held places' share is scaled to the whole pool.
        (900, [5000, 3000, 2000], {"a": 1, "b": 2}, [563, 337]),
        (0, [10000], {"a": 1, "b": 2}, [0, 0]),
        (7, [10000], {"a": 1, "b": 1, "c": 1}, [3, 2, 2]),
    ],
)
def test_split_prizes(pool, table, places, prizes):
    result = split_prizes(pool=pool, table_bps=table, places=places)
    assert [result[u] for u in sorted(places)] == prizes
    assert sum(result.values()) == pool


@pytest.mark.parametrize(
    "pool, table, places, message",
    [
        (-1, [10000], {"a": 1}, "pool must be"),
        (1.5, [10000], {"a": 1}, "pool must be"),
        (10, [], {"a": 1}, "prize table must list"),
        (10, [6000, 3000], {"a": 1}, "must sum to 10000"),
        (10, [11000, -1000], {"a": 1}, "place 2 of the prize table"),
        (10, [10000], {}, "places must map"),
        (10, [10000], {"a": 1, "b": 2, "c": 2, "d": 3}, "not a ranking"),
        (10, [10000], {"a": 2}, "not a ranking"),
        (10, [10000], {"a": 0}, "final place must be"),
        (10, [0, 10000], {"a": 1}, "no entrant holds a place the prize table pays"),
    ],
)
def test_bad_input_is_refused(pool, table, places, message):
    with pytest.raises(InvalidSplit, match=message):
        split_prizes(pool=pool, table_bps=table, places=places)


@st.composite
def ranking(draw):
    """A competition ranking of 1..30 entrants, with random ties."""
    count = draw(st.integers(1, 30))
    places, place = {}, 1
    i = 0
    while i < count:
        tie = draw(st.integers(1, min(4, count - i)))
        for _ in range(tie):
            places[f"e{i:02d}"] = place
            i += 1
        place += tie
    return places


@st.composite
def prize_table(draw):
    """Non-increasing basis points summing to 10000."""
    cuts = sorted(draw(st.lists(st.integers(0, 10000), min_size=0, max_size=7)))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, 10000], strict=True)]
    parts = sorted(parts, reverse=True)
    if parts[0] == 0:
        parts[0] = 10000
    return parts


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), prize_table(), ranking())
def test_prizes_sum_to_the_pool_and_ties_share(pool, table, places):
    prizes = split_prizes(pool=pool, table_bps=table, places=places)
    assert set(prizes) == set(places)
    assert sum(prizes.values()) == pool
    by_place: dict[int, list[int]] = {}
    for entrant, place in places.items():
        by_place.setdefault(place, []).append(prizes[entrant])
    for amounts in by_place.values():  # tied entrants share: at most one unit apart
        assert max(amounts) - min(amounts) <= 1
    ordered = [prizes[e] for e in sorted(places, key=lambda e: (places[e], e))]
    assert all(a >= b - 1 for a, b in zip(ordered, ordered[1:], strict=False))  # better >= worse
