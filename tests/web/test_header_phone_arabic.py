"""The site's header on a narrow phone in Arabic stays within two lines: at 360 px wide with a
short name, and at 390 px with a long display name (each screenshot in test-artifacts)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Profile
from tests.web.conftest import log_in
from tests.web.test_lobby_phone import LINES_JS
from wallet import services as ledger
from wallet.payments import DemoProvider

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("width", "name"),
    [(360, "Rana"), (390, "Abdulrahman Al-Qahtani")],
)
def test_the_arabic_header_takes_two_lines_on_a_phone(
    new_page, live_server, client, artifacts, width, name
):
    user = get_user_model().objects.create_user("rana", "rana@example.com", "pw-Rana-12345")
    Profile.objects.create(user=user, display_name=name)
    ledger.deposit(user=user, amount=1_000_000, key="fund:rana", provider=DemoProvider())
    page = new_page(width=width, height=800)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, user)
    page.goto("/")
    page.get_by_test_id("nav-me").wait_for()
    page.locator(".site-header").screenshot(path=str(artifacts / f"header-ar-{width}.png"))
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate(LINES_JS, ".site-header") <= 2
    # Everything is still there and inside the screen.
    for test_id in ("nav-tournaments", "nav-leaderboard", "nav-rules", "nav-balance", "nav-me"):
        box = page.get_by_test_id(test_id).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, test_id
