"""The wallet page, API, read-only admin and the demo deposit command."""

import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from wallet import services
from wallet.models import Account, Entry, Transaction
from wallet.selectors import wallet_balance


@pytest.fixture
def staker(make_user):
    u = make_user("alice")
    services.deposit(user=u, amount=12_345, key="d1")
    services.stake(user=u, table_ref="table:5", amount=2_000, key="s1")
    return u


def test_wallet_page_requires_login(client):
    response = client.get("/wallet/")
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_wallet_page_shows_balance_and_history(client, staker, make_user):
    other = make_user("bob")
    services.deposit(user=other, amount=777, key="d-bob")
    client.force_login(staker)
    response = client.get("/wallet/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "103.45 USD" in html  # 12345 - 2000
    assert "Table 5" in html and "Stake" in html and "Deposit" in html
    assert 'href="/tables/5/"' in html and 'href="/verify/matches/5/"' in html
    assert '<link rel="stylesheet"' in html and "site-header" in html  # the site's layout
    assert "7.77" not in html  # nobody else's money


def test_wallet_api(client, staker, make_user):
    anonymous = client.get("/api/wallet/")  # the same answer as the tables API gives
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    client.force_login(staker)
    data = client.get("/api/wallet/").json()
    assert data == {
        "currency": "USD",
        "balance": 10_345,
        "balance_display": "103.45 USD",
        "in_play": 2_000,  # the stake at table 5, held in its escrow until the pot is paid
        "in_play_display": "20.00 USD",
    }
    history = client.get("/api/wallet/history/").json()
    assert history["count"] == 2
    assert [(r["kind"], r["amount"], r["balance_after"]) for r in history["results"]] == [
        ("stake", -2_000, 10_345),
        ("deposit", 12_345, 12_345),
    ]
    assert history["results"][0]["reference"] == "table:5"
    assert history["results"][0]["link"] == "/tables/5/"
    assert history["results"][1]["link"] is None  # provider:demo has no page


def test_in_play_follows_stakes_refunds_and_payouts(client, staker, make_user):
    """Issue 14 ("45.00 shown with 50.00 held"): what the wallet has in escrows still open is
    said beside the balance, and is 0 again once every escrow paid or refunded it."""
    from wallet.selectors import in_play

    bob = make_user("bob")
    services.deposit(user=bob, amount=5_000, key="d-bob")
    services.stake(user=bob, table_ref="table:5", amount=2_000, key="s-bob")
    services.stake(user=staker, table_ref="table:6", amount=300, key="s-6")
    assert (in_play(staker), in_play(bob)) == (2_300, 2_000)
    services.refund(
        user=staker, table_ref="table:5", key="r1", amount=500
    )  # leaving: the 1,500 kept is the pot's
    assert in_play(staker) == 300
    services.settle(
        table_ref="table:5", payouts={staker: 3_500}, key="settle-5"
    )  # the pot; closes the escrow
    assert (in_play(staker), in_play(bob)) == (300, 0)
    assert wallet_balance(staker) == 12_345 - 2_000 - 300 + 500 + 3_500
    client.force_login(staker)
    assert client.get("/api/wallet/").json()["in_play"] == 300
    services.refund_all(escrow_ref="table:6", key="cancel-6")
    assert in_play(staker) == 0


def test_in_play_leaves_out_what_a_partial_refund_kept(client, staker):
    """A refund ends that stake: an entrant who unregisters and gets 60 % of the fee back has
    nothing more in play there (the 40 % kept is the tournament's prize money, not theirs);
    a fee paid again after it is in play again."""
    from wallet.selectors import in_play

    client.force_login(staker)
    services.pay_entry_fee(user=staker, tournament_ref="tournament:7", amount=1_000, key="fee-7")
    assert client.get("/api/wallet/").json()["in_play"] == 3_000  # table 5's 2,000 too
    services.refund_entry_fee(
        user=staker, tournament_ref="tournament:7", key="unregister-7", amount=600
    )
    data = client.get("/api/wallet/").json()
    assert (data["in_play"], data["in_play_display"]) == (2_000, "20.00 USD")
    services.pay_entry_fee(
        user=staker, tournament_ref="tournament:7", amount=1_000, key="fee-7-again"
    )
    assert in_play(staker) == 3_000
    services.refund(
        user=staker, table_ref="table:5", key="leave-5", amount=1_500
    )  # leaving, 500 kept
    assert in_play(staker) == 1_000


def test_api_is_read_only(client, staker):
    client.force_login(staker)
    assert client.post("/api/wallet/", {"balance": 10**9}).status_code == 405
    assert client.post("/api/wallet/history/", {}).status_code == 405


def test_admin_is_read_only(admin_client, staker):
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


def test_admin_demo_deposit_action(admin_client, staker):
    wallet = Account.objects.get(reference=f"user:{staker.pk}")
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


def test_demo_deposit_command(staker):
    call_command("demo_deposit", "alice", "500", "--key", "cmd-1")
    call_command("demo_deposit", "alice", "500", "--key", "cmd-1")  # idempotent
    assert Account.objects.get(reference=f"user:{staker.pk}").balance == 10_845
    with pytest.raises(CommandError, match="no user"):
        call_command("demo_deposit", "nobody", "500")
    with pytest.raises(CommandError, match="positive"):
        call_command("demo_deposit", "alice", "-5")
    call_command("ledger_check", verbosity=0)


# --------------------------------------------------------------------------- demo payments


@pytest.fixture(autouse=True)
def demo_payments(settings):
    settings.TRIX_DEMO_PAYMENTS = True  # the default where DEBUG is on (./dev run)


def _form_key(client, action: str) -> str:
    html = client.get("/wallet/").content.decode()
    match = re.search(rf'name="{action}-key" value="([0-9a-f]{{32}})"', html)
    assert match, f"no {action} form on the wallet page"
    return match.group(1)


def _send(client, action: str, amount: str, key: str | None = None):
    key = key or _form_key(client, action)
    return client.post(f"/wallet/{action}/", {f"{action}-amount": amount, f"{action}-key": key})


def test_demo_deposit_and_withdraw_forms(client, make_user):
    user = make_user("carol")
    client.force_login(user)
    key = _form_key(client, "deposit")
    response = _send(client, "deposit", "20.50", key)
    assert response.status_code == 302 and response["Location"] == "/wallet/"
    assert wallet_balance(user) == 2_050
    page = client.get("/wallet/").content.decode()
    assert "Deposited 20.50 USD (demo)." in page and "20.50 USD" in page
    assert "Demo payment" in page and "provider:demo" not in page
    # In Arabic the provider's name is translated too, never "دفعة (demo)".
    arabic = client.get("/wallet/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "دفعة تجريبية" in arabic and "(demo)" not in arabic
    # The same form sent twice (a double click, a resent POST) deposits once.
    assert _send(client, "deposit", "20.50", key).status_code == 302
    assert wallet_balance(user) == 2_050
    assert _send(client, "withdraw", "5").status_code == 302
    assert wallet_balance(user) == 1_550
    kinds = list(Transaction.objects.order_by("id").values_list("kind", "reference"))
    assert kinds == [("deposit", "provider:demo"), ("withdrawal", "provider:demo")]
    call_command("ledger_check", verbosity=0)


@pytest.mark.parametrize(
    "amount, message",
    [
        ("", "Enter an amount."),
        ("-5", "The amount cannot be negative."),
        ("0", "The amount must be more than zero."),
        ("0.00", "The amount must be more than zero."),
        ("abc", "Enter an amount in USD, like 20 or 20.50."),
        ("1e3", "Enter an amount in USD, like 20 or 20.50."),
        ("1.2345", "Too many decimal places (at most 2)."),
        ("1.234", "without a thousands separator"),
        ("10000.01", "The demo payment provider declines amounts above 10,000.00 USD."),
        # Above the most one amount may be: the cap that applies here is the provider's.
        ("99999999999999", "The demo payment provider declines amounts above 10,000.00 USD."),
    ],
)
def test_bad_deposit_amounts_are_refused_clearly(client, make_user, amount, message):
    user = make_user("dave")
    client.force_login(user)
    response = _send(client, "deposit", amount)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Transaction.objects.exists() and wallet_balance(user) == 0


def test_withdrawing_more_than_the_balance_is_refused(client, make_user):
    user = make_user("erin")
    services.deposit(user=user, amount=1_000, key="d-erin")
    client.force_login(user)
    response = _send(client, "withdraw", "10.01")
    assert response.status_code == 400
    assert "Your balance is 10.00 USD: you cannot withdraw 10.01 USD." in response.content.decode()
    assert wallet_balance(user) == 1_000 and Transaction.objects.count() == 1


def test_a_used_form_resent_with_another_amount_moves_nothing(client, make_user):
    user = make_user("fay")
    client.force_login(user)
    key = _form_key(client, "deposit")
    assert _send(client, "deposit", "5", key).status_code == 302
    response = _send(client, "deposit", "50", key)  # Back, edit, resend
    assert response.status_code == 400
    html = response.content.decode()
    assert "That form was already used" in html
    fresh = re.search(r'name="deposit-key" value="([0-9a-f]{32})"', html).group(1)
    assert fresh != key
    assert wallet_balance(user) == 500
    assert _send(client, "deposit", "50", fresh).status_code == 302
    assert wallet_balance(user) == 5_500


def test_forged_keys_and_anonymous_posts_are_refused(client, make_user):
    user = make_user("gus")
    assert client.post("/wallet/deposit/", {"deposit-amount": "5"}).status_code == 302  # login
    client.force_login(user)
    response = _send(client, "deposit", "5", key="../other-users-key")
    assert response.status_code == 400 and "reload the page" in response.content.decode()
    assert client.get("/wallet/deposit/").status_code == 405
    assert not Transaction.objects.exists()


def test_demo_payments_off_hides_the_forms(client, make_user, settings):
    settings.TRIX_DEMO_PAYMENTS = False
    user = make_user("hal")
    client.force_login(user)
    html = client.get("/wallet/").content.decode()
    assert "deposit-key" not in html and "Demo money" not in html
    response = client.post("/wallet/deposit/", {"deposit-amount": "5", "deposit-key": "0" * 32})
    assert response.status_code == 404
    assert wallet_balance(user) == 0
