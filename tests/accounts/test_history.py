"""A player's page, history, CSV and data download (issue 16): the public part for everyone,
the history for its owner only, filters, pages, the ledger's payout, flat query counts, the
API and the Arabic page."""

from __future__ import annotations

import csv
import datetime
import io
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import exports, views
from accounts.history import HistoryFilters, history_rows, match_history
from games.models import TableStatus
from tests.accounts.matches import make_match, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def layla(django_user_model):
    return player(django_user_model, "layla_login", "Layla")


@pytest.fixture
def omar(django_user_model):
    return player(django_user_model, "omar_login", "Omar")


@pytest.fixture
def mine(client, layla):
    client.force_login(layla)
    return client


def _rows(response) -> list[str]:
    html = response.content.decode()
    return html.split('data-testid="match-row"')[1:]


# -- the public part ---------------------------------------------------------------------------


def test_anyone_sees_the_public_part_and_never_the_username_or_the_history(client, layla, omar):
    make_match([layla, omar, None, None])
    make_match([layla, None, None, None], status=TableStatus.PLAYING)
    for viewer in (None, omar):
        if viewer:
            client.force_login(viewer)
        page = client.get(f"/players/{layla.pk}/")
        assert page.status_code == 200
        html = page.content.decode()
        assert "Layla" in html and "layla_login" not in html
        assert 'data-testid="matches-played">1<' in html  # finished matches only
        assert f">{layla.date_joined:%Y-%m-%d}<" in html
        # the ratings (ratings.selectors.ratings_of): no rated match yet, the initial rating
        assert '<span class="rating">Solo <strong>1000</strong></span>' in html
        assert "player-history" not in html and "match-row" not in html
        assert "history.csv" not in html and "data.json" not in html


def test_an_unknown_or_inactive_player_is_404(client, layla):
    assert client.get("/players/999999/").status_code == 404
    layla.is_active = False
    layla.save()
    assert client.get(f"/players/{layla.pk}/").status_code == 404


def test_the_header_name_goes_to_the_players_page_and_the_settings_stay_reachable(mine, layla):
    html = mine.get("/").content.decode()
    assert f'href="/players/{layla.pk}/"' in html
    page = mine.get(f"/players/{layla.pk}/").content.decode()
    assert 'href="/accounts/profile/"' in page
    assert mine.get("/accounts/profile/").status_code == 200
    assert mine.get("/players/me/")["Location"] == f"/players/{layla.pk}/"
    # the filters go along (a bookmark of one's own filtered history)
    assert mine.get("/players/me/?result=won&stakes=staked")["Location"] == (
        f"/players/{layla.pk}/?result=won&stakes=staked"
    )


# -- the owner's history -----------------------------------------------------------------------


def test_the_owner_sees_a_staked_match_with_seats_result_and_the_ledgers_payout(mine, layla, omar):
    table = make_match([layla, omar, None, None], variant="complex", stake=500)
    page = mine.get(f"/players/{layla.pk}/")
    rows = _rows(page)
    assert len(rows) == 1
    row = rows[0]
    # two stakers, 500 each: layla first of the two takes the pot (100%: seed 000's split)
    assert "5.00 USD" in row and "10.00 USD" in row and "+5.00 USD" in row
    assert "Omar" in row and f'href="/players/{omar.pk}/"' in row and "Bot 3" in row
    assert "Won" in row and "place 1" in row
    assert f'href="/tables/{table.pk}/"' in row and f'href="/verify/matches/{table.pk}/"' in row
    # omar's side of it: -5.00 USD, lost
    rows = history_rows(seats=match_history(user=omar))
    assert (rows[0].outcome, rows[0].placement, rows[0].payout, rows[0].net) == ("lost", 2, 0, -500)


def test_a_match_in_progress_shows_only_that_it_is_in_progress(mine, layla, omar):
    make_match([layla, omar, None, None], stake=300, status=TableStatus.PLAYING)
    (row,) = history_rows(seats=match_history(user=layla))
    assert (row.outcome, row.placement, row.score, row.team_score, row.verify_url) == (
        "in_progress",
        None,
        None,
        None,
        None,
    )
    assert (row.stake, row.payout, row.net) == (300, 0, -300)  # the stake sits in escrow
    html = _rows(mine.get(f"/players/{layla.pk}/"))[0]
    assert "In progress" in html and "score" not in html and "/verify/" not in html


def test_partnership_draw_forfeit_and_cancelled_results(layla, omar):
    make_match([layla, None, omar, None], variant="trix_partner", stake=200,
               placements={0: 1, 1: 1, 2: 1, 3: 1})  # fmt: skip
    make_match([layla, omar, None, None], variant="trix_partner", stake=200, forfeit=0,
               placements={0: 3, 1: 1, 2: 3, 3: 1})  # fmt: skip
    make_match([layla, omar, None, None], stake=100, status=TableStatus.CANCELLED)
    cancelled, forfeit, draw = history_rows(seats=match_history(user=layla))
    assert (draw.outcome, draw.net, draw.payout, draw.team_score) == ("drawn", 0, 200, 180)
    assert (forfeit.outcome, forfeit.forfeit, forfeit.net) == ("lost", True, -200)
    assert (cancelled.outcome, cancelled.net, cancelled.payout) == ("cancelled", 0, 100)


def test_a_partnership_row_shows_the_teams_score_not_the_seats(mine, layla, omar):
    scores = {0: 70, 1: 40, 2: 55, 3: 35}  # the team of seats 0 and 2: 125
    make_match([layla, omar, None, None], variant="trix_partner", stake=200, scores=scores)
    (row,) = _rows(mine.get(f"/players/{layla.pk}/"))
    assert "team score 125" in row and "score 70" not in row, row
    # a solo match keeps the seat's own score
    make_match([layla, omar, None, None], variant="complex", scores={0: 90, 1: 80, 2: 70, 3: 60})
    solo = _rows(mine.get(f"/players/{layla.pk}/"))[0]
    assert "score 90" in solo and "team score" not in solo


def test_a_partnership_seat_has_its_teams_place_as_the_result_panel_says(mine, layla, omar):
    """Partnership: the losing team is 2nd (the table's result panel), not the per-seat
    placement 3 the engine records for the pot's split."""
    make_match([layla, omar, None, None], variant="trix_partner")  # seats 0 and 2 win
    (lost,) = history_rows(seats=match_history(user=omar))
    (won,) = history_rows(seats=match_history(user=layla))
    assert (lost.outcome, lost.placement, won.placement) == ("lost", 2, 1)
    client_omar = mine.__class__()
    client_omar.force_login(omar)
    (row,) = _rows(client_omar.get(f"/players/{omar.pk}/"))
    assert "Lost · place 2" in row and "place 3" not in row


def test_a_tournament_table_is_labelled_by_the_event_not_won_or_lost(mine, layla, omar):
    """A tournament table has no stake (net 0): what counts is the event's places, so the
    row says "Tournament table" and the table's own place, not "Lost · place 4"."""
    make_match([None, omar, None, layla], variant="complex", kind="tournament")
    (row,) = history_rows(seats=match_history(user=layla))
    assert (row.outcome, row.placement, row.net) == ("tournament", 4, 0)
    (html,) = _rows(mine.get(f"/players/{layla.pk}/"))
    assert "Tournament table · place 4 at the table" in html and "Lost" not in html
    for result, count in (("tournament", 1), ("lost", 0), ("won", 0), ("refunded", 0)):
        assert mine.get("/api/me/matches/", {"result": result}).json()["count"] == count
    assert mine.get(f"/players/{layla.pk}/", {"result": "tournament"}).status_code == 200


def test_a_staked_match_is_labelled_by_its_net_not_its_place(mine, layla, omar, django_user_model):
    """Four stakers of 1.00: the pot of 4.00 pays 60/30/10 by place: first 2.40, second 1.20
    (net +0.20: a win), third 0.40 (net -0.60: a loss, though something came back)."""
    sami, huda = (player(django_user_model, n, n.title()) for n in ("sami", "huda"))
    make_match([sami, layla, omar, huda], variant="complex", stake=100)
    (second,) = history_rows(seats=match_history(user=layla))
    assert (second.placement, second.payout, second.net, second.outcome) == (2, 120, 20, "won")
    (third,) = history_rows(seats=match_history(user=omar))
    assert (third.placement, third.payout, third.net, third.outcome) == (3, 40, -60, "lost")
    row = _rows(mine.get(f"/players/{layla.pk}/"))[0]
    assert "Won · place 2" in row and "+0.20 USD" in row
    assert [
        m["table_id"] for m in mine.get("/api/me/matches/", {"result": "won"}).json()["results"]
    ]
    assert not mine.get("/api/me/matches/", {"result": "lost"}).json()["results"]


def test_a_lone_staker_gets_the_stake_back_and_reads_so(mine, layla):
    """Bots never stake: one staker's stake comes back whole, net 0, whatever the place."""
    make_match([None, layla, None, None], variant="complex", stake=100)
    (row,) = history_rows(seats=match_history(user=layla))
    assert (row.placement, row.payout, row.net, row.outcome) == (2, 100, 0, "refunded")
    html = _rows(mine.get(f"/players/{layla.pk}/"))[0]
    assert "Stake back · place 2" in html
    for result, count in (("refunded", 1), ("lost", 0), ("won", 0)):
        assert mine.get("/api/me/matches/", {"result": result}).json()["count"] == count


@pytest.mark.parametrize(
    ("stake", "net", "placement", "result", "expected"),
    [
        (100, 20, 2, {"placements": {}}, "won"),
        (100, -60, 1, {"placements": {}}, "lost"),  # the net decides, not the place
        (100, 0, 3, {"placements": {}}, "refunded"),
        (100, 0, 1, {"draw": True}, "drawn"),
        (0, 0, 1, {"placements": {}}, "won"),
        (0, 0, 2, {"placements": {}}, "lost"),
    ],
)
def test_the_outcome_rule(stake, net, placement, result, expected):
    from accounts.history import outcome

    got = outcome(
        status=TableStatus.FINISHED, result=result, stake=stake, net=net, placement=placement
    )
    assert got == expected
    assert outcome(status=TableStatus.CANCELLED, result={}, stake=stake, net=0, placement=None) == (
        "cancelled"
    )
    assert outcome(
        status=TableStatus.PLAYING, result=None, stake=stake, net=-stake, placement=None
    ) == ("in_progress")


# -- pages --------------------------------------------------------------------------------------


def test_no_matches_yet(mine, layla):
    html = mine.get(f"/players/{layla.pk}/").content.decode()
    assert "No matches yet." in html and "match-row" not in html
    html = mine.get(f"/players/{layla.pk}/", {"variant": "complex"}).content.decode()
    assert "No matches fit these filters." in html


@pytest.mark.parametrize(("matches", "pages"), [(4, 2), (5, 3), (1, 1)])
def test_pages_break_at_the_page_size(monkeypatch, mine, layla, matches, pages):
    monkeypatch.setattr(views, "HISTORY_PAGE_SIZE", 2)
    now = timezone.now()
    tables = [
        make_match([layla, None, None, None], started=now - datetime.timedelta(hours=i))
        for i in range(matches)
    ]
    seen = []
    for number in range(1, pages + 1):
        page = mine.get(f"/players/{layla.pk}/", {"page": number})
        assert f"Page {number} of {pages}" in page.content.decode()
        seen += [int(r.split('data-table="')[1].split('"')[0]) for r in _rows(page)]
        assert ('data-testid="history-older"' in page.content.decode()) == (number < pages)
    assert seen == [t.pk for t in tables]  # newest first, each once
    # a page past the end or not a number: the last or the first page, never an error
    assert (
        f"Page {pages} of {pages}"
        in mine.get(f"/players/{layla.pk}/", {"page": 99}).content.decode()
    )
    assert mine.get(f"/players/{layla.pk}/", {"page": "x"}).status_code == 200


def test_the_pager_keeps_the_filters(monkeypatch, mine, layla):
    monkeypatch.setattr(views, "HISTORY_PAGE_SIZE", 1)
    for _ in range(2):
        make_match([layla, None, None, None], variant="complex")
    html = mine.get(f"/players/{layla.pk}/", {"variant": "complex"}).content.decode()
    assert "?variant=complex&amp;page=2" in html
    assert "/players/me/history.csv?variant=complex" in html


# -- filters ------------------------------------------------------------------------------------


@pytest.fixture
def assorted(layla, omar):
    """Six matches of layla's: by name -> table."""
    day = datetime.datetime(2026, 3, 10, 12, tzinfo=datetime.UTC)
    return {
        "won_free_trix": make_match([layla, omar, None, None], started=day),
        "lost_staked_complex": make_match(
            [omar, layla, None, None],
            variant="complex",
            stake=100,
            started=day + datetime.timedelta(days=1),
        ),  # fmt: skip
        "drawn_partner": make_match(
            [layla, omar, None, None],
            variant="trix_partner",
            placements={0: 1, 1: 1, 2: 1, 3: 1},
            started=day + datetime.timedelta(days=2),
        ),  # fmt: skip
        "won_partner_staked": make_match(
            [layla, omar, None, None],
            variant="complex_partner",
            stake=100,
            started=day + datetime.timedelta(days=3),
        ),  # fmt: skip
        "playing": make_match(
            [layla, None, None, None],
            status=TableStatus.PLAYING,
            started=day + datetime.timedelta(days=4),
        ),  # fmt: skip
        "cancelled": make_match(
            [layla, None, None, None],
            status=TableStatus.CANCELLED,
            started=day + datetime.timedelta(days=5),
        ),  # fmt: skip
        "not_hers": make_match([omar, None, None, None], started=day),
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            {},
            [
                "cancelled",
                "playing",
                "won_partner_staked",
                "drawn_partner",
                "lost_staked_complex",
                "won_free_trix",
            ],
        ),  # fmt: skip
        ({"variant": "complex"}, ["lost_staked_complex"]),
        ({"stakes": "staked"}, ["won_partner_staked", "lost_staked_complex"]),
        ({"stakes": "free", "variant": "trix"}, ["cancelled", "playing", "won_free_trix"]),
        ({"since": "2026-03-11", "until": "2026-03-12"}, ["drawn_partner", "lost_staked_complex"]),
        ({"until": "2026-03-10"}, ["won_free_trix"]),
        ({"since": "2026-03-15"}, ["cancelled"]),
        ({"result": "won"}, ["won_partner_staked", "won_free_trix"]),
        ({"result": "lost"}, ["lost_staked_complex"]),
        ({"result": "drawn"}, ["drawn_partner"]),
        ({"result": "in_progress"}, ["playing"]),
        ({"result": "cancelled"}, ["cancelled"]),
        ({"result": "won", "stakes": "staked"}, ["won_partner_staked"]),
    ],
)
def test_filters(mine, layla, assorted, query, expected):
    ids = {table.pk: name for name, table in assorted.items()}
    page = mine.get(f"/players/{layla.pk}/", query)
    assert page.status_code == 200
    shown = [ids[int(r.split('data-table="')[1].split('"')[0])] for r in _rows(page)]
    assert shown == expected
    api = mine.get("/api/me/matches/", query).json()
    assert [ids[m["table_id"]] for m in api["results"]] == expected
    lines = list(
        csv.DictReader(io.StringIO(mine.get("/players/me/history.csv", query).content.decode()))
    )
    assert [ids[int(line["table_id"])] for line in lines] == expected


def test_the_pages_date_menus_filter_as_the_iso_dates_do(mine, layla, assorted):
    """The page's date filters are day, month and year menus (``since_day`` ...); the pager
    and the CSV link carry the same dates as ISO ``since`` / ``until``."""
    ids = {table.pk: name for name, table in assorted.items()}
    query = {"since_year": "2026", "since_month": "3", "since_day": "11"}
    query |= {"until_year": "2026", "until_month": "3", "until_day": "12"}
    page = mine.get(f"/players/{layla.pk}/", query)
    assert page.status_code == 200
    shown = [ids[int(r.split('data-table="')[1].split('"')[0])] for r in _rows(page)]
    assert shown == ["drawn_partner", "lost_staked_complex"]
    html = page.content.decode()
    assert "history.csv?since=2026-03-11&amp;until=2026-03-12" in html
    assert '<option value="3" selected>March</option>' in html
    assert 'type="date"' not in html
    arabic = mine.get(f"/players/{layla.pk}/", query, HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert '<option value="3" selected>مارس</option>' in arabic
    half = mine.get(
        f"/players/{layla.pk}/", {"since_year": "2026", "since_month": "", "since_day": ""}
    )
    assert half.status_code == 400 and "Enter a valid date" in half.content.decode()


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"variant": "poker"}, "Select a valid choice"),
        ({"stakes": "lots"}, "Select a valid choice"),
        ({"since": "yesterday"}, "Enter a valid date"),
        ({"until": "2026-02-30"}, "Enter a valid date"),
        ({"since": "2026-03-12", "until": "2026-03-11"}, "The start date is after the end date"),
        ({"result": "1"}, "Select a valid choice"),
    ],
)
def test_bad_filters_are_a_clear_400_everywhere(mine, layla, query, message):
    page = mine.get(f"/players/{layla.pk}/", query)
    assert page.status_code == 400 and message in page.content.decode()
    assert "match-row" not in page.content.decode()
    api = mine.get("/api/me/matches/", query)
    assert api.status_code == 400
    assert api.json()["code"] == "invalid" and message in api.json()["error"]
    assert "__all__" not in api.json()["error"]
    download = mine.get("/players/me/history.csv", query)
    assert download.status_code == 400 and message in download.content.decode()


def test_the_filters_refuse_bad_values_in_the_selector_too():
    with pytest.raises(ValueError):
        HistoryFilters(variant="poker")
    with pytest.raises(ValueError):
        HistoryFilters(since=datetime.date(2026, 2, 2), until=datetime.date(2026, 2, 1))


# -- no N+1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/players/{id}/", "/api/me/matches/", "/players/me/history.csv"])
def test_the_query_count_stays_flat_from_1_to_30_matches(
    mine, layla, omar, url, django_assert_max_num_queries
):
    path = url.format(id=layla.pk)
    make_match([layla, omar, None, None], stake=100)
    with CaptureQueriesContext(connection) as one:
        assert mine.get(path).status_code == 200
    for i in range(29):
        make_match([layla, omar, None, None], stake=100 if i % 2 else 0)
    with django_assert_max_num_queries(len(one)):
        response = mine.get(path)
    assert response.status_code == 200


# -- CSV ----------------------------------------------------------------------------------------


def test_the_csv_has_a_header_and_one_line_per_match_with_money_in_minor_units(mine, layla, omar):
    table = make_match([layla, omar, None, None], variant="complex", stake=250)
    response = mine.get("/players/me/history.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="trix-history-')
    assert "no-store" in response["Cache-Control"]
    text = response.content.decode()
    header, *lines = list(csv.reader(io.StringIO(text)))
    assert tuple(header) == exports.CSV_COLUMNS
    assert len(lines) == 1
    line = dict(zip(header, lines[0], strict=True))
    assert line["table_id"] == str(table.pk) and line["variant"] == "complex"
    assert (line["stake_minor"], line["payout_minor"], line["net_minor"]) == ("250", "500", "250")
    assert line["currency"] == "USD" and line["result"] == "won" and line["placement"] == "1"
    assert line["seats"] == "0:Layla; 1:Omar; 2:Bot 3; 3:Bot 4"
    assert line["verify_url"] == f"/verify/matches/{table.pk}/"
    assert "layla_login" not in text


def test_a_name_that_reads_as_a_formula_is_written_as_text(mine, layla, omar):
    omar.profile.display_name = "=HYPERLINK(1)"
    omar.profile.save()
    make_match([omar, layla, None, None])
    _header, line = csv.reader(io.StringIO(mine.get("/players/me/history.csv").content.decode()))
    assert "0:=HYPERLINK(1); 1:Layla" in line[exports.CSV_COLUMNS.index("seats")]
    assert not any(cell.startswith(("=", "+", "@")) for cell in line)  # no cell is a formula
    assert exports._text("=1+1") == "'=1+1" and exports._text("Layla") == "Layla"


# -- owner only ---------------------------------------------------------------------------------


def test_downloads_and_my_matches_need_a_login_and_are_only_ever_ones_own(client, layla, omar):
    make_match([omar, None, None, None])
    for path in ("/players/me/history.csv", "/players/me/data.json", "/players/me/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get("/api/me/matches/").status_code == 401
    client.force_login(layla)
    # asking for omar's by any parameter still answers layla's own (empty) history
    response = client.get("/players/me/history.csv", {"user": omar.pk, "player_id": omar.pk})
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert len(lines) == 1  # the header only
    data = json.loads(client.get("/players/me/data.json", {"user": omar.pk}).content)
    assert data["profile"]["id"] == layla.pk and data["matches"] == []
    assert client.get("/api/me/matches/", {"user": omar.pk}).json()["count"] == 0


# -- the data download --------------------------------------------------------------------------


def test_the_data_download_holds_profile_matches_and_ledger(mine, layla, omar, monkeypatch):
    first = make_match([layla, omar, None, None], stake=400)
    second = make_match([layla, None, None, None])
    response = mine.get("/players/me/data.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="trix-account-data-')
    data = json.loads(response.content)
    assert data["format"] == "trix-account-data/1"
    assert data["profile"]["username"] == "layla_login"  # her own data: her login name too
    assert data["profile"]["display_name"] == "Layla"
    assert [m["table_id"] for m in data["matches"]] == [first.pk, second.pk]  # oldest first
    assert data["matches"][0]["net"] == 400
    kinds = [(e["kind"], e["amount"], e["reference"]) for e in data["ledger"]]
    assert kinds == [
        ("deposit", 400, "provider:demo"),
        ("stake", -400, first.ref),
        ("settlement", 800, first.ref),
    ]
    assert all(omar.get_username() not in json.dumps(e) for e in data["ledger"])
    # the hook the other parts of issue 16 extend
    monkeypatch.setattr(exports, "more_sections", lambda *, user: {"limits": [user.pk]})
    assert json.loads(mine.get("/players/me/data.json").content)["limits"] == [layla.pk]


# -- the API ------------------------------------------------------------------------------------


def test_the_public_player_api(client, layla, omar):
    make_match([layla, omar, None, None])
    body = client.get(f"/api/players/{layla.pk}/").json()
    assert body == {
        "id": layla.pk,
        "display_name": "Layla",
        "member_since": body["member_since"],
        "matches_played": 1,
        "ratings": body["ratings"],
    }
    assert {f: (r["rating"], r["matches"]) for f, r in body["ratings"].items()} == {
        "solo": (1000, 0),
        "partnership": (1000, 0),
    }
    assert "layla_login" not in json.dumps(body)
    missing = client.get("/api/players/999999/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_my_matches_api_pages_like_the_wallets_history(mine, layla, omar):
    now = timezone.now()
    tables = [
        make_match(
            [layla, omar, None, None], stake=100, started=now - datetime.timedelta(hours=i)
        )  # fmt: skip
        for i in range(3)
    ]
    body = mine.get("/api/me/matches/", {"page_size": 2}).json()
    assert body["count"] == 3 and body["previous"] is None and "page=2" in body["next"]
    assert [m["table_id"] for m in body["results"]] == [tables[0].pk, tables[1].pk]
    match = body["results"][0]
    assert (match["stake"], match["payout"], match["net"]) == (100, 200, 100)
    assert match["net_display"] == "1.00 USD" and match["result"] == "won"
    assert [s["name"] for s in match["seats"]] == ["Layla", "Omar", "Bot 3", "Bot 4"]
    assert [s["is_me"] for s in match["seats"]] == [True, False, False, False]
    assert match["seats"][1]["player_id"] == omar.pk
    last = mine.get("/api/me/matches/", {"page_size": 2, "page": 2}).json()
    assert [m["table_id"] for m in last["results"]] == [tables[2].pk] and last["next"] is None
    assert mine.get("/api/me/matches/", {"page": 3}).status_code == 404


def test_the_api_answers_match_the_schema(mine, layla, omar, client):
    from drf_spectacular.generators import SchemaGenerator

    from tests.test_schema import _check

    schema = SchemaGenerator().get_schema(request=None, public=True)
    make_match([layla, omar, None, None], stake=100)
    make_match([layla, None, None, None], status=TableStatus.PLAYING)
    _check(schema, "/api/me/matches/", "get", mine.get("/api/me/matches/"))
    _check(schema, "/api/me/matches/", "get", mine.get("/api/me/matches/", {"result": "?"}))
    _check(schema, "/api/players/{player_id}/", "get", client.get(f"/api/players/{layla.pk}/"))
    _check(schema, "/api/players/{player_id}/", "get", client.get("/api/players/999999/"))


# -- Arabic -------------------------------------------------------------------------------------


def test_the_page_renders_in_arabic(mine, client, layla, omar):
    from tests.web.test_i18n_pages import ALLOWED, visible_words

    make_match([layla, omar, None, None], variant="trix_partner", stake=100)
    page = mine.get(f"/players/{layla.pk}/", HTTP_ACCEPT_LANGUAGE="ar")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'lang="ar" dir="rtl"' in html
    assert "تركس شراكة" in html  # the variant's Arabic name
    assert "مبارياتك" in html and "المباريات الملعوبة" in html and "العائد" in html
    assert "\u20661.00 USD\u2069" in html  # money isolated inside the Arabic text
    left = visible_words(html) - ALLOWED - {"Layla", "Omar", "CSV", "JSON"}
    assert not left, f"English left on the Arabic page: {sorted(left)}"
    public = client.get(f"/players/{omar.pk}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "عضو منذ" in public and "التصنيف" in public


# -- the embedded default (SQLite) --------------------------------------------------------------

SQLITE_HISTORY = """
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
call_command("migrate", verbosity=0)
from accounts.history import HistoryFilters, history_rows, match_history
from tests.accounts.matches import make_match, player
User = get_user_model()
layla, omar = player(User, "layla"), player(User, "omar")
from accounts.models import Verification  # staking needs a verified identity
for u in (layla, omar):
    Verification.objects.create(user=u, status="verified", provider="tests")
won = make_match([layla, omar, None, None], stake=100)
lost = make_match([omar, layla, None, None], variant="complex")
drawn = make_match([layla, omar, None, None], variant="trix_partner",
                   placements={0: 1, 1: 1, 2: 1, 3: 1})
def ids(**filters):
    return [s.table_id for s in match_history(user=layla, filters=HistoryFilters(**filters))]
assert ids(result="won") == [won.pk], ids(result="won")
assert ids(result="lost") == [lost.pk], ids(result="lost")
assert ids(result="drawn") == [drawn.pk], ids(result="drawn")
assert ids(stakes="staked") == [won.pk]
assert ids(since=won.started_at.date(), until=won.started_at.date()) == [drawn.pk, lost.pk, won.pk]
row = [r for r in history_rows(seats=match_history(user=layla)) if r.table_id == won.pk][0]
assert (row.placement, row.payout, row.net) == (1, 200, 100), row
print("ok")
"""


@pytest.mark.slow  # a fresh interpreter migrates a SQLite database first (about a minute)
def test_the_history_reads_the_same_on_the_embedded_sqlite_default(tmp_path):
    """The result filter reads the placement of the row's seat from the result JSON: the
    path is spelled out for SQLite too (``accounts.history._SeatPlacement``)."""
    from tests.test_embedded_sqlite import run_embedded

    run_embedded(SQLITE_HISTORY, tmp_path)


def test_the_data_download_holds_limits_exclusions_verification_and_ratings(mine, layla):
    from responsible import services as play

    play.set_limit(user=layla, kind="stake", period="week", amount=5000, by=layla)
    play.take_time_out(user=layla, days=1, by=layla)
    data = json.loads(mine.get("/players/me/data.json").content)
    week = [r for r in data["limits"] if (r["kind"], r["period"]) == ("stake", "week")]
    assert week[0]["amount"] == 5000
    assert [(c["kind"], c["new_amount"]) for c in data["limit_changes"]] == [("stake", 5000)]
    assert [e["kind"] for e in data["exclusions"]] == ["time_out"]
    assert data["verification"]["status"] == "verified"  # tests' users are (tests/conftest.py)
    assert "reference" not in data["verification"]
    assert data["ratings"]["solo"]["matches"] == 0
    assert data["suspensions"] == []
