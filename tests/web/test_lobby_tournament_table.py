"""A tournament's table in the lobby's "Playing now" reads as that tournament's table (its
round, a link to its live page), not as a casual table made by the admin who ran it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.services import seated_tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_tournament_table_playing_shows_its_round_not_casual_by_admin(
    new_page, live_server, artifacts, language
):
    admin = get_user_model().objects.create_user("Admin", "admin@example.com", "pw-Admin-12345")
    table = seated_tables.create_seated_table(
        created_by=admin,
        variant="complex",
        options=TIMERS,
        seats=[{"bot": "rules"}] * 4,
        origin="tournament:7/round:2/table:1",
    )
    page = new_page(width=390, height=844)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto("/")
    card = page.get_by_test_id(f"table-{table.pk}")
    card.wait_for()
    page.screenshot(path=str(artifacts / f"lobby-tournament-table-{language}.png"))
    meta = card.locator(".meta").inner_text()
    link = card.get_by_test_id(f"tournament-of-{table.pk}")
    assert link.get_attribute("href") == "/tournaments/7/live/"
    if language == "en":
        assert link.inner_text() == "Tournament table (round 2)"
        assert "Casual" not in meta and "by Admin" not in meta, meta
    else:
        assert link.inner_text() == "طاولة بطولة (الجولة 2)"
    assert "Admin" not in meta, meta
