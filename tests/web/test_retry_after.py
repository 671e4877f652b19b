"""The table page's long poll waits what the server's ``Retry-After`` says: after the long-poll
cap's instant answer (200, the client already holds ``TRIX_WAITS_PER_CLIENT`` waits) and after
a 429 of the read limits, instead of polling again 0.4 s later (64 pages of one address polled
in a tight loop: the server's 1,157 answers in 7 s), in Chromium."""

from __future__ import annotations

import json
import time

import pytest

from tests.web.conftest import no_stream

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table_id(django_user_model):
    from games.services import create_table

    owner = django_user_model.objects.create_user("owner")
    return create_table(user=owner, variant="trix").pk


def poll_times(page, table_id: int, count: int) -> list[float]:
    """When the page sent each of its next ``count`` state polls (time.monotonic())."""
    times = []
    for _ in range(count):
        with page.expect_request(f"**/api/tables/{table_id}/state/**", timeout=20_000):
            pass
        times.append(time.monotonic())
    return times


def test_the_page_waits_the_caps_retry_after(table_id, new_page, settings):
    settings.TRIX_WAITS_PER_CLIENT = 0  # every poll is answered at once, with Retry-After
    settings.TRIX_STATE_WAIT_MAX = 2
    page = new_page()
    no_stream(page, table_id)
    answers = []
    page.on(
        "response",
        lambda r: answers.append(r.headers.get("retry-after")) if "/state/" in r.url else None,
    )
    page.goto(f"/tables/{table_id}/")
    times = poll_times(page, table_id, 3)
    assert answers and set(answers) == {"2"}
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert all(gap >= 1.9 for gap in gaps), gaps


def test_the_page_waits_a_429s_retry_after_and_says_nothing(table_id, new_page):
    page = new_page()
    no_stream(page, table_id)
    refused = []

    def on_state(route):
        refused.append(route.request.url)
        route.fulfill(
            status=429,
            headers={"Retry-After": "2"},
            content_type="application/json",
            body=json.dumps({"error": "Too many requests: try again in 2 s.", "code": "throttled"}),
        )

    page.route(f"**/api/tables/{table_id}/state/**", on_state)
    page.goto(f"/tables/{table_id}/")
    times = poll_times(page, table_id, 3)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert all(gap >= 1.9 for gap in gaps), gaps
    assert "Too many requests" not in page.locator("#notice").inner_text()
