"""The reads the pages and the API use: lists by status, the detail page in money, "my
tournaments" and the one live version per tournament."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.selectors import live_answer

pytestmark = pytest.mark.django_db


def test_list_detail_mine_and_the_live_version(make_tournament, player, staff):
    t = make_tournament(prize_bps=[6000, 4000])
    draft = make_tournament(draft=True, name="Hidden")
    alice, bob = player("alice"), player("bob")
    v0 = selectors.live_version(t.pk)
    services.register(tournament_id=t.pk, by=alice, client_seed="a")
    v1 = selectors.live_version(t.pk)
    assert v1 > v0
    services.register(tournament_id=t.pk, by=bob, client_seed="my-seed")
    assert selectors.live_version(t.pk) > v1

    groups = selectors.tournament_list()
    assert [x["id"] for x in groups["upcoming"]] == [t.pk]
    assert draft.pk not in [x["id"] for g in groups.values() for x in g]
    assert groups["upcoming"][0]["registered"] == 2
    assert groups["upcoming"][0]["format_name_ar"] == "النظام السويسري"

    detail = selectors.tournament_detail(t.pk)
    # 200 in the pool less the 10 % house fee: 180, split 60/40.
    assert [(p["place"], p["amount"]) for p in detail["prize_table"]] == [(1, 108), (2, 72)]
    assert detail["prize_table"][0]["text"] == "1.08 USD"
    assert {e["name"] for e in detail["entrants"]} == {"alice", "bob"}
    assert detail["admin_actions"][0]["action"] == "create"
    assert selectors.tournament_detail(999999) is None

    mine = selectors.my_tournaments(alice)
    assert [(x["id"], x["entry_status"]) for x in mine] == [(t.pk, "registered")]
    assert selectors.is_registered(t.pk, alice) and not selectors.is_registered(draft.pk, alice)
    assert selectors.bracket(t.pk)["rounds"] == []
    assert selectors.standings(t.pk) == []
    Tournament.objects.filter(pk=t.pk).update(status="cancelled")
    assert [x.pk for x in selectors.tournaments_by_status("finished")] == [t.pk]
    with pytest.raises(ValueError):
        selectors.tournaments_by_status("someday")


def test_client_seeds_are_published_when_registration_closes(make_tournament, player):
    """Before the close nobody reads another entrant's client seed (a fresh reviewer found
    them public while the page said they are published at the close)."""
    t = make_tournament()
    services.register(tournament_id=t.pk, by=player(), client_seed="alice-seed")
    assert [e["client_seed"] for e in selectors.entrants(t)] == [None]
    services.close_registration(tournament_id=t.pk)
    t.refresh_from_db()
    assert [e["client_seed"] for e in selectors.entrants(t)] == ["alice-seed"]


def test_the_live_page_reads_the_tournament_and_its_rounds_once(make_tournament, player, staff):
    """Every streams process reads a watched tournament's live page at each of its changes
    (issue 15): the tournament and its rounds are read once, the names without loading
    users, and the page holds what the separate reads give."""
    t = make_tournament()
    players = [player(f"p{i}") for i in range(4)]
    for i, p in enumerate(players):
        services.register(tournament_id=t.pk, by=p, client_seed=f"seed-{i}")
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    services.advance(tournament_id=t.pk)
    with CaptureQueriesContext(connection) as queries:
        page = live_answer._live_page(t.pk, selectors.live_version(t.pk))
    statements = [q["sql"] for q in queries.captured_queries]
    whole_rows = [s for s in statements if s.startswith('SELECT "tournaments_tournament"."id"')]
    assert len(whole_rows) == 1, whole_rows
    assert len([s for s in statements if 'FROM "tournaments_round" ' in s]) == 1, statements
    assert not [s for s in statements if '"auth_user"."password"' in s]
    assert page["rounds"] and page["rounds"] == selectors.bracket(t.pk)["rounds"]
    assert page["standings"] == selectors.standings(t.pk) != []
    assert {e["name"] for e in page["entrants"]} == {f"p{i}" for i in range(4)}


def test_the_live_page_marks_a_disqualified_entrant_at_the_table_being_played(
    make_tournament, player, staff
):
    """A disqualification shows at the entrant's table at once, not only in the table's
    result when it ends (an admin's trial: they looked like a normal player until then)."""
    t = make_tournament()
    players = [player(f"dq{i}") for i in range(4)]
    for i, p in enumerate(players):
        services.register(tournament_id=t.pk, by=p, client_seed=f"seed-{i}")
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    services.advance(tournament_id=t.pk)
    entry = services.disqualify(tournament_id=t.pk, by=staff, user_id=players[1].pk, reason="x")
    table = APIClient().get(f"/api/tournaments/{t.pk}/live/").json()["rounds"][0]["tables"][0]
    assert table["table_status"] == "playing" and table["result"] is None
    assert table["disqualified"] == [entry.entrant]


def test_the_live_page_names_teams_not_their_ids(make_tournament, player, staff):
    """A partnership event's page shows a bye's team and an entrant's team by the partners'
    names ("T5" meant nothing to the players)."""
    t = make_tournament(variant="complex_partner", capacity=4, min_entrants=2)
    users = [player(f"pair{i}") for i in range(6)]
    for i in range(0, 6, 2):
        services.register(tournament_id=t.pk, by=users[i], client_seed=f"s{i}")
        team = services.invite_partner(
            tournament_id=t.pk, by=users[i], display_name=users[i + 1].username
        )
        services.accept_invite(team_id=team.pk, by=users[i + 1], client_seed=f"s{i + 1}")
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    services.advance(tournament_id=t.pk)
    page = APIClient().get(f"/api/tournaments/{t.pk}/live/").json()
    (bye,) = page["rounds"][0]["byes"]
    names = {e["team"]: e["team_name"] for e in page["entrants"]}
    first = [x["team"] for x in page["teams"]].index(bye)  # the bye's team, 0..2
    assert page["rounds"][0]["bye_names"] == [f"pair{2 * first} & pair{2 * first + 1}"]
    assert names[bye] == page["rounds"][0]["bye_names"][0]
    assert all(not n.startswith("T") for n in names.values())
