"""The pages: the lobby and the table page, plus the table's payout as JSON for the page.

Thin: the tables' data and every action go through the tables API (``/api/tables/``);
these views render the shells and the names the scripts need.
"""

from django.http import JsonResponse
from django.shortcuts import render

from web.names import js_names, option_specs
from web.selectors import table_payout


def lobby(request):
    specs = option_specs()
    names = {**js_names(), "options": specs}
    return render(request, "web/lobby.html", {"names": names, "option_specs": specs})


def table(request, pk: int):
    return render(request, "web/table.html", {"table_id": pk, "names": js_names()})


def table_payout_json(request, pk: int):
    """The pot as the ledger settled it (public, like the match result)."""
    return JsonResponse(table_payout(pk))
