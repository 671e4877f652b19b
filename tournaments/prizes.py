"""Prize split of a finished tournament: the pool by the prize table and final places.

Pure Python, no Django. Rules in ``docs/tournaments.md`` ("Prizes"); the leftover rule is the
wallet's (``wallet.settlement``: leftover units one at a time to the best-placed shares first),
and the sharing arithmetic is the pot rule's own ``share_out``, so a table's pot and a
tournament's pool are split the same way. Money is integer minor units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wallet.errors import InvalidSplit
from wallet.settlement import BASIS_POINTS, share_out


def check_places(places: Mapping[str, int]) -> None:
    """Raise InvalidSplit unless ``places`` (unit -> final place) is a competition ranking:
    every place is 1 + the number of units placed better (1, 1, 3, 4)."""
    if not isinstance(places, Mapping) or not places:
        raise InvalidSplit("places must map every entrant to a final place")
    values = sorted(places.values())
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidSplit(f"a final place must be an int >= 1, got {value!r}")
    better = 0
    for index, value in enumerate(values):
        if index and value != values[index - 1]:
            better = index
        if value != better + 1:
            raise InvalidSplit(
                f"final places are not a ranking: place {value} follows {better} better-placed "
                "entrants (tied entrants share a place and the next place skips: 1, 1, 3)"
            )


def split_prizes(
    *, pool: int, table_bps: Sequence[int], places: Mapping[str, int]
) -> dict[str, int]:
    """Each entrant's prize in minor units; the prizes sum to ``pool`` exactly [Prizes].

    ``pool``: what is paid out (the entry fees less the house fee), an int >= 0;
    ``table_bps``: basis points of the pool by final place 1..n (ints >= 0, summing to 10,000);
    ``places``: entrant -> final place (a competition ranking, ties share: 1, 1, 3).
    Entrants tied at place p share the sum of the basis points of places p .. p+ties-1 evenly.
    When fewer places are held than the table pays, the held places' basis points are scaled
    up to the whole pool. Leftover units go one at a time to the best-placed shares first, then
    by entrant id (the wallet's rule). Raises ``wallet.errors.InvalidSplit`` on bad input.
    """
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise InvalidSplit(f"pool must be a non-negative int of minor units, got {pool!r}")
    if isinstance(table_bps, str) or not isinstance(table_bps, Sequence) or not table_bps:
        raise InvalidSplit("the prize table must list basis points for place 1 onward")
    for place, bps in enumerate(table_bps, start=1):
        if isinstance(bps, bool) or not isinstance(bps, int) or bps < 0:
            raise InvalidSplit(f"place {place} of the prize table must be an int >= 0, got {bps!r}")
    if sum(table_bps) != BASIS_POINTS:
        raise InvalidSplit(
            f"the prize table must sum to {BASIS_POINTS} basis points (100%), got {sum(table_bps)}"
        )
    check_places(places)
    by_place: dict[int, list[str]] = {}
    for entrant in sorted(places):
        by_place.setdefault(places[entrant], []).append(entrant)
    groups = [
        (members, sum(table_bps[place - 1 : place - 1 + len(members)]))
        for place, members in sorted(by_place.items())
    ]
    prizes = dict.fromkeys(places, 0)
    if pool == 0:
        return prizes
    if not any(weight for _, weight in groups):
        raise InvalidSplit("no entrant holds a place the prize table pays")
    prizes.update(share_out(pool, groups, places))
    return prizes
