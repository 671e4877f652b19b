"""Browser tests: Playwright's sync API driving Debian's Chromium.

The real Celery worker (``worker``) is the shared fixture of ``tests/conftest.py``.

Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls from a
thread with a running loop unless DJANGO_ALLOW_ASYNC_UNSAFE is set, which is safe here (the
test thread is the only one using its connection).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: ./dev test installs Debian's chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(browser, live_server):
    """Open pages in fresh browser contexts (separate cookies); closed after the test."""
    contexts = []

    def open_page(*, width: int = 1280, height: int = 900):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def log_in(page, base_url: str, client, user) -> None:
    """Give ``page``'s browser context a logged-in session for ``user`` (no form round-trip)."""
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": base_url}])
