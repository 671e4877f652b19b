"""A closed account is named in the reader's language (``Closed account N``, in Arabic
«حساب مغلق N»): on the table page, whose live stream sends every spectator one answer
whatever their language (the page names the seat from its ``account_closed`` flag), and on
the server's pages (a player's history). Arabic at 390x844; screenshots
``test-artifacts/closed-account-*.png``."""

from __future__ import annotations

import pytest

from accounts.closure import close_account
from games.services import create_table
from tests.accounts.matches import make_match
from tests.factories import PASSWORD
from tests.web.conftest import log_in
from tests.web.engine_states import match_at
from tests.web.test_table_summary import TIMERS, Server, answer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLOSED_AR = "حساب مغلق"


def arabic_phone(new_page, live_server):
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    return page


def test_the_table_page_names_a_closed_accounts_seat_in_its_language(
    new_page, live_server, player, artifacts
):
    table_id = create_table(user=player(), variant="complex_partner", stake=0, options=TIMERS).pk
    page = arabic_phone(new_page, live_server)
    # What the stream sends every spectator: the name in the language it was computed in.
    ans = answer(table_id, match_at(contract="complex", plays=2), None, stake=0)
    ans["table"]["seats"][1].update(
        kind="human", name="Closed account 42", user_id=42, bot=None, account_closed=True
    )
    Server(page, ans)
    page.goto(f"/tables/{table_id}/")
    seat = page.locator(".seat-box[data-seat='1'] .seat-head .name")
    seat.wait_for()
    assert seat.inner_text() == f"{CLOSED_AR} 42"
    assert "Closed account" not in page.locator("main").inner_text()
    page.screenshot(path=str(artifacts / "closed-account-table-ar-390.png"))


def test_a_players_history_names_a_closed_opponent_in_arabic(
    new_page, live_server, client, player, artifacts
):
    alice, bob = player("Alice", funds=0), player("Bob", funds=0)
    make_match([bob, alice, None, None])
    close_account(user=alice, password=PASSWORD)
    page = arabic_phone(new_page, live_server)
    log_in(page, live_server.url, client, bob)
    page.goto(f"/players/{bob.pk}/")
    row = page.locator('[data-testid="match-row"]')
    row.wait_for()
    assert f"{CLOSED_AR} {alice.pk}" in row.inner_text()
    assert "Closed account" not in page.locator("main").inner_text()
    page.screenshot(path=str(artifacts / "closed-account-history-ar-390.png"), full_page=True)
