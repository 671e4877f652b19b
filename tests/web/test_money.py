"""The same amount prints the same on every page and in the scripts (issue 10): the pages'
``Trix.formatMoney`` writes exactly what ``wallet.selectors.format_money`` writes, with the
currency and decimals the server gives it."""

from __future__ import annotations

import pytest

from wallet.selectors import format_money

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AMOUNTS = [0, 1, 5, 99, 100, 12345, -12345, 100000, 123456789, -1, 1000000000]


@pytest.mark.parametrize(("currency", "decimals"), [("USD", 2), ("JPY", 0), ("KWD", 3)])
def test_the_scripts_format_money_as_the_server_does(settings, new_page, currency, decimals):
    settings.TRIX_CURRENCY = currency
    settings.TRIX_CURRENCY_DECIMALS = decimals
    page = new_page()
    page.goto("/")
    written = page.evaluate("(amounts) => amounts.map((a) => Trix.formatMoney(a))", AMOUNTS)
    assert written == [format_money(a) for a in AMOUNTS]
    # And typed amounts read back to the same minor units.
    typed = [format_money(a).split(" ")[0].replace(",", "") for a in AMOUNTS if a >= 0]
    read = page.evaluate("(texts) => texts.map((t) => Trix.parseMoney(t))", typed)
    assert read == [a for a in AMOUNTS if a >= 0]


def test_the_scripts_take_the_card_ranks_from_the_server(new_page):
    from games.engine.cards import RANKS

    page = new_page()
    page.goto("/")
    assert page.evaluate("() => Trix.ranks()") == RANKS
