"""A tournament table's result panel in Chromium (the failing case: after a disqualification a bot
took the entrant's seat and won the table; the panel listed «الأول: روبوت 3» and told a
player «حللت في المركز الرابع من 4» where the event's places put them 3rd). At a tournament's
table the panel gives the table's order as the table's, names the seat a bot played for the
disqualified entrant and links the event's standings and places; no won or lost headline."""

from __future__ import annotations

import pytest

from accounts.services import set_display_name
from games.models import Seat, Table
from tests.web.conftest import log_in
from tests.web.test_table_summary import Server, answer, finished_match
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_panel_of_a_tournament_table_points_to_the_events_places(
    live_server, new_page, client, artifacts, make_tournament, player, staff, language
):
    t = make_tournament(name="Demo Cup")
    people = [player(f"p{i}") for i in range(4)]
    for i, p in enumerate(people):
        services.register(tournament_id=t.pk, by=p, client_seed=f"seed-{i}")
    set_display_name(people[2], "Cheat Cara")
    services.start(tournament_id=t.pk, by=staff, reason="go")
    services.advance(tournament_id=t.pk)  # round 1: one table of the four
    cheat = Seat.objects.get(user=people[2], table__tournament_table__isnull=False)
    table = Table.objects.get(pk=cheat.table_id)
    services.disqualify(tournament_id=t.pk, by=staff, user_id=people[2].pk, reason="audit")
    me = Seat.objects.get(table=table, user=people[0]).seat

    state = finished_match(variant="complex", seed=5)
    order = [cheat.seat] + [s for s in range(4) if s not in (cheat.seat, me)] + [me]
    state.result["placements"] = {str(s): i + 1 for i, s in enumerate(order)}  # the bot 1st
    ans = answer(table.pk, state, me, variant="complex", status="finished", stake=0)
    ans["table"].update(kind="tournament", origin=table.origin)
    for s in ans["table"]["seats"]:
        human = s["seat"] != cheat.seat
        s.update(kind="human" if human else "bot", bot=None if human else "rules",
                 user_id=s["seat"] + 100 if human else None, staked=0,
                 name=f"Player {s['seat'] + 1}" if human else "")  # fmt: skip
    ans["table"]["result"] = ans["view"]["result"] = state.result
    page = new_page(width=390, height=844)
    log_in(page, live_server.url, client, people[0])
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    Server(page, ans)
    page.goto(f"/tables/{table.pk}/")
    page.locator("[data-testid=event-note]").wait_for()
    page.locator("#result").screenshot(path=str(artifacts / f"tournament-result-{language}.png"))
    headline = page.locator("[data-testid=match-headline]").inner_text()
    link = page.locator("[data-testid=event-standings]")
    assert link.get_attribute("href") == f"/tournaments/{t.pk}/live/"
    replaced = page.locator("[data-testid=event-replaced]").inner_text()
    scores = page.locator("[data-testid=final-scores]").inner_text()
    place = page.locator("[data-testid=place-line]").inner_text()
    assert "Cheat Cara" in replaced and "Cheat Cara" in scores
    if language == "en":
        assert headline == "Match over"
        assert place.startswith("Your seat's order at this table: 4th of 4"), place
        assert "not the tournament's" in page.locator("[data-testid=event-note]").inner_text()
        assert ": standings and places" in link.inner_text() and "Demo Cup" in link.inner_text()
    else:
        assert headline == "انتهت المباراة" and "خسرت" not in headline
        assert "ترتيب مقعدك على هذه الطاولة" in place and "حللت" not in place
        assert "بدلًا من" in scores
