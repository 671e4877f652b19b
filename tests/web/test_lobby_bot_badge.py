"""The lobby words a bot's kind as the table page does (found by a new user: the lobby's
Arabic page showed the raw kind, "rules", where the table page shows its kind, «منهجي»)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.games.helpers import new_table, seat_bots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_lobby_shows_a_bots_kind_in_arabic(new_page, live_server, artifacts):
    owner = get_user_model().objects.create_user("nadia", "nadia@example.com", "pw-Nadia-12345")
    api = APIClient()
    api.force_authenticate(owner)
    table = new_table(api)
    seat_bots(api, table["id"], [1], bot="rules")
    seat_bots(api, table["id"], [2], bot="random")
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto("/")
    badges = page.locator(".seat-row .badge")
    badges.first.wait_for()
    texts = badges.all_inner_texts()
    assert "منهجي" in texts and "rules" not in texts and "random" not in texts
    page.screenshot(path=str(artifacts / "lobby-bots-ar-390.png"), full_page=True)
