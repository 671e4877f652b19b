"""The identity verification page in Arabic on a phone (390x844) in Chromium: right to left,
nothing wider than the screen, the demo note shown, and one press verifies (demo provider).
Screenshots: test-artifacts/kyc-ar-390-before.png and kyc-ar-390-after.png."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.services import set_display_name
from accounts.standing import verification_status
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.unverified]


def test_the_verification_page_in_arabic_on_a_phone(new_page, live_server, client, artifacts):
    user = get_user_model().objects.create_user("layla", "layla@example.com", "pw-Trix-2025!")
    set_display_name(user, "ليلى")
    page = new_page(width=390, height=844)
    log_in(page, live_server.url, client, user)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto("/accounts/verification/")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.locator("h1").inner_text() == "التحقق من الهوية"
    demo = page.get_by_test_id("kyc-demo")
    assert demo.is_visible() and "تجريبي" in demo.inner_text()
    assert "لم يتم التحقق" in page.get_by_test_id("verification-status").inner_text()
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"the page is {wide}px wide on a 390px screen"
    page.screenshot(path=str(artifacts / "kyc-ar-390-before.png"), full_page=True)
    page.get_by_test_id("start-verification").click()
    page.wait_for_load_state()
    assert "تم التحقق من هويتك" in page.locator(".messages").inner_text()
    assert "تم التحقق" in page.get_by_test_id("verification-status").inner_text()
    assert page.get_by_test_id("start-verification").count() == 0
    page.screenshot(path=str(artifacts / "kyc-ar-390-after.png"), full_page=True)
    assert verification_status(user.pk) == "verified"
