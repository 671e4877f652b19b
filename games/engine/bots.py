"""Bots: ``random`` (uniform over legal actions) and ``rules`` (a rule-based player).

Both read only what their seat may see (own hand, played cards, face-up cards) and pick from
the engine's own legal actions (:func:`games.engine.match.legal_cards` and friends), so a bot
can never make an illegal move. A bot's :meth:`Bot.act` returns a JSON action for
:func:`games.engine.match.apply`; :meth:`Bot.decide` returns the compact form used by the
simulator: ``("contract", name)``, ``("double", mask)``, ``("play", card)`` or ``("pass",)``.
"""

from __future__ import annotations

import random

from .cards import (
    CODES,
    DIAMONDS,
    DIAMONDS_MASK,
    HEARTS,
    JACK,
    KH_MASK,
    KING,
    QUEEN,
    QUEENS_MASK,
    SUIT_MASKS,
    cards_of,
    codes_of,
)
from .match import PHASE_CHOOSE, PHASE_DOUBLE, PHASE_PLAY, MatchState

_bits = cards_of


def _random_bit(mask: int, rng: random.Random) -> int:
    cards = cards_of(mask)
    return cards[int(rng.random() * len(cards))]


class Bot:
    """Base: ``decide`` by phase; subclasses fill ``contract``, ``doubles`` and ``card``."""

    name = "bot"

    def decide(self, state: MatchState, seat: int, rng: random.Random) -> tuple:
        if state.phase == PHASE_PLAY:
            legal = state.deal.legal_mask(seat)
            if not legal:
                return ("pass",)
            if legal & (legal - 1) == 0:
                return ("play", legal.bit_length() - 1)
            return ("play", self.card(state, seat, legal, rng))
        phase = state.phase
        if phase == PHASE_DOUBLE:
            return ("double", self.doubles(state, seat, rng))
        if phase == PHASE_CHOOSE:
            return ("contract", self.contract(state, seat, rng))
        raise ValueError(f"seat {seat} has nothing to decide in phase {phase!r}")

    def act(self, state: MatchState, seat: int, rng: random.Random | None = None) -> dict:
        """The bot's action for ``seat`` as a JSON action."""
        decision = self.decide(state, seat, rng or random.Random())
        kind = decision[0]
        if kind == "play":
            return {"type": "play", "seat": seat, "card": CODES[decision[1]]}
        if kind == "pass":
            return {"type": "pass", "seat": seat}
        if kind == "double":
            return {"type": "double", "seat": seat, "cards": codes_of(decision[1])}
        return {"type": "contract", "seat": seat, "contract": decision[1]}

    def contract(self, state: MatchState, seat: int, rng: random.Random) -> str:
        raise NotImplementedError

    def doubles(self, state: MatchState, seat: int, rng: random.Random) -> int:
        raise NotImplementedError

    def card(self, state: MatchState, seat: int, legal: int, rng: random.Random) -> int:
        raise NotImplementedError


class RandomBot(Bot):
    """Uniform over legal actions: any remaining contract, any subset of doublable cards
    (each card independently with probability 1/2 is uniform over subsets), any legal card."""

    name = "random"

    def contract(self, state, seat, rng):
        remaining = state.remaining_contracts()
        return remaining[rng.randrange(len(remaining))]

    def doubles(self, state, seat, rng):
        mask = 0
        for c in _bits(state.deal.doublable(seat)):
            if rng.random() < 0.5:
                mask |= 1 << c
        return mask

    def card(self, state, seat, legal, rng):
        return _random_bit(legal, rng)

    def decide(self, state, seat, rng):
        if state.phase == PHASE_PLAY:  # inlined: the hot path of every simulation
            legal = state.deal.legal_mask(seat)
            if not legal:
                return ("pass",)
            cards = cards_of(legal)
            return ("play", cards[int(rng.random() * len(cards))])
        return super().decide(state, seat, rng)


# -- the rule-based bot -----------------------------------------------------------------------

# Average deal score of a seat per contract (000's point values spread over four seats).
_AVERAGE = {
    "king": -75 / 4,
    "queens": -100 / 4,
    "diamonds": -130 / 4,
    "ltoosh": -195 / 4,
    "trix": 500 / 4,
    "complex": -500 / 4,
}


def _rank(c: int) -> int:
    return c % 13


def _suit_cards(hand: int, suit: int) -> list[int]:
    return _bits(hand & SUIT_MASKS[suit])


def _danger(hand: int, contract: str) -> float:
    """A rough expected penalty (a positive number) of ``hand`` in a trick contract."""
    total = 0.0
    for suit in range(4):
        cards = _suit_cards(hand, suit)
        n = len(cards)
        low = sum(1 for c in cards if _rank(c) <= 5)
        high = sum(1 for c in cards if _rank(c) >= 10)
        if contract in ("ltoosh", "complex"):
            total += 15 * max(0, high - low / 2) * 0.8
        if contract in ("queens", "complex"):
            q = 13 * suit + QUEEN
            if hand >> q & 1:
                total += 25 * (1.0 if low < 2 else 0.4) * (1.0 if n < 5 else 0.7)
            total += 6 * sum(1 for c in cards if _rank(c) > QUEEN) * (1 if low < 2 else 0.3)
        if contract in ("king", "complex") and suit == HEARTS:
            if hand & KH_MASK:
                total += 75 * (0.9 if low < 2 else 0.35)
            if hand >> (13 * HEARTS + 12) & 1:
                total += 12
        if contract in ("diamonds", "complex") and suit == DIAMONDS:
            total += 10 * (high + 0.5 * (n - low - high)) * (1.0 if low < 2 else 0.6)
    return total


def _trix_value(hand: int) -> float:
    """How good ``hand`` is for the layout: jacks and cards close to them go out early."""
    value = 0.0
    for suit in range(4):
        for c in _suit_cards(hand, suit):
            value -= abs(_rank(c) - JACK) * 4
        if hand >> (13 * suit + JACK) & 1:
            value += 20
    return value + 150


class RulesBot(Bot):
    """A rule-based player: picks the contract its hand suits best, doubles only cards it can
    shed (a short suit with a higher card out), ducks under the winning card, dumps penalty
    cards when void (never onto a partner's trick), and in the layout plays cards that open
    its own next cards rather than others'."""

    name = "rules"

    def contract(self, state, seat, rng):
        hand = state.deal.hands[seat]
        best, best_gain = None, None
        for contract in state.remaining_contracts():
            if contract == "trix":
                expected = _trix_value(hand)
            else:
                expected = -_danger(hand, contract)
            gain = expected - _AVERAGE[contract]
            if best_gain is None or gain > best_gain:
                best, best_gain = contract, gain
        return best

    def doubles(self, state, seat, rng):
        deal = state.deal
        hand = deal.hands[seat]
        mask = 0
        for c in _bits(deal.doublable(seat)):
            suit, rank = divmod(c, 13)
            in_suit = _suit_cards(hand, suit)
            higher_out = any(not hand >> (13 * suit + r) & 1 for r in range(rank + 1, 13))
            lower = sum(1 for x in in_suit if _rank(x) < rank)
            if higher_out and (len(in_suit) <= 2 or lower >= 4):
                mask |= 1 << c
        return mask

    def _penalty_mask(self, state, contract: str) -> int:
        if contract == "king":
            return KH_MASK
        if contract == "queens":
            return QUEENS_MASK
        if contract == "diamonds":
            return DIAMONDS_MASK
        if contract == "complex":
            return KH_MASK | QUEENS_MASK | DIAMONDS_MASK
        return 0

    def card(self, state, seat, legal, rng):
        deal = state.deal
        if deal.contract == "trix":
            return self._layout_card(state, seat, legal)
        contract = deal.contract
        penalty = self._penalty_mask(state, contract)
        trick = deal.trick
        if not trick:
            return self._lead(deal, seat, legal, penalty)
        lead_suit = trick[0] // 13
        base = 13 * lead_suit
        winner = max(c for c in trick if base <= c < base + 13)
        winner_seat = (deal.leader + trick.index(winner)) % 4
        partner_winning = state.options.partnership and winner_seat == (seat + 2) % 4
        last = len(trick) == 3
        follow = legal & SUIT_MASKS[lead_suit]
        if follow:
            cards = _bits(follow)
            under = [c for c in cards if c < winner]
            if under:
                # Duck with the highest card that stays under, shedding a penalty card first.
                hot = [c for c in under if penalty >> c & 1]
                return max(hot) if hot else max(under)
            safe = [c for c in cards if not penalty >> c & 1]
            if last:
                return max(safe) if safe else min(cards)
            return min(safe) if safe else min(cards)
        # Void in the led suit: dump a penalty card onto an opponent's trick, else a high card.
        cards = _bits(legal)
        hot = [c for c in cards if penalty >> c & 1]
        if hot and not partner_winning:
            return max(hot, key=lambda c: (c == 13 * HEARTS + KING, _rank(c) == QUEEN, _rank(c)))
        cold = [c for c in cards if not penalty >> c & 1] or cards
        return max(cold, key=_rank)

    def _lead(self, deal, seat, legal, penalty):
        hand = deal.hands[seat]
        best, best_key = None, None
        for c in _bits(legal):
            suit = c // 13
            n = (hand & SUIT_MASKS[suit]).bit_count()
            key = (bool(penalty >> c & 1), _rank(c), n)
            if best_key is None or key < best_key:
                best, best_key = c, key
        return best

    def _layout_card(self, state, seat, legal):
        deal = state.deal
        hand = deal.hands[seat]
        best, best_key = None, None
        for c in _bits(legal):
            suit, rank = divmod(c, 13)
            opens = []
            if rank == JACK:
                opens = [c + 1, c - 1]
            elif rank > JACK and rank < 12:
                opens = [c + 1]
            elif rank < JACK and rank > 0:
                opens = [c - 1]
            mine = sum(1 for o in opens if hand >> o & 1)
            theirs = len(opens) - mine
            # Cards left in my hand further along this row that this card brings closer.
            further = sum(
                1
                for x in _suit_cards(hand, suit)
                if (rank >= JACK and x > c) or (rank <= JACK and x < c)
            )
            key = (mine - theirs, further, -abs(rank - JACK))
            if best_key is None or key > best_key:
                best, best_key = c, key
        return best


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "rules": RulesBot}


def make_bot(kind: str) -> Bot:
    """A bot by name (``random`` or ``rules``); raises ``ValueError`` for another name."""
    try:
        return BOTS[kind]()
    except KeyError:
        raise ValueError(f"unknown bot {kind!r} (choose from {', '.join(BOTS)})") from None


__all__ = ["BOTS", "Bot", "RandomBot", "RulesBot", "make_bot"]
