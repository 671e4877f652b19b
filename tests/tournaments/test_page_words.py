"""The tournaments' pages write their times and lists one way: every time with its zone
("UTC"), and a list in Arabic with the Arabic comma («،»)."""

from __future__ import annotations

import re

import pytest

from tournaments import services
from tournaments.edits import edit_tournament

pytestmark = pytest.mark.django_db

TIME = re.compile(r"<time[^>]*>([^<]*)</time>")


def test_my_tournaments_shows_every_time_with_its_zone(client, make_tournament, player):
    t = make_tournament()
    alice = player()
    services.register(tournament_id=t.pk, by=alice, client_seed="my-seed")
    client.force_login(alice)
    html = client.get("/tournaments/mine/").content.decode()
    closes = html.split('data-testid="closes"')[1].split("</span>")[0]
    assert f"{t.registration_closes_at:%Y-%m-%d %H:%M} UTC" in closes, closes
    times = TIME.findall(html)
    assert len(times) >= 2 and all(time.endswith(" UTC") for time in times), times


def test_the_edit_list_in_arabic_separates_with_the_arabic_comma(client, make_tournament, staff):
    t = make_tournament()
    edit_tournament(tournament_id=t.pk, by=staff, reason="sponsor", prize_bps=[6000, 4000])
    html = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    edits = html.split('data-testid="edits"')[1].split("</ul>")[0]
    assert "50 %، 30 %، 20 %" in edits and "60 %، 40 %" in edits, edits
    assert "%, " not in edits
    english = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "60 %, 40 %" in english.split('data-testid="edits"')[1]
