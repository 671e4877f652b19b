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


class RefusedOnce:
    """A page's live stream refused once (503: the page follows its long poll), then let
    through; once the page has opened it again, its long poll is refused, so what the page
    shows next came by the stream. ``streams`` and ``polls``: the URLs requested."""

    def __init__(self, page, stream_glob: str, poll_glob: str):
        self.page, self.streams, self.polls = page, [], []
        page.route(stream_glob, self._stream)
        page.route(poll_glob, self._poll)

    def _stream(self, route):
        self.streams.append(route.request.url)
        if len(self.streams) == 1:
            route.fulfill(status=503, content_type="application/json", body="{}")
        else:
            route.continue_()

    def _poll(self, route):
        self.polls.append(route.request.url)
        route.abort() if len(self.streams) >= 2 else route.continue_()

    def back_on_the_stream(self) -> int:
        """Move the page's clock past ``STREAM_RETRY_MS`` and its jitter
        (web/static/web/live.js) and wait for the stream's second opening; the number of
        long polls made until then."""
        assert len(self.streams) == 1 and self.polls, (self.streams, self.polls)  # long-polling
        self.page.clock.fast_forward(70_000)
        for _ in range(150):
            if len(self.streams) >= 2:
                break
            self.page.wait_for_timeout(100)
        assert len(self.streams) == 2, self.streams  # the stream is tried again
        return len(self.polls)
