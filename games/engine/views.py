"""What each seat, and a spectator, may see of a match.

A seat's view holds its own hand only (and not even that while the owner is still choosing
the contract: 000, "every other player sees their own hand face down"); a spectator's view
holds no hand. Cards in other hands appear only where the rules put them face up: doubled
cards and shown 2s (trix-rules.md), and cards already played. Events carry ``visible_to``;
:func:`events_for` filters them for a seat.
"""

from __future__ import annotations

from typing import Any

from .cards import CODES, SUITS, codes_of
from .deal import PHASE_DOUBLE
from .match import (
    ALL,
    PHASE_CHOOSE,
    PHASE_MATCH_OVER,
    MatchState,
    legal_actions,
)

RANK_NAMES = "23456789TJQKA"


def _layout(deal) -> dict[str, Any]:
    rows = {}
    for suit, row in enumerate(deal.rows):
        if row is None:
            rows[SUITS[suit]] = None
        else:
            lo, hi = row
            rows[SUITS[suit]] = {"low": CODES[suit * 13 + lo], "high": CODES[suit * 13 + hi]}
    return rows


def view(state: MatchState, seat: int | None) -> dict[str, Any]:
    """The match as ``seat`` (0..3) may see it, or as a spectator when ``seat`` is None.

    Shape: ``phase``, ``deal_number``, ``deals_per_match``, ``kingdom``, ``owner``,
    ``contract``, ``played``, ``to_act``, ``totals`` (per seat), ``teams`` (partnership),
    ``hand`` (own codes, or None when face down / spectator), ``hand_counts``, ``legal``
    (own legal actions), ``trick``, ``last_trick``, ``tricks_taken``, ``deal_scores``,
    ``layout`` (per suit ``{"low", "high"}`` or None), ``out``, ``doubling``, ``doubles``,
    ``shown`` (face-up cards beside each holder), ``last_deal``, ``result``."""
    opts = state.options
    deal = state.deal
    out: dict[str, Any] = {
        "seat": seat,
        "variant": opts.variant,
        "options": opts.to_dict(),
        "phase": state.phase,
        "deal_number": state.deal_number,
        "deals_per_match": opts.deals_per_match,
        "kingdom": state.kingdom,
        "owner": state.owner if state.owner >= 0 else None,
        "contract": deal.contract if deal else None,
        "played": list(state.played),
        "remaining": state.remaining_contracts() if state.owner >= 0 else list(opts.contracts),
        "to_act": state.to_act(),
        "totals": {str(s): state.totals[s] for s in range(4)},
        "hand": None,
        "hand_face_down": False,
        "hand_counts": None,
        "legal": [],
        "trick": None,
        "last_trick": None,
        "tricks_taken": None,
        "deal_scores": None,
        "layout": None,
        "out": None,
        "doubling": None,
        "doubles": {},
        "shown": {},
        "last_deal": None,
        "result": state.result,
    }
    if opts.partnership:
        t = state.totals
        out["teams"] = {"0+2": t[0] + t[2], "1+3": t[1] + t[3]}
    if state.records:
        last = state.records[-1]
        out["last_deal"] = {
            "deal_number": len(state.records),
            "contract": last["contract"],
            "owner": last["owner"],
        }
    if deal is None:
        return out
    out["hand_counts"] = {str(s): deal.hands[s].bit_count() for s in range(4)}
    if seat is not None:
        if state.phase == PHASE_CHOOSE and seat != state.owner:
            out["hand_face_down"] = True
        else:
            out["hand"] = codes_of(deal.hands[seat])
        if state.phase != PHASE_MATCH_OVER:
            out["legal"] = legal_actions(state, seat)
    out["deal_scores"] = {str(s): deal.scores[s] for s in range(4)}
    if deal.contract == "trix":
        out["layout"] = _layout(deal)
        out["out"] = list(deal.out)
    elif deal.contract is not None:
        if deal.trick or deal.tricks:
            leader = deal.leader
            out["trick"] = {
                "leader": leader,
                "cards": [
                    {"seat": (leader + i) % 4, "card": CODES[c]} for i, c in enumerate(deal.trick)
                ],
            }
        if deal.tricks:
            leader, cards, taker = deal.tricks[-1]
            out["last_trick"] = {
                "leader": leader,
                "cards": [
                    {"seat": (leader + i) % 4, "card": CODES[c]} for i, c in enumerate(cards)
                ],
                "taker": taker,
            }
        taken = [0, 0, 0, 0]
        for _, _, taker in deal.tricks:
            taken[taker] += 1
        out["tricks_taken"] = {str(s): taken[s] for s in range(4)}
    if deal.phase == PHASE_DOUBLE:
        pending = deal.double_pending
        sequential = opts.doubling == "sequential"
        info: dict[str, Any] = {
            "mode": opts.doubling,
            "waiting": sorted(pending) if not sequential else pending[:1],
            "answered": [s for s in range(4) if s not in pending],
        }
        if seat is not None:
            info["doublable"] = codes_of(deal.doublable(seat))
            if seat not in pending:
                info["mine"] = codes_of(deal.doubles[seat])
            elif seat in pending and not sequential:
                info["selected"] = codes_of(deal.selections[seat])
        out["doubling"] = info
        if sequential:
            out["doubles"] = {
                str(s): codes_of(deal.doubles[s]) for s in info["answered"] if deal.doubles[s]
            }
    else:
        out["doubles"] = {str(s): codes_of(deal.doubles[s]) for s in range(4) if deal.doubles[s]}
    shown_mask = deal.doubled_open | deal.shown_twos
    out["shown"] = {
        str(s): codes_of(deal.hands[s] & shown_mask) for s in range(4) if deal.hands[s] & shown_mask
    }
    return out


def spectator_view(state: MatchState) -> dict[str, Any]:
    """The match with no hand at all."""
    return view(state, None)


def events_for(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events ``seat`` may see (a spectator, ``None``, sees only public ones), without
    their ``visible_to`` tag."""
    out = []
    for event in events:
        vis = event["visible_to"]
        if vis == ALL or (seat is not None and seat in vis):
            out.append({k: v for k, v in event.items() if k != "visible_to"})
    return out
