"""A real match through the API and the worker: its end is rated by the signal's task."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Table
from ratings import services
from ratings.models import Rating, RatingChange
from ratings.rating import INITIAL, bot_skill, rate_match
from tests.games.helpers import new_table, play_seat, seat_bots, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_finished_match_is_rated_by_the_worker(worker, api):
    alice = api("alice")
    table = new_table(alice, variant="complex", choose_timer=0, double_timer=0, play_timer=0)
    r = alice.post(
        f"/api/tables/{table['id']}/seats/", {"seat": 1, "client_seed": "alice"}, format="json"
    )
    assert r.status_code == 200, r.content
    assert r.json()["seats"][1]["rating"] == INITIAL.display  # a newcomer
    seat_bots(alice, table["id"], [0, 2], bot="rules")
    seat_bots(alice, table["id"], [3], bot="random")
    first = alice.get(f"/api/tables/{table['id']}/state/").json()
    assert [s["rating"] for s in first["table"]["seats"]] == [1475, 1000, 1475, 1300]

    last = play_seat(alice, table["id"], timeout=600)
    assert last["table"]["status"] == "finished"
    change = wait_until(
        lambda: RatingChange.objects.filter(table_id=table["id"]).first(), timeout=60
    )
    done = Table.objects.get(pk=table["id"])
    places = {int(s): p for s, p in done.result["placements"].items()}
    skills = {0: bot_skill("rules"), 1: INITIAL, 2: bot_skill("rules"), 3: bot_skill("random")}
    expected = rate_match(family="solo", skills=skills, placements=places, fixed={0, 2, 3})[1]
    assert (change.user_id, change.seat, change.place) == (alice.user.pk, 1, places[1])
    rating = Rating.objects.get(user=alice.user, family="solo")
    assert (rating.mu, rating.sigma) == pytest.approx((expected.mu, expected.sigma), abs=1e-9)
    assert rating.display == expected.display == change.display_after and rating.matches == 1
    assert RatingChange.objects.filter(table_id=table["id"]).count() == 1  # bots: none

    # The result panel's answer, and the seat's new rating in the table's answer.
    body = APIClient().get(f"/api/ratings/tables/{table['id']}/").json()
    assert body["rated"] and body["changes"][0]["after"] == expected.display
    wait_until(
        lambda: (
            alice.get(f"/api/tables/{table['id']}/state/").json()["table"]["seats"][1]["rating"]
            == expected.display
        ),
        timeout=10,
    )
    # Rated once: again (a resent signal, the sweep) changes nothing.
    assert services.rate_table(table_id=table["id"])[0].pk == change.pk
    assert services.rate_unrated() == 0
    assert Rating.objects.get(user=alice.user, family="solo").matches == 1
