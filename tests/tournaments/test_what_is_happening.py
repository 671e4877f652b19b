"""What the pages say is happening: a table's running scores after each deal (with the
real worker), "paused" while paused, when the review window ends and the prizes are paid,
the actual start and the player's current table under "My tournaments", the actual close
time in a late registration's refusal; and the no-move rule (an entrant whose every turn
the timer played is a no-show), end to end on the worker."""

from __future__ import annotations

import time
import uuid

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from games import selectors as table_selectors
from games import services as games
from games.errors import BadRequest as BadRequest_
from games.errors import Conflict as Conflict_
from games.models import Deal, Seat, Table, TableAction, TableEvent
from tests.games.helpers import wait_until
from tests.tournaments.conftest import snapshot
from tests.tournaments.helpers import check_in_everyone
from tournaments import selectors, services
from tournaments.errors import BadRequest, Conflict
from tournaments.models import Entry, RoundTable, Status, Tournament


def _register(t, users):
    for i, user in enumerate(users):
        services.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")


# -- running scores --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_running_scores_after_a_deal_while_the_table_plays(worker, make_tournament, player, staff):
    """Two entrants and two bots at one table on the real worker: once a deal has ended and
    while the table still plays, the live answer holds the match totals of the finished deals
    (the public ``deal_ended`` event's), and the deal's end moved the live version on. (Timers
    of 2 s on the test worker: the entrants' first missed turns hold the first deal for
    seconds, so the version read after the round opened is from before its end.)"""
    timers = {"choose_timer": 200, "double_timer": 200, "play_timer": 200}
    t = make_tournament(options=timers, rounds=1, min_entrants=2, review_seconds=0)
    _register(t, [player(), player()])
    services.start(tournament_id=t.pk, by=staff, reason="test")
    rt = wait_until(lambda: RoundTable.objects.filter(round__tournament=t).first())
    opened = selectors.live_version(t.pk)
    wait_until(lambda: Deal.objects.filter(table_id=rt.table_id).exists())
    with transaction.atomic():  # the table waits (its every change takes this lock)
        table = Table.objects.select_for_update().get(pk=rt.table_id)
        assert table.status == "playing"
        wait_until(lambda: selectors.live_version(t.pk) > opened)
        answer = APIClient().get(f"/api/tournaments/{t.pk}/live/").json()
        row = answer["rounds"][0]["tables"][0]
        last = (
            TableEvent.objects.filter(table_id=rt.table_id, type="deal_ended")
            .order_by("-version")
            .first()
        )
        assert row["table_status"] == "playing" and row["result"] is None
        assert row["scores"] == last.payload["totals"]
        assert row["deals_played"] == last.payload["deal"] >= 1
        assert last.visible_to is None  # public: every watcher of the table saw it
    assert selectors.bracket(t.pk)["rounds"][0]["tables"][0]["scores"] is not None


@pytest.mark.django_db
def test_scores_are_null_before_the_first_deal_ends(make_tournament, player, staff):
    t = make_tournament()
    _register(t, [player() for _ in range(4)])
    services.start(tournament_id=t.pk, by=staff, reason="test")
    services.advance(tournament_id=t.pk)
    row = selectors.bracket(t.pk)["rounds"][0]["tables"][0]
    assert row["table_status"] == "playing"
    assert row["scores"] is None and row["deals_played"] is None


# -- paused, started, review -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_live_answer_says_paused_and_when_it_started(make_tournament, player, staff):
    t = make_tournament()
    _register(t, [player() for _ in range(4)])
    services.start(tournament_id=t.pk, by=staff, reason="test")
    services.advance(tournament_id=t.pk)
    services.pause(tournament_id=t.pk, by=staff, reason="tea")
    answer = APIClient().get(f"/api/tournaments/{t.pk}/live/").json()
    t.refresh_from_db()
    assert answer["status"] == "paused" and answer["status_name"] == "paused"
    assert answer["started_at"].startswith(f"{t.started_at:%Y-%m-%dT%H:%M:%S}")
    assert answer["rounds"][0]["status"] == "running"  # the page shows it as paused
    assert answer["review_ends_at"] is None and answer["no_show_without_action"] is False


@pytest.mark.browser
def test_browser_live_page_says_paused_and_when_the_prizes_are_paid(
    request, live_server, make_tournament, player, staff
):
    """Chromium at 390x844 in Arabic: a paused event's round reads "paused" (not "running")
    with the pause explained; in review the page says when the window ends and the prizes
    are paid. The page's poll is answered with the real answer of the paused event."""
    import json

    request.getfixturevalue("browser")
    open_page = request.getfixturevalue("new_page")
    shots = request.getfixturevalue("artifacts")
    t = make_tournament()
    _register(t, [player() for _ in range(4)])
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    services.advance(tournament_id=t.pk)
    services.pause(tournament_id=t.pk, by=staff, reason="tea")
    answer = Client().get(f"/api/tournaments/{t.pk}/live/", HTTP_ACCEPT_LANGUAGE="ar").json()
    assert answer["status"] == "paused"
    answer["started_at"] = "2026-12-02T21:20:00Z"
    page = open_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    no_stream = lambda route: route.fulfill(status=404, content_type="application/json", body="{}")  # noqa: E731
    page.route(f"**/api/tournaments/{t.pk}/stream/**", no_stream)
    page.route(
        f"**/api/tournaments/{t.pk}/live/**",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(answer)
        ),
    )
    page.goto(f"/tournaments/{t.pk}/live/")
    badge = page.locator("[data-testid=round-status]").first
    badge.wait_for()
    assert badge.inner_text() == "متوقفة مؤقتًا"  # paused, not "running" ("جارية")
    phase = page.locator("[data-testid=live-phase]")
    text = phase.inner_text()
    assert "2026\u2060-\u206012\u2060-\u206002\u00a021:20\u00a0UTC" in text
    assert "لا تبدأ جولة جديدة" in text, text
    page.screenshot(path=str(shots / "tournament-live-paused-arabic-phone.png"))
    answer.update(status="review", status_name="مراجعة", review_ends_at="2026-12-02T23:10:00Z")
    answer["version"] += 1
    page.goto(f"/tournaments/{t.pk}/live/")
    page.locator("[data-testid=live-phase]:not([hidden])").wait_for()
    wait_until(lambda: "23:10" in page.locator("[data-testid=live-phase]").inner_text(), 15)
    text = page.locator("[data-testid=live-phase]").inner_text()
    assert "2026\u2060-\u206012\u2060-\u206002\u00a023:10\u00a0UTC" in text
    assert "الجوائز" in text, text
    page.screenshot(path=str(shots / "tournament-live-review-arabic-phone.png"))


# -- my tournaments, late registration ------------------------------------------------------


@pytest.mark.django_db
def test_my_tournaments_show_the_actual_start_and_my_table(client, make_tournament, player, staff):
    t = make_tournament()  # starts in an hour; started now, early
    users = [player() for _ in range(4)]
    _register(t, users)
    services.start(tournament_id=t.pk, by=staff, reason="everyone is here")
    services.advance(tournament_id=t.pk)
    t.refresh_from_db()
    table_id = Seat.objects.get(
        table__tournament_table__round__tournament=t, user=users[0]
    ).table_id
    mine = selectors.my_tournaments(users[0])
    assert mine[0]["current_table"] == table_id
    assert mine[0]["started_at"] == t.started_at != t.starts_at
    client.force_login(users[0])
    html = client.get("/tournaments/mine/").content.decode()
    assert f'href="/tables/{table_id}/"' in html and 'data-testid="current-table"' in html
    assert f"{t.started_at:%Y-%m-%d %H:%M}" in html
    assert f"{t.starts_at:%Y-%m-%d %H:%M}" not in html  # the planned start is past news
    arabic = client.get("/tournaments/mine/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "إلى طاولتك" in arabic
    api = APIClient()
    api.force_authenticate(users[0])
    assert api.get("/api/tournaments/mine/").json()[0]["current_table"] == table_id
    # Not seated at a table being played: no link.
    outsider = player()
    other = make_tournament(name="Later cup")
    services.register(tournament_id=other.pk, by=outsider, client_seed="x")
    assert selectors.my_tournaments(outsider)[0]["current_table"] is None
    Table.objects.filter(pk=table_id).update(status="finished")
    assert selectors.my_tournaments(users[0])[0]["current_table"] is None


@pytest.mark.django_db
def test_a_late_registration_names_the_actual_close_time(make_tournament, player, staff):
    """Started early: registration closed then, not at the planned close in 30 minutes."""
    t = make_tournament()
    _register(t, [player() for _ in range(4)])
    services.start(tournament_id=t.pk, by=staff, reason="early")
    t.refresh_from_db()
    assert t.registration_closed_at is not None
    assert t.registration_closed_at < t.registration_closes_at
    late = player()
    before = snapshot()
    with pytest.raises(Conflict) as e:
        services.register(tournament_id=t.pk, by=late, client_seed="late")
    assert e.value.code == "registration_closed"
    assert f"closed at {t.registration_closed_at:%Y-%m-%d %H:%M} UTC" in e.value.message
    assert f"{t.registration_closes_at:%H:%M}" not in e.value.message
    assert snapshot() == before
    detail = selectors.tournament_detail(t.pk)
    assert detail["registration_closed_at"] == t.registration_closed_at
    html = Client().get(f"/tournaments/{t.pk}/").content.decode()
    closed = html.split('data-testid="closed-at"', 1)[1].split("</span>", 1)[0]
    assert f"{t.registration_closed_at:%Y-%m-%d %H:%M} UTC" in closed
    started = html.split('data-testid="started"', 1)[1].split("</span>", 1)[0]
    assert f"{t.started_at:%Y-%m-%d %H:%M} UTC" in started


# -- the no-move rule ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_no_move_rule_is_on_by_default_and_shown(client, staff, make_tournament):
    from tests.tournaments.test_api import API, client_for, create_body

    t = make_tournament(no_show_without_action=True)
    body = create_body()
    assert client_for(staff).post(API, body, format="json").json()["no_show_without_action"]
    r = client_for(staff).post(API, {**body, "no_show_without_action": False}, format="json")
    assert r.status_code == 201 and r.json()["no_show_without_action"] is False
    created = Tournament.objects.get(pk=r.json()["id"])
    assert created.no_show_without_action is False
    params = {k: v for k, v in body.items() if k != "no_show_without_action"}
    for key in ("registration_opens_at", "registration_closes_at", "starts_at"):
        params[key] = Tournament._meta.get_field(key).to_python(params[key])
    assert services.create_tournament(by=staff, **params).no_show_without_action is True
    before = snapshot()
    with pytest.raises(BadRequest, match="no_show_without_action must be true or false"):
        services.create_tournament(by=staff, **{**params, "no_show_without_action": "yes"})
    assert snapshot() == before
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "makes no move themself at a table" in html
    off = client.get(f"/tournaments/{created.pk}/").content.decode()
    assert "turned the no-move rule off" in off
    arabic = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert "لم يتحرك" in arabic
    client.force_login(staff)
    form = client.get("/tournaments/new/").content.decode()
    box = form.split('name="no_show_without_action"', 1)[1].split(">", 1)[0]
    assert " checked" in box  # on unless the admin unticks it


def _act_once(user, table_id: int, timeout: float = 120) -> None:
    """``user`` plays their seat's first legal action the next time it is their turn, as the
    table page does, and waits until the worker applied it (a turn the table moved on from
    meanwhile: their next one)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = table_selectors.table_state(table_id, user, None)
        view = state["view"]
        if state["table"]["status"] != "playing":
            raise AssertionError(f"table {table_id} ended before {user} acted")
        if not view or not view["legal"]:
            time.sleep(0.02)
            continue
        action = {k: v for k, v in view["legal"][0].items() if k != "seat"}
        try:
            games.submit_action(
                user=user,
                table_id=table_id,
                action_id=uuid.uuid4(),
                version=state["version"],
                action=action,
            )
        except (Conflict_, BadRequest_):  # stale or no longer legal: the table moved on
            continue
        return  # applied by the call
    raise AssertionError(f"{user} found no turn at table {table_id}")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rule", [True, False], ids=["rule-on", "rule-off"])
def test_an_entrant_whose_every_turn_timed_out_ranks_last(
    rule, worker, make_tournament, player, staff
):
    """Four entrants at one table (timers of 2 s on the test worker): three play a move
    themselves, the fourth opens the table and lets the timer play every turn. With the rule
    on, the fourth is a no-show: last at the table, last overall, no prize; with it off,
    ranked by the engine's score as everyone else. The live answer then says when the review
    window ends."""
    timers = {"choose_timer": 200, "double_timer": 200, "play_timer": 200}
    t = make_tournament(
        options=timers, rounds=1, review_seconds=3600, no_show_without_action=rule,
        prize_bps=[4000, 3000, 2000, 1000],
    )  # fmt: skip
    users = [player() for _ in range(4)]
    _register(t, users)
    services.start(tournament_id=t.pk, by=staff, reason="test")
    rt = wait_until(lambda: RoundTable.objects.filter(round__tournament=t).first())
    check_in_everyone(t.pk)  # the idle one opened the table too
    idle = users[3]
    for user in users[:3]:
        _act_once(user, rt.table_id)
    t = wait_until(
        lambda: Tournament.objects.filter(pk=t.pk, status=Status.REVIEW).first(),
        400,
    )
    rt.refresh_from_db()
    table = Table.objects.get(pk=rt.table_id)
    idle_entry = Entry.objects.get(tournament=t, user=idle)
    seat = Seat.objects.get(table=table, user=idle).seat
    assert not TableAction.objects.filter(table=table, seat=seat, source="user").exists()
    assert TableAction.objects.filter(table=table, seat=seat, source="timeout").exists()
    for user in users[:3]:
        own = Seat.objects.get(table=table, user=user).seat
        assert TableAction.objects.filter(table=table, seat=own, source="user").exists()
    row = next(r for r in rt.result["results"] if r["unit"] == idle_entry.entrant)
    if rule:
        assert idle_entry.entrant in rt.result["no_show"] and idle_entry.pk in rt.no_shows
        assert row["place"] == 4 and idle_entry.place == 4 and idle_entry.prize == 0
        others = Entry.objects.filter(tournament=t).exclude(pk=idle_entry.pk)
        assert sorted(e.place for e in others) == [1, 2, 3]
    else:
        assert rt.result["no_show"] == [] and rt.no_shows == []
        assert row["place"] == table.result["placements"][str(seat)]
    answer = APIClient().get(f"/api/tournaments/{t.pk}/live/").json()
    assert answer["status"] == "review"
    assert answer["review_ends_at"].startswith(f"{t.review_ends_at:%Y-%m-%dT%H:%M:%S}")
    html = Client().get(f"/tournaments/{t.pk}/").content.decode()
    prizes_at = html.split('data-testid="prizes-at"', 1)[1].split("</span>", 1)[0]
    assert f"{t.review_ends_at:%Y-%m-%d %H:%M} UTC" in prizes_at


@pytest.mark.browser
def test_browser_my_tournaments_and_the_event_page_in_arabic(
    request, live_server, make_tournament, player, staff
):
    """Chromium at 390x844 in Arabic: a player's card under My tournaments reads the actual
    start and leads to their table; the event page shows the actual close and start, each
    date on one line, and the no-move rule."""
    from tests.web.conftest import log_in

    request.getfixturevalue("browser")
    open_page = request.getfixturevalue("new_page")
    shots = request.getfixturevalue("artifacts")
    t = make_tournament(no_show_without_action=True)
    users = [player() for _ in range(4)]
    _register(t, users)
    services.start(tournament_id=t.pk, by=staff, reason="everyone is here")
    services.advance(tournament_id=t.pk)
    t.refresh_from_db()
    table_id = Seat.objects.get(
        table__tournament_table__round__tournament=t, user=users[0]
    ).table_id
    page = open_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, Client(), users[0])
    page.goto("/tournaments/mine/")
    link = page.locator("[data-testid=current-table]")
    assert link.inner_text() == "إلى طاولتك"
    assert link.get_attribute("href") == f"/tables/{table_id}/"
    started = page.locator("[data-testid=started]").inner_text()
    assert f"{t.started_at:%Y-%m-%d %H:%M} UTC" in started
    page.screenshot(path=str(shots / "tournament-mine-arabic-phone.png"))
    page.goto(f"/tournaments/{t.pk}/")
    for testid in ("closed-at", "started"):
        node = page.locator(f"[data-testid={testid}] time")
        tops = node.evaluate(
            "(el) => new Set([...el.getClientRects()].map((b) => Math.round(b.top))).size"
        )
        assert tops == 1, testid
    assert "لم يتحرك بنفسه" in page.locator("[data-testid=rules]").inner_text()
    page.screenshot(path=str(shots / "tournament-detail-started-arabic-phone.png"), full_page=True)
    # Its table is being played by the timers on the session worker: called off here, so
    # the worker has nothing left to apply while the teardown empties the database.
    services.cancel(tournament_id=t.pk, by=staff, reason="the test has seen the pages")


@pytest.mark.django_db
def test_the_migration_keeps_the_published_rule_of_events_already_closed(
    make_tournament, player, staff
):
    """Events whose entrants joined under the show-up rule alone keep it; those still taking
    registrations get the no-move rule (the default)."""
    from importlib import import_module

    from django.apps import apps

    open_ = make_tournament(name="Open", no_show_without_action=True)
    running = make_tournament(name="Running", no_show_without_action=True)
    _register(running, [player() for _ in range(4)])
    services.start(tournament_id=running.pk, by=staff, reason="test")
    migration = import_module("tournaments.migrations.0005_no_show_rule_and_close_time")
    migration.keep_the_published_rule(apps, None)
    assert Tournament.objects.get(pk=open_.pk).no_show_without_action is True
    assert Tournament.objects.get(pk=running.pk).no_show_without_action is False
