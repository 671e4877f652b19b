"""Stakes typed in Arabic digits in the lobby (issue 14; found by a reviewer: the stake fields
were number inputs, which drop ٥, so quick play seated the player at a casual table)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_lobby_reads_stakes_in_arabic_digits(new_page, live_server, client):
    page = new_page(width=390, height=844)
    user = get_user_model().objects.create_user("rana", "rana@example.com", "pw-Rana-12345")
    log_in(page, live_server.url, client, user)
    page.goto("/")
    page.locator("#create-details > summary").click()  # folded on a phone
    for field in ("#quick_stake", "#id_stake"):
        page.fill(field, "٥")
        assert page.input_value(field) == "٥"  # kept as typed, not dropped
    amounts = page.evaluate(
        "['٥', '٢٠٫٥', '۲۰٫۵', '20.5', '5x'].map((t) => window.Trix.parseMoney(t))"
    )
    assert amounts == [500, 2050, 2050, 2050, None]


def test_the_lobby_says_what_is_wrong_with_a_stake_as_the_wallet_does(
    new_page, live_server, client
):
    """The lobby's reader is the wallet's rule (docs/i18n.md, "Typed amounts"): "10,5" is
    refused saying to use a point, "0.001" says it has too many decimal places; the create
    form shows the wallet's message, in Arabic too, and makes no table."""
    page = new_page(width=390, height=844)
    user = get_user_model().objects.create_user("sami", "sami@example.com", "pw-Sami-12345")
    log_in(page, live_server.url, client, user)
    page.goto("/")
    read = page.evaluate("['10,5', '0.001', '1,000'].map((t) => window.Trix.readMoney(t))")
    assert [r.get("error") for r in read] == ["comma", "decimals", "thousands"]
    assert read[1]["message"] == "Too many decimal places (at most 2)."
    page.locator("#create-details > summary").click()  # folded on a phone
    page.fill("#id_stake", "0.001")
    page.click("#create-form button[type=submit]")
    notice = page.locator("#create-notice")
    notice.filter(has_text="Too many decimal places (at most 2).").wait_for()
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto("/")
    page.locator("#create-details > summary").click()
    page.fill("#id_stake", "١٠,٥")
    page.click("#create-form button[type=submit]")
    notice.filter(has_text="استخدم النقطة").wait_for()
    from games.models import Table

    assert not Table.objects.exists()
