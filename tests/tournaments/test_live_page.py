"""The live page in Chromium, in Arabic on a phone (390 x 844): a partnership event names
its teams by their members (a bye's and an entrant's team, never "T5"), and a disqualified
team is marked at the table it is playing at once, not only when the table's result is
recorded."""

from __future__ import annotations

import re

import pytest

from tournaments import services
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_live_page_names_teams_and_marks_the_disqualified_in_play(
    live_server, new_page, artifacts, make_tournament, player, staff
):
    t = make_tournament(name="كأس الشركاء", variant="complex_partner", capacity=4, min_entrants=2)
    names = ["ليلى", "سامر", "هدى", "كريم", "نادر", "رنا"]
    users = [player(n) for n in names]
    for i in range(0, 6, 2):
        services.register(tournament_id=t.pk, by=users[i], client_seed=f"s{i}")
        team = services.invite_partner(
            tournament_id=t.pk, by=users[i], display_name=users[i + 1].username
        )
        services.accept_invite(team_id=team.pk, by=users[i + 1], client_seed=f"s{i + 1}")
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    services.advance(tournament_id=t.pk)  # round 1: one table, one bye (the worker's task)
    rnd = Round.objects.get(tournament=t, number=1)
    seated = rnd.seating["tables"][0][0]  # a team at the table
    member = t.entries.filter(team_id=int(seated[1:])).order_by("id").first()
    services.disqualify(tournament_id=t.pk, by=staff, user_id=member.user_id, reason="غش")

    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page.goto(f"/tournaments/{t.pk}/live/")
    page.locator("[data-testid=seat-disqualified]").wait_for()
    text = page.locator("#live-app").inner_text()
    assert not re.search(r"\bT\d+\b", text), text
    bye = rnd.seating["byes"][0]
    pair = [names[users.index(e.user)] for e in t.entries.filter(team_id=int(bye[1:]))]
    assert " & ".join(pair) in page.locator(".round .help").first.inner_text()
    assert page.locator("[data-testid=entrant-team]").first.inner_text() != ""
    row = page.locator(".seat-row.out")
    assert row.count() == 1 and "مستبعَد" in row.inner_text()
    page.screenshot(path=str(artifacts / "tournament-live-teams-dq-ar-390.png"), full_page=True)


def test_the_final_places_mark_the_disqualified(
    live_server, new_page, artifacts, worker, make_tournament, player, staff
):
    """A disqualified entrant was listed last in the final places with no word of it: the
    row carries the entry status's badge and who disqualified them and why."""
    from tests.tournaments.helpers import QUICK, check_in_everyone, run_until
    from tournaments.models import Status

    t = make_tournament(options=QUICK, rounds=1, review_seconds=3600, prize_bps=[10000])
    users = [player(f"f{t.pk}-{i}") for i in range(4)]
    for i, user in enumerate(users):
        services.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    check_in_everyone(t.pk)
    run_until(t.pk, (Status.REVIEW,), worker=worker)
    services.disqualify(tournament_id=t.pk, by=staff, user_id=users[0].pk, reason="collusion")

    page = new_page(width=1280, height=900)
    page.goto(f"/tournaments/{t.pk}/live/")
    badge = page.locator("[data-testid=final] [data-testid=final-disqualified]")
    badge.wait_for()
    assert badge.count() == 1
    row = page.locator("[data-testid=final] tbody tr").filter(
        has=page.locator("[data-testid=final-disqualified]")
    )
    assert "collusion" in row.inner_text() and row.locator("td").first.inner_text() == "4"
    page.locator("#final-panel").screenshot(path=str(artifacts / "tournament-final-dq.png"))
