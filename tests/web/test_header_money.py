"""The header's money on every page load (issue 14: "45.00 shown with 50.00 held"): the
balance is the wallet's after a stake, a refund and a payout, and ``trix.in_play_text`` says
what the stakes hold in escrows still open (the browser side: test_header_balance.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory

from games import services as tables
from wallet import services as wallet_services
from web.context_processors import site

pytestmark = pytest.mark.django_db
User = get_user_model()


def _header_balance(client) -> str:
    html = client.get("/rules/").content.decode()
    return re.search(r'data-testid="nav-balance-amount">([^<]*)<', html).group(1)


def _in_play_text(user) -> str:
    request = RequestFactory().get("/")
    request.user = user
    return site(request)["trix"]["in_play_text"]()


def test_the_header_balance_after_stake_refund_and_payout(client):
    sam = User.objects.create_user("sam", "sam@example.com", "pw-Trix-2025!")
    kim = User.objects.create_user("kim", "kim@example.com", "pw-Trix-2025!")
    wallet_services.deposit(user=sam, amount=50_00, key="test:sam")
    wallet_services.deposit(user=kim, amount=50_00, key="test:kim")
    client.force_login(sam)
    assert _header_balance(client).endswith("50.00 USD") and _in_play_text(sam) == ""
    table = tables.create_table(user=sam, variant="complex", stake=5_00)
    tables.take_seat(user=sam, table_id=table.pk, seat=0, client_seed="s")
    assert _header_balance(client).endswith("45.00 USD")
    assert _in_play_text(sam) == "5.00 USD"
    tables.leave(user=sam, table_id=table.pk)
    assert _header_balance(client).endswith("50.00 USD") and _in_play_text(sam) == ""
    tables.take_seat(user=sam, table_id=table.pk, seat=0, client_seed="s")
    tables.take_seat(user=kim, table_id=table.pk, seat=1, client_seed="k")
    for seat in (2, 3):
        tables.seat_bot(user=sam, table_id=table.pk, seat=seat, bot="rules")
    table.refresh_from_db()
    tables.wake(table_id=table.pk, version=table.version)  # the first deal
    tables.leave(user=kim, table_id=table.pk)  # kim forfeits: last
    # The pot paid as the site pays it (sam first of two stakers: 100 %), the escrow closed.
    tables.pay_pot(table_id=table.pk)
    assert _header_balance(client).endswith("55.00 USD") and _in_play_text(sam) == ""
    assert _in_play_text(kim) == ""
