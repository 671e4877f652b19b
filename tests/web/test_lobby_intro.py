"""The lobby's words above the tables name the buttons the visitor sees on them: a logged-in
player's «اجلس» / “Sit” on a free seat, a logged-out visitor's «افتح» / “Open” (they see no
Sit: the intro named it to them). Arabic and English at 390x844; screenshots
``test-artifacts/lobby-intro-<lang>-<in|out>.png``."""

from __future__ import annotations

import re

import pytest

from games import services as tables
from games.models import TableStatus
from tests.accounts.matches import make_match
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A button's name quoted in the intro, in either language's quotation marks.
QUOTED = re.compile(r"«([^»]+)»|“([^”]+)”")
WORDS = {"ar": {"sit": "اجلس", "open": "افتح"}, "en": {"sit": "Sit", "open": "Open"}}
#: The visible texts of the table cards' buttons and button links, without a closing "…".
BUTTONS = """() => [...document.querySelectorAll('#table-list a.button, #table-list button')]
  .filter((b) => b.offsetParent !== null).map((b) => b.textContent.trim().replace(/…$/, ''))"""


@pytest.mark.parametrize("language", ["ar", "en"])
@pytest.mark.parametrize("logged_in", [True, False], ids=["in", "out"])
def test_the_lobby_intro_names_the_buttons_the_visitor_sees(
    new_page, live_server, client, player, artifacts, language, logged_in
):
    host, viewer = player("Host"), player("Viewer")
    tables.create_table(user=host, variant="trix", stake=0)  # open: free seats, Open
    make_match([host, None, None, None], status=TableStatus.PLAYING)  # in play: Watch
    page = new_page(width=390, height=844)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    if logged_in:
        log_in(page, live_server.url, client, viewer)
    page.goto("/")
    page.locator("#table-list .table-card").nth(1).wait_for()
    intro = page.get_by_test_id("lobby-intro")
    intro.scroll_into_view_if_needed()
    page.screenshot(
        path=str(artifacts / f"lobby-intro-{language}-{'in' if logged_in else 'out'}.png")
    )
    text = intro.inner_text()
    named = {a or b for a, b in QUOTED.findall(text)}
    shown = set(page.evaluate(BUTTONS))
    assert named and named <= shown, (text, shown)
    words = WORDS[language]
    if logged_in:
        assert words["sit"] in named
    else:
        assert words["open"] in named
        assert words["sit"] not in text and words["sit"] not in shown
