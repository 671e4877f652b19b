"""A deal played in Arabic on a phone (issue 14): a player whose language is Arabic sits at a
table with three bots on a 390x844 screen, taps a card on each of their turns and sees it in
the trick at once, while the whole page stays right to left with no text over other text;
after the deal, the deal summary says what happened in Arabic and the browser's own check
says the deal was verified. Real Chromium, the real tables API and a real Celery worker.

Every timer of the seat is 3 s (300 s scaled by the test settings' 0.01): time enough to tap.
The player makes every move themselves (the contract, Ready, their cards), as a person would:
two timeouts in a row would mark the seat away and play its turns at once (issue 14), which
made this test depend on who chose the first contract."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.services import create_table
from tests.web.conftest import log_in
from tests.web.test_table_layout import OVERLAPS_JS

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TIMERS = {"choose_timer": 300, "double_timer": 300, "play_timer": 300}
SUMMARIES_SHOWN = """() => {
  window.summariesShown = [];
  const box = document.getElementById("deal-summary");
  new MutationObserver(() => {
    if (!box.hidden && box.innerText.trim()) window.summariesShown.push(box.innerText);
  }).observe(box, { childList: true, subtree: true, attributes: true });
}"""


def test_a_deal_in_arabic_on_a_phone(live_server, client, new_page, worker, artifacts):
    user = get_user_model().objects.create_user("layla", "layla@example.com", "pw-Layla-12345")
    table = create_table(user=user, variant="complex", options=TIMERS)
    page = new_page(**PHONE)
    log_in(page, live_server.url, client, user)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto(f"/tables/{table.pk}/")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "ar",
        "rtl",
    ]
    page.locator("[data-testid=sit-0]").wait_for()
    page.screenshot(path=str(artifacts / "arabic-deal-before-sit-phone.png"))
    page.evaluate(SUMMARIES_SHOWN)
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    for seat in (1, 2, 3):
        page.click(f"[data-testid=bot-{seat}]")
        page.locator(f"[data-testid=bot-{seat}]").wait_for(state="hidden")

    taps = 0
    full_hand_checked = False
    done = page.locator("[data-testid=deal-check-1]")
    for _ in range(600):  # at most ~2 minutes
        if done.count():
            break
        for move in (".contract-choice", "[data-testid=ready]", "[data-testid=pass]"):
            button = page.locator(f"#actions {move}").first
            if button.count():
                try:
                    button.click(timeout=1_000)
                except Exception:  # noqa: BLE001 (the phase moved on meanwhile)
                    pass
        card = page.locator("#hand .card.playable").first
        if card.count() and not full_hand_checked and page.locator("#hand .card").count() == 13:
            # The whole hand of 13 cards on the first screen (under the wrapped header).
            bottom = page.evaluate(
                "Math.max(...Array.from(document.querySelectorAll('#hand .card'))"
                ".map((c) => c.getBoundingClientRect().bottom))"
            )
            assert bottom <= PHONE["height"], f"the hand ends at {bottom}px"
            full_hand_checked = True
        if card.count():
            code = card.get_attribute("data-card")
            try:
                card.click(timeout=1_000)
            except Exception:  # noqa: BLE001 (the turn passed meanwhile: try the next one)
                continue
            # The card is in the trick at once (pending until the worker confirms it).
            trick = page.locator(f"[data-testid=trick] .card[data-card='{code}']")
            if trick.count() or hand_left(page, code):
                taps += 1
            if taps == 3:
                page.wait_for_timeout(900)  # the moves' animations are over
                assert page.evaluate(OVERLAPS_JS) == [], "text over text mid-deal"
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
                page.screenshot(path=str(artifacts / "arabic-deal-playing-phone.png"))
        page.wait_for_timeout(200)
    assert taps >= 3, "the player could tap their cards"
    assert full_hand_checked
    page.wait_for_selector("[data-testid=deal-check-1].verified", timeout=60_000)
    # The summary of deal 1 shows until the seat must act in deal 2, which follows at once
    # here: the page notes each summary the moment it is shown (SUMMARIES_SHOWN).
    text = page.wait_for_function("() => window.summariesShown[0]", timeout=60_000).json_value()
    assert "التوزيعة" in text, text  # the deal summary speaks Arabic
    summary = page.locator("#deal-summary")
    assert page.evaluate(OVERLAPS_JS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if summary.is_visible():  # still shown (the next deal did not need the seat yet)
        summary.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "arabic-deal-summary-phone.png"))


def hand_left(page, code: str) -> bool:
    """The tapped card already left the hand (played and confirmed before we looked)."""
    return page.locator(f"#hand .card[data-card='{code}']").count() == 0
