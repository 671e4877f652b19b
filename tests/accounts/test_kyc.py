"""Identity before staking (issue 16): an unverified account is refused a stake (a table's,
a tournament's entry fee) and withdrawals above ``TRIX_KYC_WITHDRAW_ABOVE`` in all within
``TRIX_KYC_WITHDRAW_DAYS``, plays free tables and makes small withdrawals; once verified (the
demo provider) it may do both. Every refusal changes nothing. The users here are created
unverified (marker ``unverified``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts import kyc
from accounts.models import Verification
from accounts.services import start_verification
from accounts.standing import verification_status
from games import services as tables
from games.errors import NotAllowed
from games.models import Seat, Table
from tests.accounts.helpers import api_for, free_table, sit, staked_table
from wallet import executor_pg
from wallet import services as wallet
from wallet.errors import Refused
from wallet.models import Transaction
from wallet.selectors import wallet_balance

pytestmark = [pytest.mark.django_db, pytest.mark.unverified]


def verified(user):
    """``user``, verified (the demo provider): a table's creator who may make a staked one."""
    start_verification(user=user)
    return user


@pytest.fixture(params=["function", "orm"])
def executor(request, monkeypatch):
    """Both ledger executors (the PL/pgSQL function and the ORM) ask the gates."""
    monkeypatch.setattr(executor_pg, "POSTGRES_FUNCTION", request.param == "function")
    return request.param


def test_a_new_account_is_unverified(player):
    alice = player(funds=1_000)
    assert verification_status(alice.pk) == "unverified"
    assert not Verification.objects.filter(user=alice).exists()


def test_unverified_is_refused_a_stake_and_plays_free_tables(player, executor):
    alice, bob = player(funds=1_000), verified(player(funds=1_000))
    table = staked_table(bob)
    before = Transaction.objects.count()
    with pytest.raises(NotAllowed) as refused:
        tables.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="a")
    assert refused.value.code == "kyc_required"
    message = refused.value.message
    assert "Verify your identity on /accounts/verification/ before you stake" in message
    assert "/accounts/verification/" in refused.value.message
    assert wallet_balance(alice) == 1_000 and Transaction.objects.count() == before
    assert not Seat.objects.filter(table=table, user=alice).exists()
    # Straight at the ledger too (the gate is asked inside the posting).
    with pytest.raises(Refused) as refused:
        wallet.stake(user=alice, table_ref=table.ref, amount=200, key="direct-stake")
    assert refused.value.code == "kyc_required" and wallet_balance(alice) == 1_000
    # A free table asks nothing.
    free = free_table(bob)
    tables.take_seat(user=alice, table_id=free.pk, seat=0, client_seed="a")
    assert Seat.objects.get(table=free, seat=0).user == alice


def test_unverified_is_refused_creating_a_staked_table(player):
    """Creating a staked table asks what sitting at it asks (no money moves yet): the API
    answers 403 ``kyc_required`` and makes nothing; a free table needs no verification."""
    alice = player(funds=1_000)
    before = Table.objects.count()
    with pytest.raises(NotAllowed) as refused:
        staked_table(alice)
    assert refused.value.code == "kyc_required"
    r = api_for(alice).post("/api/tables/", {"variant": "trix", "stake": 200}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "kyc_required"
    assert "/accounts/verification/" in r.json()["error"]
    assert Table.objects.count() == before
    assert free_table(alice).stake == 0
    start_verification(user=alice)
    assert staked_table(alice).stake == 200


def test_verified_may_stake(player, executor):
    alice, bob = player(funds=1_000), verified(player(funds=1_000))
    record, url = start_verification(user=alice)
    assert (record.status, record.provider, url) == ("verified", "demo", "")
    assert record.reference.startswith("demo-") and record.checked_at is not None
    table = staked_table(bob)
    tables.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="a")
    assert wallet_balance(alice) == 800


def test_withdrawals_up_to_the_setting_need_no_verification(player, settings, executor):
    settings.TRIX_KYC_WITHDRAW_ABOVE = 300
    alice = player(funds=1_000)
    wallet.withdraw(user=alice, amount=300, key="small")  # exactly at the setting
    assert wallet_balance(alice) == 700
    with pytest.raises(Refused) as refused:
        wallet.withdraw(user=alice, amount=301, key="large")  # one unit over
    assert refused.value.code == "kyc_required"
    assert "withdraw more than 3.00 USD within 30 days" in str(refused.value)
    assert wallet_balance(alice) == 700
    assert not Transaction.objects.filter(idempotency_key="large").exists()
    start_verification(user=alice)
    wallet.withdraw(user=alice, amount=301, key="large")
    assert wallet_balance(alice) == 399


def test_a_large_withdrawal_split_in_three_is_refused_the_third(player, settings, executor):
    """6,000.00 deposited and taken back as three withdrawals of 2,000.00: each is at the
    threshold, but they add up over the rolling window (``TRIX_KYC_WITHDRAW_DAYS``), so the
    second is already past it."""
    assert settings.TRIX_KYC_WITHDRAW_ABOVE == 200_000 and settings.TRIX_KYC_WITHDRAW_DAYS == 30
    alice = player(funds=600_000)
    wallet.withdraw(user=alice, amount=200_000, key="split-1")
    for key in ("split-2", "split-3"):
        with pytest.raises(Refused) as refused:
            wallet.withdraw(user=alice, amount=200_000, key=key)
        assert refused.value.code == "kyc_required"
        assert "withdraw more than 2,000.00 USD within 30 days" in str(refused.value)
        assert not Transaction.objects.filter(idempotency_key=key).exists()
    assert wallet_balance(alice) == 400_000
    start_verification(user=alice)
    wallet.withdraw(user=alice, amount=200_000, key="split-2")
    wallet.withdraw(user=alice, amount=200_000, key="split-3")
    assert wallet_balance(alice) == 0


def test_the_window_rolls_and_a_reversed_withdrawal_does_not_count(player, settings, executor):
    """Withdrawals older than the window no longer count; one reversed (the money came back)
    does not count either."""
    settings.TRIX_KYC_WITHDRAW_ABOVE = 300
    alice = player(funds=1_000)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        wallet.withdraw(user=alice, amount=200, key="w-old")
    with time_machine.travel(start + timedelta(days=10), tick=False):
        wallet.withdraw(user=alice, amount=100, key="w-new")
        with pytest.raises(Refused):
            wallet.withdraw(user=alice, amount=1, key="w-over")  # 300 already within 30 days
        wallet.reverse(original_key="w-new", key="w-new-back")
        wallet.withdraw(user=alice, amount=100, key="w-again")  # the reversed 100 is not counted
    with time_machine.travel(start + timedelta(days=30, seconds=1), tick=False):
        wallet.withdraw(user=alice, amount=200, key="w-later")  # "w-old" left the window
        with pytest.raises(Refused):
            wallet.withdraw(user=alice, amount=1, key="w-over-again")
    assert wallet_balance(alice) == 1_000 - 200 - 100 - 200


def test_a_replayed_withdrawal_is_not_asked_again(player, settings):
    """A retried withdrawal (same key) returns the first one, whatever the gate says now."""
    settings.TRIX_KYC_WITHDRAW_ABOVE = 100
    alice = player(funds=1_000)
    start_verification(user=alice)
    first = wallet.withdraw(user=alice, amount=500, key="w1")
    Verification.objects.filter(user=alice).update(status="rejected")
    assert wallet.withdraw(user=alice, amount=500, key="w1").pk == first.pk
    assert wallet_balance(alice) == 500


def test_the_entry_fee_needs_verification_and_a_free_tournament_does_not(player, staff):
    from tournaments import services as tournaments
    from tournaments.errors import NotAllowed as TournamentNotAllowed

    now = timezone.now()
    common = {
        "by": staff,
        "format": "swiss",
        "variant": "complex",
        "rounds": 2,
        "capacity": 16,
        "min_entrants": 4,
        "house_fee_bps": 1000,
        "prize_bps": [5000, 3000, 2000],
        "registration_opens_at": now - timedelta(minutes=1),
        "registration_closes_at": now + timedelta(minutes=30),
        "starts_at": now + timedelta(hours=1),
        "draw_secret": bytes(range(32)),
    }
    paid = tournaments.create_tournament(name="Paid cup", entry_fee=100, **common)
    later = {**common, "starts_at": now + timedelta(hours=7)}  # not overlapping the paid cup
    free = tournaments.create_tournament(name="Free cup", entry_fee=0, **later)
    alice = player(funds=1_000)
    with pytest.raises(TournamentNotAllowed) as refused:
        tournaments.register(tournament_id=paid.pk, by=alice, client_seed="s")
    assert refused.value.code == "kyc_required" and wallet_balance(alice) == 1_000
    assert not paid.entries.exists()
    tournaments.register(tournament_id=free.pk, by=alice, client_seed="s")
    start_verification(user=alice)
    tournaments.register(tournament_id=paid.pk, by=alice, client_seed="s")
    assert wallet_balance(alice) == 900


def test_the_api_refuses_an_unverified_seat_with_the_message(player):
    alice, bob = player(funds=1_000), verified(player(funds=1_000))
    table = staked_table(bob)
    r = sit(api_for(alice), table.pk, 0)
    assert r.status_code == 403 and r.json()["code"] == "kyc_required"
    assert "/accounts/verification/" in r.json()["error"]
    assert wallet_balance(alice) == 1_000
    r = sit(api_for(alice), free_table(bob).pk, 0)
    assert r.status_code == 200


def test_the_wallet_page_refuses_a_large_withdrawal(player, client, settings):
    settings.TRIX_DEMO_PAYMENTS = True
    settings.TRIX_KYC_WITHDRAW_ABOVE = 100
    alice = player(funds=1_000)
    client.force_login(alice)
    r = client.post("/wallet/withdraw/", {"withdraw-amount": "5", "withdraw-key": "a" * 32})
    assert r.status_code == 400
    assert (
        'Verify your identity on <a href="/accounts/verification/">the identity verification '
        "page</a> to withdraw more than 1.00 USD within 30 days." in r.content.decode()
    )
    assert wallet_balance(alice) == 1_000


class PendingProvider(kyc.KycProvider):
    """A hosted check: the player is sent to the provider, the outcome comes later."""

    name = "hosted"
    outcome = "pending"

    def start(self, *, user_id, key):
        return kyc.KycCheck("pending", f"chk-{user_id}", url="https://kyc.example/flow/1")

    def status(self, *, reference):
        return kyc.KycCheck(self.outcome, reference)


def test_a_hosted_provider_sends_the_player_away_and_pending_cannot_stake(player, client, settings):
    settings.TRIX_KYC_PROVIDER = "tests.accounts.test_kyc.PendingProvider"
    alice, bob = player(funds=1_000), player(funds=1_000)
    client.force_login(alice)
    page = client.get("/accounts/verification/")
    assert page.status_code == 200 and "Demo:" not in page.content.decode()
    r = client.post("/accounts/verification/")
    assert r.status_code == 302 and r["Location"] == "https://kyc.example/flow/1"
    record = Verification.objects.get(user=alice)
    assert (record.status, record.provider, record.reference) == (
        "pending",
        "hosted",
        f"chk-{alice.pk}",
    )
    with pytest.raises(NotAllowed):
        tables.take_seat(user=alice, table_id=staked_table(bob).pk, seat=0, client_seed="a")
    PendingProvider.outcome = "verified"
    try:
        record, url = start_verification(user=alice)  # asks for the state, starts nothing new
    finally:
        PendingProvider.outcome = "pending"
    assert (record.status, record.reference, url) == ("verified", f"chk-{alice.pk}", "")


def test_a_provider_that_cannot_be_reached_records_nothing(player, client, settings):
    settings.TRIX_KYC_PROVIDER = "tests.accounts.test_kyc.BrokenProvider"
    alice = player(funds=1_000)
    client.force_login(alice)
    r = client.post("/accounts/verification/")
    assert r.status_code == 503 and "cannot be reached" in r.content.decode()
    assert verification_status(alice.pk) == "unverified"


class BrokenProvider(kyc.KycProvider):
    name = "broken"

    def start(self, *, user_id, key):
        raise kyc.KycError("down")

    def status(self, *, reference):
        raise kyc.KycError("down")


def test_the_verification_page_with_the_demo_provider(player, client):
    alice = player(funds=1_000)
    client.force_login(alice)
    page = client.get("/accounts/verification/").content.decode()
    assert "Demo: this site uses a demo verification service" in page
    assert "not verified" in page and "2,000.00 USD" in page
    r = client.post("/accounts/verification/", follow=True)
    assert r.status_code == 200 and "Your identity is verified" in r.content.decode()
    assert verification_status(alice.pk) == "verified"
    profile = client.get("/accounts/profile/").content.decode()
    assert "Identity:" in profile and "<strong>verified</strong>" in profile
    assert client.get("/accounts/verification/").status_code == 200
    assert client.post("/accounts/verification/").status_code == 302  # stays verified
    assert Verification.objects.filter(user=alice).count() == 1


def test_the_verification_page_needs_a_login(client):
    r = client.get("/accounts/verification/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_the_verification_page_in_arabic(player, client):
    alice = player(funds=1_000)
    client.force_login(alice)
    page = client.get("/accounts/verification/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert 'lang="ar"' in page and "التحقق من الهوية" in page


def test_the_pages_link_the_verification_path_in_messages():
    """The link says where it goes in the page's language, not the path."""
    from django.utils import translation

    from web.links import link_paths

    html = str(link_paths("Verify your identity on /accounts/verification/ before you stake."))
    assert 'on <a href="/accounts/verification/">the identity verification page</a> before' in html
    with translation.override("ar"):
        html = str(link_paths("/wallet/ and /accounts/verification/"))
    assert '<a href="/wallet/">محفظتك</a>' in html
    assert '<a href="/accounts/verification/">صفحة التحقق من الهوية</a>' in html


def test_quick_play_at_a_stake_refused_leaves_no_table(player):
    """Quick play at a stake by an unverified account is refused and leaves no table: it
    created the table, then its seat was refused, and the table waited 30 minutes with three
    bots (a new user's trial, 2026-12-02)."""
    from games.models import Table

    alice = player(funds=1_000)
    before = set(Table.objects.values_list("pk", flat=True))
    r = api_for(alice).post("/api/quick-play/", {"stake": 200, "client_seed": "s-1"}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "kyc_required", r.content
    # The lobby's quick play (the table page sits later) is refused the same way.
    r = api_for(alice).post("/api/quick-play/", {"stake": 200, "sit": False}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "kyc_required", r.content
    assert not Table.objects.exclude(pk__in=before).exists()  # asked before making one
    assert wallet_balance(alice) == 1_000
