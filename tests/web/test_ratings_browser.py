"""Ratings in the browser (issue 16): the leaderboard, the lobby's tables and the table page
show each player's rating, in Arabic on a phone (390x844)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ratings import services
from tests.ratings.conftest import finished_table
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_leaderboard_lobby_and_table_show_ratings_in_arabic(
    new_page, live_server, client, django_user_model, artifacts
):
    names = ("سارة", "Omar", "ليلى")
    users = [django_user_model.objects.create_user(f"u{i}", password="pw") for i in range(3)]
    from accounts.services import set_display_name

    for user, name in zip(users, names, strict=True):
        set_display_name(user, name)
    solo = finished_table([users[0], users[1], users[2], "rules"], (1, 2, 3, 4))
    services.rate_table(table_id=solo.pk)
    ratings = {u.pk: u.ratings.get(family="solo").display for u in users}
    assert ratings[users[0].pk] > ratings[users[1].pk] > ratings[users[2].pk]

    # An open table: the leader seated, two bots; one seat free.
    api = APIClient()
    api.force_login(users[0])
    table = api.post("/api/tables/", {"variant": "complex", "stake": 0}, format="json").json()
    assert (
        api.post(f"/api/tables/{table['id']}/seats/", {"seat": 0}, format="json").status_code == 200
    )
    for seat, bot in ((1, "rules"), (2, "random")):
        r = api.post(f"/api/tables/{table['id']}/bots/", {"seat": seat, "bot": bot}, format="json")
        assert r.status_code == 200

    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, users[1])
    page.goto("/")
    page.click("[data-testid=nav-leaderboard]")
    page.wait_for_url("**/ratings/solo/")
    assert page.get_attribute("html", "dir") == "rtl"
    rows = page.locator("[data-testid=leader-row]")
    assert rows.count() == 3
    assert rows.nth(0).inner_text().split("\t")[1:3] == [names[0], str(ratings[users[0].pk])]
    assert page.locator("tr.me").inner_text().split("\t")[1] == names[1]
    assert "تصنيفك" in page.inner_text("[data-testid=my-rating]")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width}px)"
    page.screenshot(path=str(artifacts / "ratings-leaderboard-ar-390.png"), full_page=True)

    page.goto("/")
    card = page.locator("[data-testid=lobby-rating]").first
    card.wait_for()
    lobby = page.locator("[data-testid=lobby-rating]").all_inner_texts()
    assert str(ratings[users[0].pk]) in lobby and "1475" in lobby and "1300" in lobby
    page.screenshot(path=str(artifacts / "ratings-lobby-ar-390.png"), full_page=True)

    page.goto(f"/tables/{table['id']}/")
    seat = "#seat-list [data-testid=rating-{}]".format  # the seating panel before the match
    page.locator(seat(0)).wait_for()
    assert page.inner_text(seat(0)) == str(ratings[users[0].pk])
    assert page.inner_text(seat(1)) == "1475"  # the rules bot
    assert page.inner_text(seat(2)) == "1300"  # the random bot
    assert page.locator(seat(3)).count() == 0  # a free seat
    felt = ".seat-box [data-testid=rating-0]"  # the felt's seat names carry it too
    assert page.locator(felt).inner_text() == str(ratings[users[0].pk])
    page.screenshot(path=str(artifacts / "ratings-table-ar-390.png"), full_page=True)


def test_the_match_result_shows_the_rating_change(
    worker, new_page, live_server, client, django_user_model, artifacts
):
    """A match played to its end (the seat through the API, three bots); its page then shows
    "Rating 1000 → N (±d)" for the player, in Arabic on a phone."""
    from ratings.models import RatingChange
    from tests.games.helpers import play_seat, seat_bots, wait_until

    user = django_user_model.objects.create_user("rater", password="pw")
    api = APIClient()
    api.force_login(user)
    table = api.post(
        "/api/tables/",
        {
            "variant": "complex",
            "stake": 0,
            "options": {"choose_timer": 0, "double_timer": 0, "play_timer": 0},
        },
        format="json",
    ).json()
    assert (
        api.post(f"/api/tables/{table['id']}/seats/", {"seat": 2}, format="json").status_code == 200
    )
    seat_bots(api, table["id"], [0, 1, 3])
    play_seat(api, table["id"], timeout=600)
    change = wait_until(lambda: RatingChange.objects.filter(table_id=table["id"]).first(), 60)

    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, user)
    page.goto(f"/tables/{table['id']}/")
    line = page.locator("[data-testid=my-rating-change]")
    line.wait_for()
    text = line.inner_text()
    assert str(change.display_before) in text and str(change.display_after) in text
    assert "التصنيف" in text
    sign = "+" if change.delta > 0 else "\u2212" if change.delta < 0 else "\u00b1"
    assert f"{sign}{abs(change.delta)}" in text
    page.screenshot(path=str(artifacts / "ratings-result-ar-390.png"), full_page=False)
