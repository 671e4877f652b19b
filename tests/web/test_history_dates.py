"""A date and time in a history list reads date first, "2026-12-06 23:40", in both
languages (found by a new player: on the Arabic page the player's history and the wallet's
read "23:40 2026-12-06", the bidi algorithm laying the two numbers out right to left)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tests.accounts.matches import fund, make_match, player
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each visible <time> of a list: its text, and whether its date (the first ten characters)
# is laid out left of its time (the last five), as "2026-12-06 23:40" reads.
ORDER = """(sel) => [...document.querySelectorAll(sel)].map((e) => {
  const node = e.firstChild, text = node.textContent, r = document.createRange();
  r.setStart(node, 0); r.setEnd(node, 10);
  const date = r.getBoundingClientRect();
  r.setStart(node, text.length - 5); r.setEnd(node, text.length);
  const time = r.getBoundingClientRect();
  return { text: text, dateFirst: date.right <= time.left };
})"""


@pytest.mark.parametrize(("language", "size"), [("ar", (390, 844)), ("en", (1280, 800))])
def test_history_dates_read_date_then_time(
    new_page, live_server, client, artifacts, django_user_model, language, size
):
    layla = player(django_user_model, "layla_login", "ليلى")
    fund(layla, 1_000)
    make_match([layla, None, None, None], started=timezone.now() - datetime.timedelta(hours=1))
    page = new_page(width=size[0], height=size[1])
    log_in(page, live_server.url, client, layla)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    for path, sel in [
        (f"/players/{layla.pk}/", '[data-testid="match-row"] time'),
        ("/wallet/", '[data-testid="history"] time'),
    ]:
        page.goto(path)
        name = "player" if "players" in path else "wallet"
        page.screenshot(
            path=str(artifacts / f"history-dates-{language}-{size[0]}-{name}.png"), full_page=True
        )
        times = page.evaluate(ORDER, sel)
        assert times, path
        assert all(t["dateFirst"] for t in times), (path, times)
