"""What each kind of table does: one answer per question, by name.

A table's :class:`TableKind` is fixed when it is created:

- ``casual``: a free table anyone creates (stake 0). Timers are optional; a player who leaves
  during the match is replaced by a ``rules`` bot; there is no pot.
- ``staked``: a table with a stake per human seat (``Table.stake > 0``). Every timer is
  required (nobody may hold the others' stakes for ever by not acting); a leaver forfeits
  (``docs/rules.md``, forfeits: the leaver, with partner, ranks last and the match ends);
  the pot is settled through the wallet when the match ends.
- ``tournament``: a table a tournament round created with its four seats assigned. No stake
  of its own (the tournament holds the entry fees), every timer required, a leaver forfeits,
  and the end of the match is announced (``games.signals.table_finished``) so the tournament
  records the result and opens its next round.

Services ask :func:`policy` instead of testing ``stake > 0``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models


class TableKind(models.TextChoices):
    CASUAL = "casual", "casual (free)"
    STAKED = "staked", "staked"
    TOURNAMENT = "tournament", "tournament"


@dataclass(frozen=True)
class TablePolicy:
    """The rules of one table kind (see the module docstring)."""

    kind: str
    timers_required: bool
    """Every phase timer must be set (1 to ``TRIX_MAX_TIMER`` seconds)."""
    leaver_forfeits: bool
    """A player who leaves during the match forfeits it; else a bot takes the seat over."""
    pot_settled: bool
    """The stakes in the table's escrow are paid out by the result when the match ends."""
    announce_end: bool
    """``games.signals.table_finished`` tells its origin (a tournament) the table ended.
    Sent for every kind (receivers filter), so this says whether anyone is expected to care."""
    seats_assigned: bool
    """The four seats are given at creation (no sitting, leaving before the start or bots
    seated by a player)."""
    client_seed_required: bool
    """A person taking a seat must send the client seed they chose: the server
    never makes one, so the server alone never decides a staked deal. At a casual table a
    seat taken without one gets one made by the server (``games.fairness.new_client_seed``).
    A tournament's seats come with its entrants' seeds (``tournaments.services.register``
    requires one when the event has an entry fee)."""

    @property
    def bot_takes_over_leaver(self) -> bool:
        """A ``rules`` bot plays the seat of a player who left during the match."""
        return not self.leaver_forfeits


_POLICIES = {
    TableKind.CASUAL: TablePolicy(
        kind=TableKind.CASUAL,
        timers_required=False,
        leaver_forfeits=False,
        pot_settled=False,
        announce_end=False,
        seats_assigned=False,
        client_seed_required=False,
    ),
    TableKind.STAKED: TablePolicy(
        kind=TableKind.STAKED,
        timers_required=True,
        leaver_forfeits=True,
        pot_settled=True,
        announce_end=False,
        seats_assigned=False,
        client_seed_required=True,
    ),
    TableKind.TOURNAMENT: TablePolicy(
        kind=TableKind.TOURNAMENT,
        timers_required=True,
        leaver_forfeits=True,
        pot_settled=False,
        announce_end=True,
        seats_assigned=True,
        client_seed_required=True,
    ),
}


def policy(kind: str) -> TablePolicy:
    """The :class:`TablePolicy` of ``kind`` (a :class:`TableKind` value). Raises ValueError
    for an unknown kind."""
    try:
        return _POLICIES[TableKind(kind)]
    except ValueError:
        raise ValueError(f"unknown table kind {kind!r}") from None


def kind_for_stake(stake: int) -> str:
    """The kind of a table a player creates: ``staked`` with a stake, else ``casual``."""
    return TableKind.STAKED if stake > 0 else TableKind.CASUAL
