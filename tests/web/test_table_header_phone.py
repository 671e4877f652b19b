"""The table page's header on a phone in Arabic: every link of the header (the site's pages,
the wallet, the player's name, log out, the language switch) is on the screen, none cut or
scrolled out of sight, as on the other pages; and the seat's whole hand of 13 cards still fits
the first screen of a 390x844 phone (issue 14)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.services import create_table, seat_bot, take_seat
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NO_TIMERS = {"choose_timer": 0, "double_timer": 0, "play_timer": 0}

HEADER_BOXES_JS = """() => Array.from(
  document.querySelectorAll('.site-header a, .site-header button')
).map((e) => {
  const r = e.getBoundingClientRect();
  return {text: e.textContent.trim(), left: r.left, right: r.right, top: r.top,
          bottom: r.bottom, width: r.width};
})"""


def test_the_table_header_fits_a_phone_in_arabic(live_server, client, new_page, worker, artifacts):
    user = get_user_model().objects.create_user("layla", "layla@example.com", "pw-Layla-12345")
    table = create_table(user=user, variant="complex", options=NO_TIMERS)
    take_seat(user=user, table_id=table.pk, seat=0, client_seed="seed-layla")
    for seat in (1, 2, 3):
        seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
    page = new_page(**PHONE)
    log_in(page, live_server.url, client, user)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto(f"/tables/{table.pk}/")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    page.wait_for_function("document.querySelectorAll('#hand .card').length === 13")
    page.screenshot(path=str(artifacts / "table-header-arabic-phone.png"))
    boxes = page.evaluate(HEADER_BOXES_JS)
    names = [b["text"] for b in boxes]
    assert "المحفظة" in " ".join(names) and "layla" in names, names  # wallet, the player
    for box in boxes:
        assert box["width"] > 0, box
        assert 0 <= box["left"] and box["right"] <= PHONE["width"], box
    # Nothing in the header is scrolled or clipped out of sight.
    assert page.evaluate(
        "Array.from(document.querySelectorAll('.site-header, .site-header *'))"
        ".every((e) => e.scrollWidth <= e.clientWidth + 1"
        " || getComputedStyle(e).display === 'inline')"
    )
    bottom = page.evaluate(
        "Math.max(...Array.from(document.querySelectorAll('#hand .card'))"
        ".map((c) => c.getBoundingClientRect().bottom))"
    )
    assert bottom <= PHONE["height"], f"the hand ends at {bottom}px"
