"""The lobby on a phone in Arabic and on a desktop in English: the open tables before the
create form, which a phone folds; a new player's next steps in one line (two at most on a
phone); the site's header in one or two lines."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

#: How many lines a block's text takes: distinct line tops of its text's boxes.
LINES_JS = """(selector) => {
  const box = document.querySelector(selector);
  const range = document.createRange();
  range.selectNodeContents(box);
  const tops = new Set();
  for (const r of range.getClientRects()) if (r.width > 1) tops.add(Math.round(r.bottom));
  const lines = [];
  for (const t of [...tops].sort((a, b) => a - b)) {
    if (!lines.length || t - lines[lines.length - 1] > 8) lines.push(t);
  }
  return lines.length;
}"""


@pytest.mark.parametrize(
    ("size", "language", "name"), [(PHONE, "ar", "phone-ar"), (DESKTOP, "en", "desktop-en")]
)
@pytest.mark.unverified  # as signed up: not verified yet
def test_the_lobby_lists_tables_first_and_says_the_next_steps(
    new_page, live_server, client, artifacts, size, language, name
):
    user = get_user_model().objects.create_user("rana", "rana@example.com", "pw-Rana-12345")
    page = new_page(**size)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    log_in(page, live_server.url, client, user)
    page.goto("/")
    page.get_by_test_id("table-list").locator("p.empty, .table-card").first.wait_for()
    assert page.evaluate("document.documentElement.lang") == language
    page.screenshot(path=str(artifacts / f"lobby-{name}.png"))
    steps = page.get_by_test_id("first-steps")
    assert steps.is_visible()
    assert page.evaluate(LINES_JS, "[data-testid=first-steps]") <= (1 if size == DESKTOP else 2)
    for step in ("step-verify", "step-deposit", "step-play", "step-free"):
        assert page.get_by_test_id(step).is_visible()
    assert page.evaluate(LINES_JS, ".site-header") <= 2
    tables = page.locator("#table-lists").bounding_box()
    create = page.locator("#create").bounding_box()
    assert tables["y"] < create["y"]
    form = page.locator("#create-form")
    if size == PHONE:
        assert form.is_hidden()
        page.locator("#create-details > summary").click()
    assert form.is_visible()
    page.screenshot(path=str(artifacts / f"lobby-{name}-create.png"), full_page=True)
