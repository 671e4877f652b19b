"""Closing an account (issue 16): the password again and a confirmation; refused while the
wallet holds money, a seat is at a table not over or a tournament entry is in progress (a
clear message, nothing changed); once closed, login fails, the display name is replaced and
the ledger's entries are all kept."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from accounts.closure import close_account
from accounts.models import Closure, Profile
from accounts.selectors import display_name
from games import services as tables
from tests.accounts.helpers import free_table, staked_table
from tests.factories import PASSWORD, TournamentFactory
from wallet import services as wallet
from wallet.models import Entry, Transaction
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def close_form(client, password=PASSWORD, confirm=True):
    data = {"password": password}
    if confirm:
        data["confirm"] = "on"
    return client.post("/accounts/close/", data)


def test_closure_is_refused_while_the_wallet_holds_money(player, client):
    alice = player(funds=1_000)
    client.force_login(alice)
    page = client.get("/accounts/close/").content.decode()
    assert "Your wallet holds 10.00 USD: withdraw it first" in page
    assert 'withdraw it first from <a href="/wallet/">your wallet</a>.' in page
    r = close_form(client)
    assert r.status_code == 400 and r.content.decode().count("withdraw it first") == 1
    alice.refresh_from_db()
    assert alice.is_active and not Closure.objects.exists()
    with pytest.raises(ValidationError, match="withdraw it first"):
        close_account(user=alice, password=PASSWORD)


def test_closure_needs_the_password_and_the_confirmation(player, client):
    alice = player(funds=0)
    client.force_login(alice)
    r = close_form(client, password="wrong")
    assert r.status_code == 400 and "That is not your password" in r.content.decode()
    r = close_form(client, confirm=False)
    assert r.status_code == 400
    alice.refresh_from_db()
    assert alice.is_active and not Closure.objects.exists()


def test_closure_after_withdrawing_turns_login_off_and_keeps_the_ledger(player, client):
    alice = player(funds=1_000)
    bob = player(funds=1_000)
    table = staked_table(bob)
    tables.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="a")
    tables.leave(user=alice, table_id=table.pk)  # staked and refunded: ledger history
    wallet.withdraw(user=alice, amount=1_000, key="all-out")
    assert wallet_balance(alice) == 0
    entries = list(
        Entry.objects.filter(account__owner_id=alice.pk).order_by("id").values_list("id", "amount")
    )
    transactions = Transaction.objects.count()
    assert len(entries) == 4  # deposit, stake, refund, withdrawal
    client.force_login(alice)
    r = close_form(client)
    assert r.status_code == 302 and r["Location"] == "/"
    alice.refresh_from_db()
    assert not alice.is_active and Closure.objects.get(user=alice).closed_at
    assert display_name(alice) == f"Closed account {alice.pk}"
    assert Profile.objects.get(user=alice).name_key  # keyed like any name
    # Logged out, and the password no longer logs in (Django and allauth's form).
    assert client.get("/accounts/profile/").status_code == 302
    assert not client.login(username=alice.username, password=PASSWORD)
    r = client.post("/accounts/login/", {"login": alice.username, "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    # Every ledger entry is kept.
    kept = list(
        Entry.objects.filter(account__owner_id=alice.pk).order_by("id").values_list("id", "amount")
    )
    assert kept == entries and Transaction.objects.count() == transactions
    assert get_user_model().objects.filter(pk=alice.pk).exists()  # the row stays
    with pytest.raises(ValidationError, match="already closed"):
        close_account(user=alice, password=PASSWORD)


def test_a_session_open_elsewhere_stops_working(player, client):
    alice = player(funds=0)
    other = type(client)()
    other.force_login(alice)
    client.force_login(alice)
    assert close_form(client).status_code == 302
    assert other.get("/accounts/profile/").status_code == 302  # sent to log in


def test_closure_waits_for_an_open_seat(player, client):
    alice, bob = player(funds=0), player(funds=1_000)
    table = free_table(bob)
    tables.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="a")
    client.force_login(alice)
    r = close_form(client)
    assert r.status_code == 400 and "You hold a seat at" in r.content.decode()
    tables.leave(user=alice, table_id=table.pk)
    assert close_form(client).status_code == 302


def test_closure_names_and_links_the_tables_it_waits_for(player, client):
    """Found by a new player: the refusal said "a table that is not over" without saying
    which; it names each table and links to it, in English and Arabic."""
    alice, bob = player(funds=0), player(funds=1_000)
    table = free_table(bob)
    tables.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="a")
    client.force_login(alice)
    link = f'<a href="/tables/{table.pk}/">Table {table.pk}</a>'
    assert f"You hold a seat at {link}, a table" in client.get("/accounts/close/").content.decode()
    r = close_form(client)  # refused: the blocker listed above the form, linked
    assert r.status_code == 400 and r.content.decode().count(link) == 1
    page = client.get("/accounts/close/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert f'لك مقعد على <a href="/tables/{table.pk}/">الطاولة {table.pk}</a>، ' in page


def test_closure_waits_for_a_tournament_in_progress(player, staff, client):
    from tournaments import services as tournaments

    t = TournamentFactory(by=staff, name="Cup", entry_fee=0, house_fee_bps=0, prize_bps=[10_000])
    alice = player(funds=0)
    tournaments.register(tournament_id=t.pk, by=alice, client_seed="s")
    client.force_login(alice)
    r = close_form(client)
    assert r.status_code == 400 and "registered for or playing in" in r.content.decode()
    tournaments.unregister(tournament_id=t.pk, by=alice)
    assert close_form(client).status_code == 302


def test_closure_does_not_call_a_tournament_open_for_registration_running(player, staff, client):
    """The failing case: the close page called a tournament still open for registration
    «بطولة جارية» ("a running tournament"). The words hold for one registered for and one
    being played; the Arabic has no gendered word for the player («أنت مشترك»)."""
    from tournaments import services as tournaments

    t = TournamentFactory(by=staff, name="Cup", entry_fee=0, house_fee_bps=0, prize_bps=[10_000])
    alice = player(funds=0)
    tournaments.register(tournament_id=t.pk, by=alice, client_seed="s")
    client.force_login(alice)
    page = client.get("/accounts/close/").content.decode()
    assert "registered for or playing in" in page and "tournament in progress" not in page
    page = client.get("/accounts/close/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "لك تسجيل في" in page
    assert "جارية" not in page and "مشترك في" not in page


def test_the_profile_links_to_closing(player, client):
    client.force_login(player(funds=0))
    page = client.get("/accounts/profile/").content.decode()
    assert 'href="/accounts/close/"' in page and 'href="/accounts/verification/"' in page


def test_closure_waits_for_a_time_out_and_refuses_a_permanent_self_exclusion(player, client):
    """Closing during an exclusion would let the person sign up again, verify and play."""
    from responsible import services as play

    alice = player(funds=0)
    play.take_time_out(user=alice, days=2, by=alice)
    client.force_login(alice)
    r = close_form(client)
    assert r.status_code == 400 and "the account can be closed once it ends" in r.content.decode()
    alice.refresh_from_db()
    assert alice.is_active and not Closure.objects.exists()
    bob = player(funds=0)
    play.self_exclude(user=bob, months=None, by=bob)
    with pytest.raises(ValidationError, match="self-excluded for good"):
        close_account(user=bob, password=PASSWORD)


# -- the closed account's name, in each viewer's language ----------------------------------

CLOSED_AR = "حساب مغلق"


def _closed(player):
    """A player who played a finished free match with ``bob``, then closed the account."""
    from tests.accounts.matches import make_match

    alice, bob = player(funds=0), player(funds=0)
    table = make_match([alice, bob, None, None])
    close_account(user=alice, password=PASSWORD)
    alice.refresh_from_db()
    return alice, bob, table


def test_a_closed_accounts_name_follows_the_language_it_is_shown_in(player):
    from django.utils import translation

    from accounts.selectors import display_names

    alice, _, _ = _closed(player)
    with translation.override("ar"):
        assert display_name(alice) == f"{CLOSED_AR} {alice.pk}"
        assert display_names([alice.pk]) == {alice.pk: f"{CLOSED_AR} {alice.pk}"}
    with translation.override("en"):
        assert display_name(alice) == f"Closed account {alice.pk}"
        assert display_names([alice.pk]) == {alice.pk: f"Closed account {alice.pk}"}


def test_the_pages_and_the_api_show_a_closed_account_in_arabic(player, client):
    alice, bob, table = _closed(player)
    client.force_login(bob)
    arabic = {"HTTP_ACCEPT_LANGUAGE": "ar"}
    shown = f"{CLOSED_AR} {alice.pk}"
    history = client.get(f"/players/{bob.pk}/", **arabic).content.decode()
    assert shown in history and "Closed account" not in history  # the match's other seats
    seat = client.get(f"/api/tables/{table.pk}/", **arabic).json()["seats"][0]
    assert seat["name"] == shown and seat["account_closed"] is True
    english = client.get(f"/api/tables/{table.pk}/").json()
    assert english["seats"][0]["name"] == f"Closed account {alice.pk}"
    assert english["created_by"] == {
        "id": alice.pk,
        "name": f"Closed account {alice.pk}",
        "account_closed": True,
    }
    assert english["seats"][1]["account_closed"] is False


def test_a_table_answer_marks_a_closed_accounts_seat_for_the_page_to_name(player):
    """The live stream sends spectators one answer whatever their language, so the table
    page names a closed account's seat itself, from ``account_closed`` and ``user_id``."""
    from games import selectors as games

    alice, bob, table = _closed(player)
    data = games.table_data(games.get_table(table.pk), None)
    assert [s["account_closed"] for s in data["seats"]] == [True, False, False, False]
    assert data["seats"][0]["user_id"] == alice.pk
    assert data["created_by"]["account_closed"] is True


def test_an_account_without_a_profile_is_shown_closed_not_by_its_username(db):
    user = get_user_model().objects.create_user("no_profile_login", password=PASSWORD)
    close_account(user=user, password=PASSWORD)
    user = get_user_model().objects.get(pk=user.pk)
    assert display_name(user) == f"Closed account {user.pk}"


def test_closure_names_and_links_the_tournament_it_waits_for(player, staff, client):
    """The refusal said "you are in a running tournament" without saying which; it names
    the tournament and links to its page, as it does a table, in English and Arabic."""
    from tournaments import services as tournaments

    t = TournamentFactory(
        by=staff, name="Friday Cup", entry_fee=0, house_fee_bps=0, prize_bps=[10_000]
    )
    alice = player(funds=0)
    tournaments.register(tournament_id=t.pk, by=alice, client_seed="s")
    client.force_login(alice)
    link = f'<a href="/tournaments/{t.pk}/">Friday Cup</a>'
    page = client.get("/accounts/close/").content.decode()
    assert f"You are registered for or playing in {link}: unregister before it starts" in page
    r = close_form(client)
    assert r.status_code == 400 and r.content.decode().count(link) == 1
    page = client.get("/accounts/close/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert f"لك تسجيل في {link}، وهي بطولة لم تنتهِ بعد" in page
