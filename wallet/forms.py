"""The wallet page's forms: an amount typed in currency units, and the form's idempotency key."""

from __future__ import annotations

import re
import uuid

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from wallet.inputs import MAX_AMOUNT
from wallet.selectors import format_money

_AMOUNT = re.compile(r"(\d{1,12})(?:[.,](\d*))?")
_KEY = re.compile(r"[0-9a-f]{32}")


def parse_amount(text: str) -> int:
    """``"20"`` / ``"20.5"`` / ``"20,50"`` -> minor units (2000 / 2050 / 2050 with 2 decimals,
    ``settings.TRIX_CURRENCY_DECIMALS``). Raises ``forms.ValidationError`` with a message for a
    blank, negative, zero or malformed amount, one above ``wallet.inputs.MAX_AMOUNT`` or one
    with more decimals than the currency."""
    decimals = settings.TRIX_CURRENCY_DECIMALS
    text = (text or "").strip()
    if not text:
        raise forms.ValidationError(_("Enter an amount."))
    if text.startswith("-"):
        raise forms.ValidationError(_("The amount must be positive."))
    match = _AMOUNT.fullmatch(text)
    if not match:
        raise forms.ValidationError(
            _("Enter an amount in %(currency)s, like 20 or 20.50.")
            % {"currency": settings.TRIX_CURRENCY}
        )
    if match.group(2) is not None and len(match.group(2)) == 3 and decimals < 3:
        # "1,000" or "1.000" is a thousands separator to most people, not 1.00.
        raise forms.ValidationError(
            _("Write the amount without a thousands separator, like 1000 or 1000.50.")
        )
    whole, frac = match.group(1), (match.group(2) or "").rstrip("0")
    if len(frac) > decimals:
        raise forms.ValidationError(
            ngettext(
                "%(currency)s amounts have at most %(decimals)d decimal.",
                "%(currency)s amounts have at most %(decimals)d decimals.",
                decimals,
            )
            % {"currency": settings.TRIX_CURRENCY, "decimals": decimals}
        )
    amount = int(whole) * 10**decimals + (int(frac.ljust(decimals, "0")) if frac else 0)
    if amount <= 0:
        raise forms.ValidationError(_("The amount must be more than zero."))
    if amount > MAX_AMOUNT:
        raise forms.ValidationError(
            _("The amount must be at most %(amount)s.") % {"amount": format_money(MAX_AMOUNT)}
        )
    return amount


def new_key() -> str:
    """A fresh idempotency key for one rendering of a form (32 hex digits)."""
    return uuid.uuid4().hex


class MoneyForm(forms.Form):
    """``amount`` (text in currency units -> ``cleaned_data["amount"]`` in minor units) and
    ``key``, the idempotency key the page rendered into the form: submitting the same form
    twice (a double click, a resent POST) moves the money once."""

    amount = forms.CharField(
        max_length=20,
        error_messages={"required": gettext_lazy("Enter an amount.")},
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "dir": "ltr"}),
    )
    key = forms.CharField(widget=forms.HiddenInput)

    def clean_amount(self) -> int:
        return parse_amount(self.cleaned_data["amount"])

    def clean_key(self) -> str:
        key = self.cleaned_data["key"]
        if not _KEY.fullmatch(key):
            raise forms.ValidationError(_("This form is out of date: reload the page."))
        return key
