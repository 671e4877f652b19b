"""``/api/docs/`` works with no network (issue 14: it was a blank page, Swagger UI loaded from a
CDN): Swagger UI comes from the site's own static files (drf-spectacular-sidecar). The browser
may reach the live server and nothing else; every other request is refused and counted."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCAL = {"localhost", "127.0.0.1", "[::1]", "::1"}


def test_the_api_docs_render_offline(new_page, live_server, artifacts):
    page = new_page(width=1280, height=900)
    blocked: list[str] = []
    local: list[str] = []

    def route(r):
        url = r.request.url
        if urlsplit(url).hostname in LOCAL:
            local.append(url)
            r.continue_()
        else:
            blocked.append(url)
            r.abort("internetdisconnected")

    page.context.route("**/*", route)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/api/docs/")
    # The operations list: one block per operation, grouped by tag.
    page.wait_for_selector(".opblock", timeout=20_000)
    paths = page.locator(".opblock .opblock-summary-path").all_inner_texts()
    assert any(p.startswith("/api/tables/") for p in paths), paths
    assert any(p.startswith("/api/wallet/") for p in paths), paths
    assert len(paths) >= 20, paths
    assert "Trix API" in page.locator(".info .title").inner_text()
    page.screenshot(path=artifacts / "api-docs-offline.png", full_page=False)
    assert blocked == [], blocked
    assert errors == [], errors
    assert any("/static/drf_spectacular_sidecar/swagger-ui-dist/" in u for u in local), local
    assert any(u.endswith("/api/schema/") for u in local), local
