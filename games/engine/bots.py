"""Bots: ``random`` (uniform over legal actions) and ``rules`` (a rule-based player).

A bot receives its seat's :class:`~games.engine.observation.Observation` (what that seat may
see: own hand, played and face-up cards, the trick; :func:`games.engine.observation.observe`
builds it), never the match state, and picks from the legal cards, contracts and doublable
cards the observation lists, so it can neither see another hand nor make an illegal move.
:meth:`Bot.act` ``(observation, rng)`` returns a JSON action for
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
from .observation import Observation, observe

_bits = cards_of


def _random_bit(mask: int, rng: random.Random) -> int:
    cards = cards_of(mask)
    return cards[int(rng.random() * len(cards))]


class Bot:
    """Base: ``decide`` by phase; subclasses fill ``contract``, ``doubles`` and ``card``.

    Call it only for a seat that is to act now (``state.to_act()``), with that seat's
    observation."""

    name = "bot"

    def decide(self, obs: Observation, rng: random.Random) -> tuple:
        """The compact decision of ``obs.seat``: ``("contract", name)``, ``("double", mask)``,
        ``("play", card)`` or ``("pass",)``; raises ``ValueError`` outside those phases."""
        phase = obs.phase
        if phase == PHASE_PLAY:
            legal = obs.legal
            if not legal:
                return ("pass",)
            if legal & (legal - 1) == 0:
                return ("play", legal.bit_length() - 1)
            return ("play", self.card(obs, rng))
        if phase == PHASE_DOUBLE:
            return ("double", self.doubles(obs, rng))
        if phase == PHASE_CHOOSE:
            return ("contract", self.contract(obs, rng))
        raise ValueError(f"seat {obs.seat} has nothing to decide in phase {phase!r}")

    def act(self, obs: Observation, rng: random.Random | None = None) -> dict:
        """The bot's action for ``obs.seat`` as a JSON action (``rng`` makes it repeatable)."""
        seat = obs.seat
        decision = self.decide(obs, rng or random.Random())
        kind = decision[0]
        if kind == "play":
            return {"type": "play", "seat": seat, "card": CODES[decision[1]]}
        if kind == "pass":
            return {"type": "pass", "seat": seat}
        if kind == "double":
            return {"type": "double", "seat": seat, "cards": codes_of(decision[1])}
        return {"type": "contract", "seat": seat, "contract": decision[1]}

    def contract(self, obs: Observation, rng: random.Random) -> str:
        """One of ``obs.remaining``."""
        raise NotImplementedError

    def doubles(self, obs: Observation, rng: random.Random) -> int:
        """A subset (mask) of ``obs.doublable``, maybe 0."""
        raise NotImplementedError

    def card(self, obs: Observation, rng: random.Random) -> int:
        """One of the cards of ``obs.legal`` (called when it holds two or more)."""
        raise NotImplementedError


class RandomBot(Bot):
    """Uniform over legal actions: any remaining contract, any subset of doublable cards
    (each card independently with probability 1/2 is uniform over subsets), any legal card."""

    name = "random"

    def contract(self, obs, rng):
        remaining = obs.remaining
        return remaining[rng.randrange(len(remaining))]

    def doubles(self, obs, rng):
        mask = 0
        for c in _bits(obs.doublable):
            if rng.random() < 0.5:
                mask |= 1 << c
        return mask

    def card(self, obs, rng):
        return _random_bit(obs.legal, rng)

    def decide(self, obs, rng):
        if obs.phase == PHASE_PLAY:  # inlined: the hot path of every simulation
            legal = obs.legal
            if not legal:
                return ("pass",)
            cards = cards_of(legal)
            return ("play", cards[int(rng.random() * len(cards))])
        return super().decide(obs, rng)


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

    def contract(self, obs, rng):
        hand = obs.hand
        best, best_gain = None, None
        for contract in obs.remaining:
            if contract == "trix":
                expected = _trix_value(hand)
            else:
                expected = -_danger(hand, contract)
            gain = expected - _AVERAGE[contract]
            if best_gain is None or gain > best_gain:
                best, best_gain = contract, gain
        return best

    def doubles(self, obs, rng):
        hand = obs.hand
        mask = 0
        for c in _bits(obs.doublable):
            suit, rank = divmod(c, 13)
            in_suit = _suit_cards(hand, suit)
            higher_out = any(not hand >> (13 * suit + r) & 1 for r in range(rank + 1, 13))
            lower = sum(1 for x in in_suit if _rank(x) < rank)
            if higher_out and (len(in_suit) <= 2 or lower >= 4):
                mask |= 1 << c
        return mask

    def _penalty_mask(self, contract: str) -> int:
        if contract == "king":
            return KH_MASK
        if contract == "queens":
            return QUEENS_MASK
        if contract == "diamonds":
            return DIAMONDS_MASK
        if contract == "complex":
            return KH_MASK | QUEENS_MASK | DIAMONDS_MASK
        return 0

    def card(self, obs, rng):
        legal = obs.legal
        if obs.contract == "trix":
            return self._layout_card(obs)
        penalty = self._penalty_mask(obs.contract)
        trick = obs.trick
        if not trick:
            return self._lead(obs, penalty)
        lead_suit = trick[0] // 13
        base = 13 * lead_suit
        winner = max(c for c in trick if base <= c < base + 13)
        winner_seat = (obs.leader + trick.index(winner)) % 4
        partner_winning = obs.options.partnership and winner_seat == (obs.seat + 2) % 4
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

    def _lead(self, obs, penalty):
        hand = obs.hand
        best, best_key = None, None
        for c in _bits(obs.legal):
            suit = c // 13
            n = (hand & SUIT_MASKS[suit]).bit_count()
            key = (bool(penalty >> c & 1), _rank(c), n)
            if best_key is None or key < best_key:
                best, best_key = c, key
        return best

    def _layout_card(self, obs):
        hand = obs.hand
        best, best_key = None, None
        for c in _bits(obs.legal):
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


DECISIONS = "trix-bots/1"
"""The name of the rule by which the site's bots decide: the policies of :data:`BOTS` and
:func:`decision_rng`. A change to either that alters any decision gets a new name; a match's
receipt names the rule its bots followed (``docs/fairness.md``, "Bots' moves")."""


def decision_rng(seed: str, deal_number: int, step: int, seat: int) -> random.Random:
    """The random source of one bot decision: ``random.Random`` seeded with the text
    ``"{seed}:{deal_number}:{step}:{seat}"`` (CPython seeds from a string with the integer of
    its UTF-8 bytes followed by their SHA-512 digest), where ``step`` is the number of cards
    played and passes made in the deal so far (0 while the owner chooses and while seats
    double). Each part is read from the
    match's deal records, so whoever knows ``seed`` repeats every decision
    (:func:`games.fairness.bot_play.check_bot_moves`)."""
    return random.Random(f"{seed}:{deal_number}:{step}:{seat}")


def bot_action(state: MatchState, seat: int, kind: str, seed: str) -> dict:
    """The JSON action a bot of ``kind`` takes for ``seat`` (to act now in ``state``), its
    randomness drawn from :func:`decision_rng` of the match's bot ``seed``: the one way the
    server and the verifier ask a bot for a move. Raises ``ValueError`` for an unknown
    ``kind`` or a seat with nothing to decide."""
    rng = decision_rng(seed, state.deal_number, decision_step(state), seat)
    return make_bot(kind).act(observe(state, seat), rng)


def decision_step(state: MatchState) -> int:
    """The ``step`` of :func:`decision_rng` now: the cards played and passes made in the
    current deal (0 outside the play phase: while the owner chooses and seats double)."""
    deal = state.deal
    return len(deal.plays) if deal is not None and state.phase == PHASE_PLAY else 0


__all__ = [
    "BOTS",
    "DECISIONS",
    "Bot",
    "RandomBot",
    "RulesBot",
    "bot_action",
    "decision_rng",
    "decision_step",
    "make_bot",
]
