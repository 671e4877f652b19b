"""A rematch with the same four (``games.services.rematch``, ``/api/tables/{id}/rematch/``):
two players proposing at once make one table; the bots are re-seated on their seats; each
person's seat is held for them and they accept by sitting (their own seed, the stake into
escrow through the usual sit); a non-player is refused; a decline or a lapsed hold frees the
seat; everyone declining cancels it."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import Seat, Table, TableStatus
from games.services import rematch
from tests.accounts.matches import fund, make_match
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def _just_finished(players, **kwargs) -> Table:
    """A match of ``players`` (a user or None for a bot) that ended a minute ago."""
    started = timezone.now() - datetime.timedelta(minutes=31)
    return make_match(players, variant="complex_partner", started=started, **kwargs)


@pytest.fixture
def four(api):
    return [api(name) for name in ("alice", "bob", "carol", "dave")]


def _propose(client, table_id):
    return client.post(f"/api/tables/{table_id}/rematch/")


def test_a_rematch_keeps_the_table_its_bots_and_holds_each_persons_seat(api, tasks_applied_here):
    alice, bob = api("alice"), api("bob")
    source = _just_finished([alice.user, None, bob.user, None])
    r = _propose(alice, source.pk)
    assert r.status_code == 201, r.content
    body = r.json()
    new_id = body["rematch"]["table_id"]
    fresh = Table.objects.get(pk=new_id)
    assert fresh.rematch_of_id == source.pk and fresh.status == TableStatus.OPEN
    assert fresh.variant == source.variant and fresh.stake == source.stake
    assert fresh.options["play_timer"] == source.options.get(
        "play_timer", fresh.options["play_timer"]
    )
    assert fresh.private and fresh.invite_token and fresh.created_by_id == alice.user.pk
    seats = {s.seat: s for s in Seat.objects.filter(table=fresh)}
    assert seats[1].bot == "rules" and seats[3].bot == "rules"  # bots re-seated as bots
    assert seats[0].held_for_id == alice.user.pk and seats[0].user_id is None
    assert seats[2].held_for_id == bob.user.pk and seats[2].user_id is None
    answers = [s["answer"] for s in body["rematch"]["seats"]]
    assert answers == ["waiting", "bot", "waiting", "bot"]
    assert body["rematch"]["invite_url"] == f"/invite/{fresh.invite_token}/"
    assert body["can_propose"] is False
    # Bob's page reads it; a second proposal (Bob's) answers the same table, 200.
    seen = bob.get(f"/api/tables/{source.pk}/rematch/").json()
    assert seen["rematch"]["table_id"] == new_id and seen["rematch"]["seats"][2]["is_me"]
    again = _propose(bob, source.pk)
    assert again.status_code == 200 and again.json()["rematch"]["table_id"] == new_id
    assert Table.objects.filter(rematch_of=source).count() == 1
    # The seat held for each shows on the table's answer.
    shown = alice.get(f"/api/tables/{new_id}/").json()
    assert shown["rematch_of"] == source.pk and shown["holds_until"]
    assert shown["seats"][2]["held_for"]["id"] == bob.user.pk
    assert shown["seats"][1]["held_for"] is None
    # Each accepts by sitting at their held seat: the match starts when both sat.
    r = alice.post(
        f"/api/tables/{new_id}/seats/", {"seat": 0, "client_seed": "a-seed"}, format="json"
    )
    assert r.status_code == 200, r.content
    assert (
        bob.get(f"/api/tables/{source.pk}/rematch/").json()["rematch"]["seats"][0]["answer"]
        == "accepted"
    )
    r = bob.post(
        f"/api/tables/{new_id}/seats/", {"seat": 2, "client_seed": "b-seed"}, format="json"
    )
    assert r.status_code == 200, r.content
    fresh.refresh_from_db()
    assert fresh.status == TableStatus.PLAYING
    client_seeds = fresh.events.get(type="match_started").payload["client_seeds"]
    assert client_seeds["0"] == "a-seed" and client_seeds["2"] == "b-seed"


def test_a_held_seat_is_its_persons_alone_until_the_hold_lapses(api, tasks_applied_here):
    alice, bob, carol = api("alice"), api("bob"), api("carol")
    source = _just_finished([alice.user, None, bob.user, None])
    new_id = _propose(alice, source.pk).json()["rematch"]["table_id"]
    r = carol.post(f"/api/tables/{new_id}/seats/", {"seat": 2, "client_seed": "c"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "held", r.content
    assert "Bob" in r.json()["error"] or "bob" in r.json()["error"]
    r = alice.post(f"/api/tables/{new_id}/seats/", {"seat": 2, "client_seed": "a"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "held"
    r = alice.post(f"/api/tables/{new_id}/bots/", {"seat": 2, "bot": "rules"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "held"
    assert Seat.objects.get(table_id=new_id, seat=2).kind is None
    # The hold runs out: the seat is anybody's, and the creator may seat a bot on the other.
    Table.objects.filter(pk=new_id).update(holds_until=timezone.now())
    assert (
        bob.get(f"/api/tables/{source.pk}/rematch/").json()["rematch"]["seats"][2]["answer"]
        == "lapsed"
    )
    assert alice.get(f"/api/tables/{new_id}/").json()["seats"][2]["held_for"] is None
    r = carol.post(f"/api/tables/{new_id}/seats/", {"seat": 2, "client_seed": "c"}, format="json")
    assert r.status_code == 200, r.content
    r = alice.post(f"/api/tables/{new_id}/bots/", {"seat": 0, "bot": "rules"}, format="json")
    assert r.status_code == 200, r.content


def test_a_person_whose_seat_is_held_sits_there(api, tasks_applied_here):
    alice, bob = api("alice"), api("bob")
    source = _just_finished([alice.user, None, bob.user, None])
    new_id = _propose(bob, source.pk).json()["rematch"]["table_id"]
    Seat.objects.filter(table_id=new_id, seat=3).update(bot="")  # a free seat beside
    r = alice.post(f"/api/tables/{new_id}/seats/", {"seat": 3, "client_seed": "a"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "held_for_you", r.content
    assert "seat 1" in r.json()["error"]


def test_only_the_matchs_players_may_propose_it(api, tasks_applied_here):
    alice, bob, carol = api("alice"), api("bob"), api("carol")
    source = _just_finished([alice.user, None, bob.user, None])
    r = _propose(carol, source.pk)
    assert r.status_code == 403 and r.json()["code"] == "not_seated", r.content
    assert APIClient().post(f"/api/tables/{source.pk}/rematch/").status_code in (401, 403)
    assert not Table.objects.filter(rematch_of=source).exists()
    watched = carol.get(f"/api/tables/{source.pk}/rematch/").json()
    assert watched == {
        "table_id": source.pk,
        "can_propose": False,
        "open_until": None,
        "rematch": None,
    }
    assert alice.get(f"/api/tables/{source.pk}/rematch/").json()["can_propose"] is True
    _propose(alice, source.pk)
    # A spectator sees the rematch but not its secret invite link.
    assert carol.get(f"/api/tables/{source.pk}/rematch/").json()["rematch"]["invite_url"] is None


def test_a_rematch_follows_a_finished_match_within_the_window(api, tasks_applied_here):
    alice, bob = api("alice"), api("bob")
    playing = make_match([alice.user, None, bob.user, None], status=TableStatus.PLAYING)
    r = _propose(alice, playing.pk)
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    old = make_match(
        [alice.user, None, bob.user, None],
        started=timezone.now() - datetime.timedelta(hours=1),  # ended 30 minutes ago
    )
    r = _propose(alice, old.pk)
    assert r.status_code == 409 and r.json()["code"] == "rematch_closed", r.content
    assert "10 minutes" in r.json()["error"]
    tournament = _just_finished([alice.user, None, bob.user, None])
    Table.objects.filter(pk=tournament.pk).update(kind="tournament")
    r = _propose(alice, tournament.pk)
    assert r.status_code == 409 and r.json()["code"] == "no_rematch"
    assert _propose(alice, 999_999).status_code == 404
    assert not Table.objects.filter(rematch_of__isnull=False).exists()


def test_a_staked_rematch_stakes_through_the_sit_and_a_decline_refunds(api, tasks_applied_here):
    alice, bob = api("alice"), api("bob")
    source = _just_finished([alice.user, None, bob.user, None], stake=200)
    for client in (alice, bob):
        fund(client.user, 300)
    before = wallet_balance(alice.user)
    new_id = _propose(alice, source.pk).json()["rematch"]["table_id"]
    assert Table.objects.get(pk=new_id).stake == 200
    r = alice.post(
        f"/api/tables/{new_id}/seats/", {"seat": 0, "client_seed": "a-seed"}, format="json"
    )
    assert r.status_code == 200, r.content
    assert wallet_balance(alice.user) == before - 200
    # Alice changes her mind: declining leaves the seat, the stake comes back.
    r = alice.post(f"/api/tables/{source.pk}/rematch/decline/")
    assert r.status_code == 200, r.content
    assert wallet_balance(alice.user) == before
    assert r.json()["rematch"]["seats"][0]["answer"] == "declined"
    assert Table.objects.get(pk=new_id).status == TableStatus.OPEN  # Bob's seat still held
    r = bob.post(f"/api/tables/{source.pk}/rematch/decline/")
    assert r.status_code == 200
    assert Table.objects.get(pk=new_id).status == TableStatus.CANCELLED  # everyone declined
    assert r.json()["rematch"]["status"] == "cancelled"


def test_decline_checks_who_is_declining(api, tasks_applied_here):
    alice, bob, carol = api("alice"), api("bob"), api("carol")
    source = _just_finished([alice.user, None, bob.user, None])
    r = alice.post(f"/api/tables/{source.pk}/rematch/decline/")
    assert r.status_code == 409 and r.json()["code"] == "no_rematch"
    new_id = _propose(alice, source.pk).json()["rematch"]["table_id"]
    r = carol.post(f"/api/tables/{source.pk}/rematch/decline/")
    assert r.status_code == 403 and r.json()["code"] == "not_invited"
    r = bob.post(f"/api/tables/{source.pk}/rematch/decline/")
    assert r.status_code == 200
    again = bob.post(f"/api/tables/{source.pk}/rematch/decline/")
    assert again.status_code == 200  # repeated: nothing more changes
    assert Table.objects.get(pk=new_id).events.filter(type="rematch_declined").count() == 1
    # Bob's seat is free: anyone may take it before the hold would have lapsed.
    r = carol.post(f"/api/tables/{new_id}/seats/", {"seat": 2, "client_seed": "c"}, format="json")
    assert r.status_code == 200, r.content


def test_the_invite_link_opens_the_seat_held_for_the_visitor(api, client, tasks_applied_here):
    alice, bob = api("alice"), api("bob")
    source = _just_finished([alice.user, None, bob.user, None])
    body = _propose(alice, source.pk).json()["rematch"]
    client.force_login(bob.user)
    assert client.get(body["invite_url"])["Location"] == f"/tables/{body['table_id']}/#seat-2"
    client.logout()
    assert client.get(body["invite_url"])["Location"] == f"/tables/{body['table_id']}/"


def test_a_finished_table_has_one_rematch_in_the_database(api):
    alice, bob = api("alice"), api("bob")
    source = _just_finished([alice.user, None, bob.user, None])
    services.create_table(user=alice.user, variant="trix")
    first = services.create_table(user=alice.user, variant="trix")
    second = services.create_table(user=bob.user, variant="trix")
    Table.objects.filter(pk=first.pk).update(rematch_of=source)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.filter(pk=second.pk).update(rematch_of=source)


@pytest.mark.django_db(transaction=True)
def test_two_players_proposing_at_once_make_one_table(make_user, tasks_applied_here):
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    source = _just_finished(users)
    barrier = threading.Barrier(len(users))
    answers: dict = {}

    def propose(user):
        client = APIClient()
        client.force_login(user)
        try:
            barrier.wait(timeout=10)
            answers[user.username] = _propose(client, source.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=propose, args=(u,)) for u in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    codes = sorted(r.status_code for r in answers.values())
    assert codes == [200, 200, 200, 201], {k: r.content[:300] for k, r in answers.items()}
    made = {r.json()["rematch"]["table_id"] for r in answers.values()}
    assert len(made) == 1
    assert list(Table.objects.filter(rematch_of=source).values_list("pk", flat=True)) == list(made)
    held = Seat.objects.filter(table_id=made.pop()).order_by("seat")
    assert [s.held_for_id for s in held] == [u.pk for u in users]
    assert rematch.open_until(source) is not None
