"""An entrant's entry fee into the tournament's escrow and back, through ``wallet.services``
with idempotency keys named after the tournament and the entry's attempt
(``tournament:<id>:user:<user>:<what>:<attempt>``). Rules: ``docs/tournaments.md``."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.errors import Conflict, NotAllowed
from tournaments.models import Entry, Tournament
from wallet import gates
from wallet import services as wallet
from wallet.errors import InsufficientFunds, LedgerError, UnknownAccount
from wallet.selectors import format_money, wallet_balance


def _fee_key(t: Tournament, entry: Entry, what: str) -> str:
    return f"{t.ref}:user:{entry.user_id}:{what}:{entry.attempt}"


def _pay_fee(t: Tournament, entry: Entry) -> None:
    """Move the entry fee into the escrow (none for a free event). Raises :class:`Conflict`
    with what the player can do about a short wallet."""
    if t.entry_fee <= 0:
        return
    try:
        held = wallet_balance(entry.user_id)
    except (UnknownAccount, LookupError):
        held = 0
    if held < t.entry_fee:
        raise Conflict(
            _(
                "not enough funds: the entry fee of %(name)s is %(fee)s; your wallet holds "
                "%(held)s. Add money in /wallet/."
            )
            % {"name": t.name, "fee": format_money(t.entry_fee), "held": format_money(held)},
            "insufficient_funds",
        )
    try:
        wallet.pay_entry_fee(
            user=entry.user_id,
            tournament_ref=t.ref,
            amount=t.entry_fee,
            key=_fee_key(t, entry, "fee"),
        )
    except gates.Refused as exc:  # a stake limit, a time-out, a self-exclusion
        raise NotAllowed(str(exc), exc.code) from None
    except (InsufficientFunds, UnknownAccount):
        raise Conflict(
            _("not enough funds: the entry fee of %(name)s is %(fee)s")
            % {"name": t.name, "fee": format_money(t.entry_fee)},
            "insufficient_funds",
        ) from None
    except LedgerError as exc:
        raise Conflict(
            _("the entry fee could not be paid: %(reason)s") % {"reason": exc}, "ledger"
        ) from None
    entry.paid = t.entry_fee
    entry.refunded = 0


def _refund_fee(t: Tournament, entry: Entry, amount: int, what: str) -> None:
    """Give ``amount`` of the entry's fee back (nothing to do for 0)."""
    if amount <= 0:
        return
    wallet.refund_entry_fee(
        user=entry.user_id, tournament_ref=t.ref, key=_fee_key(t, entry, what), amount=amount
    )
    entry.refunded += amount
