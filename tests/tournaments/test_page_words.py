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


#: A Latin comma beside Arabic words: the Arabic page writes «،».
LATIN_COMMA_IN_ARABIC = re.compile(r"[\u0600-\u06ff)][\s\u200f]*,|,[\s\u200f]*[\u0600-\u06ff]")


def text_of(html: str) -> str:
    """The page's words: its tags dropped (their attributes hold no sentence)."""
    body = html.split("<main", 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_the_arabic_event_page_writes_the_arabic_comma(client, make_tournament, player, staff):
    """The sentences the page puts together (the entry fee from your wallet, the pool and
    the house fee, the draw's rounds and entrants) join their parts with «،» in Arabic."""
    t = make_tournament(capacity=4)
    client.force_login(player())
    html = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert not LATIN_COMMA_IN_ARABIC.search(text_of(html)), LATIN_COMMA_IN_ARABIC.findall(
        text_of(html)
    )
    for i in range(4):
        services.register(tournament_id=t.pk, by=player(), client_seed=f"s{i}")
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    services.advance(tournament_id=t.pk)
    html = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    found = LATIN_COMMA_IN_ARABIC.findall(text_of(html))
    assert not found, found


@pytest.mark.parametrize(
    ("team_mode", "capacity", "words"),
    [(True, 6, "(6 فرق)"), (True, 12, "(12 فريقًا)"), (False, 5, "(5 مشتركين)"),
     (False, 2, "(مشتركان)")],
)  # fmt: skip
def test_a_full_event_counts_its_places_in_arabic(
    client, make_tournament, player, team_mode, capacity, words
):
    """ "6 فريق" read wrong: the count takes the noun Arabic gives that number (6 فرق, 12
    فريقًا), from the catalog's plural forms. The page says the event is full instead of
    offering Register, and the server still refuses."""
    from django.utils import translation

    from tournaments.errors import Conflict

    variant = "complex_partner" if team_mode else "complex"
    t = make_tournament(variant=variant, capacity=capacity, min_entrants=2, prize_bps=[10000])
    for i in range(capacity):
        services.register(tournament_id=t.pk, by=player(), client_seed=f"s{i}")
    late = player()
    with translation.override("ar"), pytest.raises(Conflict) as refused:
        services.register(tournament_id=t.pk, by=late, client_seed="late")
    assert words in refused.value.message and refused.value.code == "full"
    client.force_login(late)
    html = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert 'data-testid="register"' not in html
    assert words in html.split('data-testid="full"')[1].split("</p>")[0]
    r = client.post(f"/tournaments/{t.pk}/register/", {"client_seed": "late"}, follow=True)
    assert not t.entries.filter(user=late).exists() and "full" in r.content.decode()


def test_a_solo_event_lists_only_the_options_that_apply_to_it(client, make_tournament):
    """The level-team-totals rule and the other partnership-only options (docs/rules.md: "In
    solo variants the option changes nothing") are listed for a partnership event only."""
    partnership_only = (
        "Level team totals", "Doubles scored per", "Show 2s in partnership Trix",
        "2s in Complex Partner only",
    )  # fmt: skip
    solo = make_tournament(variant="complex")
    pairs = make_tournament(variant="complex_partner")
    for t, shown in ((solo, False), (pairs, True)):
        html = client.get(f"/tournaments/{t.pk}/").content.decode()
        options = html.split('data-testid="table-options"')[1].split("</ul>")[0]
        for label in partnership_only:
            assert (label in options) is shown, (label, options)


@pytest.mark.parametrize("language", ["ar", "en"])
def test_the_draw_commitments_heading_keeps_sha_256_on_one_line(client, make_tournament, language):
    """«SHA-256» is one name: a phone broke the Arabic heading after "SHA-". Its hyphen is
    the no-break hyphen (U+2011), in both languages."""
    t = make_tournament()
    html = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    draw = html.split('data-testid="draw"')[1].split("</table>")[0]
    heading = draw.split("<th>")[1].split("</th>")[0]
    assert "SHA\u2011256" in heading and "SHA-256" not in heading, heading


@pytest.mark.parametrize(
    ("team_mode", "words"),
    [(True, "0 / 2 فريقان"), (False, "0 / 2 مشتركان")],
)
def test_the_registered_count_takes_the_dual_of_a_capacity_of_two(
    client, make_tournament, team_mode, words
):
    """ "0 / 2 فريق" read wrong: the noun agrees with the capacity, and two takes the dual,
    on the event's page and on its card in the list."""
    variant = "complex_partner" if team_mode else "complex"
    t = make_tournament(variant=variant, capacity=2, min_entrants=2, prize_bps=[10000])
    html = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert words in html.split('data-testid="registered"')[1].split("</span>")[0]
    listing = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert words in listing


def test_a_status_badge_is_a_capitalized_label(client, make_tournament):
    """The status badges read "registration", "running" in lower case, as words cut from a
    sentence: a badge is a label ("Registration"). The API's status code stays as it was."""
    t = make_tournament(name="Badge cup")
    badge = re.compile(r'<span class="badge status-registration"[^>]*>([^<]*)</span>')
    for page in ("/tournaments/", f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/live/"):
        html = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert badge.findall(html) == ["Registration"], page
    assert client.get(f"/api/tournaments/{t.pk}/").json()["status"] == "registration"
