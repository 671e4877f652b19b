"""The limits page's forms. Amounts are typed in currency units (``wallet.forms.parse_amount``:
Arabic digits too) and cleaned to minor units."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from responsible import rules
from responsible.models import LimitKind, Period
from wallet.forms import AMOUNT_MAX_LENGTH, parse_amount

#: The time-outs the page offers (days; the API takes any number from 1 to 42).
TIME_OUT_CHOICES = [
    (1, _("24 hours")),
    (3, _("3 days")),
    (7, _("1 week")),
    (14, _("2 weeks")),
    (28, _("4 weeks")),
    (42, _("6 weeks")),
]
PERMANENT = "permanent"
SELF_EXCLUSION_CHOICES = [
    ("6", _("6 months")),
    ("12", _("1 year")),
    ("24", _("2 years")),
    ("60", _("5 years")),
    (PERMANENT, _("Permanently")),
]


class LimitForm(forms.Form):
    """A limit: ``kind``, ``period``, ``amount`` (minor units; blank: no limit)."""

    kind = forms.ChoiceField(label=_("Limit on"), choices=LimitKind.choices)
    period = forms.ChoiceField(label=_("Per"), choices=Period.choices)
    amount = forms.CharField(
        label=_("Amount"),
        required=False,
        max_length=AMOUNT_MAX_LENGTH,
        help_text=_("Leave empty to remove the limit (in 24 hours)."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "dir": "ltr"}),
    )

    def clean_amount(self) -> int | None:
        text = self.cleaned_data["amount"].strip()
        return parse_amount(text) if text else None


class TimeOutForm(forms.Form):
    days = forms.TypedChoiceField(label=_("Take a break for"), choices=TIME_OUT_CHOICES, coerce=int)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


class SelfExclusionForm(forms.Form):
    months = forms.ChoiceField(label=_("Exclude myself for"), choices=SELF_EXCLUSION_CHOICES)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean_months(self) -> int | None:
        value = self.cleaned_data["months"]
        return None if value == PERMANENT else int(value)


class RealityCheckForm(forms.Form):
    minutes = forms.TypedChoiceField(
        label=_("Remind me of my time and result every"), choices=[], coerce=int
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["minutes"].choices = [
            (m, gettext("%(minutes)s minutes") % {"minutes": m})
            for m in rules.REALITY_CHECK_MINUTES
        ]
