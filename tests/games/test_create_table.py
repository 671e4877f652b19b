"""Creating a table: a stake beyond the site's limit is refused clearly (found by a new user:
a stake of 10**30 answered 500, one of 10**12 made a table nobody could ever join)."""

import pytest
from django.test import override_settings

from games.models import Table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("stake", [10**30, 2**63, 10**12])
def test_a_stake_above_the_limit_is_refused_with_a_clear_error(api, stake):
    alice = api("alice")
    response = alice.post(
        "/api/tables/", {"variant": "complex_partner", "stake": stake}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "stake" in response.json()["error"]
    assert not Table.objects.exists()


@override_settings(TRIX_MAX_STAKE=500)
def test_the_limit_is_a_setting_and_inclusive(api):
    alice = api("alice")
    ok = alice.post("/api/tables/", {"variant": "trix", "stake": 500}, format="json")
    assert ok.status_code == 201, ok.content
    refused = alice.post("/api/tables/", {"variant": "trix", "stake": 501}, format="json")
    assert refused.status_code == 400
    assert "at most 5.00 USD" in refused.json()["error"]
