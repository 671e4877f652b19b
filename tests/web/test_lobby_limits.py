"""The lobby in a browser (issue 13, item 6): it pages through the table list ("Older" /
"Newer", so no table is pushed out by newer ones), and a create refused by the cap on open
tables per creator shows the server's message."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
User = get_user_model()


def test_the_lobby_pages_through_the_open_tables(new_page, live_server, artifacts, settings):
    settings.TRIX_TABLES_PAGE_SIZE = 2
    ids = []
    for n in range(5):
        user = User.objects.create_user(f"p{n}", password="pw-x-12345")
        ids.append(services.create_table(user=user, variant="trix").pk)
    page = new_page()
    page.goto("/")
    cards = page.locator("#table-list .table-card")
    page.get_by_test_id("page-open").wait_for()
    assert page.get_by_test_id("page-open").inner_text() == "Page 1 of 3"
    assert [int(c.get_attribute("data-table")) for c in cards.all()] == ids[::-1][:2]
    assert page.get_by_test_id("newer-open").is_disabled()
    page.get_by_test_id("older-open").click()
    page.get_by_text("Page 2 of 3").wait_for()
    assert [int(c.get_attribute("data-table")) for c in cards.all()] == ids[::-1][2:4]
    page.get_by_test_id("older-open").click()
    page.get_by_text("Page 3 of 3").wait_for()
    assert [int(c.get_attribute("data-table")) for c in cards.all()] == ids[:1]
    assert page.get_by_test_id("older-open").is_disabled()
    page.screenshot(path=str(artifacts / "lobby-page-3.png"), full_page=True)
    page.get_by_test_id("newer-open").click()
    page.get_by_text("Page 2 of 3").wait_for()


def test_the_lobby_shows_why_a_table_was_not_created(new_page, live_server, client, settings):
    settings.TRIX_MAX_OPEN_TABLES = 1
    ana = User.objects.create_user("ana", password="pw-x-12345")
    services.create_table(user=ana, variant="trix")
    page = new_page()
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.get_by_test_id("create-table").click()
    notice = page.locator("#create-notice")
    notice.wait_for()
    assert "You already have 1 open table waiting for players" in notice.inner_text()
    assert ana.tables_created.count() == 1


def test_a_throttled_create_shows_our_message_beside_the_button_on_a_phone(
    new_page, live_server, client, settings, artifacts
):
    """Found by a fresh reviewer: the throttle's message appeared at the top of the form, out
    of view on a phone after tapping "Create table", in DRF's words ("Request was
    throttled..."). It now shows next to the button, in view, in ours with the wait."""
    import re

    from django.core.cache import cache

    cache.clear()
    settings.TRIX_TABLE_CREATE_RATE = "1/minute"
    settings.TRIX_MAX_OPEN_TABLES = 5
    ana = User.objects.create_user("ana", password="pw-x-12345")
    page = new_page(width=390, height=844)
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.locator("#create-details > summary").click()  # folded on a phone
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    page.goto("/")
    page.locator("#create-details > summary").click()
    button = page.get_by_test_id("create-table")
    button.scroll_into_view_if_needed()
    button.click()
    notice = page.locator("#create-notice")
    notice.wait_for()
    text = notice.inner_text()
    assert re.fullmatch(r"Too many tables created: try again in \d+ s\.", text), text
    box, spot = notice.bounding_box(), button.bounding_box()
    assert box["y"] >= spot["y"] + spot["height"] - 1  # below the button, not atop the form
    viewport = page.viewport_size
    assert 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"]  # in view
    page.screenshot(path=str(artifacts / "lobby-throttled-phone.png"))
    assert ana.tables_created.count() == 1
    cache.clear()


def test_a_double_click_on_create_makes_one_table(new_page, live_server, client):
    """A new user's trial: a double-click on "Create table" made two tables 23 ms apart (each
    counted against the cap; a staked one would have held a second stake in escrow)."""
    ana = User.objects.create_user("ana", password="pw-x-12345")
    page = new_page()
    log_in(page, live_server.url, client, ana)
    posts = []
    page.on(
        "request",
        lambda r: posts.append(r.url) if r.method == "POST" and "/api/tables/" in r.url else None,
    )
    page.goto("/")
    page.get_by_test_id("create-table").dblclick()
    page.wait_for_url("**/tables/*/")
    page.wait_for_timeout(500)
    assert len(posts) == 1, posts
    assert ana.tables_created.count() == 1


def test_back_to_the_lobby_after_a_create_finds_its_buttons_ready(new_page, live_server, client):
    """A review's finding: a create leaves its button disabled while the table page loads, and
    a browser coming back may show the lobby as it was left (the back/forward cache, which the
    test browser does not use: its page-show event is sent here as the cache would)."""
    ana = User.objects.create_user("ana", password="pw-x-12345")
    page = new_page()
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.get_by_test_id("create-table").wait_for()
    page.evaluate(
        """() => {
            for (const id of ["create-form", "quick-form"]) {
                const form = document.getElementById(id);
                form.dataset.busy = "1";
                form.querySelector("button[type=submit]").disabled = true;
            }
            window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
        }"""
    )
    assert page.get_by_test_id("create-table").is_enabled()
    assert page.locator("#quick-form button[type=submit]").is_enabled()
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/tables/*/")


@pytest.mark.parametrize("form, button, box", [
    ("#id_stake", "create-table", "#create-notice"),
    ("#quick_stake", "quick-play", "#quick-notice"),
])  # fmt: skip
def test_a_huge_stake_is_told_the_stake_cap_not_the_ledger_bound(
    new_page, live_server, client, form, button, box
):
    """A stake above what one amount may be was told "at most 10,000,000,000.00 USD" while
    the cap of a stake (TRIX_MAX_STAKE) is 10,000.00 USD."""
    ana = User.objects.create_user("ana", password="pw-x-12345")
    page = new_page()
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.locator(form).fill("99999999999999")
    page.get_by_test_id(button).click()
    notice = page.locator(box)
    notice.wait_for()
    assert notice.inner_text() == "The amount must be at most 10,000.00 USD."
    assert not ana.tables_created.exists()


def test_the_lobbys_option_refusal_reads_as_the_servers_in_arabic(new_page, live_server, client):
    """A timer typed wrong is refused by the lobby before it is sent, in the same words and
    style as the server's refusal of the same option («…» first, in Arabic), not a second
    style ("…: يجب أن يكون…")."""
    ana = User.objects.create_user("ana", password="pw-x-12345")
    client.force_login(ana)
    server = client.post(
        "/api/tables/",
        {"variant": "trix", "options": {"choose_timer": -1}},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ar",
    ).json()["error"]
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.locator("#opt_choose_timer").fill("-1")
    page.get_by_test_id("create-table").click()
    notice = page.locator("#create-notice")
    notice.wait_for()
    assert notice.inner_text() == server, (notice.inner_text(), server)
    assert not ana.tables_created.exists()
