"""A bot's badge stands apart from its name (found by a new player: «روبوت 2منهجي», the
badge against the name, on the table page and in the lobby, in Arabic and English)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.games.helpers import new_table, seat_bots
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# For every .name holding a badge: the name's own text (trimmed), the gap in px between that
# text and the badge, and whether the text node ends in a space (a stray character).
GAPS = """(sel) => [...document.querySelectorAll(sel)].filter((n) => n.offsetParent).map((n) => {
  const badge = n.querySelector(':scope > .badge');
  const textNode = [...n.childNodes].find((c) => c.nodeType === 3 && c.textContent.trim());
  const r = document.createRange();
  const raw = textNode.textContent, start = raw.length - raw.trimStart().length;
  r.setStart(textNode, start); r.setEnd(textNode, start + raw.trim().length);
  const t = r.getBoundingClientRect(), b = badge.getBoundingClientRect();
  const gap = Math.max(b.left - t.right, t.left - b.right);
  return { text: raw, gap: gap, stray: raw !== raw.trim() };
})"""


@pytest.mark.parametrize("language,width", [("ar", 390), ("en", 1280)])
def test_a_bots_badge_stands_apart_from_its_name(
    player, new_page, live_server, client, artifacts, language, width
):
    owner = player("nadia")
    api = APIClient()
    api.force_authenticate(owner)
    table = new_table(api)
    seat_bots(api, table["id"], [1], bot="rules")
    seat_bots(api, table["id"], [2], bot="random")
    page = new_page(width=width, height=844 if width == 390 else 900)
    log_in(page, live_server.url, client, owner)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    for path, sel in [("/", ".seat-row .name"), (f"/tables/{table['id']}/", "#seat-list .name")]:
        page.goto(path)
        page.locator(f"{sel} .badge").first.wait_for()
        shot = "lobby" if path == "/" else "table"
        page.screenshot(
            path=str(artifacts / f"bot-badge-{language}-{width}-{shot}.png"), full_page=True
        )
        names = page.evaluate(GAPS, sel)
        assert len(names) == 2, names
        for n in names:
            assert not n["stray"], n  # the space is the badge's margin, not a character
            assert n["gap"] >= 4, n
