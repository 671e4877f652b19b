"""Who may move money now: the one door asked before every deposit, stake (a seat's stake at a
table, a tournament's entry fee), withdrawal and tournament registration.

``wallet.services`` asks it inside the posting's transaction, after the wallet's row is locked
(so two stakes at once cannot both pass a limit); ``tournaments.services.register`` asks
``check_register``. Each check raises :class:`Refused` and changes nothing.

The checks themselves live with their rules (issue 16):

- responsible play (``responsible``): deposit and stake limits per day, week and month, time-outs
  and self-exclusion;
- the account (``accounts``): identity verification (KYC) before staking or a large withdrawal,
  suspension by staff, closure.
"""

from __future__ import annotations

from datetime import datetime

# accounts.standing and responsible.gates raise this module's Refused: they import this
# module (not the name), so they load in either order.
from accounts import standing
from responsible import gates as responsible_gates
from wallet.errors import LedgerError


class Refused(LedgerError):
    """The player may not do this now. ``code`` names the rule (``"stake_limit"``,
    ``"self_excluded"``, ``"kyc_required"``...), ``str(self)`` is the player's message (translated:
    which limit or state, and when it ends), ``resets_at`` when it stops applying (None: not by
    itself)."""

    def __init__(self, code: str, message: str, resets_at: datetime | None = None):
        super().__init__(message)
        self.code = code
        self.resets_at = resets_at


def check_deposit(*, user_id: int, amount: int, now: datetime) -> None:
    """May ``user_id`` deposit ``amount`` (minor units) at ``now``? Raises :class:`Refused`."""
    responsible_gates.check_deposit(user_id=user_id, amount=amount, now=now)


def check_stake(*, user_id: int, amount: int, now: datetime) -> None:
    """May ``user_id`` stake ``amount`` (minor units; a table's stake or an entry fee) at
    ``now``? Raises :class:`Refused`."""
    standing.check_stake(user_id=user_id)
    responsible_gates.check_stake(user_id=user_id, amount=amount, now=now)


def check_withdraw(*, user_id: int, amount: int, now: datetime) -> None:
    """May ``user_id`` withdraw ``amount`` (minor units) at ``now``? Withdrawals stay possible
    in a time-out or self-exclusion. Raises :class:`Refused`."""
    standing.check_withdraw(user_id=user_id, amount=amount, now=now)


def check_register(*, user_id: int, now: datetime) -> None:
    """May ``user_id`` register for a tournament (free or paid) at ``now``? Raises
    :class:`Refused`."""
    standing.check_register(user_id=user_id)
    responsible_gates.check_register(user_id=user_id, now=now)
