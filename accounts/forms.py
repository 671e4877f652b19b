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


#: The first year the history's date menus offer (the site's first matches).
FIRST_HISTORY_YEAR = 2025


class HistoryFilterForm(forms.Form):
    """The filters of a player's match history (the page, its CSV and ``/api/me/matches/``),
    read from the query string; every field may be left out. A bad value is a form error
    (the page answers 400 with it, the API 400 ``invalid``), never a 500."""

    variant = forms.ChoiceField(required=False, label=_("Variant"))
    stakes = forms.ChoiceField(
        required=False,
        label=_("Stakes"),
        choices=[("", _("Any")), ("staked", _("Staked")), ("free", _("Free"))],
    )
    since = forms.DateField(required=False, label=_("From"))
    until = forms.DateField(required=False, label=_("To"))
    result = forms.ChoiceField(
        required=False,
        label=_("Result"),
        choices=[
            ("", _("Any")),
            ("won", _("Won")),
            ("lost", _("Lost")),
            ("refunded", _("Stake back")),
            ("drawn", _("Drawn")),
            ("tournament", _("Tournament table")),
            ("in_progress", _("In progress")),
            ("cancelled", _("Cancelled")),
        ],
    )

    #: The query string's keys that are filters ("page" and anything else are not).
    KEYS = ("variant", "stakes", "since", "until", "result")

    #: The page's date pickers send a date as three keys (``since_year``, ``since_month``,
    #: ``since_day``: ``SelectDateWidget``); the CSV, the API and the pager send ``since``.
    DATE_PARTS = ("year", "month", "day")

    @classmethod
    def from_query(cls, query) -> "HistoryFilterForm":
        """The form bound to a request's query string (``request.GET``), its filters only."""
        keys = [*cls.KEYS]
        keys += [f"{name}_{part}" for name in ("since", "until") for part in cls.DATE_PARTS]
        return cls({key: query[key] for key in keys if key in query})

    def __init__(self, *args, **kwargs):
        from django.utils import timezone

        from games.engine.options import VARIANTS
        from web.names import variant_name

        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [("", _("Any"))] + [
            (code, variant_name(code)) for code in VARIANTS
        ]
        # Day, month (named in the page's language) and year menus, not the browser's date
        # input, which writes dates in the browser's language whatever the page's is.
        years = range(timezone.localdate().year, FIRST_HISTORY_YEAR - 1, -1)
        empty = (_("Year"), _("Month"), _("Day"))
        for name in ("since", "until"):
            self.fields[name].widget = forms.SelectDateWidget(years=years, empty_label=empty)

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError(_("The start date is after the end date."))
        return data

    def filters(self):
        """The valid form's :class:`accounts.history.HistoryFilters`."""
        from accounts.history import HistoryFilters

        data = self.cleaned_data
        return HistoryFilters(
            variant=data.get("variant") or None,
            stakes=data.get("stakes") or None,
            since=data.get("since"),
            until=data.get("until"),
            result=data.get("result") or None,
        )

    def query(self) -> str:
        """The valid form's filters as a query string (for the pager and the CSV link)."""
        from urllib.parse import urlencode

        pairs = [(key, self.cleaned_data.get(key)) for key in self.KEYS]
        return urlencode([(key, str(value)) for key, value in pairs if value])  # dates: ISO


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
