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

#: Arabic-Indic (U+0660..) and Extended Arabic-Indic (U+06F0.., Persian and Urdu) digits
#: and the Arabic decimal separator (U+066B) read as ASCII digits and a point.
_ARABIC = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫", "01234567890123456789.")
#: A comma, the Arabic comma (U+060C) and the Arabic thousands separator (U+066C).
_COMMAS = ",،٬"
_AMOUNT = re.compile(r"([0-9]+)(?:\.([0-9]*))?", re.ASCII)
#: Digits grouped by threes, as with a thousands separator: "1,000", "12.500", "1٬000".
_GROUPED = re.compile(r"[1-9][0-9]{0,2}(?:([.,،٬])[0-9]{3})(?:\1[0-9]{3})*", re.ASCII)
_KEY = re.compile(r"[0-9a-f]{32}")
#: The longest amount the form takes, in characters (longer ones are refused by length).
AMOUNT_MAX_LENGTH = 64


#: What each refusal of :func:`parse_amount` is, as ``ValidationError.code`` (the page's
#: reader, ``web/static/web/amount.js``, answers the same codes).
AMOUNT_ERRORS = (
    "empty",
    "negative",
    "zero",
    "thousands",
    "comma",
    "decimals",
    "too_large",
    "invalid",
)


def ascii_digits(text: str) -> str:
    """``text`` with its Arabic-Indic and Extended Arabic-Indic digits and the Arabic decimal
    separator (``٫``) as ASCII digits and a point: what :func:`parse_amount` reads first, for
    any number typed on an Arabic keyboard (a tournament's percentages too)."""
    return text.translate(_ARABIC)


def parse_amount(text: str, *, allow_zero: bool = False) -> int:
    """An amount typed by a player -> minor units: ``"20"`` / ``"20.5"`` / ``"٢٠٫٥"`` -> 2000 /
    2050 / 2050 with 2 decimals (``settings.TRIX_CURRENCY_DECIMALS``); ``0`` only with
    ``allow_zero`` (a free table, a free tournament). The site's one rule for typed money
    (``docs/i18n.md``, "Typed amounts"), the same as the pages' (``web/static/web/amount.js``,
    both tested against ``tests/wallet/amount_vectors.json``): the decimal separator is a point
    (``.``) or the Arabic decimal separator (``٫``); the digits ASCII, Arabic-Indic (``٢٠٫٥``)
    or Extended Arabic-Indic (``۲۰٫۵``). A comma is refused, saying to use a point: it is a
    decimal separator to some and a thousands separator to others (``1,000`` read as 1.00),
    and a misread amount costs money where a refused one costs a retype.

    Raises ``forms.ValidationError`` whose ``code`` is one of :data:`AMOUNT_ERRORS`, with a
    message saying what is wrong: a blank, negative or zero amount, a thousands separator, a
    comma for decimals, more decimals than the currency, above ``wallet.inputs.MAX_AMOUNT``,
    or any other text."""
    decimals = settings.TRIX_CURRENCY_DECIMALS
    text = ascii_digits((text or "").strip())
    if not text:
        raise forms.ValidationError(_("Enter an amount."), code="empty")
    if text.startswith("-"):
        raise forms.ValidationError(_("The amount cannot be negative."), code="negative")
    grouped = _GROUPED.fullmatch(text)
    if grouped and (grouped.group(1) != "." or decimals < 3):
        # "1,000" or "1.000" is a thousands separator to most people, not 1.00.
        raise forms.ValidationError(
            _("Write the amount without a thousands separator, like 1000 or 1000.50."),
            code="thousands",
        )
    if any(c in text for c in _COMMAS):
        if _AMOUNT.fullmatch(text.translate(str.maketrans(_COMMAS, "..."))):
            raise forms.ValidationError(
                _("Use a point for decimals, like 20.50 (not a comma: 20,50)."), code="comma"
            )
    match = _AMOUNT.fullmatch(text)
    if not match:
        raise forms.ValidationError(
            _("Enter an amount in %(currency)s, like 20 or 20.50.")
            % {"currency": settings.TRIX_CURRENCY},
            code="invalid",
        )
    whole, frac = match.group(1).lstrip("0"), (match.group(2) or "").rstrip("0")
    if len(frac) > decimals:
        raise forms.ValidationError(too_many_decimals(decimals), code="decimals")
    too_much = _("The amount must be at most %(amount)s.") % {"amount": format_money(MAX_AMOUNT)}
    if len(whole) + decimals > len(str(MAX_AMOUNT)):
        raise forms.ValidationError(too_much, code="too_large")
    amount = int(whole or "0") * 10**decimals + (int(frac.ljust(decimals, "0")) if frac else 0)
    if amount > MAX_AMOUNT:
        raise forms.ValidationError(too_much, code="too_large")
    if amount == 0 and not allow_zero:
        raise forms.ValidationError(_("The amount must be more than zero."), code="zero")
    return amount


def too_many_decimals(decimals: int) -> str:
    """The refusal of an amount with more than ``decimals`` decimal places, in the active
    language: "Too many decimal places (at most 2)."."""
    return ngettext(
        "Too many decimal places (at most %(decimals)d).",
        "Too many decimal places (at most %(decimals)d).",
        decimals,
    ) % {"decimals": decimals}


def new_key() -> str:
    """A fresh idempotency key for one rendering of a form (32 hex digits)."""
    return uuid.uuid4().hex


class MoneyForm(forms.Form):
    """``amount`` (text in currency units -> ``cleaned_data["amount"]`` in minor units) and
    ``key``, the idempotency key the page rendered into the form: submitting the same form
    twice (a double click, a resent POST) moves the money once."""

    amount = forms.CharField(
        max_length=AMOUNT_MAX_LENGTH,
        error_messages={"required": gettext_lazy("Enter an amount.")},
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "dir": "ltr"}),
    )
    key = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args, too_large: str | None = None, **kwargs):
        """``too_large``: the refusal of an amount above ``wallet.inputs.MAX_AMOUNT`` where a
        lower cap applies (the demo provider's limit), so the message names that cap."""
        super().__init__(*args, **kwargs)
        self.too_large = too_large

    def clean_amount(self) -> int:
        try:
            return parse_amount(self.cleaned_data["amount"])
        except forms.ValidationError as refused:
            if refused.code == "too_large" and self.too_large:
                raise forms.ValidationError(self.too_large, code="too_large") from None
            raise

    def clean_key(self) -> str:
        key = self.cleaned_data["key"]
        if not _KEY.fullmatch(key):
            raise forms.ValidationError(_("This form is out of date: reload the page."))
        return key
