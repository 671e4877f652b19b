"""A page that fell back to its long poll goes back to its live stream (issue 15's trial: the
streams' processes restarted together left open pages on the long poll until a reload). Real
Chromium against the ASGI live server; the stream is refused once (the page long-polls), the
page's clock is moved on past ``STREAM_RETRY_MS`` (web/static/web/live.js), and from then on
the long poll is refused: what the page shows next can only come from its stream."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.services import cancel_table, create_table, seat_bot
from tests.web.conftest import RefusedOnce, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_page_on_its_long_poll_goes_back_to_its_stream(live_server, client, new_page):
    user = get_user_model().objects.create_user("rana", "rana@example.com", "pw-Rana-12345")
    table = create_table(user=user, variant="complex")
    page = new_page()
    log_in(page, live_server.url, client, user)
    retry = RefusedOnce(
        page, f"**/api/tables/{table.pk}/stream/**", f"**/api/tables/{table.pk}/state/**"
    )
    page.clock.install()
    page.goto(f"/tables/{table.pk}/")
    page.locator("[data-testid=sit-0]").wait_for()
    for _ in range(100):
        if retry.polls:
            break
        page.wait_for_timeout(100)
    polled = retry.back_on_the_stream()
    seat_bot(user=user, table_id=table.pk, seat=2, bot="rules")
    page.locator("[data-testid=bot-2]").wait_for(state="hidden", timeout=10_000)
    assert len(retry.streams) == 2 and len(retry.polls) == polled  # kept, and the long poll stopped


def test_a_table_page_stops_its_long_poll_once_the_table_is_over(
    live_server, client, new_page, settings
):
    """A page on its long poll (its stream refused) asked the state again every few seconds
    for as long as it stayed open after its table ended, though nothing more could change."""
    settings.TRIX_STATE_WAIT_MAX = 0.5  # a held poll answers within half a second
    user = get_user_model().objects.create_user("rana", "rana@example.com", "pw-Rana-12345")
    table = create_table(user=user, variant="complex")
    page = new_page()
    log_in(page, live_server.url, client, user)
    streams, polls = [], []

    def refuse(route):
        streams.append(route.request.url)
        route.fulfill(status=503, content_type="application/json", body="{}")

    def count(route):
        polls.append(route.request.url)
        route.continue_()

    page.route(f"**/api/tables/{table.pk}/stream/**", refuse)
    page.route(f"**/api/tables/{table.pk}/state/**", count)
    page.goto(f"/tables/{table.pk}/")
    page.locator("[data-testid=sit-0]").wait_for()
    cancel_table(table_id=table.pk, reason="test", by=user)
    page.wait_for_function("document.getElementById('table-app').dataset.phase === 'cancelled'")
    seen = len(polls), len(streams)
    page.wait_for_timeout(4000)  # before: a poll about every second (0.5 s held, 0.4 s apart)
    assert (len(polls), len(streams)) == seen
