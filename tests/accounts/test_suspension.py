"""Suspension by staff (issue 16): recorded with who, when and why, and its lifting too; a
suspended account cannot stake (a seat at a staked table, an entry fee) or register for a
tournament, through the services, the API and the pages, with a clear message; withdrawals
stay possible; the player sees it on their profile and wallet pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from accounts.models import Suspension
from accounts.services import lift_suspension, suspend
from accounts.standing import suspension_in_force
from games import services as tables
from games.errors import NotAllowed
from games.models import Seat
from tests.accounts.helpers import api_for, sit, staked_table
from wallet import services as wallet
from wallet.models import Transaction
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def make_tournament(staff, **overrides):
    from tournaments import services as tournaments

    now = timezone.now()
    params = {
        "by": staff,
        "name": "Cup",
        "format": "swiss",
        "variant": "complex",
        "rounds": 2,
        "capacity": 16,
        "min_entrants": 4,
        "entry_fee": 0,
        "house_fee_bps": 1000,
        "prize_bps": [5000, 3000, 2000],
        "registration_opens_at": now - timedelta(minutes=1),
        "registration_closes_at": now + timedelta(minutes=30),
        "starts_at": now + timedelta(hours=1),
        "draw_secret": bytes(range(32)),
    }
    params.update(overrides)
    return tournaments.create_tournament(**params)


def test_only_staff_suspend_and_a_reason_is_required(player, staff):
    alice, bob = player(funds=1_000), player(funds=1_000)
    with pytest.raises(PermissionDenied):
        suspend(user=alice, by=bob, reason="I do not like them")
    with pytest.raises(ValidationError, match="Give the reason"):
        suspend(user=alice, by=staff, reason="  ")
    with pytest.raises(ValidationError, match="at most 1000"):
        suspend(user=alice, by=staff, reason="x" * 1001)
    assert not Suspension.objects.exists()


def test_suspension_and_its_lifting_are_recorded(player, staff):
    alice = player(funds=1_000)
    s = suspend(user=alice, by=staff, reason="chargeback under review")
    assert (s.suspended_by, s.reason, s.lifted_at) == (staff, "chargeback under review", None)
    assert s.suspended_at is not None and suspension_in_force(alice.pk) == s
    with pytest.raises(ValidationError, match="already suspended"):
        suspend(user=alice, by=staff, reason="again")
    with pytest.raises(ValidationError, match="Give the reason"):
        lift_suspension(user=alice, by=staff, reason="")
    lifted = lift_suspension(user=alice, by=staff, reason="chargeback withdrawn")
    assert lifted.pk == s.pk and lifted.lifted_by == staff and lifted.lifted_at is not None
    assert lifted.lift_reason == "chargeback withdrawn"
    assert suspension_in_force(alice.pk) is None
    with pytest.raises(ValidationError, match="not suspended"):
        lift_suspension(user=alice, by=staff, reason="again")
    suspend(user=alice, by=staff, reason="second time")
    assert Suspension.objects.filter(user=alice).count() == 2  # the record keeps both


def test_a_suspended_player_cannot_take_a_staked_seat(player, staff):
    alice, bob = player(funds=1_000), player(funds=1_000)
    suspend(user=alice, by=staff, reason="review")
    table = staked_table(bob)
    before = Transaction.objects.count()
    with pytest.raises(NotAllowed) as refused:
        tables.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="a")
    assert refused.value.code == "suspended"
    assert "Your account is suspended" in refused.value.message
    assert Transaction.objects.count() == before and wallet_balance(alice) == 1_000
    assert not Seat.objects.filter(user=alice).exists()
    # Through the API: 403 with the code and the message.
    r = sit(api_for(alice), table.pk, 1)
    assert r.status_code == 403 and r.json()["code"] == "suspended"
    assert "suspended" in r.json()["error"]
    # Withdrawals stay possible.
    wallet.withdraw(user=alice, amount=400, key="out")
    assert wallet_balance(alice) == 600
    # Lifted: the seat is taken.
    lift_suspension(user=alice, by=staff, reason="cleared")
    assert sit(api_for(alice), table.pk, 1).status_code == 200


def test_a_suspended_player_cannot_register_for_a_tournament(player, staff):
    from tournaments import services as tournaments
    from tournaments.errors import NotAllowed as TournamentNotAllowed

    alice = player(funds=1_000)
    free = make_tournament(staff, name="Free cup")
    paid = make_tournament(staff, name="Paid cup", entry_fee=100)
    suspend(user=alice, by=staff, reason="review")
    for t in (free, paid):
        with pytest.raises(TournamentNotAllowed) as refused:
            tournaments.register(tournament_id=t.pk, by=alice, client_seed="s")
        assert refused.value.code == "suspended"
        assert not t.entries.exists()
    assert wallet_balance(alice) == 1_000
    client = api_for(alice)
    r = client.post(f"/api/tournaments/{paid.pk}/register/", {"client_seed": "s"}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "suspended"
    assert "suspended" in r.json()["error"]
    lift_suspension(user=alice, by=staff, reason="cleared")
    r = client.post(f"/api/tournaments/{paid.pk}/register/", {"client_seed": "s"}, format="json")
    assert r.status_code == 200 and wallet_balance(alice) == 900


def test_the_player_sees_the_suspension_on_profile_and_wallet(player, staff, client):
    alice = player(funds=1_000)
    client.force_login(alice)
    assert 'data-testid="suspended"' not in client.get("/accounts/profile/").content.decode()
    suspend(user=alice, by=staff, reason="internal note: chargeback")
    for url in ("/accounts/profile/", "/wallet/"):
        page = client.get(url).content.decode()
        assert 'data-testid="suspended"' in page and "Your account is suspended since" in page
        assert "internal note" not in page  # staff's reason is not shown to the player


def test_staff_suspend_and_lift_in_the_admin(player, admin_client, admin_user):
    alice = player(funds=1_000)
    r = admin_client.post(
        "/admin/accounts/suspension/add/", {"user": alice.pk, "reason": "fraud review"}
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    s = Suspension.objects.get(user=alice)
    assert (s.suspended_by, s.reason, s.lifted_at) == (admin_user, "fraud review", None)
    # A second suspension in force is refused with the message, nothing added.
    r = admin_client.post(
        "/admin/accounts/suspension/add/", {"user": alice.pk, "reason": "again"}, follow=True
    )
    assert "already suspended" in r.content.decode()
    assert Suspension.objects.filter(user=alice).count() == 1
    page = admin_client.get(f"/admin/accounts/suspension/{s.pk}/change/").content.decode()
    assert "fraud review" in page and "Lift the suspension" in page
    r = admin_client.post(f"/admin/accounts/suspension/{s.pk}/change/", {"lift": "cleared"})
    assert r.status_code == 302
    s.refresh_from_db()
    assert (s.lifted_by, s.lift_reason) == (admin_user, "cleared") and s.lifted_at
    # The profile list shows the standing.
    page = admin_client.get("/admin/accounts/profile/").content.decode()
    assert "column-verification" in page and "column-suspended" in page
    assert admin_client.get("/admin/accounts/verification/").status_code == 200
    assert admin_client.get("/admin/accounts/closure/").status_code == 200
