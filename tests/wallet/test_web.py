"""The wallet page, API, read-only admin and the demo deposit command."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from wallet import services
from wallet.models import Account, Entry, Transaction


@pytest.fixture
def player(make_user):
    u = make_user("alice")
    services.deposit(u, 12_345, "d1")
    services.stake(u, "table:5", 2_000, "s1")
    return u


def test_wallet_page_requires_login(client):
    response = client.get("/wallet/")
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_wallet_page_shows_balance_and_history(client, player, make_user):
    other = make_user("bob")
    services.deposit(other, 777, "d-bob")
    client.force_login(player)
    response = client.get("/wallet/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "103.45 USD" in html  # 12345 - 2000
    assert "table:5" in html and "Stake" in html and "Deposit" in html
    assert "7.77" not in html  # nobody else's money


def test_wallet_api(client, player, make_user):
    assert client.get("/api/wallet/").status_code == 401  # not logged in (the API contract)
    client.force_login(player)
    data = client.get("/api/wallet/").json()
    assert data == {"currency": "USD", "balance": 10_345, "balance_display": "103.45 USD"}
    history = client.get("/api/wallet/history/").json()
    assert history["count"] == 2
    assert [(r["kind"], r["amount"], r["balance_after"]) for r in history["results"]] == [
        ("stake", -2_000, 10_345),
        ("deposit", 12_345, 12_345),
    ]
    assert history["results"][0]["reference"] == "table:5"


def test_api_is_read_only(client, player):
    client.force_login(player)
    assert client.post("/api/wallet/", {"balance": 10**9}).status_code == 405
    assert client.post("/api/wallet/history/", {}).status_code == 405


def test_admin_is_read_only(admin_client, player):
    txn = Transaction.objects.first()
    assert admin_client.get("/admin/wallet/transaction/").status_code == 200
    page = admin_client.get(f"/admin/wallet/transaction/{txn.pk}/change/")
    assert page.status_code == 200 and b"12345" in page.content
    assert admin_client.get("/admin/wallet/account/").status_code == 200
    assert admin_client.get("/admin/wallet/entry/").status_code == 200
    assert admin_client.get("/admin/wallet/entry/add/").status_code == 403
    entry = Entry.objects.first()
    before = entry.amount
    admin_client.post(f"/admin/wallet/entry/{entry.pk}/change/", {"amount": 1})
    assert admin_client.post(f"/admin/wallet/entry/{entry.pk}/delete/").status_code == 403
    entry.refresh_from_db()
    assert entry.amount == before


def test_admin_demo_deposit_action(admin_client, player):
    wallet = Account.objects.get(reference=f"user:{player.pk}")
    response = admin_client.post(
        "/admin/wallet/account/",
        {"action": "demo_deposit", "_selected_action": [wallet.pk]},
        follow=True,
    )
    assert response.status_code == 200
    wallet.refresh_from_db()
    assert wallet.balance == 10_345 + 10_000
    txn = Transaction.objects.get(kind="deposit", reference="admin:admin")
    assert txn.memo == "demo deposit from the admin"


def test_demo_deposit_command(player):
    call_command("demo_deposit", "alice", "500", "--key", "cmd-1")
    call_command("demo_deposit", "alice", "500", "--key", "cmd-1")  # idempotent
    assert Account.objects.get(reference=f"user:{player.pk}").balance == 10_845
    with pytest.raises(CommandError, match="no user"):
        call_command("demo_deposit", "nobody", "500")
    with pytest.raises(CommandError, match="positive"):
        call_command("demo_deposit", "alice", "-5")
    call_command("ledger_check", verbosity=0)
