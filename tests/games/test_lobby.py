"""Quick play and invite links (issue 14): services and their API."""

from __future__ import annotations

import pytest

from games.models import Table
from games.services import lobby
from tests.games.helpers import new_table, seat_bots
from wallet import services as ledger
from wallet.payments import DemoProvider

pytestmark = pytest.mark.django_db(transaction=True)


def test_quick_play_creates_a_table_with_bots_then_others_join_open_ones(api, tasks_applied_here):
    alice, bob, carol = api("alice"), api("bob"), api("carol")
    r = alice.post("/api/quick-play/", {}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["seat"] == 0 and body["url"] == f"/tables/{body['table']['id']}/"
    kinds = [s["kind"] for s in body["table"]["seats"]]
    assert kinds == ["human", "bot", "bot", "bot"]  # nobody was waiting: bots fill it
    assert body["table"]["variant"] == lobby.DEFAULT_VARIANT and body["table"]["stake"] == 0
    # An open table of the default variant with free seats is joined, oldest first.
    open_one = new_table(bob)
    bob.post(f"/api/tables/{open_one['id']}/seats/", {"seat": 2}, format="json")
    r = carol.post("/api/quick-play/", {"stake": 0}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["table"]["id"] == open_one["id"] and r.json()["seat"] == 0
    # Asked again: the seat carol already holds.
    again = carol.post("/api/quick-play/", {}, format="json").json()
    assert (again["table"]["id"], again["seat"]) == (open_one["id"], 0)


def test_quick_play_joins_where_players_wait_never_an_empty_table(api, tasks_applied_here):
    """A new user's trial: quick play sent a player to an open table where nobody sat yet (the
    player's own, made a moment before, included), to wait for four players instead of a
    match that starts at once. It joins the table with the most seats taken (the oldest of
    those); with nobody waiting anywhere, a new table with bots."""
    ana, ben, cy, dee = api("ana"), api("ben"), api("cy"), api("dee")
    empty = new_table(ana)
    r = ana.post("/api/quick-play/", {}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["table"]["id"] != empty["id"]
    assert [s["kind"] for s in r.json()["table"]["seats"]] == ["human", "bot", "bot", "bot"]
    one = new_table(ben)
    ben.post(f"/api/tables/{one['id']}/seats/", {"seat": 0}, format="json")
    two = new_table(cy)
    cy.post(f"/api/tables/{two['id']}/seats/", {"seat": 0}, format="json")
    seat_bots(cy, two["id"], [1])
    r = dee.post("/api/quick-play/", {}, format="json")
    assert (r.json()["table"]["id"], r.json()["seat"]) == (two["id"], 2), r.content
    assert Table.objects.get(pk=empty["id"]).status == "open"


def test_quick_play_at_a_stake_needs_a_seed_and_the_money(api, tasks_applied_here):
    dora = api("dora")
    r = dora.post("/api/quick-play/", {"stake": 500}, format="json")
    assert r.status_code == 400 and "client seed" in r.json()["error"], r.content
    r = dora.post("/api/quick-play/", {"stake": 500, "client_seed": "s-1"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "insufficient_funds", r.content
    # Refused: no table left waiting with bots (the one made for the seat is cancelled).
    assert not Table.objects.filter(status="open", created_by=dora.user).exists()
    r = dora.post("/api/quick-play/", {"stake": -1}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content


def test_quick_play_without_sitting_chooses_a_seat_and_leaves_it_free(api, tasks_applied_here):
    """The lobby page's quick play (``sit: false``): the table page sits, after keeping the
    match's commitment, so the seed is sent only once the commitment is fixed (issue 12)."""
    gus, hana = api("gus", funds=500), api("hana")
    r = gus.post("/api/quick-play/", {"stake": 500, "sit": False}, format="json")
    assert r.status_code == 200, r.content  # no seed asked: nothing is staked yet
    body = r.json()
    # Staked, nobody waiting: no table until the player sits (the page then makes it).
    assert (body["table"], body["seat"], body["waiting_for"]) == (None, 0, 3), body
    assert not Table.objects.filter(created_by=gus.user).exists()
    # Their own staked table nobody sits at yet (made, the Sit not done): that one.
    own = new_table(gus, variant=lobby.DEFAULT_VARIANT, stake=500)
    again = gus.post("/api/quick-play/", {"stake": 500, "sit": False}, format="json").json()
    assert (again["table"]["id"], again["seat"]) == (own["id"], 0)
    assert [s["kind"] for s in again["table"]["seats"]] == [None] * 4  # staked: no bots
    # The seat is not held: another player's quick play is offered the same one.
    r = gus.post("/api/quick-play/", {"sit": False}, format="json")
    free = r.json()
    kinds = [s["kind"] for s in free["table"]["seats"]]
    assert free["seat"] == 0 and kinds == [None, "bot", "bot", "bot"], free
    r = hana.post("/api/quick-play/", {"sit": False}, format="json")
    assert (r.json()["table"]["id"], r.json()["seat"]) == (free["table"]["id"], 0), r.content


def test_quick_play_makes_no_table_for_a_player_who_could_not_stake(api, tasks_applied_here):
    """The lobby's quick play (``sit: false``) made a staked table with its bots for a player
    the table page's Sit then refused (no money, or no wallet yet: 'cannot stake 100: no
    account user:5'), and each such table waited 30 minutes (a new user's trial): the stake
    is asked first, as the seat would ask it."""
    ivy = api("ivy")  # never deposited: no wallet yet
    for sit in (False, True):
        body = {"stake": 100, "sit": sit, "client_seed": "s-1"}
        r = ivy.post("/api/quick-play/", body, format="json")
        assert r.status_code == 400 and r.json()["code"] == "insufficient_funds", r.content
        assert "Add money in /wallet/." in r.json()["error"]
    assert not Table.objects.filter(created_by=ivy.user).exists()
    # The table page's Sit at a staked table says the same to a player without a wallet.
    owner = api("owner", funds=100)
    table = new_table(owner, stake=100)
    r = ivy.post(
        f"/api/tables/{table['id']}/seats/", {"seat": 0, "client_seed": "s"}, format="json"
    )
    assert r.status_code == 400 and r.json()["code"] == "insufficient_funds", r.content
    assert "no account" not in r.json()["error"]


def test_a_private_table_is_unlisted_and_its_link_opens_a_free_seat(
    api, client, tasks_applied_here
):
    erin, frank = api("erin"), api("frank")
    table = new_table(erin)
    erin.post(f"/api/tables/{table['id']}/seats/", {"seat": 0}, format="json")
    r = frank.post(f"/api/tables/{table['id']}/invite/", {}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_creator", r.content
    r = erin.post(f"/api/tables/{table['id']}/invite/", {}, format="json")
    assert r.status_code == 200, r.content
    link = r.json()["invite_url"]
    token = Table.objects.get(pk=table["id"]).invite_token
    assert link == f"/invite/{token}/" and len(token) >= 20 and r.json()["private"] is True
    # Not listed for others or anonymous visitors; listed for its creator.
    listed = lambda c: [t["id"] for t in c.get("/api/tables/?status=open").json()["results"]]  # noqa: E731
    assert table["id"] not in listed(frank) and table["id"] not in listed(client)
    assert table["id"] in listed(erin)
    assert frank.get(f"/api/tables/{table['id']}/").json()["private"] is True
    # The link opens the table page at the first free seat; a made-up token is a 404.
    r = client.get(link)
    assert r.status_code == 302 and r["Location"] == f"/tables/{table['id']}/#seat-1"
    assert client.get("/invite/not-a-token/").status_code == 404
    # Quick play does not sit at a private table.
    r = frank.post("/api/quick-play/", {}, format="json")
    assert r.json()["table"]["id"] != table["id"]
    # Listed again when the creator says so.
    erin.post(f"/api/tables/{table['id']}/invite/", {"private": False}, format="json")
    assert table["id"] in listed(frank)


def test_quick_play_checks_the_stake_before_the_player(api, tasks_applied_here, settings):
    """A stake no table takes is 'invalid' whoever asks (a poor player was told to add money
    for it: a review), and a player who could not stake is offered no seat at an existing
    table either (its Sit would refuse them)."""
    poor, owner = api("poor"), api("owner2")
    r = poor.post("/api/quick-play/", {"stake": settings.TRIX_MAX_STAKE + 1}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content
    ledger.deposit(
        user=owner.user, amount=500, key=f"fund:{owner.user.pk}", provider=DemoProvider()
    )
    waiting = new_table(owner, variant=lobby.DEFAULT_VARIANT, stake=100)
    r = poor.post("/api/quick-play/", {"stake": 100, "sit": False}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "insufficient_funds", r.content
    assert Table.objects.get(pk=waiting["id"]).status == "open"


def test_a_seat_refused_after_the_check_cancels_only_an_empty_new_table(
    api, tasks_applied_here, monkeypatch
):
    """Between quick play's check and its seat the seat may be refused all the same (a live
    seat taken meanwhile by a quick play in another tab, the balance changed): the table made
    for the seat is cancelled; but not when another player sat there meanwhile (it is listed
    from its creation; a review cancelled one under a seated player), and a seat taken
    meanwhile (a Conflict) cancels nothing. Quick play makes a new table only for a player
    who sent no client seed (commit first): a free one here; at a stake, the player's own
    empty table made earlier is the one kept for the seat, and it goes the same way."""
    from games.errors import BadRequest, Conflict
    from games.services import tables

    kim, lee = api("kim"), api("lee")
    ledger.deposit(user=kim.user, amount=500, key=f"fund:{kim.user.pk}", provider=DemoProvider())
    real = tables.take_seat

    def live_meanwhile(**kw):
        raise Conflict("you sit at table 1 already", "live_seat")

    monkeypatch.setattr(tables, "take_seat", live_meanwhile)
    r = kim.post("/api/quick-play/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "live_seat", r.content
    made = Table.objects.filter(created_by=kim.user).latest("id")
    assert made.status == "cancelled"

    def lee_sits_first(**kw):
        real(user=lee.user, table_id=kw["table_id"], seat=1)
        raise Conflict("you sit at table 1 already", "live_seat")

    monkeypatch.setattr(tables, "take_seat", lee_sits_first)
    r = kim.post("/api/quick-play/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "live_seat", r.content
    kept = Table.objects.filter(created_by=kim.user).latest("id")
    assert kept.status == "open" and kept.seats.filter(user=lee.user).exists()

    def taken(**kw):
        raise Conflict("seat 1 is taken", "seat_taken")

    monkeypatch.setattr(tables, "take_seat", taken)
    r = kim.post("/api/quick-play/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken", r.content
    left = Table.objects.filter(created_by=kim.user).latest("id")
    assert left.pk != kept.pk and left.status == "open"

    # At a stake: kim's own table nobody sits at, made before the quick play with her seed.
    own = new_table(kim, variant=lobby.DEFAULT_VARIANT, stake=100)

    def short_meanwhile(**kw):
        raise BadRequest("your balance changed", "insufficient_funds")

    monkeypatch.setattr(tables, "take_seat", short_meanwhile)
    r = kim.post("/api/quick-play/", {"stake": 100, "client_seed": "s-1"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "insufficient_funds", r.content
    assert Table.objects.get(pk=own["id"]).status == "cancelled"
