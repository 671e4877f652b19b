"""A tournament's table options on its page are a list, one option a line (they were one
line joined by a Latin ";", which an Arabic page should not show): in Arabic at 390x844,
screenshot ``test-artifacts/tournament-options-ar-390.png``."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory
from web.names import describe_options

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_table_options_are_a_list_in_arabic_on_a_phone(new_page, live_server, staff, artifacts):
    cup = TournamentFactory(by=staff, name="كأس الشتاء", options={"play_timer": 20})
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto(f"/tournaments/{cup.pk}/")
    options = page.get_by_test_id("table-options")
    options.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "tournament-options-ar-390.png"))
    items = options.locator("li").all_inner_texts()
    assert len(items) == len(describe_options(cup.options)), items
    assert any(item.startswith("مؤقت اللعب") and "20" in item for item in items), items
    assert ";" not in options.inner_text()
    # each inside the screen
    for i in range(len(items)):
        box = options.locator("li").nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (items[i], box)
