"""The rate-limit cache (Redis, ``TRIX_CACHE_URL``) is down (issue 13, item 3): logging in,
signing up and the API's throttled actions go on without their limits (the site's cache
ignores its errors: ``trix_site.cache.redis_cache``); a cache configured to raise answers
a clear 503, never a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.accounts.test_pages import PASSWORD, signup
from tests.redis_server import dead_url
from trix_site.cache import redis_cache

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def dead_cache(settings):
    settings.CACHES = {"default": redis_cache(dead_url(), timeout=settings.TRIX_CACHE_TIMEOUT)}


def test_login_and_signup_work_while_the_cache_is_down(client, dead_cache):
    User.objects.create_user("ana", "ana@example.com", PASSWORD)
    r = client.post("/accounts/login/", {"login": "ana", "password": "wrong-password"})
    assert r.status_code == 200 and b"not correct" in r.content
    r = client.post("/accounts/login/", {"login": "ana", "password": PASSWORD})
    assert r.status_code == 302
    client.logout()
    r = signup(client)
    assert r.status_code == 302
    assert User.objects.filter(username="fahd").exists()


def test_a_throttled_api_call_works_while_the_cache_is_down(client, dead_cache):
    user = User.objects.create_user("ana", "ana@example.com", PASSWORD)
    client.force_login(user)
    payload = {"id": "6f1c7a52-0d5e-4c1b-9a57-8d0f3c2b1a01", "version": 0, "action": {}}
    r = client.post("/api/tables/999999/actions/", payload, content_type="application/json")
    # The throttle (DRF's, counted in the cache) let it through to the view's own answer.
    assert r.status_code in (400, 404) and r.json()["code"] in ("invalid", "not_found")


def test_a_cache_that_raises_answers_503(client, settings):
    django_redis_cache = "django.core.cache.backends.redis.RedisCache"  # raises its errors
    settings.CACHES = {"default": {"BACKEND": django_redis_cache, "LOCATION": dead_url()}}
    User.objects.create_user("ana", "ana@example.com", PASSWORD)
    r = client.post("/accounts/login/", {"login": "ana", "password": PASSWORD})
    assert r.status_code == 503 and r["Retry-After"] == "5"
    assert b"briefly unavailable" in r.content
