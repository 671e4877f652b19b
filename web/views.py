"""The pages: the lobby and the table page, plus the table's payout as JSON for the page.

Thin: the tables' data and every action go through the tables API (``/api/tables/``);
these views render the shells, the table's options and the names the scripts need.
"""

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render

from games import selectors as tables
from games import services
from games.errors import NotFound
from games.services import lobby as lobby_services
from web.names import describe_options, js_names, option_specs, variant_name
from web.selectors import table_payout


def lobby(request):
    """The lobby's shell; its script pages through ``GET /api/tables/`` (``page_size``:
    ``TRIX_TABLES_PAGE_SIZE``, for its "Page 2 of 5")."""
    specs = option_specs()
    names = {**js_names(), "options": specs}
    context = {"names": names, "option_specs": specs, "page_size": settings.TRIX_TABLES_PAGE_SIZE}
    return render(request, "web/lobby.html", context)


def _table_or_404(pk: int):
    try:
        return tables.get_table(pk)
    except NotFound as exc:
        raise Http404(str(exc)) from None


def table(request, pk: int):
    """The table: anyone may watch; seated players see their hand (the API decides)."""
    row = _table_or_404(pk)
    if tables.seat_of(row, request.user) is not None:
        services.check_in(user=request.user, table_id=row.pk)
    context = {
        "table_id": row.pk,
        "table": row,
        "variant_text": variant_name(row.variant),
        "options_text": describe_options(row.options),
        "names": js_names(),
        "shuffle": tables.match_commitment(row.pk),
    }
    return render(request, "web/table.html", context)


def table_payout_json(request, pk: int):
    """The pot as the ledger settled it (public, like the match result)."""
    _table_or_404(pk)
    return JsonResponse(table_payout(pk))


def invite(request, token: str):
    """An invite link (``/invite/<token>/``): the table page at its first free seat (the page
    shows the commitment and makes the client seed before Sit, as from the lobby); the table
    page alone once no seat is free. 404 for an unknown token."""
    try:
        table, seat = lobby_services.table_for_invite(token)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    url = f"/tables/{table.pk}/"
    return redirect(url + (f"#seat-{seat}" if seat is not None else ""))
