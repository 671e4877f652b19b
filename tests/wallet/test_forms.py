"""Amounts typed on the wallet page (``wallet.forms.parse_amount``)."""

import pytest
from django import forms

from wallet.forms import parse_amount


@pytest.mark.parametrize(
    "text, minor", [("20", 2000), ("20.5", 2050), ("20,50", 2050), ("0.01", 1), ("1000", 100000)]
)
def test_amounts(text, minor):
    assert parse_amount(text) == minor


@pytest.mark.parametrize("text", ["1,000", "1,234", "12,500", "1.000"])
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
