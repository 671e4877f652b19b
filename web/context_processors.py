"""What every page's header shows: the player's display name, wallet link and balance (and,
for a template that shows it, ``in_play_text``: what the player's stakes hold in escrows still
open, which is not in the balance)."""

from __future__ import annotations

from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.functional import SimpleLazyObject

from accounts.selectors import display_name
from web import money


def _wallet_url() -> str | None:
    try:
        return reverse("wallet:page")
    except NoReverseMatch:
        return None


def _in_play_text(user) -> str:
    """``"5.00 USD"`` held in escrows still open, or ``""`` when nothing is."""
    held = money.in_play_of(user)
    return money.format_money(held) if held else ""


def site(request):
    def build():
        user = getattr(request, "user", None)
        data = {
            "wallet_url": _wallet_url(),
            "balance": None,
            "balance_text": "",
            "currency": settings.TRIX_CURRENCY,
            "currency_decimals": settings.TRIX_CURRENCY_DECIMALS,
        }
        if user is not None and user.is_authenticated:
            data["display_name"] = display_name(user)
            data["balance"] = money.balance_of(user)
            if data["balance"] is not None:
                data["balance_text"] = money.format_money(data["balance"])
            # Read only by a template that shows it (a callable: one query, when used):
            # "in play" beside the balance, the stakes held in escrows still open.
            data["in_play_text"] = lambda: _in_play_text(user)
        return data

    return {"trix": SimpleLazyObject(build)}
