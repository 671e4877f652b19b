"""A player's history on a phone in Arabic (issue 16): at 390x844 the matches are stacked
cards that fit the screen, nothing scrolls sideways; the screenshot is saved in
test-artifacts/player-history-ar-390.png."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games.models import TableStatus
from tests.accounts.matches import make_match, player
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_history_in_arabic_fits_a_phone(new_page, live_server, client, artifacts,
                                            django_user_model):  # fmt: skip
    layla = player(django_user_model, "layla_login", "ليلى")
    omar = player(django_user_model, "omar_login", "Omar Abdulrahman Al-Khatib")
    now = timezone.now()
    make_match([layla, omar, None, None], variant="complex_partner", stake=12_345,
               started=now - datetime.timedelta(hours=3))  # fmt: skip
    make_match([omar, layla, None, None], variant="trix", stake=500,
               started=now - datetime.timedelta(hours=2))  # fmt: skip
    make_match([layla, None, None, None], status=TableStatus.PLAYING,
               started=now - datetime.timedelta(hours=1))  # fmt: skip

    page = new_page(width=390, height=844)
    log_in(page, live_server.url, client, layla)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto(f"/players/{layla.pk}/")
    assert page.locator("html").get_attribute("dir") == "rtl"
    rows = page.locator('[data-testid="match-row"]')
    assert rows.count() == 3
    assert "جارية" in rows.nth(0).inner_text()  # in progress, newest first
    won = rows.nth(2).inner_text().replace("\u2066", "").replace("\u2069", "")
    assert "+123.45 USD" in won and "246.90 USD" in won  # the partnership pot, won
    page.screenshot(path=str(artifacts / "player-history-ar-390.png"), full_page=True)
    overflow = page.evaluate(
        """() => {
            const root = document.scrollingElement;
            const wide = [...document.querySelectorAll('main *')].filter(e => {
                const r = e.getBoundingClientRect();
                return r.width && (r.left < -1 || r.right > window.innerWidth + 1);
            }).map(e => e.tagName + '.' + e.className);
            return {scroll: root.scrollWidth, width: root.clientWidth, wide};
        }"""
    )
    assert overflow["scroll"] <= overflow["width"], overflow
    assert overflow["wide"] == [], overflow
    # each card is a block as wide as the list, its lines label and value
    boxes = [rows.nth(i).bounding_box() for i in range(3)]
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes), boxes
    page.get_by_test_id("history-csv").wait_for()


@pytest.mark.parametrize(("language", "size"), [("ar", (390, 844)), ("en", (1280, 800))])
def test_the_date_filters_speak_the_pages_language(
    new_page, live_server, client, artifacts, django_user_model, language, size
):
    """The date filters are menus in the page's language (a browser's own date input wrote
    "mm/dd/yyyy" in English on the Arabic page); choosing a date filters the matches."""
    layla = player(django_user_model, "layla_login", "ليلى")
    make_match([layla, None, None, None], started=timezone.now() - datetime.timedelta(days=40))
    make_match([layla, None, None, None], started=timezone.now() - datetime.timedelta(hours=1))
    page = new_page(width=size[0], height=size[1])
    log_in(page, live_server.url, client, layla)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"/players/{layla.pk}/")
    assert page.locator('input[type="date"]').count() == 0
    months = page.locator("#id_since_month option").all_inner_texts()
    assert months[0] == ("الشهر" if language == "ar" else "Month")
    assert months[1] == ("يناير" if language == "ar" else "January")
    assert page.locator('[data-testid="match-row"]').count() == 2
    today = timezone.localdate() - datetime.timedelta(days=1)
    page.select_option("#id_since_year", str(today.year))
    page.select_option("#id_since_month", str(today.month))
    page.select_option("#id_since_day", str(today.day))
    page.screenshot(path=str(artifacts / f"player-date-filters-{language}.png"), full_page=True)
    page.locator(".history-filters button[type=submit]").click()
    page.wait_for_url("**since_year=*")
    assert page.locator('[data-testid="match-row"]').count() == 1
    overflow = page.evaluate("document.scrollingElement.scrollWidth")
    assert overflow <= size[0]
