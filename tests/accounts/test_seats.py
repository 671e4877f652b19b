"""One person, one seat (issue 16): a user never holds two seats at one table; at a staked
table each seat keeps a salted hash (HMAC-SHA256) of the address it was taken from, never
the address, and a second seat from one address is refused unless
``TRIX_SAME_ADDRESS_SEATS`` allows it. Free tables record and refuse nothing."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from django.db import IntegrityError, transaction

from games import services as tables
from games.errors import Conflict
from games.models import Seat
from games.services import lobby
from games.services.tables import ADDRESS_HASH_LABEL, address_hash
from tests.accounts.helpers import api_for, free_table, sit, staked_table
from wallet.models import Transaction
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db

HOME = "198.51.100.23"


@pytest.fixture(autouse=True)
def one_address_one_seat(settings):
    settings.TRIX_SAME_ADDRESS_SEATS = False  # the tests' settings allow it (all 127.0.0.1)


def test_a_user_never_holds_two_seats_at_a_staked_table(player):
    alice, bob = player(funds=1_000), player(funds=1_000)
    table = staked_table(bob)
    tables.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="a")
    with pytest.raises(Conflict) as refused:
        tables.take_seat(user=alice, table_id=table.pk, seat=1, client_seed="a")
    assert refused.value.code == "seated" and "you already sit at seat 1" in refused.value.message
    assert wallet_balance(alice) == 800  # staked once
    # The database refuses it too, whatever the code path.
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(table=table, seat=1).update(user=alice)


def test_a_second_seat_from_one_address_at_a_staked_table_is_refused(player):
    alice, bob, carol = player(funds=1_000), player(funds=1_000), player(funds=1_000)
    table = staked_table(carol)
    r = sit(api_for(alice, HOME), table.pk, 0)
    assert r.status_code == 200
    before = Transaction.objects.count()
    r = sit(api_for(bob, HOME), table.pk, 1)
    assert r.status_code == 409 and r.json()["code"] == "same_address"
    assert "took their seat from your internet address" in r.json()["error"]
    assert Transaction.objects.count() == before and wallet_balance(bob) == 1_000
    assert not Seat.objects.filter(table=table, user=bob).exists()
    # Another address is welcome.
    assert sit(api_for(bob, "198.51.100.99"), table.pk, 1).status_code == 200
    # A client's own X-Forwarded-For is not believed (no trusted proxy): still HOME.
    r = sit(api_for(carol, HOME), table.pk, 2, HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert r.status_code == 409 and r.json()["code"] == "same_address"


def test_the_address_is_freed_when_its_seat_is_left(player):
    alice, bob, carol = player(funds=1_000), player(funds=1_000), player(funds=1_000)
    table = staked_table(carol)
    assert sit(api_for(alice, HOME), table.pk, 0).status_code == 200
    assert api_for(alice, HOME).post(f"/api/tables/{table.pk}/leave/").status_code == 200
    assert Seat.objects.get(table=table, seat=0).address_hash == ""
    assert sit(api_for(bob, HOME), table.pk, 1).status_code == 200


def test_quick_play_passes_the_address(player):
    """Quick play sits a player with a client seed only at a table made before it (commit
    first): carol's, where she waits; alice's seat there keeps her address's hash."""
    alice, carol = player(funds=1_000), player(funds=1_000)
    waiting = tables.create_table(user=carol, variant=lobby.DEFAULT_VARIANT, stake=200)
    assert sit(api_for(carol, "198.51.100.99"), waiting.pk, 0).status_code == 200
    body = {"stake": 200, "client_seed": "quick"}
    r = api_for(alice, HOME).post("/api/quick-play/", body, format="json")
    assert r.status_code == 200, r.content
    first = r.json()["table"]["id"]
    assert first == waiting.pk
    seat = Seat.objects.get(table_id=first, user=alice)
    assert seat.address_hash == address_hash(HOME)


def test_the_setting_allows_seats_from_one_address(player, settings):
    settings.TRIX_SAME_ADDRESS_SEATS = True
    alice, bob, carol = player(funds=1_000), player(funds=1_000), player(funds=1_000)
    table = staked_table(carol)
    assert sit(api_for(alice, HOME), table.pk, 0).status_code == 200
    assert sit(api_for(bob, HOME), table.pk, 1).status_code == 200
    hashes = set(Seat.objects.filter(table=table).exclude(user=None).values_list("address_hash"))
    assert hashes == {(address_hash(HOME),)}  # still recorded


def test_free_tables_record_and_refuse_nothing(player):
    alice, bob, carol = player(funds=1_000), player(funds=1_000), player(funds=1_000)
    table = free_table(carol)
    assert sit(api_for(alice, HOME), table.pk, 0).status_code == 200
    assert sit(api_for(bob, HOME), table.pk, 1).status_code == 200
    assert set(Seat.objects.filter(table=table).values_list("address_hash", flat=True)) == {""}


def test_the_hash_is_a_keyed_hmac_and_never_the_address(player, settings):
    alice, bob = player(funds=1_000), player(funds=1_000)
    table = staked_table(bob)
    sit(api_for(alice, HOME), table.pk, 0)
    stored = Seat.objects.get(table=table, user=alice).address_hash
    assert len(stored) == 64 and int(stored, 16) >= 0
    assert HOME not in stored
    assert stored != hashlib.sha256(HOME.encode()).hexdigest()  # not a bare hash: keyed
    key = hashlib.sha256((ADDRESS_HASH_LABEL + settings.SECRET_KEY).encode()).digest()
    assert stored == hmac.new(key, HOME.encode(), hashlib.sha256).hexdigest()
    # Nothing in the seat's row holds the address.
    row = Seat.objects.filter(pk=Seat.objects.get(table=table, user=alice).pk).values().get()
    assert not any(HOME in str(value) for value in row.values())
    # TRIX_ADDRESS_SALT, when set, is the key instead.
    settings.TRIX_ADDRESS_SALT = "another-key"
    assert address_hash(HOME) != stored
