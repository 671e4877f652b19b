"""Quick play at a stake (``games.services.lobby.quick_play``). Bots never stake, so a staked
table of one person and three bots has no pot: a new player's staked quick play held the
stake for a match nothing could be won at, and only the result panel said so afterwards. A
staked quick play seats no bots: it joins a staked table where people wait and no bot sits,
or opens one that waits for players, and its answer says so (``waiting_for``, ``notice``)
before the lobby's table page takes the stake."""

from __future__ import annotations

import pytest

from games import services
from games.errors import Conflict
from games.models import Seat, Table
from games.services import lobby
from tests.games.helpers import new_table
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)


def _bots(table: Table) -> int:
    return Seat.objects.filter(table=table).exclude(bot="").count()


def _open_staked(who, stake: int, seed: str) -> Table:
    """What the lobby does where no table waits at ``stake`` (commit first): quick play
    without sitting offers none, the player makes the table, keeps its commitment, then
    sits at seat 0 with their client seed and that commitment."""
    assert lobby.quick_play(user=who, stake=stake, sit=False) == (None, 0)
    table = services.create_table(user=who, variant=lobby.DEFAULT_VARIANT, stake=stake)
    services.take_seat(
        user=who, table_id=table.pk, seat=0, client_seed=seed, commitment=table.commitment
    )
    return Table.objects.get(pk=table.pk)


def test_a_staked_quick_play_opens_a_table_that_waits_for_players(make_user, tasks_applied_here):
    """No staked table waits: quick play makes none for a client seed (commit first: 409
    ``commitment_first``); the player opens one, which waits for players with no bots."""
    ali = make_user("ali", funds=1_000)
    tables_before = Table.objects.count()
    with pytest.raises(Conflict) as refused:
        lobby.quick_play(user=ali, stake=500, client_seed="ali-seed")
    assert refused.value.code == "commitment_first"
    assert Table.objects.count() == tables_before and wallet_balance(ali) == 1_000
    opened = _open_staked(ali, 500, "ali-seed")
    # Her quick play now (the lobby after the Sit): the table she opened and waits at.
    table, seat = lobby.quick_play(user=ali, stake=500, client_seed="ali-seed")
    assert table.pk == opened.pk
    table.refresh_from_db()
    assert (table.status, table.stake, seat) == ("open", 500, 0)
    assert _bots(table) == 0 and Seat.objects.get(table=table, seat=0).user == ali
    assert lobby.waiting_for(table, seat) == 3
    assert wallet_balance(ali) == 500  # held at a table that waits: refunded on a leave
    services.leave(user=ali, table_id=table.pk)
    assert wallet_balance(ali) == 1_000


def test_staked_quick_plays_fill_a_table_with_people_who_all_stake(make_user, tasks_applied_here):
    """The first player opens the table (quick play makes none for a seed: commit first);
    the next three players' staked quick plays fill it."""
    people = [make_user(f"p{n}", funds=1_000) for n in range(4)]
    first = _open_staked(people[0], 500, "seed-0")
    made, waits = {first.pk}, [lobby.waiting_for(first, 0)]
    for n, who in enumerate(people[1:], start=1):
        table, seat = lobby.quick_play(user=who, stake=500, client_seed=f"seed-{n}")
        made.add(table.pk)
        waits.append(lobby.waiting_for(table, seat))
    assert len(made) == 1 and waits == [3, 2, 1, 0]
    table = Table.objects.get(pk=made.pop())
    assert table.status == "playing" and _bots(table) == 0
    assert sorted(Seat.objects.filter(table=table).values_list("staked", flat=True)) == [500] * 4
    assert all(wallet_balance(who) == 500 for who in people)


def test_a_staked_quick_play_never_joins_a_table_where_a_bot_sits(make_user, tasks_applied_here):
    """A creator's staked table with a bot seated: a quick player there could end up the
    creator's partner against bots (nothing to win) or alone with them; quick play never
    offers it: alone, it offers no table (the player opens one), and it joins a table where
    people alone wait, though the bot's table has more seats taken. A free quick play still
    fills its table with bots."""
    host, guest = make_user("host", funds=1_000), make_user("guest", funds=1_000)
    with_bot = services.create_table(user=host, variant=lobby.DEFAULT_VARIANT, stake=500)
    services.take_seat(user=host, table_id=with_bot.pk, seat=0, client_seed="host-seed")
    services.seat_bot(user=host, table_id=with_bot.pk, seat=1, bot="rules")
    assert lobby.quick_play(user=guest, stake=500, sit=False) == (None, 0)
    with pytest.raises(Conflict) as refused:  # no table made for its seed (commit first)
        lobby.quick_play(user=guest, stake=500, client_seed="guest-seed")
    assert refused.value.code == "commitment_first"
    assert not Seat.objects.filter(user=guest).exists()
    people_only = _open_staked(make_user("pat", funds=1_000), 500, "pat-seed")
    table, seat = lobby.quick_play(user=guest, stake=500, client_seed="guest-seed")
    assert table.pk == people_only.pk != with_bot.pk and _bots(table) == 0 and seat == 1
    free, _ = lobby.quick_play(user=make_user("cy"))
    assert _bots(free) == 3 and Table.objects.get(pk=free.pk).status == "playing"


def test_the_lobbys_staked_quick_play_says_the_table_waits_before_anything_is_staked(
    api, tasks_applied_here
):
    """The lobby's quick play (``sit: false``; the table page then sits) is told, before its
    stake is held, that the table waits for players and why, in the player's language.

    The failing case: it made the table at once, so the lobby listed an empty table (four
    free seats) while the player read the notice, and if the "Sit and wait" came late that
    table had gone as an empty one after 3 minutes. Where nobody waits at that stake, no
    table is made before the player sits: the answer says a new one opens when they do."""
    gus = api("gus", funds=1_000)
    made = Table.objects.count()
    r = gus.post("/api/quick-play/", {"stake": 500, "sit": False}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert Table.objects.count() == made
    assert (body["table"], body["url"], body["seat"], body["waiting_for"]) == (None, None, 0, 3)
    assert body["notice"] == (
        "No table at a stake of 5.00 USD has players waiting, so sitting opens a new one for "
        "you. Bots never stake, so quick play seats no bots at a staked table: your table "
        "waits for 3 more players, and the match starts when all four seats are taken. Your "
        "stake is held from when you sit until then; it comes back if you leave before the "
        "start, or if the table is still not full 30 minutes after it opened."
    )
    assert wallet_balance(gus.user) == 1_000  # nothing held before the table page's Sit
    r = gus.post(
        "/api/quick-play/", {"stake": 500, "sit": False}, format="json", HTTP_ACCEPT_LANGUAGE="ar"
    )
    arabic = r.json()
    assert arabic["waiting_for"] == 3 and arabic["table"] is None
    assert "الروبوتات لا تراهن" in arabic["notice"] and "5.00 USD" in arabic["notice"]


def test_a_player_waiting_at_a_staked_table_is_told_so_by_quick_play(api, tasks_applied_here):
    """Quick play again while seated at the staked table that waits (the lobby after the
    table page's Sit): that table, and a notice that says the player sits there and how many
    more it waits for, not the offer to sit (not the "no open tables" it said)."""
    gus = api("gus", funds=1_000)
    table = gus.post(
        "/api/tables/", {"variant": lobby.DEFAULT_VARIANT, "stake": 500}, format="json"
    ).json()
    r = gus.post(
        f"/api/tables/{table['id']}/seats/", {"seat": 0, "client_seed": "g"}, format="json"
    )
    assert r.status_code == 200, r.content
    body = gus.post("/api/quick-play/", {"stake": 500, "sit": False}, format="json").json()
    assert (body["table"]["id"], body["seat"], body["waiting_for"]) == (table["id"], 0, 3)
    assert body["table"]["seats"][0]["is_me"]
    assert body["notice"] == (
        f"You sit at table {table['id']} with a stake of 5.00 USD: it waits for 3 more "
        "players, and the match starts when all four seats are taken. Your stake comes back if "
        "you leave before the start, or if the table is still not full 30 minutes after it "
        "opened."
    )
    r = gus.post(
        "/api/quick-play/", {"stake": 500, "sit": False}, format="json", HTTP_ACCEPT_LANGUAGE="ar"
    )
    assert f"الطاولة {table['id']}" in r.json()["notice"]


def test_the_apis_staked_quick_play_says_the_stake_waits_with_the_player(api, tasks_applied_here):
    """``POST /api/quick-play/`` (sitting): the answer says how many players the table waits
    for; the second staker joins the first's table; a free quick play starts at once. The
    first staker, whom no table waits for, opens one (commit first: quick play makes no table
    for a client seed): ``sit: false``, then ``POST /api/tables/`` and its seat with the seed
    and the commitment kept."""
    ana, ben = api("ana", funds=1_000), api("ben", funds=1_000)
    offer = ana.post("/api/quick-play/", {"stake": 200, "sit": False}, format="json").json()
    assert (offer["table"], offer["waiting_for"]) == (None, 3)
    made = new_table(ana, variant=lobby.DEFAULT_VARIANT, stake=200)
    body = {"seat": 0, "client_seed": "ana", "commitment": made["commitment"]}
    r = ana.post(f"/api/tables/{made['id']}/seats/", body, format="json")
    assert r.status_code == 200, r.content
    first = ana.post("/api/quick-play/", {"stake": 200, "client_seed": "ana"}, format="json")
    assert first.status_code == 200, first.content
    assert (first.json()["table"]["id"], first.json()["seat"]) == (made["id"], 0)
    assert first.json()["waiting_for"] == 3 and "3 more players" in first.json()["notice"]
    second = ben.post("/api/quick-play/", {"stake": 200, "client_seed": "ben"}, format="json")
    assert second.json()["table"]["id"] == first.json()["table"]["id"]
    assert (second.json()["seat"], second.json()["waiting_for"]) == (1, 2)
    assert "2 more players" in second.json()["notice"]
    free = api("cy").post("/api/quick-play/", {}, format="json").json()
    assert (free["waiting_for"], free["notice"], free["table"]["status"]) == (0, "", "playing")
