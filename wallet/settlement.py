"""Settlement by placement for the ledger: the pot rule (``games.engine.pots``, from
``docs/rules.md`` "Stakes and pots"), its refusals as the ledger's
:class:`~wallet.errors.InvalidSplit`. Money is in integer minor units."""

from __future__ import annotations

from collections.abc import Mapping

from games.engine import pots
from games.engine.pots import BASIS_POINTS, SEATS, SOLO_SHARES, Split, share_out
from wallet.errors import InvalidSplit

__all__ = [
    "BASIS_POINTS",
    "SEATS",
    "SOLO_SHARES",
    "Split",
    "house_fee_for",
    "share_out",
    "split_pot",
]


def house_fee_for(pot: int, house_fee_bps: int) -> int:
    """``games.engine.pots.house_fee_for``; raises :class:`~wallet.errors.InvalidSplit`."""
    try:
        return pots.house_fee_for(pot, house_fee_bps)
    except pots.InvalidSplit as error:
        raise InvalidSplit(str(error)) from None


def split_pot(
    pot: int,
    stakes: Mapping[int, int],
    placements: Mapping[int, int],
    team_mode: bool,
    *,
    forfeit: int | None = None,
    house_fee_bps: int = 0,
) -> Split:
    """``games.engine.pots.split_pot``; raises :class:`~wallet.errors.InvalidSplit`."""
    try:
        return pots.split_pot(
            pot, stakes, placements, team_mode, forfeit=forfeit, house_fee_bps=house_fee_bps
        )
    except pots.InvalidSplit as error:
        raise InvalidSplit(str(error)) from None
