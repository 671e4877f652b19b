"""The match state machine: kingdoms, contract choice, doubling, play, results.

Public API (all JSON-shaped, see ``docs/engine.md``):

- :func:`new_match` ``(options) -> MatchState`` in phase ``"deal"``;
- :func:`apply` ``(state, action) -> (state, events)``; ``action`` is a JSON object such as
  ``{"type": "play", "seat": 2, "card": "QS"}``. The state is changed in place and returned;
  an illegal action raises :class:`IllegalAction` and leaves the state exactly as it was;
- :func:`check` ``(state, action) -> None``: raises what :func:`apply` would, changing and
  copying nothing (to test an action);
- :func:`~.turns.legal_actions`, :func:`~.turns.default_action` (what a timeout does) and
  :func:`~.turns.forced_action` are in :mod:`.turns`; :func:`~.results.match_result` and
  :func:`~.results.deal_record` in :mod:`.results`;
- :meth:`MatchState.to_json` / :meth:`MatchState.from_json`: the state is stored as its log
  (options, the deals' hands, the seat actions) and rebuilt exactly by replaying it.

Phases (``MatchState.phase``; JSON values): ``deal`` (``PHASE_DEAL``: the server must deal
the next hands, with a ``deal`` action), ``choose`` (the owner picks a contract),
``double``, ``play``, ``over`` (``PHASE_MATCH_OVER``: the match has ended; not the deal's
``DEAL_FINISHED``, after which the match is in ``deal`` or ``over``). A *deal* is one hand of
play under one contract (:mod:`.deal`).

Rules: ``docs/rules.md``; kingdom order and the 7♥ from ``000_99eaae97bc5f03eb.txt``,
the timeout contract order from ``003_90b5bd840447e506.txt``, the forfeit rule and
``last_trix_first_out`` from ``004_918501b053ed3a2d.txt``.
"""

from __future__ import annotations

from typing import Any

from .action_log import PLAY_LOG, expand_action
from .cards import CODES, SEVEN_OF_HEARTS, codes_of, mask_of, parse_card, parse_hands
from .deal import DEAL_FINISHED, PHASE_DOUBLE, PHASE_PLAY, TRICK_CONTRACTS, Deal
from .errors import IllegalAction, InvalidCard
from .options import Options
from .results import deal_record, match_result

PHASE_DEAL = "deal"  # waiting for the server's deal action (the next deal's hands)
PHASE_CHOOSE = "choose"
PHASE_MATCH_OVER = "over"

STATE_FORMAT = "trix-match/1"
ALL = "all"

Event = dict[str, Any]


class MatchState:
    """One match. Read its fields; change it only through :func:`apply`.

    ``totals`` are match points per seat; ``deal`` is the current :class:`Deal` (the one
    being played, or the last one finished while waiting for the next; None before the first),
    ``deal_number`` its number (1..); ``played`` and ``remaining`` are the current kingdom's
    contracts played and not played yet (``remaining`` in the ``contract_timeout`` order);
    ``records`` holds the ``trix-deal/1`` record of every finished deal.
    """

    __slots__ = (
        "options",
        "phase",
        "deal",
        "deal_number",
        "kingdom",
        "owner",
        "played",
        "remaining",
        "totals",
        "records",
        "result",
        "last_trix_first_out",
        "log_deals",
        "log_actions",
        "forfeit",
    )

    def __init__(self, options: Options):
        self.options = options
        self.phase = PHASE_DEAL
        self.deal: Deal | None = None
        self.deal_number = 0  # deals started so far; the current deal is number deal_number
        self.kingdom = 0  # 1..4 once the first deal is dealt
        self.owner = -1
        self.played: list[str] = []
        # The kingdom's contracts not played yet, in the timeout order: kept beside played
        # (a bot's observation reads it at every decision).
        self.remaining: tuple[str, ...] = options.contracts
        self.totals = [0, 0, 0, 0]
        self.records: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.last_trix_first_out: int | None = None
        self.log_deals: list[list[int]] = []
        self.log_actions: list[str] = []
        self.forfeit: int | None = None

    # -- the turn ---------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        """The seats that may act now (several while doubling is simultaneous)."""
        phase = self.phase
        deal = self.deal
        if phase == PHASE_CHOOSE:
            return [self.owner]
        if phase == PHASE_DOUBLE:
            # With ``double_asked`` ``holders`` these are the holders still to answer: never
            # public (``observation.view`` shows a seat only itself).
            if self.options.doubling == "sequential":
                return [deal.turn]
            return sorted(deal.double_pending)
        if phase == PHASE_PLAY:
            return [deal.turn]
        return []

    def remaining_contracts(self) -> list[str]:
        """Contracts of the current kingdom not played yet, in the timeout order."""
        return list(self.remaining)

    # -- serialisation ----------------------------------------------------------------------

    def log(self) -> dict[str, Any]:
        """What rebuilds this state: options, every deal's hands, every seat action."""
        return {
            "format": STATE_FORMAT,
            "options": self.options.to_dict(),
            "deals": [{str(s): codes_of(h[s]) for s in range(4)} for h in self.log_deals],
            "actions": [expand_action(a) for a in self.log_actions],
        }

    def to_json(self) -> dict[str, Any]:
        """The state as JSON: its log plus a summary (phase, totals, result) for readers."""
        data = self.log()
        data["summary"] = {
            "phase": self.phase,
            "deal_number": self.deal_number,
            "kingdom": self.kingdom,
            "owner": self.owner,
            "contract": self.deal.contract if self.deal else None,
            "totals": {str(s): self.totals[s] for s in range(4)},
            "result": self.result,
        }
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchState:
        """Rebuild a state from :meth:`to_json` (or :meth:`log`) output by replaying it.

        Raises :class:`IllegalAction` / :class:`InvalidCard` if the log does not replay, and
        :class:`IllegalAction` if a stored summary disagrees with the replay.
        """
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise IllegalAction(f"not a {STATE_FORMAT} state")
        if not isinstance(data.get("deals"), list) or not isinstance(data.get("actions"), list):
            raise IllegalAction(f"a {STATE_FORMAT} state needs 'deals' and 'actions' lists")
        state = rebuild(Options.from_dict(data.get("options")), data["deals"], data["actions"])
        summary = data.get("summary")
        if summary is not None and summary != state.to_json()["summary"]:
            raise IllegalAction("stored summary does not match the replayed log")
        return state


def new_match(options: Options | dict | None = None) -> MatchState:
    """A new match in phase ``deal``. ``options`` may be :class:`Options` or a JSON object."""
    if not isinstance(options, Options):
        options = Options.from_dict(options)
    return MatchState(options)


def rebuild(options: Options, deals: list, actions: list) -> MatchState:
    """Replay ``deals`` (hands per deal, as ``{"0": [codes], ...}``) and ``actions`` (JSON
    actions) from a new match. Deals are applied whenever the state is in phase ``deal``."""
    state = new_match(options)
    pending = list(deals)
    pending.reverse()

    def deal_if_needed() -> None:
        while state.phase == PHASE_DEAL and pending:
            apply(state, {"type": "deal", "hands": pending.pop()}, emit=False)

    deal_if_needed()
    for action in actions:
        apply(state, action, emit=False)
        deal_if_needed()
    if pending:
        raise IllegalAction("log has more deals than the actions use")
    return state


# -- applying actions --------------------------------------------------------------------------


def _seat_of(action: dict[str, Any]) -> int:
    seat = action.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise IllegalAction(f"seat must be 0..3, not {seat!r}")
    return seat


def check(state: MatchState, action: dict[str, Any]) -> None:
    """Raise :class:`IllegalAction` exactly as :func:`apply` would for ``action`` (a JSON
    action, the forms :func:`apply` lists) now, with the same message; return None if
    :func:`apply` would take it. Changes nothing and copies nothing: a web request tests a
    seat's action with it, on the shared state."""
    _checked(state, action)


def _checked(state: MatchState, action: Any) -> tuple[str, int, Any]:
    """Every check :func:`apply` makes, in its order, changing nothing. Returns
    ``(type, seat, argument)`` for the unchecked step: the argument is the deal's hand masks,
    the contract name, the doubled or selected cards' mask, or the played card's number
    (``seat`` is -1 for a deal)."""
    if not isinstance(action, dict):
        raise IllegalAction("an action must be a JSON object")
    kind = action.get("type")
    if kind == "play":
        try:
            card = parse_card(action.get("card"))
        except InvalidCard as exc:
            raise IllegalAction(str(exc)) from None
        seat = _seat_of(action)
        _check_play(state, seat, card)
        return kind, seat, card
    if kind == "deal":
        return kind, -1, _check_deal(state, action.get("hands"))
    if kind == "contract":
        seat = _seat_of(action)
        contract = action.get("contract")
        _check_contract(state, seat, contract)
        return kind, seat, contract
    if kind == "double":
        seat = _seat_of(action)
        mask = _double_mask(action)
        _check_doubles(state, seat, mask)
        return kind, seat, mask
    if kind == "select":
        seat = _seat_of(action)
        mask = _double_mask(action)
        _check_select(state, seat, mask)
        return kind, seat, mask
    if kind == "pass":
        seat = _seat_of(action)
        _check_pass(state, seat)
        return kind, seat, None
    if kind == "forfeit":
        seat = _seat_of(action)
        _check_forfeit(state)
        return kind, seat, None
    raise IllegalAction(
        f"unknown action type {kind!r} (deal, contract, select, double, play, pass, forfeit)"
    )


def apply(
    state: MatchState, action: dict[str, Any], *, emit: bool = True
) -> tuple[MatchState, list[Event]]:
    """Apply one action (JSON object) to ``state`` in place; return ``(state, events)``.

    Actions: ``{"type": "deal", "hands": {"0": [13 codes], ...}}`` (the server, phase
    ``deal``), ``{"type": "contract", "seat", "contract"}``, ``{"type": "double", "seat",
    "cards": [codes]}`` (an empty list doubles nothing; it is the seat's Ready),
    ``{"type": "select", "seat", "cards": [codes]}`` (simultaneous doubling: a pick not yet
    confirmed, seen by that seat alone, which a timeout commits),
    ``{"type": "play", "seat", "card"}``, ``{"type": "pass", "seat"}``,
    ``{"type": "forfeit", "seat"}`` (leaving a paid table for good).

    Each event is a JSON object with ``"type"`` and ``"visible_to"`` (``"all"`` or a list of
    seats). With ``emit=False`` no events are built (for simulation speed).

    Raises :class:`IllegalAction` with a message saying what was wrong (the checks of
    :func:`check`, made first); then nothing changed.
    """
    kind, seat, arg = _checked(state, action)
    events: list[Event] | None = [] if emit else None
    _UNCHECKED[kind](state, seat, arg, events)
    return state, events if events is not None else []


def _double_mask(action: dict[str, Any]) -> int:
    cards = action.get("cards")
    if not isinstance(cards, list):
        raise IllegalAction(f"{action['type']} needs 'cards', a list of card codes (maybe empty)")
    try:
        return mask_of(cards)
    except InvalidCard as exc:
        raise IllegalAction(str(exc)) from None


def _ev(events: list[Event] | None, kind: str, visible_to: Any = ALL, **payload: Any) -> None:
    if events is not None:
        payload["type"] = kind
        payload["visible_to"] = visible_to
        events.append(payload)


# Each action has a check (raises IllegalAction, changes nothing) and an unchecked step (only
# ever called after its check); the public functions below do both, for the simulator.


def _check_deal(state: MatchState, hands: Any) -> list[int]:
    _check_dealing(state)
    try:
        return parse_hands(hands)
    except InvalidCard as exc:
        raise IllegalAction(str(exc)) from None


def _check_dealing(state: MatchState) -> None:
    if state.phase != PHASE_DEAL:
        raise IllegalAction(f"cannot deal now: the match is in phase {state.phase!r}")


def deal_hands(state: MatchState, masks: list[int], events: list[Event] | None = None) -> None:
    """Start the next deal with ``masks`` (four disjoint 13-card hand masks, already checked:
    :func:`apply` with a ``deal`` action checks JSON hands, then calls this)."""
    _check_dealing(state)
    _deal_hands(state, -1, masks, events)


def _deal_hands(
    state: MatchState, _seat: int, masks: list[int], events: list[Event] | None
) -> None:
    opts = state.options
    per_kingdom = len(opts.contracts)
    if state.deal_number == 0:
        state.owner = next(s for s in range(4) if masks[s] >> SEVEN_OF_HEARTS & 1)
        state.kingdom = 1
    elif len(state.played) == per_kingdom:
        state.owner = (state.owner + 1) % 4
        state.kingdom += 1
        state.played = []
        state.remaining = opts.contracts
    state.deal_number += 1
    state.log_deals.append(masks)
    state.deal = Deal(opts, masks, state.owner)
    _ev(
        events,
        "deal_started",
        deal=state.deal_number,
        kingdom=state.kingdom,
        owner=state.owner,
        played=list(state.played),
    )
    _ev(events, "hand", [state.owner], seat=state.owner, cards=codes_of(masks[state.owner]))
    remaining = state.remaining_contracts()
    if len(remaining) == 1:
        _start_contract(state, remaining[0], True, events)
    else:
        state.phase = PHASE_CHOOSE


def _start_contract(
    state: MatchState, contract: str, auto: bool, events: list[Event] | None
) -> None:
    deal = state.deal
    state.played.append(contract)
    state.remaining = tuple(c for c in state.remaining if c != contract)
    deal.start(contract)
    _ev(events, "contract_chosen", seat=state.owner, contract=contract, auto=auto)
    if events is not None:
        for s in range(4):
            if s != state.owner:
                _ev(events, "hand", [s], seat=s, cards=codes_of(deal.hands[s]))
    if deal.phase == PHASE_DOUBLE:
        state.phase = PHASE_DOUBLE
        if state.options.double_asked == "holders":
            # Who is asked is who holds a doublable card: each asked seat learns it alone.
            _ev(events, "doubling_started", asked="holders")
            for s in sorted(deal.double_pending):
                _ev(events, "double_asked", [s], seat=s)
        else:
            _ev(events, "doubling_started", seats=sorted(deal.double_pending))
    else:
        _begin_play(state, events)


def _begin_play(state: MatchState, events: list[Event] | None) -> None:
    state.phase = PHASE_PLAY
    deal = state.deal
    if events is not None and deal.shown_twos:
        _ev(events, "twos_shown", shown=_by_seat(deal.hands, deal.shown_twos))


def _by_seat(hands: list[int], mask: int) -> dict[str, list[str]]:
    return {str(s): codes_of(hands[s] & mask) for s in range(4) if hands[s] & mask}


def _check_turn(state: MatchState, seat: int, phase: str) -> None:
    if state.phase == PHASE_MATCH_OVER:
        raise IllegalAction("the match is over")
    if state.phase != phase:
        if state.phase == PHASE_DEAL:
            raise IllegalAction("the deal is over; the next deal has not been dealt")
        raise IllegalAction(f"not the time for that: the deal is in phase {state.phase!r}")
    if seat not in state.to_act():
        raise IllegalAction(f"not your turn: seat {seat} cannot act now")


def _check_contract(state: MatchState, seat: int, contract: Any) -> None:
    _check_turn(state, seat, PHASE_CHOOSE)
    if contract not in state.options.contracts:
        raise IllegalAction(
            f"{contract!r} is not a contract of this variant ({', '.join(state.options.contracts)})"
        )
    if contract in state.played:
        raise IllegalAction(f"contract {contract} already played in this kingdom")


def choose_contract(
    state: MatchState, seat: int, contract: Any, events: list[Event] | None = None
) -> None:
    """The owner picks ``contract``; raises :class:`IllegalAction` if not allowed."""
    _check_contract(state, seat, contract)
    _choose_contract(state, seat, contract, events)


def _choose_contract(
    state: MatchState, seat: int, contract: str, events: list[Event] | None
) -> None:
    state.log_actions.append(f"c{seat}:{contract}")
    _start_contract(state, contract, False, events)


def _check_doubles(state: MatchState, seat: int, mask: int) -> None:
    _check_turn(state, seat, PHASE_DOUBLE)
    deal = state.deal
    bad = mask & ~deal.doublable(seat)
    if bad:
        names = ", ".join(codes_of(bad))
        if bad & ~deal.hands[seat]:
            raise IllegalAction(f"cannot double {names}: not in your hand")
        raise IllegalAction(f"cannot double {names} in {deal.contract}")


def _check_select(state: MatchState, seat: int, mask: int) -> None:
    if state.options.doubling != "simultaneous":
        raise IllegalAction("selecting doubles is only for simultaneous doubling")
    _check_doubles(state, seat, mask)


def select_doubles(
    state: MatchState, seat: int, mask: int, events: list[Event] | None = None
) -> None:
    """Simultaneous doubling: ``seat``'s current pick, not yet its answer. Seen by ``seat``
    alone; a timeout commits it (000: "timer commits the current selection")."""
    _check_select(state, seat, mask)
    _select_doubles(state, seat, mask, events)


def _select_doubles(state: MatchState, seat: int, mask: int, events: list[Event] | None) -> None:
    codes = codes_of(mask)
    state.log_actions.append(f"s{seat}:{','.join(codes)}")
    state.deal.selections[seat] = mask
    _ev(events, "double_selected", [seat], seat=seat, cards=codes)


def double(state: MatchState, seat: int, mask: int, events: list[Event] | None = None) -> None:
    """``seat`` doubles the cards in ``mask`` (0 for none): its one answer."""
    _check_doubles(state, seat, mask)
    _double(state, seat, mask, events)


def _double(state: MatchState, seat: int, mask: int, events: list[Event] | None) -> None:
    deal = state.deal
    codes = codes_of(mask)
    state.log_actions.append(f"d{seat}:{','.join(codes)}")
    done = deal.answer_double(seat, mask)
    if state.options.doubling == "sequential":
        _ev(events, "double", seat=seat, cards=codes)
    elif state.options.double_asked == "holders":
        _ev(events, "double_ready", [seat], seat=seat)  # only holders answer: theirs alone
    else:
        _ev(events, "double_ready", seat=seat)
    if done:
        _ev(events, "doubles_revealed", doubles=_by_seat(deal.initial, deal.doubled_open))
        _begin_play(state, events)


def _check_play(state: MatchState, seat: int, card: int) -> None:
    deal = state.deal
    if state.phase != PHASE_PLAY or deal.turn != seat:
        _check_turn(state, seat, PHASE_PLAY)
    deal.check_play(seat, card)


def play(state: MatchState, seat: int, card: int, events: list[Event] | None = None) -> None:
    """``seat`` plays ``card`` (a card number); raises :class:`IllegalAction` if not legal."""
    _check_play(state, seat, card)
    _play(state, seat, card, events)


def _play(state: MatchState, seat: int, card: int, events: list[Event] | None) -> None:
    deal = state.deal
    state.log_actions.append(PLAY_LOG[seat][card])
    if events is None:
        deal.play(card)
    else:
        before = deal.scores[:]
        done = deal.play(card)
        _ev(events, "card_played", seat=seat, card=CODES[card])
        if done is not None and deal.contract == "trix":
            _ev(events, "seat_out", seat=done[0], place=done[1], points=done[2])
        elif done is not None:
            leader, cards, taker = done
            _ev(
                events,
                "trick_taken",
                leader=leader,
                cards=[CODES[c] for c in cards],
                taker=taker,
                points={str(s): deal.scores[s] - before[s] for s in range(4)},
            )
    if deal.phase == DEAL_FINISHED:
        _end_deal(state, events)


def _check_pass(state: MatchState, seat: int) -> None:
    _check_turn(state, seat, PHASE_PLAY)
    state.deal.check_pass(seat)


def pass_turn(state: MatchState, seat: int, events: list[Event] | None = None) -> None:
    """``seat`` passes in the layout; refused while it holds a playable card."""
    _check_pass(state, seat)
    _pass_turn(state, seat, None, events)


def _pass_turn(state: MatchState, seat: int, _arg: None, events: list[Event] | None) -> None:
    state.log_actions.append(f"x{seat}")
    state.deal.pass_turn()
    _ev(events, "pass", seat=seat)


def _end_deal(state: MatchState, events: list[Event] | None) -> None:
    deal = state.deal
    for s in range(4):
        state.totals[s] += deal.scores[s]
    if deal.contract == "trix":
        state.last_trix_first_out = deal.out[0]
    record = deal_record(state, deal)
    state.records.append(record)
    _ev(
        events,
        "deal_ended",
        deal=state.deal_number,
        contract=deal.contract,
        scores={str(s): deal.scores[s] for s in range(4)},
        totals={str(s): state.totals[s] for s in range(4)},
    )
    if state.deal_number == state.options.deals_per_match:
        _end_match(state, events)
    else:
        state.phase = PHASE_DEAL


def _check_forfeit(state: MatchState) -> None:
    if state.phase == PHASE_MATCH_OVER:
        raise IllegalAction("the match is over")


def forfeit(state: MatchState, seat: int, events: list[Event] | None = None) -> None:
    """``seat`` leaves a paid table for good: the match ends now, the leaver (with partner)
    ranks last, the others keep their places by score (004, ``leave_paid_table``)."""
    _check_forfeit(state)
    _forfeit(state, seat, None, events)


def _forfeit(state: MatchState, seat: int, _arg: None, events: list[Event] | None) -> None:
    state.log_actions.append(f"f{seat}")
    state.forfeit = seat
    _ev(events, "forfeit", seat=seat)
    _end_match(state, events)


def _end_match(state: MatchState, events: list[Event] | None) -> None:
    state.phase = PHASE_MATCH_OVER
    state.result = match_result(state)
    _ev(events, "match_ended", result=state.result)


# The unchecked step of each action type, called by apply after _checked.
_UNCHECKED = {
    "deal": _deal_hands,
    "contract": _choose_contract,
    "double": _double,
    "select": _select_doubles,
    "play": _play,
    "pass": _pass_turn,
    "forfeit": _forfeit,
}


__all__ = [
    "ALL",
    "PHASE_CHOOSE",
    "PHASE_DEAL",
    "PHASE_DOUBLE",
    "PHASE_MATCH_OVER",
    "PHASE_PLAY",
    "TRICK_CONTRACTS",
    "MatchState",
    "apply",
    "check",
    "new_match",
    "rebuild",
]
