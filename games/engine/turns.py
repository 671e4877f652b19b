"""Reading the rules at a state: every legal action of a seat, the cards it may play, what a
timeout does for it and the one action it is forced to take.

Rules: ``docs/rules.md`` ("On a timeout"), ``003_90b5bd840447e506.txt`` and
``004_918501b053ed3a2d.txt``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .cards import CODES, cards_of, codes_of
from .deal import PHASE_DOUBLE, PHASE_PLAY
from .errors import IllegalAction
from .match import PHASE_CHOOSE, MatchState


def legal_actions(state: MatchState, seat: int | None = None) -> list[dict[str, Any]]:
    """Every legal action now (of ``seat`` only, if given), as JSON actions. Dealing is the
    server's and is never listed; neither are ``select`` (simultaneous doubling picks) nor
    ``forfeit`` (always possible)."""
    seats = state.to_act()
    if seat is not None:
        seats = [seat] if seat in seats else []
    out: list[dict[str, Any]] = []
    deal = state.deal
    for s in seats:
        if state.phase == PHASE_CHOOSE:
            out += [
                {"type": "contract", "seat": s, "contract": c} for c in state.remaining_contracts()
            ]
        elif state.phase == PHASE_DOUBLE:
            cards = codes_of(deal.doublable(s))
            for n in range(len(cards) + 1):
                out += [
                    {"type": "double", "seat": s, "cards": list(combo)}
                    for combo in combinations(cards, n)
                ]
        else:
            mask = deal.legal_mask(s)
            if mask:
                out += [{"type": "play", "seat": s, "card": c} for c in codes_of(mask)]
            else:
                out.append({"type": "pass", "seat": s})
    return out


def legal_cards(state: MatchState, seat: int) -> int:
    """The cards ``seat`` may play now, as a mask (0 when it may not play)."""
    if state.phase != PHASE_PLAY or state.deal.turn != seat:
        return 0
    return state.deal.legal_mask(seat)


def default_action(state: MatchState, seat: int) -> dict[str, Any]:
    """What a timeout does for ``seat`` (docs/rules.md, "On a timeout", 003 and 004): the
    owner gets the first unplayed contract in the ``contract_timeout`` order; a holder doubles
    nothing (simultaneous doubling: what it selected); a player plays its lowest legal card
    (in the layout, or passes).

    Raises :class:`IllegalAction` if ``seat`` is not to act."""
    if seat not in state.to_act():
        raise IllegalAction(f"not your turn: seat {seat} cannot act now")
    if state.phase == PHASE_CHOOSE:
        return {"type": "contract", "seat": seat, "contract": state.remaining_contracts()[0]}
    if state.phase == PHASE_DOUBLE:
        return {"type": "double", "seat": seat, "cards": codes_of(state.deal.selections[seat])}
    mask = state.deal.legal_mask(seat)
    if not mask:
        return {"type": "pass", "seat": seat}
    low = min(cards_of(mask), key=lambda c: (c % 13, c // 13))
    return {"type": "play", "seat": seat, "card": CODES[low]}


def forced_action(state: MatchState, seat: int) -> dict[str, Any] | None:
    """The one legal action of ``seat`` when it has exactly one (one card or a forced pass),
    else None; for the ``auto_play_forced`` option (003)."""
    if state.phase != PHASE_PLAY or seat not in state.to_act():
        return None
    mask = state.deal.legal_mask(seat)
    if not mask:
        return {"type": "pass", "seat": seat}
    if mask & (mask - 1) == 0:
        return {"type": "play", "seat": seat, "card": CODES[mask.bit_length() - 1]}
    return None
