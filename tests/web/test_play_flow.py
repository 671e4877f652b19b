"""The whole path in Chromium against the real tables API and a real Celery worker: sign up,
fund the wallet, create a staked table, seat three bots, choose a contract, double a card,
play every deal by clicking cards, see the scores, the payout and the verify links; a
second browser context watches as a spectator and sees no hand."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from accounts.selectors import display_name
from games.models import Deal
from wallet.selectors import wallet_balance

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-Trix-2025!"
STAKE = 500  # minor units: "5" in the form


def sign_up(page, username: str, name: str) -> None:
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.fill("input[name=display_name]", name)
    page.click("main form button[type=submit]")  # not the header's language switch
    page.wait_for_url(re.compile(r".*/$"))


def fund(page, amount: str) -> None:
    """The demo deposit, as a person makes it: the wallet page's form (demo payment provider)."""
    page.click("[data-testid=nav-balance]")
    page.wait_for_url(re.compile(r".*/wallet/$"))
    page.fill("#id_deposit-amount", amount)
    page.click("[data-testid=deposit]")
    page.locator(".message.success").wait_for()
    assert f"Deposited {amount}" in page.locator(".messages").inner_text()


CLICK_MS = 5_000
SETTLED = """([v, gone]) => {
    const app = document.getElementById('table-app');
    return Number(app.dataset.version) > v && !app.classList.contains('sending')
        && (!gone || !document.querySelector(gone));
}"""


def play_until_over(page, timeout: float = 240) -> dict:
    """Act whenever the page offers something: contract, doubles, a card, a pass; after each
    act, wait until the page shows the table after it (a newer version: on the seat's turn only
    its own action moves the table; for Ready also the button gone, as during simultaneous
    doubling the other seats' Ready moves the version too; a pick moves no version), so the
    loop never clicks a control the next update removes."""
    seen = {"contract": 0, "double": 0, "plays": 0, "passes": 0, "vanished": 0}
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app = page.locator("#table-app")
        if app.get_attribute("data-phase") == "over":
            return seen
        before = int(app.get_attribute("data-version") or 0)
        gone = None
        try:
            if page.locator(".contract-choice").count():
                page.locator(".contract-choice").first.click(timeout=CLICK_MS)
                seen["contract"] += 1
            elif page.locator("[data-testid=ready]").count():
                doublable = page.locator("#hand .card.doublable")
                if doublable.count() and not page.locator("#hand .card.selected").count():
                    doublable.first.click(timeout=CLICK_MS)
                    seen["double"] += 1
                page.locator("[data-testid=ready]").click(timeout=CLICK_MS)
                gone = "[data-testid=ready]"
            elif page.locator("[data-testid=pass]").count():
                page.locator("[data-testid=pass]").click(timeout=CLICK_MS)
                seen["passes"] += 1
            elif page.locator("#hand .card.playable").count():
                # Not "this card gone": the next deal may deal the same card straight away.
                page.locator("#hand .card.playable").first.click(timeout=CLICK_MS)
                seen["plays"] += 1
            else:
                page.wait_for_timeout(100)
                continue
        except PlaywrightTimeout:
            # The control went away under the click (an update replaced it): look again.
            seen["vanished"] += 1
            continue
        try:
            page.wait_for_function(SETTLED, arg=[before, gone], timeout=15_000)
        except Exception as exc:
            status = page.locator("#status").inner_text()
            notice = page.locator("#notice").inner_text()
            raise AssertionError(
                f"no answer after {seen} at version {before}: status {status!r}, "
                f"notice {notice!r}, page version {app.get_attribute('data-version')}"
            ) from exc
    raise AssertionError(f"the match did not end in {timeout} s: {seen}")


def test_sign_up_fund_create_a_staked_table_and_play_a_whole_match(
    worker, new_page, artifacts, settings
):
    settings.TRIX_DEMO_PAYMENTS = True  # the wallet page's demo forms, as under ./dev run
    page = new_page()
    sign_up(page, "fahd", "أبو فهد")
    user = get_user_model().objects.get(username="fahd")
    assert display_name(user) == "أبو فهد"
    fund(page, "20.00")
    assert "20.00" in page.locator("[data-testid=nav-balance]").inner_text()
    assert wallet_balance(user) == 20_00
    page.goto("/")

    # Create a staked table: stake 5, Complex Partner, the longest timers (a person clicks
    # here; a staked table must have timers).
    page.fill("#id_stake", "5")
    page.select_option("#opt_variant", "complex_partner")
    for timer in ("choose_timer", "double_timer", "play_timer"):
        page.fill(f"#opt_{timer}", "3600")
    page.click("[data-testid=create-table]")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert "Trix Complex Partner" in page.locator("h1").inner_text()
    assert "3600 s" in page.locator(".options").inner_text()  # options shown before staking

    # Take seat 1 with the browser's client seed; it is shown back.
    seed = page.locator("#client-seed").input_value()
    assert re.fullmatch(r"[0-9a-f]{32}", seed)
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    assert page.locator("[data-testid=seed-used]").inner_text() == seed
    assert wallet_balance(user) == 20_00 - STAKE

    # A spectator (no login) watches from another browser context.
    watcher = new_page(width=390)
    watcher.goto(f"/tables/{table_id}/")
    watcher.locator("[data-testid=spectating]").wait_for()

    for seat in (1, 2, 3):
        page.click(f"[data-testid=bot-{seat}]")
    page.wait_for_function(
        "() => ['choose', 'double', 'play'].includes("
        "document.getElementById('table-app').dataset.phase)"
    )
    assert page.locator("#hand .card").count() == 13

    watcher.wait_for_function("() => document.querySelectorAll('.seat-box .name').length === 4")
    assert watcher.locator("#hand").is_hidden()
    assert watcher.locator("#hand .card[data-card]").count() == 0

    seen = play_until_over(page)
    print("browser actions:", seen)
    assert seen["contract"] >= 1, "the player owns one kingdom and chose its contracts"
    assert seen["double"] >= 1, f"no K♥ or queen to double in four Complex deals: {seen}"
    assert seen["plays"] >= 13

    # Scores, the result and the payout (one staker: the ledger refunds the stake).
    result = page.locator("[data-testid=result]")
    result.wait_for()
    assert page.locator("[data-testid=deals] tbody tr").count() == 8
    assert page.locator("[data-testid=teams]").is_visible()
    page.locator("[data-testid=payout] li").first.wait_for()
    payout = page.locator("[data-testid=payout]").inner_text()
    assert "أبو فهد" in payout and "5.00" in payout
    assert wallet_balance(user) == 20_00

    links = page.locator("[data-testid=verify-deal]")
    assert links.count() == 8
    for i in range(links.count()):
        assert re.fullmatch(r"/verify/deals/\d+/", links.nth(i).get_attribute("href"))
    page.screenshot(path=str(artifacts / "table-finished.png"), full_page=True)

    # The first deal's verify link opens that deal's shuffle check, which passes.
    first_deal = Deal.objects.get(table_id=table_id, number=1)
    assert links.first.get_attribute("href") == f"/verify/deals/{first_deal.pk}/"
    links.first.click()
    page.wait_for_url(f"**/verify/deals/{first_deal.pk}/")
    assert page.locator("h1").inner_text() == f"Deal 1 of table {table_id}"
    assert "Verified" in page.locator("[data-testid=verified]").inner_text()
    page.go_back()
    page.locator("[data-testid=verify-match]").click()
    page.wait_for_url(f"**/verify/matches/{table_id}/")
    assert "All 8 finished deals verified" in page.locator("[data-testid=verified]").inner_text()

    # The wallet's history links the stake and the refund to the table.
    page.goto("/wallet/")
    assert page.locator("[data-testid=history-link]").count() == 2  # stake, settlement
    page.locator("[data-testid=history-link]").first.click()
    page.wait_for_url(f"**/tables/{table_id}/")

    # The spectator saw the same end, still with no hand.
    watcher.wait_for_function("() => document.getElementById('table-app').dataset.phase === 'over'")
    assert watcher.locator("#hand .card").count() == 0
    watcher.screenshot(path=str(artifacts / "table-spectator-phone.png"), full_page=True)
