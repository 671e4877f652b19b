"""A dealer for ``trix simulate``: every deal through a real commitment and ``trix-shuffle/1``.

``simulation_dealer(seed, deals_per_match)`` is the engine's ``Dealer``: a callable
``(match_index, deal_number) -> (hands, shuffle)``, ``hands`` four 13-card masks (bit ``c``
for card ``c`` of ``CANONICAL_DECK``, the engine's numbering), ``shuffle`` the record's
``"shuffle"`` object. Each simulated match gets a ``MatchShuffle`` whose secret is derived
from ``seed`` (so ``--seed`` reproduces the run) and whose four seats are bots
(``BOT_CLIENT_SEED``). Every record written with that ``shuffle`` passes ``trix verify``.

Offline only: no player is waiting on a hidden card, so the dealer ends each deal's fairness
state as it deals it to hand back the revealed ``shuffle`` object at once. A table never does
this (it calls ``end_deal`` when the deal has really ended). A derived secret is predictable
by whoever knows ``seed``: never use this dealer for money.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from games.fairness.match_shuffle import BOT_CLIENT_SEED, MatchShuffle
from games.fairness.shuffle import CANONICAL_DECK, SEATS

_INDEX = {code: index for index, code in enumerate(CANONICAL_DECK)}


def simulation_match_id(seed: int, match_index: int) -> str:
    """The match id of simulated match ``match_index`` (0-based) of a run with ``seed``."""
    return f"sim-{seed}-{match_index + 1}"


def simulation_dealer(
    seed: int, deals_per_match: int
) -> Callable[[int, int], tuple[list[int], dict[str, Any]]]:
    """The engine's ``Dealer`` for simulated matches (see the module docstring)."""
    matches: dict[int, MatchShuffle] = {}

    def dealer(match_index: int, deal_number: int) -> tuple[list[int], dict[str, Any]]:
        state = matches.get(match_index)
        if state is None:
            match_id = simulation_match_id(seed, match_index)
            secret = hashlib.sha256(f"trix simulate secret {match_id}".encode()).digest()
            state = MatchShuffle.from_secret(match_id, deals_per_match, secret)
            state.lock_client_seeds([BOT_CLIENT_SEED] * SEATS)
            matches.clear()  # deals of a match are dealt in order, one match at a time
            matches[match_index] = state
        hands = [sum(1 << _INDEX[code] for code in hand) for hand in state.deal(deal_number)]
        state.end_deal(deal_number)
        return hands, state.shuffle_record(deal_number)

    return dealer
