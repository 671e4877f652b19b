"""The Django admin shows tables and their logs read-only."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["table", "tableevent", "tableaction", "deal", "matchrecord"])
def test_games_admin_lists_but_never_adds(admin_client, model):
    assert admin_client.get(f"/admin/games/{model}/").status_code == 200
    assert admin_client.get(f"/admin/games/{model}/add/").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_staff_cancel_a_staked_table_from_the_admin(admin_client, admin_user, django_user_model):
    from games import services
    from games.models import Table
    from wallet import services as wallet
    from wallet.selectors import wallet_balance

    alice = django_user_model.objects.create_user(username="alice", password="pw")
    wallet.deposit(alice, 500, "dep-alice")
    timers = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}
    table = services.create_table(alice, "trix", 200, timers)
    services.take_seat(alice, table.pk, 0, "seed")
    assert wallet_balance(alice) == 300
    r = admin_client.post(
        "/admin/games/table/",
        {"action": "cancel_tables", "_selected_action": [table.pk]},
        follow=True,
    )
    assert r.status_code == 200 and b"every stake refunded" in r.content
    assert Table.objects.get(pk=table.pk).status == "cancelled"
    assert wallet_balance(alice) == 500
