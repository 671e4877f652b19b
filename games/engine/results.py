"""A deal's and a match's results: the ``trix-deal/1`` record of a finished deal, the match's
scores and placements (ties share: competition ranking), the partnership winner.

Rules: ``docs/rules.md``; the forfeit rule and ``last_trix_first_out`` from
``004_918501b053ed3a2d.txt``; the record's fields in ``docs/engine.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .cards import CODES, codes_of
from .deal import Deal
from .options import Options

if TYPE_CHECKING:
    from .match import MatchState


def team_of(seat: int) -> str:
    """The team key of a seat: ``"0+2"`` or ``"1+3"`` (partners sit opposite)."""
    return "0+2" if seat % 2 == 0 else "1+3"


def placements_by_score(scores: dict[int, int]) -> dict[int, int]:
    """Places 1.. by score, highest first; tied seats share the best place they span
    (standard competition ranking: 1, 1, 3, 4)."""
    ordered = sorted(scores.values(), reverse=True)
    return {seat: ordered.index(score) + 1 for seat, score in scores.items()}


def seat_place(result: dict[str, Any], seat: int) -> int:
    """The place of ``seat`` in a finished match's ``result`` (:func:`match_result`'s), the
    one a page shows: solo the seat's placement (1..4, ties share); partnership the team's
    place, 1 or 2 (a draw: both teams 1), whatever the per-seat ``placements`` record (which
    keep competition ranking over four seats, 1 and 3, for the pot's split). Raises KeyError
    for a result without that seat."""
    if "teams" in result:
        if result.get("draw"):
            return 1
        return 1 if result.get("winner") == team_of(seat) else 2
    return int(result["placements"][str(seat)])


def match_result(state: MatchState) -> dict[str, Any]:
    """The result of ``state``'s match: :func:`outcome` of its totals."""
    return outcome(
        {s: state.totals[s] for s in range(4)},
        partnership=state.options.partnership,
        partner_tie=state.options.partner_tie,
        last_trix_first_out=state.last_trix_first_out,
        forfeit=state.forfeit,
        deals_played=len(state.records),
    )


def outcome(
    totals: Mapping[int, int],
    *,
    partnership: bool,
    partner_tie: str,
    last_trix_first_out: int | None,
    forfeit: int | None,
    deals_played: int,
) -> dict[str, Any]:
    """A match's result from its totals (``totals``: seat 0..3 -> match score): ``scores``
    per seat, ``placements`` per seat (1..4, ties share), and in partnership ``teams``
    totals, ``winner`` (a team key or None) and ``draw``; ``forfeit`` is the leaving seat or
    None (it ranks last; in partnership its team loses); ``deals_played`` is kept as given.
    A partnership tie goes to the team of ``last_trix_first_out`` (the first seat out in the
    last Trix layout played) when ``partner_tie`` is ``"last_trix_first_out"``, else it is a
    draw. Keys of per-seat maps are ``"0".."3"``."""
    totals = {s: int(totals[s]) for s in range(4)}
    leaver = forfeit
    result: dict[str, Any] = {
        "scores": {str(s): v for s, v in totals.items()},
        "forfeit": leaver,
        "deals_played": deals_played,
    }
    if partnership:
        teams = {"0+2": totals[0] + totals[2], "1+3": totals[1] + totals[3]}
        result["teams"] = teams
        if leaver is not None:
            winner = "1+3" if team_of(leaver) == "0+2" else "0+2"
        elif teams["0+2"] != teams["1+3"]:
            winner = max(teams, key=teams.get)
        elif partner_tie == "last_trix_first_out" and last_trix_first_out is not None:
            winner = team_of(last_trix_first_out)
        else:
            winner = None
        result["winner"] = winner
        result["draw"] = winner is None
        places = {s: 1 if winner is None or team_of(s) == winner else 3 for s in range(4)}
    else:
        others = {s: v for s, v in totals.items() if s != leaver}
        places = placements_by_score(others)
        if leaver is not None:
            places[leaver] = 4
    result["placements"] = {str(s): places[s] for s in range(4)}
    return result


@lru_cache(maxsize=64)
def _record_options_cached(opts: Options) -> tuple:
    options = opts.to_dict(non_defaults_only=True)
    options.pop("variant", None)
    return tuple(options.items())


def _record_options(opts: Options) -> dict[str, Any]:
    return dict(_record_options_cached(opts))


def deal_record(state: MatchState, deal: Deal) -> dict[str, Any]:
    """The ``trix-deal/1`` record of ``deal`` (see ``docs/engine.md``)."""
    opts = state.options
    options = _record_options(opts)
    return {
        "format": "trix-deal/1",
        "variant": opts.variant,
        "options": options,
        "contract": deal.contract,
        "owner": deal.owner,
        "hands": {str(s): codes_of(deal.initial[s]) for s in range(4)},
        "doubles": {str(s): codes_of(deal.doubles[s]) for s in range(4) if deal.doubles[s]},
        "plays": ["pass" if c < 0 else CODES[c] for c in deal.plays],
    }
