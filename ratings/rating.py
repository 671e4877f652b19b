"""Skill ratings from a match's placements: openskill's Plackett–Luce model. Pure Python, no
Django (the engine's :class:`~games.engine.Options` names a variant's family).

A player has one rating per variant family (:data:`FAMILIES`): ``solo`` (``trix``,
``complex``: four players, each for themselves) and ``partnership`` (``trix_partner``,
``complex_partner``: seats 0+2 against 1+3). A rating is a :class:`Skill`, the model's mean
``mu`` and uncertainty ``sigma`` (openskill's defaults: a newcomer is μ 25, σ 25/3; β 25/6,
τ 25/300 added to every σ before a match, κ 0.0001).

A match is rated from the engine's placements (``games.engine.results.match_result``; also what
``wallet.settlement.split_pot`` pays by): solo, a four-way ranking, equal places tied (1, 2, 2,
4); partnership, two teams of two ranked 1 and 3 (a draw: both 1). A forfeit is already in
them: the leaver (and partner) ranks last. Bots play with the fixed skill of their kind
(:data:`BOT_SKILLS`): they are rated against, never updated.

The number players see is :func:`display`: ``round(1000 + 25 × (μ − 3σ))``, the
conservative estimate (μ − 3σ, openskill's ``ordinal``) on a familiar scale: a newcomer
shows 1000 (μ − 3σ = 0) and climbs as the site grows sure of them; an established average
player (μ ≈ 25, σ ≈ 1.7) shows about 1500.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from games.engine import VARIANTS, Options

SOLO = "solo"
PARTNERSHIP = "partnership"
FAMILIES = (SOLO, PARTNERSHIP)

SEATS = (0, 1, 2, 3)
TEAMS = ((0, 2), (1, 3))

DISPLAY_BASE = 1000
DISPLAY_SCALE = 25
Z = 3  # the conservative estimate is mu - Z * sigma


@dataclass(frozen=True)
class Skill:
    """A rating in the model's units: mean ``mu`` and standard deviation ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate μ − 3σ (openskill's ``ordinal``)."""
        return self.mu - Z * self.sigma

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


#: The model: openskill's Plackett–Luce with its defaults (the module docstring).
MODEL = PlackettLuce()

#: A newcomer's skill (openskill's default rating).
INITIAL = Skill(mu=MODEL.mu, sigma=MODEL.sigma)

#: The fixed skill of each bot kind (``games.engine.bots.BOTS``), the same in both families:
#: ``rules`` plays like an established average player (shows 1475), ``random`` much worse
#: (shows 1300). Never updated; an unknown kind plays as ``rules``.
BOT_SKILLS: dict[str, Skill] = {
    "rules": Skill(mu=25.0, sigma=2.0),
    "random": Skill(mu=18.0, sigma=2.0),
}


class RatingInputError(ValueError):
    """Placements that do not rank a match: a seat missing, a place out of 1..4, partners
    with different places, or an unknown family."""


def display(mu: float, sigma: float) -> int:
    """The displayed rating: ``round(1000 + 25 × (μ − 3σ))`` (the module docstring)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - Z * sigma))


def family_of(variant: str) -> str:
    """``partnership`` for a ``*_partner`` variant, else ``solo``. Raises
    :class:`RatingInputError` for a variant the engine does not know."""
    if variant not in VARIANTS:
        raise RatingInputError(f"unknown variant {variant!r}")
    return PARTNERSHIP if Options(variant=variant).partnership else SOLO


def bot_skill(kind: str) -> Skill:
    """The fixed skill of a bot of ``kind`` (:data:`BOT_SKILLS`; ``rules`` if unknown)."""
    return BOT_SKILLS.get(kind, BOT_SKILLS["rules"])


def rate_match(
    *,
    family: str,
    skills: Mapping[int, Skill],
    placements: Mapping[int, int],
    fixed: frozenset[int] | set[int] = frozenset(),
) -> dict[int, Skill]:
    """The new skill of every seat not in ``fixed`` after one match.

    ``skills``: seat (0..3) -> :class:`Skill` before the match, all four seats (bots with
    :func:`bot_skill`); ``placements``: seat -> place, 1 best, ties share (the engine's match
    result, keys ints); ``fixed``: the seats rated against but never updated (bots). Solo:
    four one-player teams ranked by place; partnership: teams 0+2 and 1+3 ranked by their
    place. Returns seat -> new :class:`Skill` for the other seats. Raises
    :class:`RatingInputError` for placements that do not rank the match.
    """
    if family not in FAMILIES:
        raise RatingInputError(f"unknown family {family!r}")
    if set(skills) != set(SEATS) or set(placements) != set(SEATS):
        raise RatingInputError("every seat 0..3 needs a skill and a place")
    for seat, place in placements.items():
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= 4:
            raise RatingInputError(f"seat {seat}: place must be 1..4, got {place!r}")
    if family == SOLO:
        teams = [(seat,) for seat in SEATS]
    else:
        teams = list(TEAMS)
        for a, b in teams:
            if placements[a] != placements[b]:
                raise RatingInputError(f"partners {a} and {b} have different places")
    ratings = [
        [MODEL.rating(mu=skills[s].mu, sigma=skills[s].sigma) for s in team] for team in teams
    ]
    ranks = [placements[team[0]] for team in teams]
    rated = MODEL.rate(ratings, ranks=ranks)
    out: dict[int, Skill] = {}
    for team, new in zip(teams, rated, strict=True):
        for seat, rating in zip(team, new, strict=True):
            if seat not in fixed:
                out[seat] = Skill(mu=float(rating.mu), sigma=float(rating.sigma))
    return out
