"""A list of names reads in order in both languages, each name isolated (found by a new
player: on the Arabic table page the winners "Sara" and "Omar Ali" read "Omar Ali, Sara",
the Latin names and the comma between them one left-to-right run, and a mixed-script name
such as "Sami سامي" ran into its neighbour)."""

from __future__ import annotations

import pytest

from games.services import create_table
from tests.web.conftest import log_in
from tests.web.test_table_summary import TIMERS, Server, answer, finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Sara", "Omar Ali", "Sami سامي", "سارة"]

# Where each of `names` is laid out in the element `sel`'s text: its boxes' left, right, top.
WHERE = """([sel, names]) => {
  const box = document.querySelector(sel);
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  const found = {};
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const name of names) {
      const at = node.textContent.indexOf(name);
      if (at < 0 || found[name]) continue;
      const r = document.createRange();
      r.setStart(node, at); r.setEnd(node, at + name.length);
      const rects = [...r.getClientRects()];
      found[name] = rects.filter((x) => x.width > 0).map((x) => [x.left, x.right, x.top]);
    }
  }
  return { text: box.innerText, found: found };
}"""


def in_reading_order(found: dict, names: list[str], rtl: bool) -> bool:
    """Is each of ``names`` laid out in one piece on one line (nothing else between its
    words), and after the one before in the reading order: on a later line, or on the same
    line further on (right to left in Arabic, left to right in English)?"""
    boxes = []
    for name in names:
        rects = found[name]
        left, right = min(r[0] for r in rects), max(r[1] for r in rects)
        if (
            len({round(r[2]) for r in rects}) != 1
            or right - left > sum(r[1] - r[0] for r in rects) + 8
        ):
            return False  # split over lines, or words of other text between its own
        boxes.append({"left": left, "right": right, "top": rects[0][2]})
    return all(
        b["top"] > a["top"] + 2
        or (
            abs(b["top"] - a["top"]) <= 2
            and (b["right"] <= a["left"] if rtl else a["right"] <= b["left"])
        )
        for a, b in zip(boxes, boxes[1:], strict=False)
    )


@pytest.mark.parametrize(("language", "width"), [("ar", 390), ("en", 1280)])
def test_the_results_lists_of_names_read_in_order(
    django_user_model, new_page, live_server, client, artifacts, language, width
):
    user = django_user_model.objects.create_user("ana", "ana@example.com", "pw-Ana-12345")
    table_id = create_table(user=user, variant="complex", stake=0, options=TIMERS).pk
    state = finished_match(variant="complex", seed=5)
    state.result["placements"] = {"0": 1, "1": 1, "2": 1, "3": 4}  # three share the first place
    page = new_page(width=width, height=844 if width == 390 else 800)
    log_in(page, live_server.url, client, user)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    for seat, sel, names in [  # a spectator's "Winners: ..."; seat 2's "(tied with ...)"
        (None, "[data-testid=match-headline]", NAMES[:3]),
        (2, "[data-testid=place-line]", ["Sara", "Omar Ali"]),
    ]:
        ans = answer(table_id, state, seat, variant="complex", status="finished", version=300)
        for s in ans["table"]["seats"]:
            s.update(kind="human", bot=None, user_id=s["seat"] + 1, name=NAMES[s["seat"]])
        ans["table"]["result"] = ans["view"]["result"] = state.result
        Server(page, ans)
        page.goto(f"/tables/{table_id}/")
        page.locator(sel).wait_for()
        page.locator("#result").screenshot(
            path=str(artifacts / f"name-list-{language}-{width}-{'seat' if seat else 'watch'}.png")
        )
        where = page.evaluate(WHERE, [sel, names])
        assert set(where["found"]) == set(names), where
        assert in_reading_order(where["found"], names, language == "ar"), where
        page.unroute_all()
