"""An API refusal as the lobby shows it (the failing case: "log in first
(/accounts/login/)", a path where a link was meant): the sentence in the page's language,
the login page as a link that says where it goes. Screenshot:
``test-artifacts/lobby-logged-out-ar.png``."""

from __future__ import annotations

import pytest

from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_logged_out_create_says_so_with_a_link_in_arabic(
    make_user, new_page, live_server, client, artifacts
):
    rana = make_user("rana")
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, rana)
    page.goto("/")
    page.get_by_test_id("table-list").locator("p.empty, .table-card").first.wait_for()
    page.context.clear_cookies(name="sessionid")  # the session ended meanwhile
    if page.locator("#create-form").is_hidden():  # folded on a phone
        page.locator("#create-details > summary").click()
    page.get_by_test_id("create-table").click()
    box = page.locator("#create-notice")
    box.locator("a").wait_for()
    assert box.locator("a").get_attribute("href") == "/accounts/login/"
    assert box.locator("a").inner_text() == "صفحة تسجيل الدخول"
    assert box.inner_text() == "يلزم تسجيل الدخول: سجّل الدخول في صفحة تسجيل الدخول."
    page.screenshot(path=str(artifacts / "lobby-logged-out-ar.png"), full_page=True)
