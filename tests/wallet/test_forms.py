"""Amounts typed on the wallet page (``wallet.forms.parse_amount``)."""

import pytest
from django import forms

from wallet.forms import parse_amount


@pytest.mark.parametrize(
    "text, minor",
    [
        ("20", 2000),
        ("20.5", 2050),
        ("0.01", 1),
        ("1000", 100000),
        ("20.", 2000),
        ("0.100", 10),  # trailing zeros are no more decimals
        # Arabic-Indic and Extended Arabic-Indic digits, the Arabic decimal separator
        ("٢٠", 2000),
        ("٢٠٫٥", 2050),
        ("٠٫٠١", 1),
        ("۲۰٫۵۰", 2050),
        ("20٫5", 2050),
    ],
)
def test_amounts(text, minor):
    assert parse_amount(text) == minor


@pytest.mark.parametrize("text", ["20,5", "20,50", "0,5", "٢٠,٥", "20،5", "1,5"])
def test_a_comma_as_decimal_separator_is_refused_saying_to_use_a_point(text):
    """Found by a fresh reviewer: ``20,5`` was silently taken as 20.50. A comma is a
    thousands separator to some and a decimal one to others (and ``1,000`` was once
    deposited as 1.00): it is refused, saying which separator to use."""
    with pytest.raises(forms.ValidationError, match="point"):
        parse_amount(text)


@pytest.mark.parametrize("text", ["0.001", "0.005", "1.9999", "٠٫٠٠١", "0.0001"])
def test_too_many_decimals_says_so(text):
    """Found by a fresh reviewer: ``0.001`` was told to drop a thousands separator."""
    with pytest.raises(
        forms.ValidationError, match=r"Too many decimal places \(at most 2\)"
    ) as err:
        parse_amount(text)
    assert "thousands" not in str(err.value)


@pytest.mark.parametrize("text", ["99999999999999999999", "9" * 40, "٩" * 30, "100000000000000.5"])
def test_a_huge_amount_gets_the_upper_bound_message(text):
    """Found by a fresh reviewer: twenty nines got the generic format message."""
    with pytest.raises(forms.ValidationError, match="at most 10,000,000,000.00 USD"):
        parse_amount(text)


@pytest.mark.parametrize("text", ["abc", "1e5", "²", "２０", "1 000", ".5", "0x10"])
def test_anything_else_gets_the_format_message(text):
    with pytest.raises(forms.ValidationError, match="like 20 or 20.50"):
        parse_amount(text)


def test_the_form_says_so_for_a_long_amount():
    """The field's own length limit would otherwise answer first, in Django's words."""
    from wallet.forms import MoneyForm

    form = MoneyForm({"amount": "9" * 40, "key": "0" * 32})
    assert not form.is_valid()
    assert "at most 10,000,000,000.00 USD" in form.errors["amount"][0]


@pytest.mark.parametrize("text", ["1,000", "1,234", "12,500", "1.000", "1,000,000", "1.500"])
def test_a_thousands_separator_is_refused_not_read_as_decimals(text):
    # Found by a new user: "1,000" was deposited as 1.00.
    with pytest.raises(forms.ValidationError, match="thousands separator"):
        parse_amount(text)


def test_an_amount_above_the_ledgers_bound_is_refused_with_a_message():
    """Twelve digits of currency units reach 10**14 minor units, above ``MAX_AMOUNT``."""
    from wallet.inputs import MAX_AMOUNT

    assert parse_amount("10000000000") == MAX_AMOUNT  # 10,000,000,000.00 with 2 decimals
    with pytest.raises(forms.ValidationError, match="at most 10,000,000,000.00 USD"):
        parse_amount("10000000000.01")
    with pytest.raises(forms.ValidationError, match="at most"):
        parse_amount("999999999999.99")
