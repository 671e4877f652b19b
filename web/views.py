"""The pages: the lobby, the table page and the rules and help page, plus the table's payout
as JSON for the page.

Thin: the tables' data and every action go through the tables API (``/api/tables/``);
these views render the shells, the table's options and the names the scripts need.
"""

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language

from games import fairness_selectors, services
from games import selectors as tables
from games.errors import NotFound
from tournaments.selectors import event_of_table
from web.money import format_money
from web.names import describe_options, js_names, option_specs, variant_name
from web.selectors import first_steps, table_payout


def lobby(request):
    """The lobby's shell; its script pages through ``GET /api/tables/`` (``page_size``:
    ``TRIX_TABLES_PAGE_SIZE``, for its "Page 2 of 5") and refuses a stake above ``max_stake``
    (``TRIX_MAX_STAKE``, minor units) naming that cap."""
    specs = option_specs()
    names = {**js_names(), "options": specs}
    context = {
        "names": names,
        "option_specs": specs,
        "page_size": settings.TRIX_TABLES_PAGE_SIZE,
        "max_stake": settings.TRIX_MAX_STAKE,
    }
    if request.user.is_authenticated:
        context["first_steps"] = first_steps(request.user)
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
        "shuffle": fairness_selectors.match_commitment(row.pk),
        "cancel_reason": tables.cancel_reason(row),
        "event": event_of_table(row.pk),  # None but at a tournament's table
    }
    return render(request, "web/table.html", context)


def table_payout_json(request, pk: int):
    """The pot as the ledger settled it (public, like the match result)."""
    _table_or_404(pk)
    return JsonResponse(table_payout(pk))


#: The rules page's text, one template per language (long prose: a template per language
#: rather than hundreds of msgids); other languages get the English one.
RULES_TEMPLATES = {"en": "web/rules_en.html", "ar": "web/rules_ar.html"}


def rules(request):
    """``/rules/``: the rules we play (``docs/rules.md`` and its clarifications), every
    table option, stakes and pots, checking a shuffle, tournaments; in the request's language
    (``LocaleMiddleware``: the browser's or the chosen one)."""
    language = (get_language() or "en").split("-")[0]
    context = {
        "option_specs": option_specs(),
        "max_timer": settings.TRIX_MAX_TIMER,
        "max_stake_text": format_money(settings.TRIX_MAX_STAKE),
        "currency": settings.TRIX_CURRENCY,
        "open_table_minutes": round(settings.TRIX_OPEN_TABLE_EXPIRY / 60),
    }
    return render(request, RULES_TEMPLATES.get(language, RULES_TEMPLATES["en"]), context)


def invite(request, token: str):
    """An invite link (``/invite/<token>/``): the table page at the seat held for the visitor
    (a rematch) or its first free seat (the page shows the commitment and makes the client
    seed before Sit, as from the lobby); the table page alone once no seat is free. 404 for
    an unknown token."""
    try:
        table, seat = tables.table_for_invite(token, request.user)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    url = f"/tables/{table.pk}/"
    return redirect(url + (f"#seat-{seat}" if seat is not None else ""))
