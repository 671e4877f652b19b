"""One person, one live seat (``games.services.live_seats``): quick play seated a player at a
second staked match while their first was running (stake "10,5", then "١٠" from the lobby),
20.50 in play at once and one table lost to timeouts. A seat at a table whose match has not
ended (waiting or playing) ties its person: another sit, quick play or create is refused
(409 ``live_seat``) until that match ends or they leave, and two sits at once cannot both
pass."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from games import services
from games.errors import Conflict
from games.models import Seat, Table
from games.services import changes, lobby
from games.services import tables as tables_service
from tests.factories import UserFactory
from tests.games.helpers import new_table, wait_until
from wallet import services as ledger
from wallet.payments import DemoProvider
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)

TIMERS = {"choose_timer": 3600, "double_timer": 3600, "play_timer": 3600}


def _funded(make_user, name: str, amount: int = 5_000):
    user = make_user(name)
    ledger.deposit(user=user, amount=amount, key=f"fund:{user.pk}", provider=DemoProvider())
    return user


def _fill_by_quick_play(table: Table, stake: int) -> None:
    """Three more funded people's staked quick plays: they take ``table``'s free seats (a
    staked quick play seats no bots) and its match starts."""
    for n in range(3):
        who = UserFactory(funds=5_000)
        joined, _ = lobby.quick_play(user=who, stake=stake, client_seed=f"fill-{n}")
        assert joined.pk == table.pk


def test_quick_play_at_a_second_stake_is_refused_while_the_first_match_runs(
    make_user, tasks_applied_here
):
    """The players' report: quick play at 10.50 (the match started), then quick play at
    10.00 from the lobby: refused, nothing made, nothing staked. Nobody waits at 10.50, so
    the first table is opened as the lobby does it (commit first: quick play makes no table
    for a client seed): quick play without sitting, the table made, then the seat taken."""
    ali = _funded(make_user, "ali")
    assert lobby.quick_play(user=ali, stake=1050, sit=False) == (None, 0)
    first = services.create_table(user=ali, variant=lobby.DEFAULT_VARIANT, stake=1050)
    services.take_seat(user=ali, table_id=first.pk, seat=0, client_seed="seed-one")
    seat = changes.user_seat(first, ali).seat
    _fill_by_quick_play(first, 1050)
    assert Table.objects.get(pk=first.pk).status == "playing" and seat == 0
    tables_before = Table.objects.count()
    for sit in (True, False):  # the API's quick play, and the lobby page's (sit: false)
        with pytest.raises(Conflict) as refused:
            lobby.quick_play(user=ali, stake=1000, client_seed="seed-two", sit=sit)
        assert refused.value.code == "live_seat"
        assert f"table {first.pk}" in refused.value.message
    assert Table.objects.count() == tables_before
    assert wallet_balance(ali) == 5_000 - 1050


def test_a_seat_at_a_waiting_table_ties_its_person_until_they_leave(api, tasks_applied_here):
    amy, bea = api("amy"), api("bea")
    one, two = new_table(bea), new_table(bea)
    r = amy.post(f"/api/tables/{one['id']}/seats/", {"seat": 0}, format="json")
    assert r.status_code == 200, r.content
    r = amy.post(f"/api/tables/{two['id']}/seats/", {"seat": 1}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "live_seat", r.content
    assert f"table {one['id']}" in r.json()["error"]
    assert not Seat.objects.filter(table_id=two["id"], user=amy.user).exists()
    # Creating a table they could not sit at is refused the same way.
    r = amy.post("/api/tables/", {"variant": "complex_partner", "options": {}}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "live_seat", r.content
    # Left before the start: free again.
    assert amy.post(f"/api/tables/{one['id']}/leave/").status_code == 200
    r = amy.post(f"/api/tables/{two['id']}/seats/", {"seat": 1}, format="json")
    assert r.status_code == 200, r.content


def test_a_finished_or_cancelled_match_ties_nobody(make_user, tasks_applied_here):
    cat, host = make_user("cat"), make_user("host")
    playing, _ = lobby.quick_play(user=cat)
    assert Table.objects.get(pk=playing.pk).status == "playing"
    other = services.create_table(user=host, variant="complex_partner")
    with pytest.raises(Conflict):
        services.take_seat(user=cat, table_id=other.pk, seat=0)
    services.cancel_table(table_id=playing.pk, reason="test: the match ends")
    services.take_seat(user=cat, table_id=other.pk, seat=0)
    assert changes.user_seat(Table.objects.get(pk=other.pk), cat) is not None


def test_the_limit_is_a_setting(make_user, tasks_applied_here, settings):
    settings.TRIX_MAX_LIVE_SEATS = 2
    dan, host = make_user("dan"), make_user("host")
    tables = [services.create_table(user=host, variant="complex_partner") for _ in range(3)]
    services.take_seat(user=dan, table_id=tables[0].pk, seat=0)
    services.take_seat(user=dan, table_id=tables[1].pk, seat=0)
    with pytest.raises(Conflict) as refused:
        services.take_seat(user=dan, table_id=tables[2].pk, seat=0)
    assert refused.value.code == "live_seat" and "at most 2 seats" in refused.value.message
    settings.TRIX_MAX_LIVE_SEATS = 0  # no limit
    services.take_seat(user=dan, table_id=tables[2].pk, seat=0)


def test_the_refusal_is_in_arabic(api, tasks_applied_here):
    eve, host = api("eve"), api("host")
    one, two = new_table(host), new_table(host)
    eve.post(f"/api/tables/{one['id']}/seats/", {"seat": 0}, format="json")
    r = eve.post(
        f"/api/tables/{two['id']}/seats/", {"seat": 0}, format="json", HTTP_ACCEPT_LANGUAGE="ar"
    )
    assert r.status_code == 409 and "مقعد" in r.json()["error"], r.json()


def _other_backend_waits_on_a_lock(my_pid: int) -> bool:
    """Whether another connection to this test's database waits for a lock now. Inside a
    transaction PostgreSQL answers ``pg_stat_activity`` from a snapshot taken at its first
    read, so the snapshot is dropped first: each call looks anew."""
    with connections["default"].cursor() as cur:
        cur.execute("SELECT pg_stat_clear_snapshot()")
        cur.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> %s",
            [my_pid],
        )
        return cur.fetchone()[0] > 0


def test_two_sits_at_once_at_two_tables_seat_the_person_once(
    make_user, tasks_applied_here, monkeypatch
):
    """Both sits are held just before their table's lock until the other one has got as far
    as it can: either to that same point (nothing serialised the two: both would sit) or to
    a lock wait (the person's row, taken first by each sit). Exactly one seat is taken."""
    fay, host = make_user("fay"), make_user("host")
    tables = [services.create_table(user=host, variant="complex_partner") for _ in range(2)]
    arrived: list[int] = []
    guard = threading.Lock()
    real_lock_table = changes.lock_table

    def held_lock_table(table_id):
        with connection.cursor() as cur:
            cur.execute("SELECT pg_backend_pid()")
            pid = cur.fetchone()[0]
        with guard:
            arrived.append(pid)
        wait_until(lambda: len(arrived) == 2 or _other_backend_waits_on_a_lock(pid), 30)
        return real_lock_table(table_id)

    monkeypatch.setattr(changes, "lock_table", held_lock_table)
    results: dict[int, object] = {}

    def sit(table_id):
        try:
            services.take_seat(user=fay, table_id=table_id, seat=0)
            results[table_id] = "seated"
        except Conflict as exc:
            results[table_id] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=sit, args=(t.pk,)) for t in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(map(str, results.values())) == ["live_seat", "seated"], results
    assert Seat.objects.filter(user=fay).count() == 1


def _tournament_table(staff, person, seed: str = "entrant-seed") -> Table:
    """A tournament round's table (its seats assigned) with ``person`` at seat 0."""
    seats = [{"user": person, "client_seed": seed}] + [{"bot": "rules"}] * 3
    return services.create_seated_table(
        created_by=staff,
        variant="complex",
        options=TIMERS,
        seats=seats,
        origin="tournament:1/round:1/table:0",
    )


def test_a_tournament_table_takes_priority_over_a_waiting_staked_seat(
    make_user, tasks_applied_here
):
    """Waiting for players at a staked table when their tournament table opens: the seat is
    left and the stake refunded; the tournament seat is theirs."""
    gus, host, staff = _funded(make_user, "gus"), _funded(make_user, "host"), make_user("staff")
    waiting = services.create_table(user=host, variant="complex", stake=300, options=TIMERS)
    services.take_seat(user=gus, table_id=waiting.pk, seat=2, client_seed="gus-seed")
    assert wallet_balance(gus) == 5_000 - 300
    table = _tournament_table(staff, gus)
    assert changes.user_seat(table, gus).seat == 0
    waiting.refresh_from_db()
    assert waiting.status == "open" and changes.user_seat(waiting, gus) is None
    assert wallet_balance(gus) == 5_000
    assert waiting.events.filter(type="seat_left", payload__seat=2).exists()
    # The tournament seat is live: no casual seat meanwhile.
    with pytest.raises(Conflict) as refused:
        services.take_seat(user=gus, table_id=waiting.pk, seat=2, client_seed="gus-seed")
    assert refused.value.code == "live_seat" and f"table {table.pk}" in refused.value.message


def test_a_tournament_table_takes_priority_over_a_match_being_played(make_user, tasks_applied_here):
    """At a free table being played, a bot takes the seat over (a free table's leave); at a
    staked one the seat is marked away (played at once), its stake and result its player's."""
    hal, ida, staff = _funded(make_user, "hal"), _funded(make_user, "ida"), make_user("staff")
    free, _ = lobby.quick_play(user=hal)
    # Quick play makes no table for a client seed (commit first): ida opens hers, then sits.
    staked = services.create_table(user=ida, variant=lobby.DEFAULT_VARIANT, stake=200)
    services.take_seat(user=ida, table_id=staked.pk, seat=0, client_seed="ida-seed")
    _fill_by_quick_play(staked, 200)
    staked.refresh_from_db()
    assert {free.status, staked.status} == {"playing"}
    _tournament_table(staff, hal)
    _tournament_table(staff, ida)
    free.refresh_from_db()
    staked.refresh_from_db()
    assert changes.user_seat(free, hal) is None and free.seat_kinds[0] == "rules"
    assert free.status == "playing"
    assert changes.user_seat(staked, ida).seat == 0 and staked.away == [0]
    assert staked.events.filter(type="seat_away", payload__seat=0).exists()
    assert staked.status == "playing" and wallet_balance(ida) == 5_000 - 200


def test_a_tournament_table_leaves_other_tournament_tables_alone(make_user, tasks_applied_here):
    jo, staff = make_user("jo"), make_user("staff")
    first = _tournament_table(staff, jo)
    second = _tournament_table(staff, jo)
    assert changes.user_seat(first, jo) is not None and changes.user_seat(second, jo) is not None


def test_two_lobby_quick_plays_at_once_make_one_free_table(
    make_user, tasks_applied_here, monkeypatch
):
    """Quick play pressed in two tabs at once (the lobby's, ``sit=False``, free): each used
    to find no table and make its own, so one tab sat at the first and the other was refused
    at the second, left in the lobby with three bots. Both are held just before a table is
    made until the other one has got as far as it can (that same point, or a lock wait): one
    table is made, and both answers name its seat."""
    fay = make_user("fay")
    arrived: list[int] = []
    guard = threading.Lock()
    real_create_table = tables_service.create_table

    def held_create_table(**kwargs):
        with connection.cursor() as cur:
            cur.execute("SELECT pg_backend_pid()")
            pid = cur.fetchone()[0]
        with guard:
            arrived.append(pid)
        wait_until(lambda: len(arrived) == 2 or _other_backend_waits_on_a_lock(pid), 30)
        return real_create_table(**kwargs)

    monkeypatch.setattr(tables_service, "create_table", held_create_table)
    results: list[object] = []

    def quick():
        try:
            table, seat = lobby.quick_play(user=fay, stake=0, sit=False)
            results.append((table.pk, seat))
        except Exception as exc:  # noqa: BLE001 - the test reports what went wrong
            results.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=quick) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert Table.objects.filter(created_by=fay).count() == 1, results
    assert len(set(results)) == 1, results
