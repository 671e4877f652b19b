"""The wallet page: balance and history of the signed-in user. Thin: reads come from selectors."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render

from wallet import selectors

PAGE_SIZE = 25


@login_required
def wallet_page(request):
    """``GET /wallet/?page=N``: balance and entries, newest first, linked to tables/tournaments."""
    page = Paginator(selectors.wallet_history(request.user), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = [
        {
            "entry": entry,
            "amount": selectors.format_money(entry.amount),
            "balance_after": selectors.format_money(entry.balance_after),
            "link": selectors.reference_url(entry.transaction.reference),
        }
        for entry in page.object_list
    ]
    context = {
        "balance": selectors.format_money(selectors.wallet_balance(request.user)),
        "page": page,
        "rows": rows,
    }
    return render(request, "wallet/wallet.html", context)
