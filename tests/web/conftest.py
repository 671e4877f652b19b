"""Browser tests: Playwright's sync API driving Debian's Chromium.

The real Celery worker (``worker``) and the browser fixtures (``browser``, ``new_page``,
``artifacts``: one Chromium for the whole session, whichever package uses it) are shared
fixtures of ``tests/conftest.py``; the constants and :func:`log_in` are here.

Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls from a
thread with a running loop unless DJANGO_ALLOW_ASYNC_UNSAFE is set, which is safe here (the
test thread is the only one using its connection).
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def log_in(page, base_url: str, client, user) -> None:
    """Give ``page``'s browser context a logged-in session for ``user`` (no form round-trip)."""
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": base_url}])


def no_stream(page, table_id: int) -> None:
    """Refuse ``page``'s live stream of ``table_id`` (404), so the page falls back to its state
    long poll at once: for tests that answer the polls themselves (``page.route``)."""
    page.route(
        f"**/api/tables/{table_id}/stream/**",
        lambda route: route.fulfill(status=404, content_type="application/json", body="{}"),
    )
