"""Public verification pages (no login): a deal's and a match's shuffle checks (issue 3)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from games import display, selectors
from games.errors import NotFound


def verify_deal(request, deal_id: int):
    try:
        check = selectors.deal_verification(deal_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    context = {
        "check": check,
        "hands": display.seat_hands(check.get("hands")),
        "seeds": display.seat_seeds(check.get("client_seeds")),
    }
    return render(request, "games/verify_deal.html", context)


def verify_match(request, table_id: int):
    try:
        check = selectors.match_verification(table_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    return render(request, "games/verify_match.html", {"check": check})
