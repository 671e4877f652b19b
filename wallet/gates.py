"""Who may move money now: the one door asked before every deposit, stake (a seat's stake at a
table, a tournament's entry fee), withdrawal and tournament registration.

``wallet.services`` asks it inside the posting's transaction, after the wallet's row is locked
(so two stakes at once cannot both pass a limit); ``games.services.money`` asks
:func:`check_stake` before it makes a table for a stake, the tournaments' registration
:func:`check_register`. Each check raises :class:`~wallet.errors.Refused` and changes nothing.

The checks live with their rules, in the apps above the ledger, and are named by
``settings.TRIX_WALLET_GATES`` (a list of dotted paths to classes, as Django's
``AUTH_PASSWORD_VALIDATORS``), asked in that order; so the ledger imports none of them:

- the account (``accounts.standing.AccountGate``): identity verification (KYC) before staking
  or a large withdrawal, suspension by staff, closure;
- responsible play (``responsible.gates.ResponsiblePlayGate``): deposit and stake limits per
  day, week and month, time-outs and self-exclusion.

A gate is a class whose instances have any of the methods ``check_deposit(*, user_id, amount,
now)``, ``check_stake(*, user_id, amount, now)``, ``check_withdraw(*, user_id, amount, now)``
and ``check_register(*, user_id, now)`` (amounts in minor units, ``now`` an aware datetime);
a method it lacks lets that movement through.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

from wallet.errors import Refused

__all__ = ["Refused", "check_deposit", "check_register", "check_stake", "check_withdraw", "gates"]


@functools.lru_cache(maxsize=4)
def _load(paths: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(import_string(path)() for path in paths)


def gates() -> tuple[Any, ...]:
    """One instance of each class of ``settings.TRIX_WALLET_GATES``, in its order (loaded
    once per value of the setting)."""
    return _load(tuple(settings.TRIX_WALLET_GATES))


def _ask(check: str, **facts: Any) -> None:
    for gate in gates():
        method = getattr(gate, check, None)
        if method is not None:
            method(**facts)


def check_deposit(*, user_id: int, amount: int, now: datetime) -> None:
    """May ``user_id`` deposit ``amount`` (minor units) at ``now``? Raises :class:`Refused`."""
    _ask("check_deposit", user_id=user_id, amount=amount, now=now)


def check_stake(*, user_id: int, amount: int, now: datetime) -> None:
    """May ``user_id`` stake ``amount`` (minor units; a table's stake or an entry fee) at
    ``now``? Raises :class:`Refused`."""
    _ask("check_stake", user_id=user_id, amount=amount, now=now)


def check_withdraw(*, user_id: int, amount: int, now: datetime) -> None:
    """May ``user_id`` withdraw ``amount`` (minor units) at ``now``? Withdrawals stay possible
    in a time-out or self-exclusion. Raises :class:`Refused`."""
    _ask("check_withdraw", user_id=user_id, amount=amount, now=now)


def check_register(*, user_id: int, now: datetime) -> None:
    """May ``user_id`` register for a tournament (free or paid) at ``now``? Raises
    :class:`Refused`."""
    _ask("check_register", user_id=user_id, now=now)
