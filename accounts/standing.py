"""An account's standing: is its identity verified (``accounts.kyc``), is it suspended by
staff, is it closed. Reads, and the account's checks that ``wallet.gates`` asks before money
moves (:class:`AccountGate`, named in ``settings.TRIX_WALLET_GATES``; each raises
``wallet.errors.Refused`` with the player's message and changes nothing):

- staking (a seat's stake at a table, a tournament's entry fee) needs a verified identity and
  an account not suspended: :func:`check_stake`;
- withdrawing more than ``settings.TRIX_KYC_WITHDRAW_ABOVE`` minor units in all within
  ``settings.TRIX_KYC_WITHDRAW_DAYS`` days (a rolling window over the ledger's withdrawals)
  needs a verified identity (smaller withdrawals stay possible, suspended or not):
  :func:`check_withdraw`;
- registering for a tournament (free or paid) needs an account not suspended:
  :func:`check_register`.

Free tables ask none of these.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.models import Suspension, Verification, VerificationStatus
from wallet.errors import Refused
from wallet.selectors import format_money, withdrawn_since


@dataclass(frozen=True)
class Standing:
    """What a player's pages show of their account: ``verification`` (a
    :class:`VerificationStatus` value), ``suspension`` (the one in force, or None)."""

    verification: str
    suspension: Suspension | None

    @property
    def verified(self) -> bool:
        return self.verification == VerificationStatus.VERIFIED


def verification_status(user_id: int) -> str:
    """The user's :class:`VerificationStatus` value (``unverified`` without a check)."""
    status = Verification.objects.filter(user_id=user_id).values_list("status", flat=True)
    return status.first() or VerificationStatus.UNVERIFIED


def suspension_in_force(user_id: int) -> Suspension | None:
    """The user's suspension that has not been lifted, or None."""
    return Suspension.objects.filter(user_id=user_id, lifted_at__isnull=True).first()


def standing(user_id: int) -> Standing:
    """The user's :class:`Standing` (two queries)."""
    return Standing(verification_status(user_id), suspension_in_force(user_id))


def _refuse_suspended(user_id: int) -> None:
    if suspension_in_force(user_id) is not None:
        raise Refused(
            "suspended",
            _(
                "Your account is suspended: it cannot stake or enter tournaments. Withdrawals "
                "stay possible; write to support to know more."
            ),
        )


def check_stake(*, user_id: int) -> None:
    """Refuse a stake or entry fee of a suspended or unverified account (codes
    ``suspended``, ``kyc_required``)."""
    _refuse_suspended(user_id)
    if verification_status(user_id) != VerificationStatus.VERIFIED:
        raise Refused(
            "kyc_required",
            _(
                "Verify your identity on /accounts/verification/ before you stake (free "
                "tables need no verification)."
            ),
        )


def check_withdraw(*, user_id: int, amount: int, now: datetime) -> None:
    """Refuse an unverified account's withdrawal of ``amount`` minor units that would take
    what it withdrew within the last ``TRIX_KYC_WITHDRAW_DAYS`` days (up to ``now``, reversed
    withdrawals not counted) above ``TRIX_KYC_WITHDRAW_ABOVE`` (code ``kyc_required``).

    The rule: the anti-money-laundering threshold applies to one transaction or to several
    that appear linked (EU Directive 2015/849, art. 11(d)), so a large sum split into
    withdrawals each under the threshold is counted as one; the window makes "linked"
    something the ledger can check."""
    above = settings.TRIX_KYC_WITHDRAW_ABOVE
    if amount <= above:
        since = now - timedelta(days=settings.TRIX_KYC_WITHDRAW_DAYS)
        if amount + withdrawn_since(user_id, since) <= above:
            return
    if verification_status(user_id) != VerificationStatus.VERIFIED:
        raise Refused(
            "kyc_required",
            _(
                "Verify your identity on /accounts/verification/ to withdraw more than "
                "%(amount)s within %(days)s days."
            )
            % {"amount": format_money(above), "days": settings.TRIX_KYC_WITHDRAW_DAYS},
        )


def check_register(*, user_id: int) -> None:
    """Refuse a suspended account's tournament registration (code ``suspended``)."""
    _refuse_suspended(user_id)


class AccountGate:
    """The account's part of ``wallet.gates`` (``settings.TRIX_WALLET_GATES``): the checks
    above, asked before a stake, a withdrawal and a tournament registration."""

    def check_stake(self, *, user_id: int, amount: int, now: datetime) -> None:
        check_stake(user_id=user_id)

    def check_withdraw(self, *, user_id: int, amount: int, now: datetime) -> None:
        check_withdraw(user_id=user_id, amount=amount, now=now)

    def check_register(self, *, user_id: int, now: datetime) -> None:
        check_register(user_id=user_id)
