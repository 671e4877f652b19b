"""Account pages beyond allauth's: the profile (display name, the account's standing), a
player's page with the owner's match history, the owner's downloads (history CSV, all their
data as JSON), the identity check (:func:`verification`) and closing the account
(:func:`close`). Thin: reads from ``accounts.history`` and ``accounts.standing``, writes
through ``accounts.services`` and ``accounts.closure``."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import exports, history, kyc, standing
from accounts.closure import close_account, closure_blockers, closure_links
from accounts.forms import CloseAccountForm, HistoryFilterForm, ProfileForm
from accounts.selectors import display_name
from accounts.services import set_display_name, start_verification
from wallet.selectors import format_money
from web.links import link_paths
from web.names import variant_name

#: Matches per page of the history.
HISTORY_PAGE_SIZE = 20


@login_required
def profile(request):
    if request.method == "POST":
        form = ProfileForm(request.POST, user=request.user)
        if form.is_valid():
            set_display_name(request.user, form.cleaned_data["display_name"])
            messages.success(request, _("Display name saved."))
            return redirect("accounts:profile")
    else:
        form = ProfileForm(initial={"display_name": display_name(request.user)})
    context = {"form": form, "standing": standing.standing(request.user.pk)}
    return render(request, "accounts/profile.html", context)


def player(request, player_id: int):
    """``GET /players/<id>/``: the public part (display name, rating, matches played, member
    since) for everyone; for the owner also their history, filtered by the query string
    (:class:`accounts.forms.HistoryFilterForm`) and paginated (``page``). Bad filters: the
    page with the form's errors, 400."""
    try:
        summary = history.player_summary(player_id=player_id)
    except history.PlayerNotFound:
        raise Http404(_("No such player.")) from None
    from ratings.selectors import FAMILY_TITLES, ratings_of

    ratings = [
        (FAMILY_TITLES.get(family, family), rating)
        for family, rating in ratings_of(summary.id).items()
    ]
    context = {"summary": summary, "ratings": ratings, "is_owner": request.user.pk == summary.id}
    status = 200
    if context["is_owner"]:
        form = HistoryFilterForm.from_query(request.GET)
        context["form"] = form
        if form.is_valid():
            seats = history.match_history(user=request.user, filters=form.filters())
            page = Paginator(seats, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
            outcomes = dict(form.fields["result"].choices)
            rows = [
                {
                    "match": row,
                    "variant": variant_name(row.variant),
                    "outcome": outcomes.get(row.outcome, row.outcome),
                    "stake": format_money(row.stake) if row.stake else _("Free"),
                    "payout": format_money(row.payout),
                    "net": format_money(row.net),
                }
                for row in history.history_rows(seats=page.object_list)
            ]
            context.update(
                page=page,
                rows=rows,
                query=form.query(),
                filtered=any(form.cleaned_data.values()),
            )
        else:
            status = 400
    return render(request, "accounts/player.html", context, status=status)


@login_required
def my_page(request):
    """``GET /players/me/``: the signed-in player's own page."""
    response = redirect("players:player", player_id=request.user.pk)
    if request.GET:  # the history's filters and page go along
        response["Location"] += "?" + request.GET.urlencode()
    return response


def _attachment(response: HttpResponse, name: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
def history_csv(request):
    """``GET /players/me/history.csv``: the signed-in player's history with the page's
    filters, every match (:func:`accounts.exports.history_csv`). Bad filters: 400 with the
    errors as text. Only ever the requester's own history."""
    form = HistoryFilterForm.from_query(request.GET)
    if not form.is_valid():
        errors = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        return HttpResponseBadRequest(errors, content_type="text/plain; charset=utf-8")
    text = exports.history_csv(user=request.user, filters=form.filters())
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    return _attachment(response, f"trix-history-{timezone.now():%Y%m%d}.csv")


@login_required
def data_download(request):
    """``GET /players/me/data.json``: everything of the signed-in player's account that is
    theirs to take (:func:`accounts.exports.account_data`), as a JSON file. Only ever the
    requester's own."""
    data = exports.account_data(user=request.user)
    body = json.dumps(data, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    return _attachment(response, f"trix-account-data-{timezone.now():%Y%m%d}.json")


@login_required
def verification(request):
    """``GET /accounts/verification/``: the player's identity check (status, what it allows);
    ``POST`` starts it with the provider (``TRIX_KYC_PROVIDER``) and, for a hosted check,
    sends the player to the provider's page. The demo provider verifies at once; the page
    says it is a demo."""
    provider = kyc.get_provider()
    status = 200
    if request.method == "POST":
        try:
            record, url = start_verification(user=request.user, provider=provider)
        except kyc.KycError:
            messages.error(
                request, _("The verification service cannot be reached; try again later.")
            )
            status = 503
        else:
            if url:
                return redirect(url)
            if record.status == "verified":
                messages.success(request, _("Your identity is verified: you may stake."))
            return redirect("accounts:verification")
    context = {
        "standing": standing.standing(request.user.pk),
        "demo": provider.demo,
        "withdraw_above": format_money(settings.TRIX_KYC_WITHDRAW_ABOVE),
        "withdraw_days": settings.TRIX_KYC_WITHDRAW_DAYS,
    }
    return render(request, "accounts/verification.html", context, status=status)


@login_required
def close(request):
    """``GET /accounts/close/``: what closing means and what stands in the way;
    ``POST`` (the password and a confirmation box) closes the account and logs out."""
    if request.method == "POST":
        form = CloseAccountForm(request.POST)
        if form.is_valid():
            try:
                close_account(user=request.user, password=form.cleaned_data["password"])
            except ValidationError as exc:
                blocked = set(closure_blockers(request.user))
                for message in exc.messages:  # the blockers are listed above the form
                    if message not in blocked:
                        form.add_error(None, link_paths(message, closure_links(request.user)))
            else:
                logout(request)
                messages.success(request, _("Your account is closed. Thank you for playing."))
                return redirect("/")
        status = 400
    else:
        form, status = CloseAccountForm(), 200
    titles = closure_links(request.user)
    blockers = [link_paths(problem, titles) for problem in closure_blockers(request.user)]
    return render(
        request, "accounts/close.html", {"form": form, "blockers": blockers}, status=status
    )
