"""The limits page in Arabic on a phone (390x844): a pending raise, a time-out after its
confirmation step, laid out right to left without overlaps or sideways scrolling (screenshots
in test-artifacts/); the table page's reality-check notice shows and is dismissed."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.services import tables
from responsible import services
from tests.web.conftest import log_in
from tests.web.test_i18n_browser import LAYOUT
from wallet import services as wallet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_limits_page_in_arabic_on_a_phone(new_page, live_server, client, artifacts):
    user = get_user_model().objects.create_user("rana", "rana@example.com", "pw-Rana-12345")
    wallet.deposit(user=user, amount=100_00, key="d")
    services.set_limit(user=user, kind="stake", period="day", amount=50_00, by=user)
    services.set_limit(user=user, kind="stake", period="day", amount=80_00, by=user)  # pending
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, user)
    page.goto("/account/limits/")
    page.wait_for_selector("[data-testid=limits]")
    pending = page.locator("[data-testid=limit-stake-day] [data-testid=pending]")
    assert "80.00" in pending.inner_text()
    page.screenshot(path=str(artifacts / "limits-ar-390.png"), full_page=True)
    layout = page.evaluate(LAYOUT)
    assert layout["lang"] == "ar" and layout["dir"] == "rtl"
    assert not layout["overlaps"], layout["overlaps"][:5]
    assert layout["scroll"] <= 0 and not layout["wide"], layout["wide"]
    body = page.locator("body").inner_text()
    assert "الحدود والاستراحات" in body and "حد الرهان خلال 24 ساعة" in body
    assert "Limits and breaks" not in body

    # a time-out: the confirmation step, then the break
    page.select_option("[data-testid=time-out-form] select", "7")
    page.click("[data-testid=time-out-form] button")
    page.wait_for_selector("[data-testid=time-out-confirm]")
    page.screenshot(path=str(artifacts / "limits-ar-390-confirm.png"), full_page=True)
    page.click("[data-testid=time-out-confirm] [data-testid=confirm]")
    page.wait_for_selector("[data-testid=exclusion]")
    assert "لا يمكن التراجع" in page.locator("[data-testid=exclusion]").inner_text()
    page.screenshot(path=str(artifacts / "limits-ar-390-time-out.png"), full_page=True)
    layout = page.evaluate(LAYOUT)
    assert not layout["overlaps"] and layout["scroll"] <= 0 and not layout["wide"]


def test_the_table_page_shows_the_reality_check_until_dismissed(
    new_page, live_server, client, artifacts
):
    user = get_user_model().objects.create_user("sami", "sami@example.com", "pw-Sami-12345")
    wallet.deposit(user=user, amount=100_00, key="d")
    # A 15-minute interval and a table staked 16 minutes ago: younger than the open tables'
    # expiry (TRIX_OPEN_TABLE_EXPIRY, 30 min), which the tests' beat applies when their worker
    # runs (CI once saw the table cancelled, its stake refunded and no notice due).
    services.set_reality_check(user=user, minutes=15, by=user)
    with time_machine.travel(timezone.now() - timedelta(minutes=16), tick=False):
        table = tables.create_table(user=user, variant="complex", stake=5_00)
        tables.take_seat(user=user, table_id=table.pk, seat=0, client_seed="s" * 16)
    page = new_page(width=390, height=844)
    log_in(page, live_server.url, client, user)
    page.goto(f"/tables/{table.pk}/")
    notice = page.locator("[data-testid=reality-check]")
    notice.wait_for(state="visible")
    assert "playing for 0 h 16 min" in notice.inner_text()
    assert "Net result: -5.00 USD" in notice.inner_text()
    page.screenshot(path=str(artifacts / "reality-check-390.png"))
    page.click("[data-testid=reality-dismiss]")
    notice.wait_for(state="hidden")
    page.reload()
    page.wait_for_selector("[data-testid=reality-check][data-checked='1']", state="attached")
    assert notice.is_hidden()  # the first poll has answered: still dismissed
