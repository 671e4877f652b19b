"""One deal: thirteen cards to each seat, one contract, doubling, then trick play or the layout.

"Deal" in the engine always means this one hand of play under one contract (a match has
``Options.deals_per_match`` of them: 20 in Trix, 8 in Complex): :class:`Deal` is its state,
``MatchState.deal`` the current one and ``MatchState.deal_number`` its number (1..). Dealing
the cards out is the server's ``{"type": "deal"}`` action (:func:`games.engine.match.apply`),
taken while the match is in phase ``deal``.

The rules are ``docs/rules.md`` ("Default rules"), from ``000_99eaae97bc5f03eb.txt``;
``self_double`` alternatives from ``003_90b5bd840447e506.txt`` and ``004_918501b053ed3a2d.txt``.
This module checks nothing about who may act: :mod:`games.engine.match` validates every action
before it calls in here, so a method here never sees an illegal action.
"""

from __future__ import annotations

from .cards import (
    CODES,
    DIAMONDS_MASK,
    JACK,
    KH_MASK,
    KING_OF_HEARTS,
    QUEENS_MASK,
    SUIT_MASKS,
    TWOS_MASK,
)
from .errors import IllegalAction
from .options import Options

# Penalty values (000): King of Hearts, each queen, each diamond, each trick; Trix places.
KING_POINTS = 75
QUEEN_POINTS = 25
DIAMOND_POINTS = 10
TRICK_POINTS = 15
TRIX_PLACES = (200, 150, 100, 50)

TRICK_CONTRACTS = frozenset({"king", "queens", "diamonds", "ltoosh", "complex"})
DOUBLABLE = {"king": KH_MASK, "queens": QUEENS_MASK, "complex": KH_MASK | QUEENS_MASK}

# Deal.phase: "" until the contract is announced, then PHASE_DOUBLE (if the contract has
# doublable cards), PHASE_PLAY, DEAL_FINISHED. The match's phases of the same name
# (games.engine.match) use the first two as well; DEAL_FINISHED is the deal's alone: the match
# then waits for the next deal or is over (PHASE_MATCH_OVER, also "over" in JSON).
PHASE_DOUBLE = "double"
PHASE_PLAY = "play"
DEAL_FINISHED = "over"  # every point of the contract is scored: no more plays

_POPCOUNT_DIAMONDS = DIAMONDS_MASK
_JACK_BITS = tuple(1 << (13 * s + JACK) for s in range(4))


class Deal:
    """The state of one deal (this module's sense: thirteen cards each under one contract).
    Hands are 52-bit masks, cards are ints (see :mod:`.cards`).

    ``plays`` lists card numbers in order, with ``-1`` for a pass in the ``trix`` contract;
    ``scores`` is the deal's points per seat so far.
    """

    __slots__ = (
        "options",
        "owner",
        "contract",
        "initial",
        "hands",
        "phase",
        "doubles",
        "double_pending",
        "selections",
        "doubled_open",
        "shown_twos",
        "plays",
        "turn",
        "leader",
        "trick",
        "tricks",
        "scores",
        "queens_left",
        "diamonds_left",
        "rows",
        "playable",
        "out",
    )

    def __init__(self, options: Options, hands: list[int], owner: int):
        self.options = options
        self.owner = owner
        self.contract: str | None = None
        self.initial = list(hands)
        self.hands = list(hands)
        self.phase = ""
        self.doubles = [0, 0, 0, 0]
        self.double_pending: list[int] = []
        self.selections = [0, 0, 0, 0]  # simultaneous doubling: picks not yet confirmed
        self.doubled_open = 0
        self.shown_twos = 0
        self.plays: list[int] = []
        self.turn = owner
        self.leader = owner
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.scores = [0, 0, 0, 0]
        self.queens_left = 4
        self.diamonds_left = 13
        self.rows: list[tuple[int, int] | None] = [None, None, None, None]
        self.playable = 0
        self.out: list[int] = []

    # -- starting ---------------------------------------------------------------------------

    def start(self, contract: str) -> None:
        """Announce ``contract``: doubling comes first where the contract has doublable cards."""
        self.contract = contract
        self.turn = self.leader = self.owner
        doublable = DOUBLABLE.get(contract, 0)
        if doublable:
            # By default every seat answers, holder or not (000: "every player picks their
            # doubles in secret and presses Ready"; 004: "each player answers once"), so the
            # answers tell nobody who holds the K♥ or the queens. ``double_asked`` ``holders``
            # (001, 003: "a player with no doublable card is never asked") asks only the
            # holders; their answers are then seen by themselves alone (match, observation).
            self.phase = PHASE_DOUBLE
            order = [(self.owner + i) % 4 for i in range(4)]
            if self.options.double_asked == "holders":
                order = [s for s in order if self.hands[s] & doublable]
            self.double_pending = order
            if self.options.doubling == "sequential":
                self.turn = self.double_pending[0]
            return
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PHASE_PLAY
        self.turn = self.leader = self.owner
        if self.contract == "trix":
            self.playable = _JACK_BITS[0] | _JACK_BITS[1] | _JACK_BITS[2] | _JACK_BITS[3]
            opts = self.options
            if (
                opts.partnership
                and opts.show_twos
                and (opts.is_complex or not opts.twos_complex_only)
            ):
                team_a = (self.hands[0] | self.hands[2]) & TWOS_MASK
                if team_a and team_a != TWOS_MASK:
                    self.shown_twos = TWOS_MASK

    def doublable(self, seat: int) -> int:
        """The cards ``seat`` may double in this contract (a mask; 0 when none)."""
        return self.hands[seat] & DOUBLABLE.get(self.contract or "", 0)

    def answer_double(self, seat: int, mask: int) -> bool:
        """Record ``seat``'s doubles (a mask, maybe 0). True when doubling is complete."""
        self.double_pending.remove(seat)
        self.doubles[seat] = mask
        if self.double_pending:
            if self.options.doubling == "sequential":
                self.turn = self.double_pending[0]
            return False
        self.doubled_open = self.doubles[0] | self.doubles[1] | self.doubles[2] | self.doubles[3]
        self._start_play()
        return True

    # -- playing ----------------------------------------------------------------------------

    def legal_mask(self, seat: int) -> int:
        """The cards ``seat`` may play now (0 in the layout means it must pass)."""
        hand = self.hands[seat]
        if self.contract == "trix":
            return hand & self.playable
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0] // 13]
            if follow:
                return follow
        return hand

    def check_play(self, seat: int, card: int) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` (on turn) may play ``card`` now."""
        bit = 1 << card
        if self.legal_mask(seat) & bit:
            return
        if not self.hands[seat] & bit:
            raise IllegalAction(f"card {CODES[card]} is not in the hand of seat {seat}")
        if self.contract == "trix":
            raise IllegalAction(f"{CODES[card]} cannot go on the layout now")
        raise IllegalAction(f"must follow suit: {CODES[self.trick[0]][1]} was led")

    def check_pass(self, seat: int) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` (on turn) may pass now."""
        if self.contract != "trix":
            raise IllegalAction("cannot pass in a trick contract")
        if self.legal_mask(seat):
            raise IllegalAction("cannot pass holding a playable card")

    def play(self, card: int) -> tuple | None:
        """Play ``card`` for the seat on turn. Returns the finished trick
        ``(leader, cards, taker)`` or, in the layout, ``(seat, place, points)`` when the
        seat went out; else None."""
        seat = self.turn
        bit = 1 << card
        self.hands[seat] ^= bit
        self.plays.append(card)
        if self.shown_twos:
            self.shown_twos &= ~bit
        if self.doubled_open:
            self.doubled_open &= ~bit
        if self.contract == "trix":
            return self._lay(seat, card)
        trick = self.trick
        trick.append(card)
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return None
        return self._take()

    def pass_turn(self) -> None:
        """The seat on turn passes (layout only, holding no playable card)."""
        self.plays.append(-1)
        self._next_in_layout()

    def _lay(self, seat: int, card: int):
        suit, rank = divmod(card, 13)
        row = self.rows[suit]
        if row is None:
            lo = hi = rank
        else:
            lo, hi = row
            if rank < lo:
                lo = rank
            else:
                hi = rank
        self.rows[suit] = (lo, hi)
        base = 13 * suit
        nxt = 0
        if hi < 12:
            nxt |= 1 << (base + hi + 1)
        if lo > 0:
            nxt |= 1 << (base + lo - 1)
        self.playable = (self.playable & ~SUIT_MASKS[suit]) | nxt
        result = None
        if not self.hands[seat]:
            place = len(self.out)
            self.out.append(seat)
            self.scores[seat] += TRIX_PLACES[place]
            result = (seat, place + 1, TRIX_PLACES[place])
            if place == 2:
                last = next(s for s in range(4) if s not in self.out)
                self.out.append(last)
                self.scores[last] += TRIX_PLACES[3]
                self.phase = DEAL_FINISHED
                return result
        self._next_in_layout()
        return result

    def _next_in_layout(self) -> None:
        s = (self.turn + 1) & 3
        while not self.hands[s]:
            s = (s + 1) & 3
        self.turn = s

    def _take(self):
        trick = self.trick
        lead = trick[0]
        lead_suit_base = lead - lead % 13
        best = lead
        best_i = 0
        for i in (1, 2, 3):
            c = trick[i]
            if c > best and c - lead_suit_base < 13 and c >= lead_suit_base:
                best = c
                best_i = i
        leader = self.leader
        taker = (leader + best_i) & 3
        mask = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
        self._score_trick(mask, leader, taker)
        done = (leader, tuple(trick), taker)
        self.tricks.append(done)
        self.trick = []
        self.leader = self.turn = taker
        if self.phase != DEAL_FINISHED and len(self.tricks) == 13:
            self.phase = DEAL_FINISHED
        return done

    def _score_trick(self, mask: int, leader: int, taker: int) -> None:
        contract = self.contract
        scores = self.scores
        if contract == "ltoosh":
            scores[taker] -= TRICK_POINTS
            return
        if contract == "diamonds":
            n = (mask & DIAMONDS_MASK).bit_count()
            if n:
                scores[taker] -= DIAMOND_POINTS * n
                self.diamonds_left -= n
                if not self.diamonds_left:
                    self.phase = DEAL_FINISHED
            return
        if contract == "complex":
            scores[taker] -= TRICK_POINTS
            n = (mask & DIAMONDS_MASK).bit_count()
            scores[taker] -= DIAMOND_POINTS * n
        if contract in ("king", "complex") and mask & KH_MASK:
            self._penalty(KING_OF_HEARTS, KING_POINTS, leader, taker)
            if contract == "king":
                self.phase = DEAL_FINISHED
                return
        if contract in ("queens", "complex"):
            queens = mask & QUEENS_MASK
            while queens:
                low = queens & -queens
                queens ^= low
                self._penalty(low.bit_length() - 1, QUEEN_POINTS, leader, taker)
                self.queens_left -= 1
            if contract == "queens" and not self.queens_left:
                self.phase = DEAL_FINISHED

    def _penalty(self, card: int, value: int, leader: int, taker: int) -> None:
        """Score a King of Hearts or a queen taken by ``taker`` on ``leader``'s trick,
        doubled or not (docs/rules.md "Doubled card scoring", ``self_double``;
        ``double_scoring`` ``team``: a public Complex score tracker's "sold" / "not sold")."""
        bit = 1 << card
        doubler = -1
        for s in range(4):
            if self.doubles[s] & bit:
                doubler = s
                break
        scores = self.scores
        if doubler < 0:
            scores[taker] -= value
        elif (
            self.options.double_scoring == "team"
            and self.options.partnership
            and (doubler - taker) % 2 == 0
        ):
            # "Not sold": taken inside the doubler's team (the doubler or its partner). The
            # taker pays double and the other team gains the single value: the trick's leader
            # if an opponent led it, else the seat after the leader (an opponent).
            scores[taker] -= 2 * value
            gainer = leader if (leader - doubler) % 2 else (leader + 1) & 3
            scores[gainer] += value
        elif doubler != taker:
            scores[taker] -= 2 * value
            scores[doubler] += value
        else:
            rule = self.options.self_double
            if rule == "leader_gains":
                scores[taker] -= 2 * value
                scores[leader] += value
            elif rule == "single_penalty":
                scores[taker] -= value
            else:  # double_no_gain
                scores[taker] -= 2 * value

    @property
    def finished(self) -> bool:
        """Whether the deal is scored and takes no more plays (phase ``DEAL_FINISHED``)."""
        return self.phase == DEAL_FINISHED
