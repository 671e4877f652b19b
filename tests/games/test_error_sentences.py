"""The API's ``error`` is the sentence a page shows the player (``docs/api.md``), not
"stake: Ensure this value…" or "client_seed: This field may not be blank." (the
serializer's field names) or "log in first (/accounts/login/)" (a path, where the pages make
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


def test_a_staked_seat_without_a_seed_names_the_field_by_its_label_in_arabic(api):
    """Not «طاولة staked تحتاج بذرتك… أرسل client_seed»: the kind's and the field's
    internal names. The sentence says «برهان» and names the field by its label."""
    ana = api("ana", funds=1000)
    tid = new_table(ana, "complex", stake=300, choose_timer=30, double_timer=30, play_timer=30)[
        "id"
    ]
    r = ana.post(f"/api/tables/{tid}/seats/", {"seat": 0}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert "“Your client seed”" in r.json()["error"], r.json()
    assert "client_seed" not in r.json()["error"]
    r = ana.post(f"/api/tables/{tid}/seats/", {"seat": 0}, format="json", HTTP_ACCEPT_LANGUAGE="ar")
    error = r.json()["error"]
    assert error.startswith("طاولة برهان تحتاج بذرتك") and "«بذرتك»" in error, error
    assert "staked" not in error and "client_seed" not in error


@pytest.mark.parametrize(
    ("action", "english", "arabic"),
    [
        ({"type": "pass", "seat": 1}, "Your move: nothing else is sent with a pass.",
         "حركتك: لا يُرسل شيء آخر مع الباص."),
        ({"type": "play"}, "Your move: playing a card needs the card.",
         "حركتك: لعب ورقة يحتاج إلى الورقة."),
    ],
)  # fmt: skip
def test_a_bad_action_is_a_plain_translated_sentence(api, action, english, arabic):
    """Not «Action: حقول غير متوقعة في إجراء pass: seat»: the label untranslated and
    the action's type and field by their JSON names."""
    ana = api("ana")
    tid = new_table(ana)["id"]
    body = {"id": "0b6f8c1e-5a4e-4a37-9a57-0d7f3a3f6c11", "version": 0, "action": action}
    r = ana.post(f"/api/tables/{tid}/actions/", body, format="json")
    assert r.status_code == 400
    assert r.json()["error"] == english and list(r.json()["fields"]) == ["action"]
    r = ana.post(f"/api/tables/{tid}/actions/", body, format="json", HTTP_ACCEPT_LANGUAGE="ar")
    assert r.json()["error"] == arabic


def test_an_unsupported_content_type_has_the_errors_shape(api):
    ana = api("ana")
    r = ana.post("/api/tables/", "stake=1", content_type="text/plain")
    assert r.status_code == 415
    assert r.json() == {
        "error": "Send the body as JSON (Content-Type: application/json), not text/plain.",
        "code": "unsupported_media_type",
    }
    r = ana.post("/api/tables/", "stake=1", content_type="text/plain", HTTP_ACCEPT_LANGUAGE="ar")
    assert r.json()["error"].startswith("أرسل"), r.json()
