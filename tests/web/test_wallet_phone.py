"""The wallet's history on a phone in Arabic: each entry fits the 390px screen (a card of
label/value lines below a width, as a player's history page does), nothing cut or hidden in a
sideways scroll, the dates on one line, the amounts kept left to right."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services as tables
from tests.web.conftest import log_in
from wallet import services as wallet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

OUTSIDE_JS = """(width) => Array.from(
  document.querySelectorAll('[data-testid=history], [data-testid=history] *')
).filter((e) => {
  const r = e.getBoundingClientRect();
  return r.width && (r.left < -0.5 || r.right > width + 0.5 || e.scrollWidth > e.clientWidth + 1);
}).map((e) => e.tagName + ' ' + e.textContent.trim().slice(0, 30))"""


def test_the_wallet_history_fits_a_phone_in_arabic(live_server, client, new_page, artifacts):
    user = get_user_model().objects.create_user("ana", "ana@example.com", "pw-Ana-12345")
    wallet.deposit(user=user, amount=9_876_54, key="test:ana")
    table = tables.create_table(user=user, variant="complex_partner", stake=5_00)
    tables.take_seat(user=user, table_id=table.pk, seat=0, client_seed="a" * 16)
    page = new_page(**PHONE)
    log_in(page, live_server.url, client, user)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto("/wallet/")
    history = page.get_by_test_id("history")
    history.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "wallet-history-arabic-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate(OUTSIDE_JS, PHONE["width"]) == []
    # The balance is shown whole, its label too.
    text = history.inner_text()
    assert "9,871.54" in text.replace("\u066c", ","), text
    # Each date on one line.
    lines = page.evaluate(
        "Array.from(document.querySelectorAll('[data-testid=history] time'))"
        ".map((t) => t.getClientRects().length)"
    )
    assert lines and set(lines) == {1}, lines
    heights = page.evaluate(
        "Array.from(document.querySelectorAll('[data-testid=history] time'))"
        ".map((t) => t.getBoundingClientRect().height)"
    )
    assert max(heights) < 30, heights
