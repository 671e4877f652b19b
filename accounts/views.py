"""Account pages beyond allauth's: the profile (display name, the account's standing), the
identity check (:func:`verification`) and closing the account (:func:`close`). Thin: reads
from ``accounts.standing``, writes through ``accounts.services`` and ``accounts.closure``."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts import kyc, standing
from accounts.closure import close_account, closure_blockers
from accounts.forms import CloseAccountForm, ProfileForm
from accounts.selectors import display_name
from accounts.services import set_display_name, start_verification
from wallet.selectors import format_money
from web.links import link_paths


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
                for message in exc.messages:
                    form.add_error(None, link_paths(message))
            else:
                logout(request)
                messages.success(request, _("Your account is closed. Thank you for playing."))
                return redirect("/")
        status = 400
    else:
        form, status = CloseAccountForm(), 200
    blockers = [link_paths(problem) for problem in closure_blockers(request.user)]
    return render(
        request, "accounts/close.html", {"form": form, "blockers": blockers}, status=status
    )
