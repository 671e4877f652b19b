"""The header's balance follows the money (issue 14: "45.00 shown with 50.00 held"): the pages
read it again from ``GET /api/wallet/`` after a stake, a refund or a payout, and when a tab
comes back into view; the short-wallet message shows ``/wallet/`` as a link. Chromium against
the real tables API (and, for the payout, a real worker)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services as tables
from games.models import Table
from tests.games.helpers import wait_finished
from tests.web.conftest import log_in
from wallet import services as wallet_services
from wallet.selectors import format_money, wallet_balance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
User = get_user_model()
STAKE = 5_00


def _user(name: str, funds: int):
    user = User.objects.create_user(name, f"{name}@example.com", "pw-Trix-2025!")
    if funds:
        wallet_services.deposit(user=user, amount=funds, key=f"test:{name}")
    return user


def _header_shows(page, amount: int) -> None:
    text = format_money(amount)
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=nav-balance]').textContent.includes(t)",
        arg=text,
        timeout=10_000,
    )


def test_sitting_and_leaving_in_the_lobby_update_the_header(new_page, live_server, client):
    host = _user("host", STAKE)  # a creator who could sit at the table
    table = tables.create_table(user=host, variant="complex", stake=STAKE)
    sam = _user("sam", 10_00)
    page = new_page()
    log_in(page, live_server.url, client, sam)
    page.goto("/")
    _header_shows(page, 10_00)
    page.click(f"[data-testid=sit-{table.pk}-0]")  # the lobby's Sit opens the table page
    page.wait_for_url(f"**/tables/{table.pk}/#seat-0")
    page.click("[data-testid=sit-0]")
    _header_shows(page, 5_00)
    assert wallet_balance(sam) == 5_00
    page.click("[data-testid=leave]")
    _header_shows(page, 10_00)


def test_a_tab_coming_back_reads_the_balance_again(new_page, live_server, client):
    sam = _user("sam", 10_00)
    page = new_page()
    log_in(page, live_server.url, client, sam)
    page.goto("/")  # a page with the site script (web/static/web/api.js): lobby, table
    _header_shows(page, 10_00)
    wallet_services.deposit(user=sam, amount=2_50, key="test:sam:more")  # e.g. from another tab
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    _header_shows(page, 12_50)


def test_the_table_page_updates_the_header_when_the_pot_is_paid(
    worker, new_page, live_server, client, artifacts
):
    """A lone player with three bots: bots never stake, so the stake comes back when the
    match ends (the settlement). The player's seat plays itself by timeouts (x0.01 timers)."""
    sam = _user("sam", 10_00)
    table = tables.create_table(user=sam, variant="complex", stake=STAKE)
    tables.take_seat(user=sam, table_id=table.pk, seat=0, client_seed="sam's seed")
    page = new_page()
    log_in(page, live_server.url, client, sam)
    page.goto(f"/tables/{table.pk}/")
    _header_shows(page, 5_00)
    for seat in (1, 2, 3):
        tables.seat_bot(user=sam, table_id=table.pk, seat=seat, bot="rules")
    wait_finished(table.pk, timeout=180)
    # The payout box shows "Settling the pot…" from the finish; its reasons only once settled.
    page.locator("[data-testid=payout-reason]").first.wait_for(timeout=60_000)
    assert Table.objects.get(pk=table.pk).settled
    assert wallet_balance(sam) == 10_00
    _header_shows(page, 10_00)
    page.screenshot(path=artifacts / "header-balance-after-payout.png")


def test_the_short_wallet_message_links_to_the_wallet_page(new_page, live_server, client):
    host = _user("host", STAKE)  # a creator who could sit at the table
    table = tables.create_table(user=host, variant="complex", stake=STAKE)
    poor = _user("poor", 1_00)
    page = new_page()
    log_in(page, live_server.url, client, poor)
    page.goto("/")
    page.click(f"[data-testid=sit-{table.pk}-0]")  # the lobby's Sit opens the table page
    page.wait_for_url(f"**/tables/{table.pk}/#seat-0")
    page.click("[data-testid=sit-0]")
    notice = page.locator("#notice")
    notice.wait_for()
    assert "Add money in your wallet." in notice.inner_text()
    link = notice.locator("a")
    assert link.get_attribute("href") == "/wallet/" and link.inner_text() == "your wallet"
    link.click()
    page.wait_for_url(re.compile(r".*/wallet/$"))
