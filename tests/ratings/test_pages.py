"""The leaderboard pages, the ratings API, and the ratings in the tables' answers."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ratings import api as ratings_api
from ratings import selectors, services, views
from ratings.rating import bot_skill
from tests.ratings.conftest import finished_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(make_user):
    """Three players with one rated solo match (ann 1st, bob 2nd, cat 3rd, a rules bot 4th)
    and ann with a partnership one."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    solo = finished_table([ann, bob, cat, "rules"], (1, 2, 3, 4))
    team = finished_table([ann, "random", "rules", "rules"], (1, 3, 1, 3), variant="trix_partner")
    services.rate_table(table_id=solo.pk)
    services.rate_table(table_id=team.pk)
    return {"ann": ann, "bob": bob, "cat": cat, "solo": solo, "team": team}


def test_the_solo_leaderboard_lists_players_best_first(client, rated):
    r = client.get("/ratings/solo/")
    assert r.status_code == 200
    rows = r.context["rows"]
    assert [row["name"] for row in rows] == ["ann", "bob", "cat"]
    assert [row["rank"] for row in rows] == [1, 2, 3]
    assert rows[0]["rating"] > rows[1]["rating"] > rows[2]["rating"]
    html = r.content.decode()
    assert 'data-testid="leaderboard"' in html and 'data-testid="nav-leaderboard"' in html
    assert f'data-testid="leader-rating">{rows[0]["rating"]}<' in html
    assert r.context["mine"] is None  # not logged in


def test_the_partnership_leaderboard_and_my_row(client, rated):
    client.force_login(rated["bob"])
    r = client.get("/ratings/partnership/")
    assert [row["name"] for row in r.context["rows"]] == ["ann"]
    assert r.context["mine"]["rank"] is None and r.context["mine"]["matches"] == 0
    assert "You have no rated match in this family yet." in r.content.decode()
    r = client.get("/ratings/solo/")
    assert r.context["mine"]["rank"] == 2
    assert 'class="me"' in r.content.decode()


def test_the_index_opens_solo_and_an_unknown_family_is_404(client):
    assert client.get("/ratings/")["Location"] == "/ratings/solo/"
    assert client.get("/ratings/trios/").status_code == 404
    r = client.get("/ratings/solo/")
    assert r.status_code == 200 and 'data-testid="leaderboard-empty"' in r.content.decode()


def test_pages_of_the_leaderboard(client, rated, monkeypatch):
    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    first = client.get("/ratings/solo/")
    assert [row["rank"] for row in first.context["rows"]] == [1, 2]
    assert 'data-testid="page-next"' in first.content.decode()
    second = client.get("/ratings/solo/?page=2")
    assert [(row["rank"], row["name"]) for row in second.context["rows"]] == [(3, "cat")]
    assert 'data-testid="page-previous"' in second.content.decode()
    assert client.get("/ratings/solo/?page=99").context["page"].number == 2  # the last


def test_the_leaderboard_in_arabic(client, rated):
    r = client.get("/ratings/solo/", HTTP_ACCEPT_LANGUAGE="ar")
    assert r.status_code == 200
    html = r.content.decode()
    assert 'lang="ar"' in html and 'dir="rtl"' in html
    assert [row["name"] for row in r.context["rows"]] == ["ann", "bob", "cat"]


def test_the_api_leaderboard(rated, monkeypatch):
    api = APIClient()
    body = api.get("/api/ratings/solo/").json()
    assert body["family"] == "solo" and body["count"] == 3 and body["next"] is None
    assert [row["name"] for row in body["results"]] == ["ann", "bob", "cat"]
    assert set(body["results"][0]) == {
        "rank",
        "user_id",
        "name",
        "rating",
        "mu",
        "sigma",
        "matches",
    }
    monkeypatch.setattr(ratings_api.Pages, "page_size", 2)
    body = api.get("/api/ratings/solo/", {"page": 2}).json()
    assert [row["rank"] for row in body["results"]] == [3] and body["previous"]
    r = api.get("/api/ratings/trios/")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


def test_the_api_player_and_table(rated):
    api = APIClient()
    ann = rated["ann"]
    body = api.get(f"/api/ratings/players/{ann.pk}/").json()
    assert body["name"] == "ann"
    assert body["solo"]["rank"] == 1 and body["solo"]["matches"] == 1
    assert body["partnership"]["matches"] == 1
    assert body == {"user_id": ann.pk, "name": "ann", **selectors.ratings_of(ann)}
    assert api.get("/api/ratings/players/999999/").status_code == 404
    body = api.get(f"/api/ratings/tables/{rated['solo'].pk}/").json()
    assert body["rated"] is True
    assert [(c["seat"], c["name"], c["before"]) for c in body["changes"]] == [
        (0, "ann", 1000), (1, "bob", 1000), (2, "cat", 1000),
    ]  # fmt: skip
    assert all(c["delta"] == c["after"] - c["before"] for c in body["changes"])
    bots_only = finished_table(["rules"] * 4, (1, 2, 3, 4))
    assert api.get(f"/api/ratings/tables/{bots_only.pk}/").json() == {
        "table_id": bots_only.pk, "rated": False, "changes": [],
    }  # fmt: skip
    r = api.get("/api/ratings/tables/999999/")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


def test_seats_show_their_ratings_in_the_tables_answers(rated, make_user):
    """The table and the lobby's list: a person's rating in the table's family, a newcomer's
    initial one, a bot's fixed one."""
    dan = make_user("dan")
    table = finished_table([rated["ann"], dan, "random", "rules"], (1, 2, 3, 4), variant="trix")
    ann_solo = selectors.ratings_of(rated["ann"])["solo"]["rating"]
    expected = [ann_solo, 1000, bot_skill("random").display, bot_skill("rules").display]
    api = APIClient()
    seats = api.get(f"/api/tables/{table.pk}/").json()["seats"]
    assert [s["rating"] for s in seats] == expected
    page = api.get("/api/tables/", {"status": "finished"}).json()["results"]
    listed = {t["id"]: [s["rating"] for s in t["seats"]] for t in page}
    assert listed[table.pk] == expected
    team = selectors.ratings_of(rated["ann"])["partnership"]["rating"]
    assert listed[rated["team"].pk][0] == team != ann_solo
    # The state poll's answer: test_match.py (a table with its match).


def test_ratings_are_read_only_in_the_admin(admin_client, rated):
    for url in ("/admin/ratings/rating/", "/admin/ratings/ratingchange/"):
        r = admin_client.get(url)
        assert r.status_code == 200 and "ann" in r.content.decode()
    assert admin_client.get("/admin/ratings/rating/add/").status_code == 403
