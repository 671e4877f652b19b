"""The Django admin shows tables and their logs read-only."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["table", "tableevent", "tableaction", "deal", "matchrecord"])
def test_games_admin_lists_but_never_adds(admin_client, model):
    assert admin_client.get(f"/admin/games/{model}/").status_code == 200
    assert admin_client.get(f"/admin/games/{model}/add/").status_code == 403
