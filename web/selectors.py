"""Reads the pages need beyond the tables API: a table's settlement as paid by the ledger."""

from __future__ import annotations

from typing import Any

from accounts.selectors import display_names
from wallet.models import HOUSE, AccountKind, Entry, TransactionKind
from wallet.selectors import net_outcome, table_nets


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
