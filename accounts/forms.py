"""Account forms: the display name asked at sign-up and edited on the profile page."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.models import DISPLAY_NAME_MAX
from accounts.services import check_display_name_free, clean_display_name, set_display_name


class DisplayNameField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", DISPLAY_NAME_MAX)
        kwargs.setdefault("label", _("Display name"))
        kwargs.setdefault("help_text", _("Shown to the other players at a table."))
        super().__init__(**kwargs)
        self.widget.attrs.update({"dir": "auto", "autocomplete": "nickname"})

    def clean(self, value):
        value = super().clean(value)
        try:
            return clean_display_name(value)
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None


class SignupForm(forms.Form):
    """allauth's ``ACCOUNT_SIGNUP_FORM_CLASS``: adds the display name to sign-up."""

    display_name = DisplayNameField(
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Abu Fahd")})
    )

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        try:
            check_display_name_free(name)
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None
        return name

    def signup(self, request, user) -> None:
        set_display_name(user, self.cleaned_data["display_name"])


class ProfileForm(forms.Form):
    display_name = DisplayNameField()

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        try:
            check_display_name_free(name, self.user)
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None
        return name


class CloseAccountForm(forms.Form):
    """Closing the account: the password again, and a box saying the player means it."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label=_("I understand that I will no longer be able to log in."), required=True
    )
