"""Account pages beyond allauth's: the profile (display name)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.forms import ProfileForm
from accounts.selectors import display_name
from accounts.services import set_display_name


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
    return render(request, "accounts/profile.html", {"form": form})
