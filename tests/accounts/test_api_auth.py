"""The API's authentication and the login lockout (issue 13, item 4): the API takes the
session of the login form only, so the form's lockout (allauth's ``login_failed`` rate limit)
is the one door to a password. HTTP Basic used to check passwords beside it, never limited:
30 wrong passwords, then the right one accepted while the form was locked."""

from __future__ import annotations

import base64

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "pw-Trix-2025!"
TABLE = {"variant": "trix", "stake": 0, "options": {}}


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """allauth counts failed logins in Django's cache (per process here)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def ana():
    return User.objects.create_user("ana", "ana@example.com", PASSWORD)


def basic(password: str) -> APIClient:
    client = APIClient()
    token = base64.b64encode(f"ana:{password}".encode()).decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    return client


def test_basic_with_the_right_password_after_the_lockout_is_refused(client, ana):
    for _ in range(30):  # the red team's guesses: every one refused, and nothing counted
        r = basic("wrong").post("/api/tables/", TABLE, format="json")
        assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    for _ in range(5):
        client.post("/accounts/login/", {"login": "ana", "password": "wrong"})
    locked = client.post("/accounts/login/", {"login": "ana", "password": PASSWORD})
    assert locked.status_code == 200 and b"Too many failed login attempts" in locked.content
    r = basic(PASSWORD).post("/api/tables/", TABLE, format="json")
    assert r.status_code == 401, r.content
    assert r.json() == {
        "error": "You are not logged in: log in on /accounts/login/.",
        "code": "not_authenticated",
    }
    assert not ana.tables_created.exists()


def test_basic_is_not_accepted_even_with_the_right_password(ana):
    r = basic(PASSWORD).get("/api/wallet/")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


def test_the_login_session_is_what_the_api_takes(client, ana):
    r = client.post("/accounts/login/", {"login": "ana", "password": PASSWORD})
    assert r.status_code == 302
    api = APIClient()
    api.cookies = client.cookies
    assert api.get("/api/wallet/").status_code == 200
