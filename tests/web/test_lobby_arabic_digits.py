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
