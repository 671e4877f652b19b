"""Seats, bots, leaving, reconnecting, the table list and the OpenAPI schema."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from games.models import Seat, Table
from tests.games.helpers import new_table, seat_bots, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_create_table_fills_every_option_and_validates(api):
    alice = api("alice")
    table = new_table(alice, "trix", play_timer=20)
    assert table["options"]["play_timer"] == 20
    assert table["options"]["doubling"] == "simultaneous"
    assert table["status"] == "open" and len(table["seats"]) == 4
    assert all(s["kind"] is None for s in table["seats"])
    r = alice.post(
        "/api/tables/", {"variant": "trix", "options": {"doubling": "loud"}}, format="json"
    )
    assert r.status_code == 400 and "“Doubling”" in r.json()["error"]
    r = alice.post("/api/tables/", {"variant": "poker"}, format="json")
    assert r.status_code == 400
    r = APIClient().post("/api/tables/", {"variant": "trix"}, format="json")
    assert r.status_code == 401
    listed = APIClient().get("/api/tables/", {"status": "open"}).json()["results"]
    assert [t["id"] for t in listed] == [table["id"]]


def test_seats_bots_and_leaving_before_the_start(api):
    alice, bob = api("alice"), api("bob")
    table = new_table(alice)
    tid = table["id"]
    r = bob.post(f"/api/tables/{tid}/seats/", {"seat": 2, "client_seed": "bob-seed"}, format="json")
    assert r.status_code == 200 and r.json()["seats"][2]["is_me"]
    r = alice.post(f"/api/tables/{tid}/seats/", {"seat": 2}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = bob.post(f"/api/tables/{tid}/seats/", {"seat": 3}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "seated"
    r = bob.post(f"/api/tables/{tid}/bots/", {"seat": 0, "bot": "rules"}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_creator"
    r = alice.post(f"/api/tables/{tid}/seats/", {"seat": 1, "client_seed": "x" * 65}, format="json")
    assert r.status_code == 400
    r = bob.post(f"/api/tables/{tid}/leave/")
    assert r.status_code == 200 and r.json()["seats"][2]["kind"] is None
    r = bob.post(f"/api/tables/{tid}/leave/")
    assert r.status_code == 403
    assert Table.objects.get(pk=tid).status == "open"


def test_reconnect_shows_the_same_seat_and_hand(worker, api):
    alice = api("alice")
    table = new_table(alice, choose_timer=0, double_timer=0, play_timer=0)
    alice.post(f"/api/tables/{table['id']}/seats/", {"seat": 3}, format="json")
    seat_bots(alice, table["id"], [0, 1, 2])

    def has_hand():
        body = alice.get(f"/api/tables/{table['id']}/state/").json()
        return body if body["view"] and body["view"]["hand"] else None

    first = wait_until(has_hand, 30)
    elsewhere = APIClient()
    elsewhere.force_login(alice.user)  # another browser, another session
    second = elsewhere.get(f"/api/tables/{table['id']}/state/").json()
    assert second["my_seat"] == first["my_seat"] == 3
    if second["version"] == first["version"]:
        assert second["view"]["hand"] == first["view"]["hand"]
    assert second["view"]["deal_number"] == first["view"]["deal_number"]
    spectator = APIClient().get(f"/api/tables/{table['id']}/state/").json()
    assert spectator["my_seat"] is None and spectator["view"]["hand"] is None


def test_leaving_a_free_table_mid_match_hands_the_seat_to_a_bot(worker, api):
    alice = api("alice")
    table = new_table(alice, choose_timer=0, double_timer=0, play_timer=0)
    alice.post(f"/api/tables/{table['id']}/seats/", {"seat": 0}, format="json")
    seat_bots(alice, table["id"], [1, 2, 3])
    wait_until(lambda: Table.objects.filter(pk=table["id"], status="playing").exists(), 10)
    r = alice.post(f"/api/tables/{table['id']}/leave/")
    assert r.status_code == 200 and r.json()["seats"][0]["bot"] == "rules"
    done = wait_until(
        lambda: Table.objects.filter(pk=table["id"], status="finished").first(), 90, 0.2
    )
    assert done.result["forfeit"] is None and done.result["deals_played"] == 8


def test_openapi_schema_lists_the_tables_api(client):
    r = client.get("/api/schema/")
    assert r.status_code == 200
    for path in (
        "/api/tables/",
        "/api/tables/{table_id}/state/",
        "/api/tables/{table_id}/actions/",
    ):
        assert path.encode() in r.content


def test_seats_and_creator_show_display_names_not_usernames(api):
    """Players are shown by their profile's display name (accounts); the username is only for
    logging in. Without a profile the username is the fallback."""
    from accounts.services import set_display_name

    alice, bob = api("alice"), api("bob")
    set_display_name(alice.user, "أبو فهد")
    table = new_table(alice)
    tid = table["id"]
    assert table["created_by"]["name"] == "أبو فهد"
    alice.post(f"/api/tables/{tid}/seats/", {"seat": 0}, format="json")
    r = bob.post(f"/api/tables/{tid}/seats/", {"seat": 1}, format="json")
    assert [s["name"] for s in r.json()["seats"][:2]] == ["أبو فهد", "bob"]
    state = APIClient().get(f"/api/tables/{tid}/state/").json()
    assert [s["name"] for s in state["table"]["seats"][:2]] == ["أبو فهد", "bob"]
    taken = [e for e in state["events"] if e["type"] == "seat_taken"]
    assert [(e["seat"], e["name"]) for e in taken] == [(0, "أبو فهد"), (1, "bob")]
    listed = APIClient().get("/api/tables/", {"status": "open"}).json()["results"]
    assert listed[0]["created_by"]["name"] == "أبو فهد"
    assert listed[0]["seats"][0]["name"] == "أبو فهد"


def test_an_empty_client_seed_is_refused_and_none_gets_one_made_for_the_player(api):
    """Found by a new user: ``"client_seed": ""`` was taken as "make one up for me". An empty
    seed is bad input (docs/fairness.md: 1 to 64 printable ASCII characters); a client that
    sends none at all gets one generated, shown back in the ``seat_taken`` event."""
    alice, bob = api("alice"), api("bob")
    tid = new_table(alice)["id"]
    for empty in ("",):
        r = alice.post(
            f"/api/tables/{tid}/seats/", {"seat": 0, "client_seed": empty}, format="json"
        )
        assert r.status_code == 400, r.content
        assert r.json()["error"].startswith("Your client seed: "), r.content
    assert not Seat.objects.filter(table_id=tid, user__isnull=False).exists()
    r = bob.post(f"/api/tables/{tid}/seats/", {"seat": 1}, format="json")
    assert r.status_code == 200, r.content
    seat = Seat.objects.get(table_id=tid, seat=1)
    assert re.fullmatch(r"[0-9a-f]{32}", seat.client_seed)


def test_a_taken_seats_refusal_names_no_other_seat_than_the_one_sent(api):
    """The failing case: asking the API for seat 2 (numbered 0-3) when it was taken
    answered "seat 3 is taken": the message numbered it 1-4 as the pages do. A refusal of
    the seat the caller chose names no number (the page's Sit and the API's ``seat`` each
    know which one they asked for); ``docs/api.md`` says how messages number seats."""
    from django.utils import translation

    alice, bob = api("alice"), api("bob")
    tid = new_table(alice)["id"]
    bob.post(f"/api/tables/{tid}/seats/", {"seat": 2, "client_seed": "b"}, format="json")
    r = alice.post(f"/api/tables/{tid}/seats/", {"seat": 2}, format="json")
    assert r.status_code == 409
    assert r.json() == {"error": "this seat is taken: choose another", "code": "seat_taken"}
    with translation.override("ar"):
        r = alice.post(
            f"/api/tables/{tid}/seats/", {"seat": 2}, format="json", HTTP_ACCEPT_LANGUAGE="ar"
        )
    assert r.json()["error"] == "هذا المقعد مشغول؛ اختر مقعدًا آخر"
