"""Responsible play's part of ``wallet.gates`` (:class:`ResponsiblePlayGate`, named in
``settings.TRIX_WALLET_GATES``): the checks asked before a deposit, a stake (a seat's stake,
an entry fee) and a tournament registration, under the wallet's lock.

Each raises ``wallet.errors.Refused`` with a code (``time_out``, ``self_excluded``,
``deposit_limit``, ``stake_limit``), the player's message (which limit or state, and when it
ends) and ``resets_at``."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import get_language_bidi, gettext_lazy
from django.utils.translation import gettext as _

from responsible import rules, selectors
from responsible.models import ExclusionKind
from wallet import selectors as wallet_selectors
from wallet.errors import Refused

#: The name of each limit in a refusal.
LIMIT_NAMES = {
    (rules.DEPOSIT, rules.DAY): gettext_lazy("24-hour deposit limit"),
    (rules.DEPOSIT, rules.WEEK): gettext_lazy("7-day deposit limit"),
    (rules.DEPOSIT, rules.MONTH): gettext_lazy("30-day deposit limit"),
    (rules.STAKE, rules.DAY): gettext_lazy("24-hour stake limit"),
    (rules.STAKE, rules.WEEK): gettext_lazy("7-day stake limit"),
    (rules.STAKE, rules.MONTH): gettext_lazy("30-day stake limit"),
}


def format_when(when: datetime) -> str:
    """``2026-12-02 14:05 UTC``: a moment in the site's time zone, the same in every language
    (in a right-to-left language inside Unicode directional isolates, as
    ``wallet.selectors.format_money``, so it keeps its order in an Arabic sentence)."""
    local = timezone.localtime(when)
    text = f"{local:%Y-%m-%d %H:%M} {local.tzname()}"
    return f"\u2066{text}\u2069" if get_language_bidi() else text


def _check_excluded(user_id: int, now: datetime) -> None:
    exclusion = selectors.active_exclusion(user_id, now)
    if exclusion is None:
        return
    if exclusion.kind == ExclusionKind.TIME_OUT:
        code = "time_out"
        message = _(
            "You are taking a break until %(end)s: until then you cannot deposit, stake or "
            "enter tournaments. You can still withdraw."
        ) % {"end": format_when(exclusion.ends_at)}
    elif exclusion.ends_at is None:
        code = "self_excluded"
        message = _(
            "You excluded yourself permanently: you cannot deposit, stake or enter tournaments. "
            "You can still withdraw."
        )
    else:
        code = "self_excluded"
        message = _(
            "You excluded yourself until %(end)s: until then you cannot deposit, stake or "
            "enter tournaments. You can still withdraw."
        ) % {"end": format_when(exclusion.ends_at)}
    raise Refused(code, message, exclusion.ends_at)


def _check_limits(kind: str, user_id: int, amount: int, now: datetime) -> None:
    limits = selectors.limit_states(user_id)
    if not any(lim.kind == kind and lim.effective(now) is not None for lim in limits):
        return
    since = now - rules.LOOKBACK
    if kind == rules.DEPOSIT:
        events = wallet_selectors.deposits_since(user_id, since)
    else:
        events = wallet_selectors.stakes_since(user_id, since)
    breach = rules.check_amount(kind, limits, events, amount, now)
    if breach is None:
        return
    facts = {
        "amount": wallet_selectors.format_money(amount),
        "name": LIMIT_NAMES[(breach.kind, breach.period)],
        "limit": wallet_selectors.format_money(breach.limit),
        "used": wallet_selectors.format_money(breach.used),
    }
    if breach.resets_at is None:
        message = _("%(amount)s is more than your %(name)s of %(limit)s.") % facts
    elif kind == rules.DEPOSIT:
        message = _(
            "This deposit of %(amount)s would go over your %(name)s of %(limit)s: you have "
            "deposited %(used)s in that time. It becomes possible at %(when)s."
        ) % {**facts, "when": format_when(breach.resets_at)}
    else:
        message = _(
            "This stake of %(amount)s would go over your %(name)s of %(limit)s: you have "
            "staked %(used)s in that time. It becomes possible at %(when)s."
        ) % {**facts, "when": format_when(breach.resets_at)}
    raise Refused(f"{kind}_limit", message, breach.resets_at)


def check_deposit(*, user_id: int, amount: int, now: datetime) -> None:
    """Refused during a time-out or self-exclusion, or over a deposit limit."""
    _check_excluded(user_id, now)
    _check_limits(rules.DEPOSIT, user_id, amount, now)


def check_stake(*, user_id: int, amount: int, now: datetime) -> None:
    """Refused during a time-out or self-exclusion, or over a stake limit."""
    _check_excluded(user_id, now)
    _check_limits(rules.STAKE, user_id, amount, now)


def check_register(*, user_id: int, now: datetime) -> None:
    """Refused during a time-out or self-exclusion (free tournaments too)."""
    _check_excluded(user_id, now)


class ResponsiblePlayGate:
    """Responsible play's part of ``wallet.gates`` (``settings.TRIX_WALLET_GATES``): the
    checks above; withdrawals stay possible, so it has no ``check_withdraw``."""

    def check_deposit(self, *, user_id: int, amount: int, now: datetime) -> None:
        check_deposit(user_id=user_id, amount=amount, now=now)

    def check_stake(self, *, user_id: int, amount: int, now: datetime) -> None:
        check_stake(user_id=user_id, amount=amount, now=now)

    def check_register(self, *, user_id: int, now: datetime) -> None:
        check_register(user_id=user_id, now=now)
