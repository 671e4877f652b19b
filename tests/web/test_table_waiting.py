"""The felt of an open table says how many players it still waits for: the free seats, not
always four (a trial's finding: «بانتظار أربعة لاعبين» with a seat taken). Screenshot:
``test-artifacts/table-waiting-ar.png``."""

from __future__ import annotations

import pytest

from games import services as tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    "lang, taken, words",
    [
        ("ar", 1, "بانتظار 3 لاعبين."),
        ("ar", 3, "بانتظار لاعب واحد."),
        ("en", 0, "Waiting for 4 players."),
        ("en", 2, "Waiting for 2 players."),
        ("en", 3, "Waiting for 1 player."),
    ],
)
def test_the_felt_counts_the_free_seats(
    make_user, new_page, live_server, artifacts, lang, taken, words
):
    owner = make_user("owner")
    table = tables.create_table(user=owner, variant="trix", stake=0)
    for seat in range(taken):
        user = make_user(f"p{seat}")
        tables.take_seat(user=user, table_id=table.pk, seat=seat, client_seed="s" * 16)
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"/tables/{table.pk}/")
    waiting = page.locator("#center .waiting")
    waiting.wait_for()
    assert waiting.inner_text() == words
    if lang == "ar" and taken == 1:
        waiting.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "table-waiting-ar.png"))
