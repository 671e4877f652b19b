"""Staked tables end to end with the wallet: stake on taking a seat, refund on leaving
before the start, short balance refused, settlement exactly once (also after a forfeit)."""

from __future__ import annotations

import pytest

from games.models import Table
from tests.games.helpers import new_table, seat_bots, wait_until
from wallet import selectors as wallet
from wallet import services as ledger
from wallet.payments import DemoProvider

pytestmark = pytest.mark.django_db(transaction=True)


def _fund(client, amount):
    ledger.deposit(
        user=client.user, amount=amount, key=f"fund:{client.user.pk}", provider=DemoProvider()
    )


def _settled(table_id):
    return wait_until(
        lambda: Table.objects.filter(pk=table_id, status="finished", settled=True).first(), 120
    )


def test_staked_matches_settle_once(worker, api):
    alice, bob, carol = api("alice"), api("bob"), api("carol")
    for c in (alice, bob, carol):
        _fund(c, 1000)
    # Solo table, two stakers, timers x0.01: nobody acts, the timeouts play the match.
    solo = new_table(alice, "complex", stake=300, choose_timer=2, double_timer=2, play_timer=2)
    r = carol.post(
        f"/api/tables/{solo['id']}/seats/", {"seat": 3, "client_seed": "seed-3"}, format="json"
    )
    assert r.status_code == 200 and wallet.wallet_balance(carol.user) == 700
    r = carol.post(f"/api/tables/{solo['id']}/leave/")  # before the start: refunded
    assert r.status_code == 200 and wallet.wallet_balance(carol.user) == 1000
    poor = api("poor")
    r = poor.post(
        f"/api/tables/{solo['id']}/seats/", {"seat": 3, "client_seed": "seed-3"}, format="json"
    )
    assert r.status_code == 400 and r.json()["code"] == "insufficient_funds"
    assert Table.objects.get(pk=solo["id"]).seats.get(seat=3).user is None
    for client, seat in ((alice, 0), (bob, 1)):
        r = client.post(
            f"/api/tables/{solo['id']}/seats/",
            {"seat": seat, "client_seed": f"seed-{seat}"},
            format="json",
        )
        assert r.status_code == 200
    # Partnership table: carol forfeits mid-match.
    forfeit = new_table(
        carol, "complex_partner", stake=200, choose_timer=3600, double_timer=3600, play_timer=3600
    )
    carol.post(
        f"/api/tables/{forfeit['id']}/seats/",
        {"seat": 0, "client_seed": "seed-0"},
        format="json",
    )
    seat_bots(carol, forfeit["id"], [1, 2])
    seat_bots(alice, solo["id"], [2, 3])
    seat_bots(carol, forfeit["id"], [3])
    wait_until(
        lambda: Table.objects.get(pk=forfeit["id"]).events.filter(type="deal_started").exists(),
        30,
    )
    r = carol.post(f"/api/tables/{forfeit['id']}/leave/")
    assert r.status_code == 200

    lost = _settled(forfeit["id"])
    assert lost.result["forfeit"] == 0 and lost.result["winner"] == "1+3"
    # The only staker: the wallet's split gives a lone staker's pot back (no other staker).
    assert wallet.wallet_balance(carol.user) == 1000
    assert wallet.is_escrow_closed(f"table:{forfeit['id']}")
    done = _settled(solo["id"])
    places = done.result["placements"]
    a, b = wallet.wallet_balance(alice.user), wallet.wallet_balance(bob.user)
    assert a + b == 2000
    if places["0"] < places["1"]:
        assert (a, b) == (1300, 700)
    elif places["1"] < places["0"]:
        assert (a, b) == (700, 1300)
    else:
        assert (a, b) == (1000, 1000)
    assert wallet.is_escrow_closed(f"table:{solo['id']}")
    # Settling again changes nothing.
    from games import services

    services.pay_pot(table_id=solo["id"])
    assert wallet.wallet_balance(alice.user) == a
    # A message queued under the task's former name (games.tasks.settle) still runs pay_pot.
    from games import tasks
    from trix_site.celery import app

    assert {"games.tasks.pay_pot", "games.tasks.settle"} <= set(app.tasks)
    tasks.settle(solo["id"])
    assert wallet.wallet_balance(alice.user) == a


def test_a_staked_seat_needs_the_players_own_client_seed(api):
    """Issue 12: at a staked table the server never makes a seat's client seed: a seat taken
    without one is refused (400, nothing staked); a casual table still makes one; bots keep
    the public "bot"."""
    alice = api("alice")
    _fund(alice, 1000)
    staked = new_table(alice, "complex", stake=300, choose_timer=30, double_timer=30, play_timer=30)
    r = alice.post(f"/api/tables/{staked['id']}/seats/", {"seat": 0}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert "a staked table needs your client seed" in r.json()["error"]
    assert wallet.wallet_balance(alice.user) == 1000
    row = Table.objects.get(pk=staked["id"])
    assert row.seats.get(seat=0).user is None and row.version == staked["version"]
    r = alice.post(
        f"/api/tables/{staked['id']}/seats/", {"seat": 0, "client_seed": "mine"}, format="json"
    )
    assert r.status_code == 200 and wallet.wallet_balance(alice.user) == 700
    seat_bots(alice, staked["id"], [1, 2, 3])
    receipt = Table.objects.get(pk=staked["id"]).receipt
    assert receipt["client_seeds"] == {"0": "mine", "1": "bot", "2": "bot", "3": "bot"}
    bob = api("bob")  # alice's match is on: one live seat (games.services.live_seats)
    casual = new_table(bob, "complex")
    r = bob.post(f"/api/tables/{casual['id']}/seats/", {"seat": 0}, format="json")
    assert r.status_code == 200
    made = Table.objects.get(pk=casual["id"]).seats.get(seat=0).client_seed
    assert len(made) == 32  # made by the server (documented for casual tables)
