"""Pages through the Django test client: the lobby, the table page, the payout JSON, the
demo data; and the bad input the page forms send to the tables API, each answered with a
clear message that the pages show (``{"error": ...}``) and nothing changed."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from accounts.services import set_display_name
from games import services as tables
from games.models import Table
from wallet import services as wallet_services
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def ana():
    user = User.objects.create_user("ana", "ana@example.com", "pw-Ana-12345")
    set_display_name(user, "آنا")
    wallet_services.deposit(user=user, amount=10_00, key="test:ana")
    return user


@pytest.fixture
def table(ana):
    return tables.create_table(
        user=ana, variant="complex_partner", stake=5_00, options={"doubling": "sequential"}
    )


def post_json(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_lobby_shows_every_option_with_its_default(client, ana):
    anonymous = client.get("/").content.decode()
    assert "Log in</a> or" in anonymous and "create-form" not in anonymous
    client.force_login(ana)
    html = client.get("/").content.decode()
    for name in ("variant", "doubling", "self_double", "show_twos", "partner_tie",
                 "contract_timeout", "choose_timer", "double_timer", "play_timer",
                 "auto_play_forced", "leave_paid_table", "twos_complex_only",
                 "double_scoring", "double_asked"):  # fmt: skip
        assert f'id="opt_{name}"' in html, name
    assert "Trix Complex Partner · كمبلكس شراكة (default)" in html
    assert 'value="15"' in html and 'value="8"' in html and 'value="12"' in html
    assert "10.00 USD" in html  # the balance in the header


def test_table_page_shows_the_options_before_anyone_stakes(client, table):
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Sequential: each holder answers in turn from the owner" in html
    assert "Trix Complex Partner" in html
    assert 'data-authenticated="0"' in html  # anyone may watch


def test_table_page_carries_the_commitment_for_the_browser_before_anyone_sits(client, table):
    """The page's script shows these by the Sit buttons and keeps them (issue 12)."""
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert f'data-commitment="{table.commitment}"' in html
    assert f'data-match-id="table-{table.pk}"' in html
    assert 'data-deals="8"' in html and 'data-algorithm="trix-shuffle/1"' in html
    assert 'id="commitment-box"' in html


def test_unknown_table_is_404(client):
    assert client.get("/tables/999999/").status_code == 404
    assert client.get("/tables/999999/payout.json").status_code == 404


def test_payout_json_before_settlement(client, table):
    data = client.get(f"/tables/{table.pk}/payout.json").json()
    assert data == {"settled": False, "pot": 0, "house_fee": 0, "payouts": [], "nets": []}


def test_payout_json_gives_every_stakers_net_and_its_label(client):
    """Four stakers of 1.00, paid 60/30/10 by place: the third is paid 0.40 and lost 0.60;
    the fourth, paid nothing, is listed too."""
    from tests.accounts.matches import make_match, player

    users = [player(User, name) for name in ("sami", "layla", "omar", "huda")]
    table = make_match(users, variant="complex", stake=100)
    data = client.get(f"/tables/{table.pk}/payout.json").json()
    assert data["settled"] and data["pot"] == 400
    assert [(p["name"], p["amount"]) for p in data["payouts"]] == [
        ("Sami", 240),
        ("Layla", 120),
        ("Omar", 40),
    ]
    assert [(n["name"], n["net"], n["outcome"]) for n in data["nets"]] == [
        ("Sami", 140, "won"),
        ("Layla", 20, "won"),
        ("Omar", -60, "lost"),
        ("Huda", -100, "lost"),
    ]


def test_stake_larger_than_the_balance_is_refused_clearly(client, ana):
    host = User.objects.create_user("host", "host@example.com", "pw-Host-12345")
    wallet_services.deposit(user=host, amount=50_00, key="test:host")
    big = tables.create_table(user=host, variant="complex_partner", stake=50_00)
    client.force_login(ana)
    response = post_json(client, f"/api/tables/{big.pk}/seats/", {"seat": 0, "client_seed": "ab"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "insufficient_funds"
    assert body["error"] == (
        "Your wallet holds 10.00 USD; this table's stake is 50.00 USD. Add money in /wallet/."
    )
    # Creating such a table is refused the same way: nobody could fill it at her word.
    made = post_json(client, "/api/tables/", {"variant": "complex_partner", "stake": 50_00})
    assert (made.status_code, made.json()) == (400, body)
    assert not Table.objects.filter(created_by=ana).exists()
    assert wallet_balance(ana) == 10_00


def test_a_full_table_says_the_seat_is_taken(client, ana, table):
    for seat in (0, 1, 2, 3):
        tables.seat_bot(user=ana, table_id=table.pk, seat=seat, bot="rules")
    client.force_login(ana)
    response = post_json(client, f"/api/tables/{table.pk}/seats/", {"seat": 1, "client_seed": "x"})
    assert response.status_code == 409
    assert "already started" in response.json()["error"] or "taken" in response.json()["error"]
    assert wallet_balance(ana) == 10_00


def test_sitting_needs_a_login(client, table):
    response = post_json(client, f"/api/tables/{table.pk}/seats/", {"seat": 0, "client_seed": "x"})
    assert response.status_code in (401, 403)


def test_bad_create_form_input_is_refused_clearly(client, ana):
    client.force_login(ana)
    response = post_json(client, "/api/tables/", {"variant": "complex_partner", "stake": 0,
                                                  "options": {"play_timer": -1}})  # fmt: skip
    assert response.status_code == 400
    assert "“Play timer (s)”" in response.json()["error"]


@pytest.mark.unverified  # the command itself verifies its players
def test_demo_data_is_idempotent(capsys):
    call_command("demo_data")
    first = capsys.readouterr().out
    call_command("demo_data")
    second = capsys.readouterr().out
    assert "fahd / demo-fahd-pass" in first and "100.00 USD" in first
    assert first.count("/tables/") == second.count("/tables/") == 3
    assert User.objects.filter(username="fahd").count() == 1
    assert wallet_balance(User.objects.get(username="fahd")) == 100_00
    from accounts.standing import verification_status

    for name in ("fahd", "sara", "omar"):
        assert verification_status(User.objects.get(username=name).pk) == "verified"


@pytest.mark.unverified  # the command itself verifies its players
def test_the_demo_tables_outlive_the_empty_table_expiry(capsys):
    """The failing case: the demo's staked tables of bots alone cancelled about 3 minutes after
    ``./dev run`` (``TRIX_EMPTY_TABLE_EXPIRY``: at a staked table nobody waits unless a
    person sits). Every staked demo table has a demo person seated, their stake in escrow
    through the ledger; the tables of bots are free. All still open after that expiry."""
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    from wallet.selectors import in_play

    call_command("demo_data")
    out = capsys.readouterr().out
    open_ = Table.objects.filter(status="open")
    assert open_.count() == 3 and out.count("/tables/") == 3
    staked = [t for t in open_ if t.stake]
    assert staked
    for table in staked:
        people = [s.user for s in table.seats.all() if s.user_id]
        assert people and not any(s.bot for s in table.seats.all()), table
        for person in people:
            assert in_play(person) == table.stake  # escrowed by the ledger's stake
    for table in open_.filter(stake=0):
        assert any(s.bot for s in table.seats.all())
    later = timezone.now() + timedelta(seconds=settings.TRIX_EMPTY_TABLE_EXPIRY + 60)
    assert tables.expire_open_tables(now=later) == []
    call_command("demo_data")  # idempotent: nothing new, nobody staked twice
    assert Table.objects.filter(status="open").count() == 3
    assert all(in_play(p) == t.stake for t in staked for p in [t.seats.get(seat=0).user])


@pytest.mark.unverified  # the command itself verifies its players
def test_demo_data_has_a_tournament_open_for_registration(client, capsys):
    """The tournaments page is not empty on a demo site: one tournament a player can enter,
    made once however often the command runs."""
    from tournaments.models import Tournament

    call_command("demo_data")
    call_command("demo_data")
    out = capsys.readouterr().out
    (cup,) = Tournament.objects.all()
    assert cup.status == "registration" and cup.entry_fee == 1_00
    assert f"/tournaments/{cup.pk}/" in out
    page = client.get("/tournaments/").content.decode()
    assert cup.name in page
    client.force_login(User.objects.get(username="sara"))
    response = client.post(f"/tournaments/{cup.pk}/register/", {"client_seed": "demo"})
    assert response.status_code in (200, 302)
    assert cup.entries.filter(user__username="sara").exists()


def test_a_new_player_sees_the_next_steps_until_a_first_seat(client):
    """After sign-up the lobby says what comes next, in one line: verify, deposit, play at a
    staked table, or play free; each done step says so; gone once the player holds a seat."""
    from accounts.models import Verification
    from tests.accounts.matches import make_match, player

    rana = player(User, "rana", "Rana")
    Verification.objects.filter(user=rana).delete()  # as signed up: not verified yet
    client.force_login(rana)
    html = client.get("/").content.decode()
    steps = html.split('data-testid="first-steps"')[1].split("</p>")[0]
    assert (
        'href="/accounts/verification/" data-testid="step-verify">1. verify your identity' in steps
    )
    assert 'href="/wallet/" data-testid="step-deposit">2. deposit' in steps
    assert 'href="#table-lists"' in steps and 'href="#quick-play"' in steps
    Verification.objects.create(user=rana, status="verified", provider="tests")
    wallet_services.deposit(user=rana, amount=5_00, key="test:rana")
    steps = client.get("/").content.decode().split('data-testid="first-steps"')[1]
    assert "✓ identity verified" in steps and "✓ money in the wallet" in steps
    make_match([rana, None, None, None])
    assert 'data-testid="first-steps"' not in client.get("/").content.decode()
    client.logout()
    assert 'data-testid="first-steps"' not in client.get("/").content.decode()
