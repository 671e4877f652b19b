"""The API's ``error`` is the sentence a page shows the player (``docs/api.md``): a trial
found "stake: Ensure this value…" and "client_seed: This field may not be blank." (the
serializer's field names) and "log in first (/accounts/login/)" (a path, where the pages make
links only of the paths ``web/links.py`` knows). The sentence names a field by its
translated label; ``code`` and ``fields`` (by field name) stay for programs."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.games.helpers import new_table
from web.links import link_paths

pytestmark = pytest.mark.django_db


def test_a_refused_field_is_named_by_its_label_not_its_name(api):
    ana = api("ana")
    r = ana.post("/api/tables/", {"variant": "trix", "stake": -1}, format="json")
    assert r.status_code == 400
    assert r.json() == {
        "error": "Stake: Ensure this value is greater than or equal to 0.",
        "code": "invalid",
        "fields": {"stake": ["Ensure this value is greater than or equal to 0."]},
    }
    tid = new_table(ana)["id"]
    r = ana.post(f"/api/tables/{tid}/seats/", {"seat": 1, "client_seed": ""}, format="json")
    assert r.json()["error"] == "Your client seed: This field may not be blank."
    assert list(r.json()["fields"]) == ["client_seed"]
    r = ana.post(
        "/api/tables/", {"variant": "trix", "stake": -1}, format="json", HTTP_ACCEPT_LANGUAGE="ar"
    )
    assert r.json()["error"].startswith("رهان: ") and "stake" not in r.json()["error"]


def test_the_anonymous_callers_message_links_the_login_page():
    r = APIClient().post("/api/quick-play/", {}, format="json")
    assert r.status_code == 401
    assert r.json() == {
        "error": "You are not logged in: log in on /accounts/login/.",
        "code": "not_authenticated",
    }
    assert str(link_paths(r.json()["error"])) == (
        'You are not logged in: log in on <a href="/accounts/login/">the login page</a>.'
    )
