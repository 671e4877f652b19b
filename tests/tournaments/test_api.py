"""The tournaments API under /api/tournaments/: every endpoint's answer and refusals (401 not
logged in, 403 not staff, 400 naming the field, 404 unknown, 409 the state refuses), typed
schema answers, the draw record that verifies, and the one long poll of the live page."""

from __future__ import annotations

import io
import json
import threading
import time
from datetime import timedelta

import pytest
from django.db import connections, transaction
from django.db.models import F
from rest_framework.test import APIClient

from games import services as games_services
from games.fairness.draw_record import verify_record
from games.models import Table
from tests.games.helpers import wait_until, waiting
from tests.tournaments.conftest import snapshot
from tournaments import services
from tournaments.models import EntryStatus, RoundTable, Status, Tournament
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db

API = "/api/tournaments/"


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    """The rate limit counts per user id in Django's cache (per process); ids come again
    after a rolled-back test, so each test starts with no count."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def create_body(**overrides) -> dict:
    body = {
        "name": "API cup",
        "format": "swiss",
        "variant": "complex",
        "rounds": 2,
        "capacity": 8,
        "min_entrants": 4,
        "entry_fee": 150,
        "house_fee_bps": 1000,
        "prize_bps": [6000, 4000],
        "registration_opens_at": "2020-01-01T00:00:00Z",
        "registration_closes_at": "2099-01-01T00:00:00Z",
        "starts_at": "2099-01-01T01:00:00Z",
    }
    body.update(overrides)
    return body


@pytest.fixture
def started(player, make_tournament, staff):
    """A solo Swiss tournament of 4 entrants, started by staff, round 1 open (one table)."""
    t = make_tournament()
    players = [player() for _ in range(4)]
    for i, p in enumerate(players):
        services.register(tournament_id=t.pk, by=p, client_seed=f"seed-{i}")
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    services.advance(tournament_id=t.pk)
    return t, players


# -- list, detail, mine ----------------------------------------------------------------------


def test_list_groups_and_bad_group(make_tournament):
    t = make_tournament()
    r = client_for().get(API)
    assert r.status_code == 200
    data = r.json()
    assert [x["id"] for x in data["upcoming"]] == [t.pk]
    assert data["running"] == [] and data["finished"] == []
    row = data["upcoming"][0]
    assert row["format_name_ar"] == "النظام السويسري" and row["entry_fee_text"] == "1.00 USD"
    assert client_for().get(API, {"group": "running"}).json()["upcoming"] == []
    r = client_for().get(API, {"group": "later"})
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "group" in r.json()["error"]


def test_detail_and_unknown_tournament(make_tournament, player):
    t = make_tournament()
    alice = player()
    services.register(tournament_id=t.pk, by=alice, client_seed="my-seed")
    r = client_for(alice).get(f"{API}{t.pk}/")
    assert r.status_code == 200
    d = r.json()
    assert d["name"] == "Test cup" and d["draw_commitment"] and d["draw_seed"] is None
    assert d["me"]["entry_status"] == "registered" and d["me"]["paid"] == 100
    # the prize table in money: 100 in the pool, 10 % house fee -> 90 to share 50/30/20
    assert [(p["place"], p["amount"]) for p in d["prize_table"]] == [(1, 45), (2, 27), (3, 18)]
    assert d["prize_table"][0]["text"] == "0.45 USD"
    assert [e["name"] for e in d["entrants"]] == [alice.username]
    assert d["draw_url"] == f"{API}{t.pk}/draw.json" and d["live_url"] == f"{API}{t.pk}/live/"
    anonymous = client_for().get(f"{API}{t.pk}/").json()
    assert anonymous["me"]["entry_status"] is None
    for url in (f"{API}999999/", f"{API}999999/live/", f"{API}999999/draw.json"):
        r = client_for().get(url)
        assert r.status_code == 404 and r.json()["code"] == "not_found", url
    r = client_for(alice).post(f"{API}999999/register/", {}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


def test_mine(make_tournament, player):
    t = make_tournament()
    make_tournament(name="Other cup")
    alice = player()
    services.register(tournament_id=t.pk, by=alice, client_seed="my-seed")
    assert client_for().get(f"{API}mine/").status_code == 401
    rows = client_for(alice).get(f"{API}mine/").json()
    assert [(x["id"], x["entry_status"]) for x in rows] == [(t.pk, "registered")]


# -- creating ----------------------------------------------------------------------------------


def test_staff_create(staff):
    r = client_for(staff).post(API, create_body(), format="json")
    assert r.status_code == 201, r.content
    d = r.json()
    t = Tournament.objects.get(pk=d["id"])
    assert (t.entry_fee, t.prize_bps, t.house_fee_bps, t.rounds) == (150, [6000, 4000], 1000, 2)
    assert d["status"] == "registration" and d["draw_commitment"] == t.draw_commitment
    assert d["options"]["play_timer"] > 0


def test_create_refusals(staff, player):
    bob = player()
    before = snapshot()
    r = client_for().post(API, create_body(), format="json")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    r = client_for(bob).post(API, create_body(), format="json")
    assert r.status_code == 403
    assert r.json() == {"error": "only staff may create tournaments", "code": "permission_denied"}
    admin = client_for(staff)
    r = admin.post(API, create_body(colour="red"), format="json")
    assert r.status_code == 400 and "colour" in r.json()["error"]
    body = create_body()
    del body["capacity"]
    r = admin.post(API, body, format="json")
    assert r.status_code == 400 and "capacity" in r.json()["fields"]
    r = admin.post(API, create_body(entry_fee=1.5), format="json")
    assert r.status_code == 400 and "entry_fee" in r.json()["fields"]
    r = admin.post(API, create_body(prize_bps=[5000, 4000]), format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert "prize table" in r.json()["error"]
    r = admin.post(API, create_body(starts_at="2098-01-01T00:00:00Z"), format="json")
    assert r.status_code == 400 and "close by the start" in r.json()["error"]
    assert snapshot() == before


def test_a_capacity_below_the_minimum_blames_the_capacity(staff):
    before = snapshot()
    r = client_for(staff).post(API, create_body(capacity=3, min_entrants=4), format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert r.json()["error"] == (
        "capacity (entrants): 3 is below the minimum to start (4): raise the capacity or "
        "lower the minimum."
    )
    assert snapshot() == before


@pytest.mark.parametrize("field", ["registration_opens_at", "registration_closes_at", "starts_at"])
def test_a_time_without_its_offset_is_refused_naming_the_field(staff, field):
    """A naive time is not read in some zone the client did not say: 400 naming the field,
    nothing created; the same time with ``Z`` or an offset is taken."""
    before = snapshot()
    naive = create_body()[field].removesuffix("Z")
    r = client_for(staff).post(API, create_body(**{field: naive}), format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content
    assert field in r.json()["fields"]
    assert "offset" in r.json()["fields"][field][0]
    assert snapshot() == before
    r = client_for(staff).post(
        API, create_body(starts_at="2099-01-01T04:00:00+03:00"), format="json"
    )
    assert r.status_code == 201, r.content
    t = Tournament.objects.get(pk=r.json()["id"])
    assert t.starts_at.isoformat() == "2099-01-01T01:00:00+00:00"


# -- registration and teams --------------------------------------------------------------------


def test_register_and_unregister(make_tournament, player):
    t = make_tournament()
    alice = player()
    api = client_for(alice)
    url = f"{API}{t.pk}/register/"
    assert client_for().post(url, {}, format="json").status_code == 401
    # Issue 12: an event with an entry fee takes no entrant without their own client seed.
    before = snapshot()
    r = api.post(url, {}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert "has an entry fee: send your client seed" in r.json()["error"]
    assert snapshot() == before and wallet_balance(alice) == 10_000
    # Six hours after t: its play does not overlap t's (one event at a time).
    free = make_tournament(entry_fee=0, starts_at=t.starts_at + timedelta(hours=6))
    r = api.post(f"{API}{free.pk}/register/", {}, format="json")
    assert r.status_code == 200 and len(free.entries.get(user=alice).client_seed) == 32
    r = api.post(url, {"client_seed": "my seed"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["me"]["entry_status"] == "registered"
    assert wallet_balance(alice) == 10_000 - 100
    before = snapshot()
    r = api.post(url, {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "already_registered"
    r = api.post(url, {"client_seed": "x", "seat": 1}, format="json")
    assert r.status_code == 400 and "seat" in r.json()["error"]
    r = api.post(url, {"client_seed": ""}, format="json")
    assert r.status_code == 400 and "client_seed" in r.json()["fields"]
    assert snapshot() == before
    r = api.post(f"{API}{t.pk}/unregister/", {}, format="json")
    assert r.status_code == 200 and r.json()["me"]["entry_status"] == "withdrawn"
    assert wallet_balance(alice) == 10_000
    r = api.post(f"{API}{t.pk}/unregister/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "not_registered"
    poor = player(funds=0)
    r = client_for(poor).post(url, {"client_seed": "p"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "insufficient_funds"
    assert "/wallet/" in r.json()["error"]


def test_partner_invite_accept_and_decline(make_tournament, player):
    t = make_tournament(variant="complex_partner", min_entrants=2, capacity=4)
    alice, bob, carol = player("alice_p"), player("bob_p"), player("carol_p")
    a = client_for(alice)
    a.post(f"{API}{t.pk}/register/", {"client_seed": "alice-seed"}, format="json")
    r = a.post(f"{API}{t.pk}/invite/", {"display_name": "nobody-here"}, format="json")
    assert r.status_code == 404 and "nobody-here" in r.json()["error"]
    r = a.post(f"{API}{t.pk}/invite/", {}, format="json")
    assert r.status_code == 400 and "display_name" in r.json()["fields"]
    r = a.post(f"{API}{t.pk}/invite/", {"display_name": "carol_p"}, format="json")
    assert r.status_code == 200 and r.json()["me"]["invited"] == "carol_p"
    c = client_for(carol)
    invitation = c.get(f"{API}{t.pk}/").json()["me"]["invitations"]
    assert invitation == [{"team_id": invitation[0]["team_id"], "from": "alice_p"}]
    team_id = invitation[0]["team_id"]
    r = client_for(bob).post(f"{API}teams/{team_id}/accept/", {}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_invited"
    r = c.post(f"{API}teams/{team_id}/decline/", {}, format="json")
    assert r.status_code == 200 and r.json()["me"]["invitations"] == []
    a.post(f"{API}{t.pk}/invite/", {"display_name": "bob_p"}, format="json")
    r = client_for(bob).post(f"{API}teams/{team_id}/accept/", {"client_seed": "b"}, format="json")
    assert r.status_code == 200, r.content
    me = r.json()["me"]
    assert me["entry_status"] == "registered" and me["partner"] == "alice_p"
    assert me["team_status"] == "complete"
    r = client_for(bob).post(f"{API}teams/999999/accept/", {}, format="json")
    assert r.status_code == 404


# -- staff actions ---------------------------------------------------------------------------

STAFF = {
    "start": ("start tournaments", {"reason": "early"}),
    "pause": ("pause tournaments", {"reason": "a break"}),
    "resume": ("resume tournaments", {"reason": "back"}),
    "cancel": ("cancel tournaments", {"reason": "storm"}),
    "disqualify": ("disqualify players", {"reason": "cheating", "user_id": 1}),
    "edit": ("edit tournaments", {"reason": "typo", "name": "Mine now"}),
    "open": ("open registration", {}),
}


@pytest.mark.parametrize("action", list(STAFF))
def test_staff_actions_refuse_everyone_else(action, make_tournament, player):
    t = make_tournament()
    bob = player()
    what, body = STAFF[action]
    before = snapshot()
    url = f"{API}{t.pk}/{action}/"
    r = client_for().post(url, body, format="json")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    r = client_for(bob).post(url, body, format="json")
    assert r.status_code == 403
    assert r.json() == {"error": f"only staff may {what}", "code": "permission_denied"}
    r = client_for(bob).post(url, {}, format="json")  # body not even read
    assert r.status_code == 403
    assert snapshot() == before


def test_staff_actions_happy_paths_and_bad_input(started, staff):
    t, players = started
    admin = client_for(staff)
    r = admin.post(f"{API}{t.pk}/pause/", {}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["fields"]
    r = admin.post(f"{API}{t.pk}/pause/", {"reason": "tea"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "paused"
    r = admin.post(f"{API}{t.pk}/pause/", {"reason": "again"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "wrong_status"
    r = admin.post(f"{API}{t.pk}/resume/", {"reason": "tea done"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "running"
    r = admin.post(f"{API}{t.pk}/disqualify/", {"reason": "x", "user_id": "7"}, format="json")
    assert r.status_code == 400 and "user_id" in r.json()["fields"]
    r = admin.post(f"{API}{t.pk}/disqualify/", {"reason": "x", "user_id": 999999}, format="json")
    assert r.status_code == 404
    body = {"reason": "marked cards", "user_id": players[0].pk}
    r = admin.post(f"{API}{t.pk}/disqualify/", body, format="json")
    assert r.status_code == 200
    assert [e["status"] for e in r.json()["entrants"] if e["user_id"] == players[0].pk] == [
        EntryStatus.DISQUALIFIED
    ]
    r = admin.post(f"{API}{t.pk}/start/", {"reason": "again"}, format="json")
    assert r.status_code == 409
    from django.core.cache import cache

    cache.clear()  # this test sends more than TRIX_ACTION_RATE (10/second) on purpose
    for action in ("start", "pause", "resume", "cancel"):
        r = admin.post(f"{API}999999/{action}/", {"reason": "x"}, format="json")
        assert r.status_code == 404 and r.json()["code"] == "not_found", action
    r = admin.post(f"{API}{t.pk}/cancel/", {"reason": "storm"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert all(wallet_balance(p) == 10_000 for p in players)
    actions = [(a["action"], a["by"], a["reason"]) for a in r.json()["admin_actions"]]
    assert ("pause", staff.username, "tea") in actions
    assert ("disqualify", staff.username, "marked cards") in actions
    assert ("cancel", staff.username, "storm") in actions


def test_staff_edit_is_recorded_in_the_detail(make_tournament, staff, player):
    t = make_tournament()
    admin = client_for(staff)
    body = {
        "reason": "a bigger room",
        "name": "Big cup",
        "description": "Shoot-out, 16 seats.",
        "capacity": 24,
        "starts_at": "2099-01-01T04:00:00+03:00",
        "registration_closes_at": "2099-01-01T00:30:00Z",
    }
    r = admin.post(f"{API}{t.pk}/edit/", body, format="json")
    assert r.status_code == 200, r.content
    d = r.json()
    assert (d["name"], d["description"], d["capacity"]) == (
        "Big cup",
        "Shoot-out, 16 seats.",
        24,
    )
    assert d["starts_at"].startswith("2099-01-01T01:00:00")
    rows = {e["field"]: e for e in d["edits"]}
    assert set(rows) == {
        "name",
        "description",
        "capacity",
        "starts_at",
        "registration_closes_at",
    }
    assert rows["capacity"]["old"] == 16 and rows["capacity"]["new"] == 24
    assert rows["name"]["by"] == staff.username and rows["name"]["reason"] == "a bigger room"
    assert rows["starts_at"]["new_text"] == "2099-01-01 01:00 UTC"
    services.register(tournament_id=t.pk, by=player(), client_seed="s")
    before = snapshot()
    r = admin.post(f"{API}{t.pk}/edit/", {"reason": "x", "prize_bps": [10000]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "registered"
    r = admin.post(f"{API}{t.pk}/edit/", {"reason": "x", "capacity": 20}, format="json")
    assert r.status_code == 409 and "only grow" in r.json()["error"]
    r = admin.post(f"{API}{t.pk}/edit/", {"reason": "x", "entry_fee": 0}, format="json")
    assert r.status_code == 400
    assert r.json()["error"].startswith("entry_fee cannot change once the tournament is created")
    r = admin.post(f"{API}{t.pk}/edit/", {"name": "No reason"}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["fields"]
    r = admin.post(
        f"{API}{t.pk}/edit/", {"reason": "x", "starts_at": "2099-01-02T00:00:00"}, format="json"
    )
    assert r.status_code == 400 and "starts_at" in r.json()["fields"]
    r = admin.post(f"{API}999999/edit/", {"reason": "x", "name": "N"}, format="json")
    assert r.status_code == 404
    assert snapshot() == before


def test_staff_cannot_open_a_draft_whose_dates_have_passed(make_tournament, staff):
    """Opening a draft whose registration close time has passed was accepted, and the
    event was cancelled seconds later for too few entrants: refuse it, naming the time."""
    from django.utils import timezone

    t = make_tournament(draft=True)
    now = timezone.now()
    closes = now - timedelta(minutes=5)
    Tournament.objects.filter(pk=t.pk).update(
        registration_opens_at=now - timedelta(minutes=10),
        registration_closes_at=closes,
        starts_at=now + timedelta(minutes=30),
    )
    before = snapshot()
    r = client_for(staff).post(f"{API}{t.pk}/open/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "dates_passed"
    assert f"{closes:%Y-%m-%d %H:%M} UTC" in r.json()["error"]
    assert "edit the dates" in r.json()["error"]
    assert snapshot() == before


def test_staff_open_a_draft(make_tournament, staff):
    t = make_tournament(draft=True)
    admin = client_for(staff)
    r = admin.post(f"{API}{t.pk}/open/", {}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "registration"
    assert [a["action"] for a in r.json()["admin_actions"]] == ["create", "open_registration"]
    assert r.json()["admin_actions"][1]["by"] == staff.username
    before = snapshot()
    r = admin.post(f"{API}{t.pk}/open/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "wrong_status"
    assert snapshot() == before


def test_staff_start_reveals_the_draw(make_tournament, player, staff):
    t = make_tournament()
    for _ in range(4):
        services.register(tournament_id=t.pk, by=player(), client_seed="my-seed")
    r = client_for(staff).post(f"{API}{t.pk}/start/", {}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["fields"]
    r = client_for(staff).post(f"{API}{t.pk}/start/", {"reason": "all here"}, format="json")
    assert r.status_code == 200
    d = r.json()
    assert d["status"] == "running" and d["draw_seed"] and len(d["published_entrants"]) == 4


# -- draw record, live -----------------------------------------------------------------------


def test_draw_record_verifies(started, make_tournament, tmp_path):
    t, _ = started
    early = make_tournament(name="Later cup")
    r = client_for().get(f"{API}{early.pk}/draw.json")
    assert r.status_code == 409 and r.json()["code"] == "not_revealed"
    r = client_for().get(f"{API}{t.pk}/draw.json")
    assert r.status_code == 200
    assert "attachment" in r["Content-Disposition"]
    record = json.loads(r.content)
    assert record["format"] == "trix-draw/1" and len(record["rounds"]) == 1
    summary = verify_record(record)
    assert summary["entrants"] == 4
    swapped = json.loads(r.content)
    table = swapped["rounds"][0]["tables"][0]
    table[0], table[1] = table[1], table[0]
    with pytest.raises(Exception, match="round 1"):
        verify_record(swapped)


def test_trix_verify_accepts_the_downloaded_draw(started, tmp_path):
    t, _ = started
    path = tmp_path / "draw.json"
    path.write_bytes(client_for().get(f"{API}{t.pk}/draw.json").content)
    from games.engine.cli import main

    out = io.StringIO()
    code = main(["verify", str(path)], out=out, err=out)
    assert code == 0, out.getvalue()


def test_live_answers_the_bracket_at_once(started):
    t, players = started
    r = client_for().get(f"{API}{t.pk}/live/")
    assert r.status_code == 200
    d = r.json()
    assert d["status"] == "running" and len(d["rounds"]) == 1
    table = d["rounds"][0]["tables"][0]
    assert Table.objects.filter(pk=table["table_id"]).exists()
    assert {s["name"] for s in table["seats"]} == {p.username for p in players}
    assert len(d["entrants"]) == 4 and d["draw"]["record_available"]
    assert len(d["standings"]) == 4
    started_at = time.monotonic()
    r = client_for().get(f"{API}{t.pk}/live/", {"since": d["version"] - 1, "wait": 10})
    assert r.status_code == 200 and time.monotonic() - started_at < 1.0
    r = client_for().get(f"{API}{t.pk}/live/", {"since": 0, "wait": 31})
    assert r.status_code == 400 and "wait" in r.json()["fields"]
    r = client_for().get(f"{API}{t.pk}/live/", {"since": "abc"})
    assert r.status_code == 400 and "since" in r.json()["fields"]


def test_schema_types_every_tournament_answer(client):
    schema = client.get("/api/schema/?format=json").json()
    ops = {
        (path, method): op
        for path, item in schema["paths"].items()
        if path.startswith("/api/tournaments/")
        for method, op in item.items()
        if method in ("get", "post")
    }
    assert len(ops) >= 15, sorted(ops)
    for (path, method), op in ops.items():
        ok = [code for code in op["responses"] if code.startswith("2")]
        assert ok, (path, method)
        for code in ok:
            body = op["responses"][code]["content"]["application/json"]["schema"]
            ref = body.get("$ref") or body.get("items", {}).get("$ref")
            assert ref, (path, method, code, body)
            name = ref.rsplit("/", 1)[1]
            assert schema["components"]["schemas"][name].get("properties"), (path, name)


def test_staff_actions_have_their_own_rate_limit(make_tournament, player, staff, settings):
    """Staff writes count against ``TRIX_STAFF_ACTION_RATE``, apart from the players'
    ``TRIX_ACTION_RATE``: neither uses up the other."""
    settings.TRIX_ACTION_RATE = "2/minute"
    settings.TRIX_STAFF_ACTION_RATE = "4/minute"
    t = make_tournament()
    admin = client_for(staff)
    codes = [
        admin.post(f"{API}{t.pk}/pause/", {"reason": "x"}, format="json").status_code
        for _ in range(5)
    ]
    assert codes == [409, 409, 409, 409, 429]
    r = admin.post(f"{API}{t.pk}/pause/", {"reason": "x"}, format="json")
    assert r.json()["error"].startswith("Too many staff actions: try again in")
    # the same user's player writes are counted apart, at the players' rate
    codes = [
        admin.post(f"{API}{t.pk}/unregister/", {}, format="json").status_code for _ in range(3)
    ]
    assert codes == [409, 409, 429]


def test_writes_are_throttled(make_tournament, player, settings):
    settings.TRIX_ACTION_RATE = "3/minute"
    t = make_tournament()
    api = client_for(player())
    codes = [api.post(f"{API}{t.pk}/unregister/", {}, format="json").status_code for _ in range(4)]
    assert codes == [409, 409, 409, 429]


# -- the one long poll (real commits and notifications) --------------------------------------


def later(seconds: float, change) -> threading.Thread:
    def run():
        try:
            time.sleep(seconds)
            change()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def no_task_sending(monkeypatch, no_session_worker):
    """Tasks of tables and tournaments are not sent: the test makes every change itself. The
    session's worker is stopped too: its beat would re-send the wake-up of the test's table
    (due at once, never sent), play its deals and bump the tournament's version at a deal's
    end, waking the live poll before the change the test makes."""
    from games import tasks as game_tasks
    from tournaments import tasks as tournament_tasks

    for module in (game_tasks, tournament_tasks):
        for name in dir(module):
            task = getattr(module, name)
            if hasattr(task, "delay") and hasattr(task, "apply_async"):
                monkeypatch.setattr(task, "delay", lambda *a, **k: None)
                monkeypatch.setattr(task, "apply_async", lambda *a, **k: None)


def poll(tournament_id: int, since: int, wait: float) -> tuple[float, dict]:
    began = time.monotonic()
    r = client_for().get(f"{API}{tournament_id}/live/", {"since": since, "wait": wait})
    assert r.status_code == 200, r.content
    return time.monotonic() - began, r.json()


@pytest.mark.django_db(transaction=True)
def test_long_poll_waits_for_a_registration(make_tournament, player, settings):
    settings.TRIX_STATE_WAIT_MAX = 10
    t = make_tournament()
    alice = player()
    version = client_for().get(f"{API}{t.pk}/live/").json()["version"]
    thread = later(
        0.6, lambda: services.register(tournament_id=t.pk, by=alice, client_seed="my-seed")
    )
    took, d = poll(t.pk, version, 8)
    thread.join()
    assert d["version"] > version and [e["name"] for e in d["entrants"]] == [alice.username]
    assert 0.5 < took < 4, took


@pytest.mark.django_db(transaction=True)
def test_long_poll_counts_in_the_clients_cap_on_waits(make_tournament, staff, settings):
    """Issue 13: one client held every web thread with long polls. The live poll shares the
    cap of ``TRIX_WAITS_PER_CLIENT`` waits with the tables' state polls (``games.waits``):
    above it, it is answered at once with the current page."""
    settings.TRIX_WAITS_PER_CLIENT = 2
    settings.TRIX_STATE_WAIT_MAX = 3
    t = make_tournament()
    table = games_services.create_table(user=staff, variant="trix")
    version = client_for().get(f"{API}{t.pk}/live/").json()["version"]
    url = f"/api/tables/{table.pk}/state/?since={table.version}&wait=3"
    held = [later(0, lambda: client_for().get(url)) for _ in range(2)]
    wait_until(lambda: waiting("addr:127.0.0.1") == 2, 10, 0.01)  # both polls wait
    r = client_for().get(f"{API}{t.pk}/live/", {"since": version, "wait": 3})
    assert r.has_header("Retry-After") and r.json()["version"] == version  # above the cap
    for thread in held:
        thread.join()
    took, _ = poll(t.pk, version, 1)
    assert took >= 0.9, took


@pytest.mark.django_db(transaction=True)
def test_long_poll_is_not_woken_by_a_tables_moves_only_by_its_result(
    make_tournament, player, staff, settings, no_task_sending
):
    """The page shows tables' results, not their moves: a move at a table leaves the watchers
    waiting; the table's result recorded (a tournament change) wakes them."""
    settings.TRIX_STATE_WAIT_MAX = 10
    t = make_tournament()
    for _ in range(4):
        services.register(tournament_id=t.pk, by=player(), client_seed="my-seed")
    services.start(tournament_id=t.pk, by=staff, reason="go")
    services.advance(tournament_id=t.pk)
    table_id = RoundTable.objects.get(round__tournament=t).table_id
    version = client_for().get(f"{API}{t.pk}/live/").json()["version"]

    def move():
        with transaction.atomic():
            Table.objects.filter(pk=table_id).update(version=F("version") + 1)

    thread = later(0.3, move)
    took, d = poll(t.pk, version, 1.5)
    thread.join()
    assert d["version"] == version and took >= 1.4, took

    def result():
        games_services.cancel_table(table_id=table_id, reason="test")
        services.record_table_result(table_id=table_id)

    thread = later(0.6, result)
    took, d = poll(t.pk, version, 8)
    thread.join()
    assert d["version"] > version
    assert 0.5 < took < 4, took
    assert d["rounds"][0]["tables"][0]["table_status"] == "cancelled"


@pytest.mark.django_db(transaction=True)
def test_long_poll_waits_on_notifications_not_a_busy_loop(make_tournament, settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.live import listener as notifications

    assert connection.vendor == "postgresql", "run with ./dev test (PostgreSQL)"
    settings.TRIX_STATE_WAIT_MAX = 10
    t = make_tournament()
    version = client_for().get(f"{API}{t.pk}/live/").json()["version"]
    poll(t.pk, version, 0.3)  # starts this process's listener
    deadline = time.monotonic() + 5
    while not notifications.connected() and time.monotonic() < deadline:
        time.sleep(0.05)
    with CaptureQueriesContext(connection) as queries:
        took, _ = poll(t.pk, version, 1.5)
    live_reads = [q for q in queries.captured_queries if "SUM" in q["sql"].upper()]
    assert 1.4 < took < 3 and len(live_reads) <= 4, (took, len(live_reads))


@pytest.mark.django_db(transaction=True)
def test_long_poll_is_capped_and_ignores_rolled_back_changes(make_tournament, settings):
    settings.TRIX_STATE_WAIT_MAX = 1.0
    t = make_tournament()
    version = client_for().get(f"{API}{t.pk}/live/").json()["version"]

    class Rollback(Exception):
        pass

    def rolled_back():
        try:
            with transaction.atomic():
                row = Tournament.objects.select_for_update().get(pk=t.pk)
                row.version += 5
                row.save(update_fields=["version"])
                raise Rollback
        except Rollback:
            pass

    thread = later(0.2, rolled_back)
    took, d = poll(t.pk, version, 30)
    thread.join()
    assert d["version"] == version
    assert 0.9 < took < 2.5, took
    took, _ = poll(t.pk, version, 0)
    assert took < 0.5
    assert Tournament.objects.get(pk=t.pk).status == Status.REGISTRATION


@pytest.mark.parametrize("fee", [2**63, 2**63 - 1, 10**30, 1_000_001])
def test_an_entry_fee_beyond_the_bounds_is_refused_not_a_500(staff, fee):
    """An entry fee of 2**63 is no bigint (issue 13, item 7): 400 naming the bound."""
    before = snapshot()
    r = client_for(staff).post(API, create_body(entry_fee=fee), format="json")
    assert r.status_code == 400, r.content[:300]
    assert "entry fee: Give at most 10,000.00 USD." in r.json()["error"], r.json()
    assert snapshot() == before


# -- bodies an endpoint does not take (fresh reviewer, issue 13's spirit) --------------------

NOT_A_BODY = [
    ('{"x": 1}', "x"),
    ("[]", "array"),
    ('"x"', "string"),
    ("5", "number"),
    ("null", "null"),
    ("true", "boolean"),
]


@pytest.mark.parametrize(("body", "named"), NOT_A_BODY)
def test_every_tournament_write_refuses_a_body_it_does_not_take(
    make_tournament, player, staff, body, named
):
    """Found by a fresh reviewer: ``unregister/`` and ``decline/`` took ``[]`` or ``null`` as
    no body (``request.data or {}``) and went ahead."""
    t = make_tournament(variant="complex_partner", min_entrants=2, capacity=4)
    alice, carol = player("alice_nb"), player("carol_nb")
    services.register(tournament_id=t.pk, by=alice, client_seed="alice-seed")
    team = services.invite_partner(tournament_id=t.pk, by=alice, display_name="carol_nb")
    team_id = getattr(team, "pk", None) or t.teams.get().pk
    paths = {
        alice: [f"{t.pk}/register/", f"{t.pk}/unregister/", f"{t.pk}/invite/"],
        carol: [f"teams/{team_id}/accept/", f"teams/{team_id}/decline/"],
        staff: [""]
        + [
            f"{t.pk}/{a}/"
            for a in ("start", "pause", "resume", "cancel", "disqualify", "edit", "open")
        ],
    }
    before = snapshot()
    for user, urls in paths.items():
        for url in urls:
            r = client_for(user).post(API + url, body, content_type="application/json")
            assert r.status_code == 400, (url, r.content)
            assert r.json()["code"] == "invalid" and named in r.json()["error"], (url, r.json())
    assert snapshot() == before


@pytest.mark.parametrize("seed", [5, 5.5, True, ["s"]])
def test_a_client_seed_that_is_not_a_string_is_refused(make_tournament, player, seed):
    """Found by a fresh reviewer: ``"client_seed": 5`` was taken as ``"5"``."""
    t = make_tournament()
    alice = player()
    before = snapshot()
    r = client_for(alice).post(f"{API}{t.pk}/register/", {"client_seed": seed}, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid" and "client_seed" in r.json()["fields"], r.json()
    assert r.json()["error"].startswith("Your client seed: "), r.json()
    assert snapshot() == before and wallet_balance(alice) == 10_000


def test_the_detail_says_allow_overlap(make_tournament):
    """The mark that waives "one event at a time" (docs/tournaments.md) is a parameter the
    detail shows, as the docs say; it was taken on creation and shown nowhere."""
    for mark in (True, False):
        t = make_tournament(allow_overlap=mark)
        assert client_for().get(f"{API}{t.pk}/").json()["allow_overlap"] is mark


def test_a_draft_is_read_by_staff_only(make_tournament, player, staff):
    """A draft is staff's alone until it is opened: a player or a visitor reading it by id
    gets the 404 of a missing id (its detail, live answer, draw record; the stream:
    tests/tournaments/test_stream.py)."""
    t = make_tournament(draft=True, name="Quiet draft")
    missing = client_for().get(f"{API}999999/").json()
    for who in (None, player()):
        for url in (f"{API}{t.pk}/", f"{API}{t.pk}/live/", f"{API}{t.pk}/draw.json"):
            r = client_for(who).get(url)
            assert r.status_code == 404 and r.json()["code"] == missing["code"], (who, url)
    assert client_for(staff).get(f"{API}{t.pk}/").json()["name"] == "Quiet draft"
    assert client_for(staff).get(f"{API}{t.pk}/live/").status_code == 200


@pytest.mark.parametrize(
    "path, body, service, arguments",
    [
        ("{t}/register/", {"client_seed": "s"}, "register", {"tournament_id": "t"}),
        ("{t}/unregister/", {}, "unregister", {"tournament_id": "t"}),
        ("{t}/invite/", {"display_name": "x"}, "invite_partner", {"tournament_id": "t"}),
        ("teams/1/accept/", {"client_seed": "s"}, "accept_invite", {"team_id": 1}),
        ("teams/1/decline/", {}, "decline_invite", {"team_id": 1}),
    ],
)
def test_an_anonymous_player_is_answered_401_by_the_api_and_the_services(
    make_tournament, path, body, service, arguments
):
    """An anonymous caller is answered 401 ``not_authenticated`` by the API and by the
    services' own check of a player (``_require_player``) alike (docs/api.md,
    docs/tournaments-api.md)."""
    from django.contrib.auth.models import AnonymousUser

    from tournaments.errors import TournamentError

    t = make_tournament()
    before = snapshot()
    r = client_for().post(API + path.format(t=t.pk), body, format="json")
    assert (r.status_code, r.json()["code"]) == (401, "not_authenticated")
    kwargs = {k: t.pk if v == "t" else v for k, v in arguments.items()}
    if "display_name" in body:
        kwargs["display_name"] = "x"
    with pytest.raises(TournamentError) as refused:
        getattr(services, service)(**kwargs, by=AnonymousUser())
    assert (refused.value.status, refused.value.code) == (401, "not_authenticated")
    assert snapshot() == before
