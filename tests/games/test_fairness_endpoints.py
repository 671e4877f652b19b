"""The public fairness files under /fairness/ are read-only: GET and HEAD (``curl -I``, a
script checking a file's headers) answer, another method is 405 with ``Allow: GET, HEAD``,
for a browser or a script without a CSRF token too (never Django's CSRF page: nothing there
writes)."""

from __future__ import annotations

import pytest
from django.test import Client

URLS = [
    "/fairness/public-key.json",
    "/fairness/keys.json",
    "/fairness/log.jsonl",
    "/fairness/log-head.json",
    "/fairness/checkpoint",
    "/fairness/proof/inclusion?index=0&size=1",
    "/fairness/proof/consistency?first=0&second=0",
    "/fairness/verify_standalone.py",
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_another_method_than_get_is_405_without_the_csrf_page(url, method):
    response = getattr(Client(enforce_csrf_checks=True), method)(url)
    assert response.status_code == 405, response.content[:200]
    assert response["Allow"] == "GET, HEAD"


@pytest.mark.django_db
@pytest.mark.parametrize("url", URLS)
def test_head_answers_as_get_does_without_a_body(url):
    from games.services import fairness_log

    fairness_log.append([fairness_log.draw_commitment(event="tournament:1", commitment="ab" * 32)])
    client = Client()
    got, head = client.get(url), client.head(url)
    assert (head.status_code, got.status_code) == (200, 200)
    assert head["Content-Type"] == got["Content-Type"]
    assert head.content == b""
