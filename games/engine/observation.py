"""What each seat, and a spectator, may see of a match: the bots' observation and the JSON views.

A seat sees its own hand only (and not even that while the owner is still choosing the
contract: 000, "every other player sees their own hand face down"); a spectator sees no hand.
Cards in other hands appear only where the rules put them face up: doubled cards and shown 2s
(docs/rules.md), and cards already played (every seat saw each ``card_played`` event).

- :func:`observe` ``(state, seat) -> Observation``: what a bot receives, as card numbers and
  masks (:mod:`.cards`), built in a few microseconds;
- :func:`view` ``(state, seat) -> dict``: the same for a person, as JSON (the table page);
  :func:`spectator_view`; events carry ``visible_to`` and :func:`events_for` filters them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import ALL_CARDS, CODES, SUITS, codes_of
from .deal import DEAL_FINISHED, PHASE_DOUBLE, PHASE_PLAY
from .match import (
    ALL,
    PHASE_CHOOSE,
    PHASE_MATCH_OVER,
    MatchState,
)
from .options import Options
from .turns import legal_actions

_NO_CARDS = (0, 0, 0, 0)


class Observation(NamedTuple):
    """What seat ``seat`` may see of a match now: the bots' whole input (nothing of the state
    beyond it), immutable. Cards are numbers 0..51 and sets of cards 52-bit masks
    (:mod:`.cards`); per-seat values are 4-tuples indexed by seat. Built by :func:`observe`.

    - ``seat``, ``options`` (:class:`Options`), ``phase`` (the match's: ``deal``, ``choose``,
      ``double``, ``play``, ``over``), ``deal_number`` (the current deal, 1..; 0 before the
      first), ``kingdom``, ``owner`` (-1 before the first deal), ``contract`` (None until
      chosen);
    - ``remaining``: the kingdom's contracts not played yet, in the ``contract_timeout`` order;
    - ``totals``: match points per seat;
    - ``hand``: the seat's own cards (0 while face down: a non-owner while the owner chooses);
      ``hand_counts``: cards left per seat;
    - ``legal``: the cards it may play now (0 unless it is on turn in ``play``; 0 on turn in
      the layout means it must pass); ``doublable``: the cards of its hand it may double in
      this contract (in the ``double`` phase, else 0);
    - ``doubles``: doubled cards per seat as far as this seat knows them (simultaneous
      doubling: only its own until all are revealed); ``selected``: its own pick not yet
      confirmed (simultaneous doubling, else 0);
    - ``shown``: cards face up in each seat's hand (revealed doubles, shown 2s);
    - ``played``: every card played in this deal; ``trick``: the current trick's cards in
      play order, led by seat ``leader``; ``layout``: per suit ``(low rank, high rank)`` or
      None (``trix`` only, else None).
    """

    seat: int
    options: Options
    phase: str
    deal_number: int
    kingdom: int
    owner: int
    contract: str | None
    remaining: tuple[str, ...]
    totals: tuple[int, ...]
    hand: int
    hand_counts: tuple[int, ...]
    legal: int
    doublable: int
    doubles: tuple[int, ...]
    selected: int
    shown: tuple[int, ...]
    played: int
    trick: tuple[int, ...]
    leader: int
    layout: tuple[tuple[int, int] | None, ...] | None


_new = tuple.__new__  # builds the NamedTuple without its keyword-argument wrapper (speed)


def observe(state: MatchState, seat: int) -> Observation:
    """What ``seat`` (0..3) may see of ``state`` now, for a bot (see :class:`Observation`).

    The same information as :func:`view` ``(state, seat)`` (plus the cards played earlier in
    the deal, which every seat saw played), none of another seat's hidden cards."""
    deal = state.deal
    phase = state.phase
    owner = state.owner
    options = state.options
    remaining = state.remaining
    if deal is None:
        return _new(
            Observation,
            (seat, options, phase, 0, 0, owner, None, remaining, tuple(state.totals))
            + (0, _NO_CARDS, 0, 0, _NO_CARDS, 0, _NO_CARDS, 0, (), -1, None),
        )
    h0, h1, h2, h3 = hands = deal.hands
    doublable = selected = 0
    doubles = deal.doubles
    if deal.phase == PHASE_DOUBLE:
        doublable = deal.doublable(seat)
        if options.doubling == "simultaneous":
            doubles = [0, 0, 0, 0]
            doubles[seat] = deal.doubles[seat]
            if seat in deal.double_pending:
                selected = deal.selections[seat]
    face_up = deal.doubled_open | deal.shown_twos
    return _new(
        Observation,
        (
            seat,
            options,
            phase,
            state.deal_number,
            state.kingdom,
            owner,
            deal.contract,
            remaining,
            tuple(state.totals),
            0 if phase == PHASE_CHOOSE and seat != owner else hands[seat],
            (h0.bit_count(), h1.bit_count(), h2.bit_count(), h3.bit_count()),
            deal.legal_mask(seat) if phase == PHASE_PLAY and deal.turn == seat else 0,
            doublable,
            tuple(doubles),
            selected,
            (h0 & face_up, h1 & face_up, h2 & face_up, h3 & face_up) if face_up else _NO_CARDS,
            ALL_CARDS ^ (h0 | h1 | h2 | h3),
            tuple(deal.trick),
            deal.leader,
            tuple(deal.rows) if deal.contract == "trix" else None,
        ),
    )


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
    ``shown`` (face-up cards beside each holder), ``last_deal``, ``result``, and once the
    current deal is finished (until the next one is dealt) ``deal_summary``
    (:func:`deal_summary`)."""
    opts = state.options
    deal = state.deal
    out = _match_view(state, seat)
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
        out.update(_tricks_view(deal))
    if deal.phase == PHASE_DOUBLE:
        out["doubling"], out["doubles"] = _doubling_view(deal, opts, seat)
    else:
        out["doubles"] = {str(s): codes_of(deal.doubles[s]) for s in range(4) if deal.doubles[s]}
    shown_mask = deal.doubled_open | deal.shown_twos
    out["shown"] = {
        str(s): codes_of(deal.hands[s] & shown_mask) for s in range(4) if deal.hands[s] & shown_mask
    }
    if deal.phase == DEAL_FINISHED:
        out["deal_summary"] = deal_summary(state)
    return out


def _match_view(state: MatchState, seat: int | None) -> dict[str, Any]:
    """:func:`view`'s every key, with the match's public facts set and the deal's empty."""
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
        "to_act": _public_to_act(state, seat),
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
        "deal_summary": None,
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
    return out


def _tricks_view(deal: Any) -> dict[str, Any]:
    """A trick contract's public tricks: ``trick`` (the one being played, or None),
    ``last_trick`` (with its ``taker``, or None) and ``tricks_taken`` per seat."""
    out: dict[str, Any] = {}
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
            "cards": [{"seat": (leader + i) % 4, "card": CODES[c]} for i, c in enumerate(cards)],
            "taker": taker,
        }
    taken = [0, 0, 0, 0]
    for _, _, taker in deal.tricks:
        taken[taker] += 1
    out["tricks_taken"] = {str(s): taken[s] for s in range(4)}
    return out


def _doubling_view(
    deal: Any, opts: Options, seat: int | None
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """While a deal's doubling is asked: ``(doubling, doubles)`` as ``seat`` (None: a
    spectator) may see them. Only the holders asked (``double_asked`` ``holders``): who waits
    and who answered would say who holds a doublable card, so a seat sees itself only and a
    spectator nobody; in sequential doubling the answered seats' doubles are public."""
    pending = deal.double_pending
    sequential = opts.doubling == "sequential"
    info: dict[str, Any] = {
        "mode": opts.doubling,
        "waiting": sorted(pending) if not sequential else pending[:1],
        "answered": [s for s in range(4) if s not in pending],
    }
    if opts.double_asked == "holders":
        info["asked"] = "holders"
        info["waiting"] = [seat] if seat in pending else []
        info["answered"] = []
    if seat is not None:
        info["doublable"] = codes_of(deal.doublable(seat))
        if seat not in pending:
            info["mine"] = codes_of(deal.doubles[seat])
        elif seat in pending and not sequential:
            info["selected"] = codes_of(deal.selections[seat])
    doubles: dict[str, list[str]] = {}
    if sequential:
        doubles = {str(s): codes_of(deal.doubles[s]) for s in info["answered"] if deal.doubles[s]}
    return info, doubles


def _public_to_act(state: MatchState, seat: int | None) -> list[int]:
    """``state.to_act()`` as ``seat`` (None: a spectator) may see it: while only the holders
    are asked to double (``double_asked`` ``holders``), a seat sees only itself."""
    to_act = state.to_act()
    if state.phase == PHASE_DOUBLE and state.options.double_asked == "holders":
        return [seat] if seat in to_act else []
    return to_act


def deal_summary(state: MatchState) -> dict[str, Any]:
    """The finished current deal (``state.deal``) in a few public facts, for the table page's
    summary: ``deal_number``, ``contract``, ``owner``, ``scores`` (the deal's points per seat),
    ``totals`` (match points per seat after it), ``tricks`` (tricks taken per seat; None in
    the layout), ``captured`` (per seat, the cards of the tricks it took, sorted; None in the
    layout), ``doubles`` (per seat, its doubled cards) and ``out`` (the layout's finishing
    order, seats first to last; None in a trick contract). Every fact is public once the deal
    is over: each card was played face up and each trick's taker seen by all (docs/rules.md).
    """
    deal = state.deal
    trix = deal.contract == "trix"
    tricks = captured = None
    if not trix:
        taken = [0, 0, 0, 0]
        masks = [0, 0, 0, 0]
        for _, cards, taker in deal.tricks:
            taken[taker] += 1
            for c in cards:
                masks[taker] |= 1 << c
        tricks = {str(s): taken[s] for s in range(4)}
        captured = {str(s): codes_of(masks[s]) for s in range(4)}
    return {
        "deal_number": state.deal_number,
        "contract": deal.contract,
        "owner": deal.owner,
        "scores": {str(s): deal.scores[s] for s in range(4)},
        "totals": {str(s): state.totals[s] for s in range(4)},
        "tricks": tricks,
        "captured": captured,
        "doubles": {str(s): codes_of(deal.doubles[s]) for s in range(4)},
        "out": list(deal.out) if trix else None,
    }


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
