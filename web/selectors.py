"""Reads the pages need beyond the tables API: a table's settlement as paid by the ledger, a
new player's first steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from accounts.history import match_history
from accounts.models import VerificationStatus
from accounts.selectors import display_names
from accounts.standing import verification_status
from wallet.models import HOUSE, AccountKind, Entry, TransactionKind
from wallet.selectors import in_play, net_outcome, table_nets, wallet_balance


def table_payout(table_id: int) -> dict[str, Any]:
    """What the ledger paid out of table ``table_id``'s escrow.

    Shape: ``{"settled": bool, "pot": int, "house_fee": int, "payouts": [{"user_id", "name",
    "amount"}], "nets": [{"user_id", "name", "net", "outcome"}]}``, amounts in integer minor
    units, best paid first; ``settled`` is False (and ``payouts`` and ``nets`` empty) until
    the settlement transaction exists. ``nets`` has every player the table moved money of
    (a staker paid nothing too): ``net`` is ``wallet.selectors.table_nets``'s (what came
    back minus what was staked), ``outcome`` its ``wallet.selectors.net_outcome`` label
    (``won`` / ``lost`` / ``refunded``), best first.
    """
    entries = list(
        Entry.objects.filter(
            transaction__kind=TransactionKind.SETTLEMENT,
            transaction__reference=f"table:{table_id}",
        ).select_related("account")
    )
    wallets = [e for e in entries if e.account.kind == AccountKind.WALLET]
    names = display_names([e.account.owner_id for e in wallets])
    payouts = [
        {"user_id": e.account.owner_id, "name": names.get(e.account.owner_id), "amount": e.amount}
        for e in wallets
    ]
    payouts.sort(key=lambda p: (-p["amount"], p["user_id"]))
    nets = table_nets(table_id) if entries else {}
    names.update(display_names([u for u in nets if u not in names]))
    net_rows = [
        {"user_id": user, "name": names.get(user), "net": net, "outcome": net_outcome(net)}
        for user, net in sorted(nets.items(), key=lambda item: (-item[1], item[0]))
    ]
    return {
        "settled": bool(entries),
        "pot": -sum(e.amount for e in entries if e.account.kind == AccountKind.ESCROW),
        "house_fee": sum(e.amount for e in entries if e.account.reference == HOUSE),
        "payouts": payouts,
        "nets": net_rows,
    }


@dataclass(frozen=True)
class FirstSteps:
    """A new player's way to a staked table, in order: ``verified`` (the identity check
    passed: ``accounts.standing``), ``funded`` (money in the wallet or in play), and the
    links of each step; the lobby shows them until the player first holds a seat."""

    verified: bool
    funded: bool
    verify_url: str
    deposit_url: str


def first_steps(user: Any) -> FirstSteps | None:
    """The steps of ``user`` (a signed-in user) before a first staked match, or None once they
    hold a seat at any table (``accounts.history.match_history``: a match they sat in)."""
    if match_history(user=user).exists():
        return None
    return FirstSteps(
        verified=verification_status(user.pk) == VerificationStatus.VERIFIED,
        funded=wallet_balance(user) > 0 or in_play(user) > 0,
        verify_url=reverse("accounts:verification"),
        deposit_url=reverse("wallet:page"),
    )
