"""The API under abuse: a reused action id with other content, bodies too deep or too large,
unknown URLs and too many actions each get a JSON error ``{"error", "code"}``."""

from __future__ import annotations

import uuid

import pytest

from games.models import Table, TableAction
from tests.games.helpers import new_table

pytestmark = pytest.mark.django_db(transaction=True)


def _post(client, table_id, body, fmt="json"):
    return client.post(f"/api/tables/{table_id}/actions/", body, format=fmt)


def test_deeply_nested_body_is_malformed_not_a_crash(api):
    alice = api("alice")
    table = new_table(alice)
    body = "[" * 100_000 + "]" * 100_000
    r = alice.post(f"/api/tables/{table['id']}/actions/", body, content_type="application/json")
    assert r.status_code == 400, r.content[:200]
    assert r.json()["code"] == "malformed" and r.json()["error"]
    nested = '{"a":' * 50_000 + "1" + "}" * 50_000
    r = alice.post("/api/tables/", nested, content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    # Just inside what the decoder follows: parsed, then refused as invalid input.
    deep = '{"options": {"choose_timer": ' + "[" * 400 + "]" * 400 + "}}"
    r = alice.post("/api/tables/", deep, content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content[:300]


@pytest.mark.parametrize(
    "url", ["/api/tables/abc/state/", "/api/tables/-1/", "/api/nothing-here/", "/api/wallet/x/"]
)
def test_unknown_api_urls_answer_json_404(api, url):
    r = api("alice").get(url)
    assert r.status_code == 404
    assert r["Content-Type"].startswith("application/json")
    assert r.json()["code"] == "not_found" and url in r.json()["error"]


def test_unknown_web_urls_stay_html(client):
    r = client.get("/no-such-page/")
    assert r.status_code == 404
    assert r["Content-Type"].startswith("text/html")


def test_too_large_body_answers_json_413(api):
    alice = api("alice")
    table = new_table(alice)
    big = '{"id": "' + "x" * (3 * 1024 * 1024) + '"}'
    r = alice.post(f"/api/tables/{table['id']}/actions/", big, content_type="application/json")
    assert r.status_code == 413, r.content[:200]
    assert r["Content-Type"].startswith("application/json")
    assert r.json()["code"] == "too_large" and r.json()["error"]
    assert not TableAction.objects.exists()


def test_a_burst_of_actions_is_throttled_per_user(api, settings):
    from django.core.cache import cache

    cache.clear()
    settings.TRIX_ACTION_RATE = "10/second"  # the production default (the tests' is higher)
    alice, bob = api("alice"), api("bob")
    table = new_table(alice)
    body = {"id": None, "version": 0, "action": {"type": "select", "cards": []}}
    answers = []
    for _ in range(200):  # the default rate (10 a second) is passed long before this ends
        r = _post(alice, table["id"], {**body, "id": str(uuid.uuid4())})
        answers.append(r.status_code)
        if r.status_code == 429:
            break
    assert answers[-1] == 429, answers
    assert set(answers[:-1]) == {403}, answers  # refused: no seat here
    assert answers.index(429) >= 10
    assert r.json()["code"] == "throttled" and r.json()["error"]
    assert int(r["Retry-After"]) >= 1
    assert not TableAction.objects.exists()
    # Another user, and reading the table, are not held back.
    assert _post(bob, table["id"], {**body, "id": str(uuid.uuid4())}).status_code == 403
    assert alice.get(f"/api/tables/{table['id']}/state/").status_code == 200


def test_state_wait_above_30_is_invalid(api):
    alice = api("alice")
    table = new_table(alice)
    r = alice.get(f"/api/tables/{table['id']}/state/", {"since": 0, "wait": 31})
    assert r.status_code == 400 and r.json()["code"] == "invalid"


@pytest.mark.parametrize(
    "method, path",
    [("post", "/api/tables"), ("get", "/api/tables/1/state"), ("get", "/api/wallet")],
)
def test_an_api_path_without_its_trailing_slash_is_a_json_404_naming_the_right_path(
    api, method, path
):
    """Found by a new user: ``POST /api/tables`` answered a 500 HTML page (Django's
    APPEND_SLASH under DEBUG) and GETs a 301 HTML redirect."""
    alice = api("alice")
    r = getattr(alice, method)(path, {}, format="json") if method == "post" else alice.get(path)
    assert r.status_code == 404, r.content
    assert r.json()["code"] == "not_found" and path + "/" in r.json()["error"]


@pytest.mark.parametrize(
    "path, body",
    [
        ("actions/", {"version": 0, "seat": 2, "action": {"type": "pass"}}),
        ("seats/", {"seat": 0, "client_seed": "abc", "stake": 5}),
        ("bots/", {"seat": 1, "bot": "rules", "user": 3}),
    ],
)
def test_a_body_field_the_endpoint_does_not_take_is_refused(api, path, body):
    """Found by a new user: ``{"seat": 2, ...}`` beside an action was silently dropped and the
    action applied for the caller's own seat; a client that thinks it said something the
    server ignored gets a clear 400 naming the field instead."""
    alice = api("alice")
    table = new_table(alice)
    if "version" in body:
        body = {**body, "id": str(uuid.uuid4())}
    r = alice.post(f"/api/tables/{table['id']}/{path}", body, format="json")
    assert r.status_code == 400, r.content
    extra = (set(body) - {"id", "version", "action", "seat", "client_seed", "bot"}) or {"seat"}
    assert all(name in r.json()["error"] for name in extra), r.json()
    assert not TableAction.objects.exists()


def test_a_table_body_field_the_endpoint_does_not_take_is_refused(api):
    alice = api("alice")
    r = alice.post("/api/tables/", {"variant": "trix", "stakes": 500}, format="json")
    assert r.status_code == 400, r.content
    assert "stakes" in r.json()["error"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables/", '{"variant": "complex_partner", "stake": 0, "bot_seed": "\\ud800"}'),
        ("/api/tables/", '{"variant": "\\udfff"}'),
        ("/api/tables/", '{"options": {"\\ud800x": 1}}'),  # in a key
        ("/api/tables/{id}/seats/", '{"seat": 0, "client_seed": "a\\ud83d"}'),
        ("/api/tables/{id}/actions/", '[{"id": "\\ud800"}]'),
    ],
)
def test_a_lone_surrogate_in_a_json_body_is_malformed_not_a_500(api, path, body):
    """``"\\ud800"`` is valid JSON escaping but no character: Python decodes it to a lone
    surrogate that nothing downstream can encode (PostgreSQL, the templates, the JSON answer),
    so it was a 500 HTML page (issue 13, item 7). The parser refuses it: 400 ``malformed``."""
    alice = api("alice")
    table = new_table(alice)
    tables = Table.objects.count()
    r = alice.post(path.format(id=table["id"]), body, content_type="application/json")
    assert r.status_code == 400, r.content[:300]
    assert r["Content-Type"].startswith("application/json")
    assert r.json()["code"] == "malformed"
    assert "surrogate" in r.json()["error"], r.json()
    assert Table.objects.count() == tables and not TableAction.objects.exists()


def test_a_surrogate_pair_is_one_character_and_accepted():
    import io

    from games.api.parsers import SafeJSONParser

    body = b'{"name": "joker \\ud83c\\udccf", "ar": "\\u0639\\u0644\\u064a"}'  # a pair
    assert SafeJSONParser().parse(io.BytesIO(body)) == {"name": "joker \U0001f0cf", "ar": "علي"}


@pytest.mark.parametrize("stake", [2**63, 2**63 - 1, 2**64, 10**30, 1_000_001])
def test_a_stake_beyond_the_bounds_is_refused_not_a_500(api, stake):
    """A stake of 2**63 is no bigint (issue 13, item 7): 400 naming the bound."""
    alice = api("alice")
    body = {"variant": "complex_partner", "stake": stake, "options": {}}
    r = alice.post("/api/tables/", body, format="json")
    assert r.status_code == 400, r.content[:300]
    assert r.json()["code"] == "invalid" and "at most" in r.json()["error"], r.json()
    assert not Table.objects.exists()


# -- bodies that are not what an endpoint takes (fresh reviewer, issue 13's spirit) ---------

#: Bodies no write endpoint takes: an unknown field, and JSON that is not an object.
NOT_A_BODY = [
    ('{"x": 1}', "x"),
    ("[]", "array"),
    ('"x"', "string"),
    ("5", "number"),
    ("null", "null"),
    ("true", "boolean"),
]


@pytest.mark.parametrize(("body", "named"), NOT_A_BODY)
def test_leave_refuses_a_body_it_does_not_take_and_keeps_the_seat(api, body, named):
    """Found by a fresh reviewer: ``{"x": 1}`` to ``leave/`` answered 200 and left the seat
    (at a staked match an immediate forfeit)."""
    alice = api("alice")
    table = new_table(alice)
    r = alice.post(
        f"/api/tables/{table['id']}/seats/", {"seat": 0, "client_seed": "s"}, format="json"
    )
    assert r.status_code == 200
    r = alice.post(f"/api/tables/{table['id']}/leave/", body, content_type="application/json")
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid" and named in r.json()["error"], r.json()
    assert Table.objects.get(pk=table["id"]).seats.filter(seat=0, user=alice.user).exists()
    # No body, or an empty object, still leaves.
    r = alice.post(f"/api/tables/{table['id']}/leave/")
    assert r.status_code == 200, r.content
    assert not Table.objects.get(pk=table["id"]).seats.filter(user=alice.user).exists()


@pytest.mark.parametrize(("body", "named"), NOT_A_BODY)
@pytest.mark.parametrize("path", ["", "{id}/seats/", "{id}/bots/", "{id}/actions/"])
def test_every_table_write_refuses_a_body_it_does_not_take(api, path, body, named):
    alice = api("alice")
    table = new_table(alice)
    tables = Table.objects.count()
    r = alice.post(
        f"/api/tables/{path.format(id=table['id'])}", body, content_type="application/json"
    )
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid" and named in r.json()["error"], r.json()
    assert Table.objects.count() == tables and not TableAction.objects.exists()
    assert not Table.objects.get(pk=table["id"]).seats.exclude(user=None, bot="").exists()


@pytest.mark.parametrize("seed", [5, 5.5, True, ["s"], {"s": 1}])
def test_a_client_seed_that_is_not_a_string_is_refused(api, seed):
    """Found by a fresh reviewer: ``"client_seed": 5`` was taken and stored as ``"5"``."""
    alice = api("alice")
    table = new_table(alice)
    r = alice.post(
        f"/api/tables/{table['id']}/seats/", {"seat": 0, "client_seed": seed}, format="json"
    )
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid" and "client_seed" in r.json()["fields"], r.json()
    assert r.json()["error"].startswith("Your client seed: "), r.json()
    assert not Table.objects.get(pk=table["id"]).seats.exclude(user=None, bot="").exists()


@pytest.mark.parametrize(
    "path",
    [
        "/api/deals/abc/record.json",
        "/api/deals/1/record.json/",
        "/api/tournaments/abc/draw.json",
        "/api/tables/abc/state",
        "/api/nothing",
    ],
)
def test_a_404_suggests_only_a_path_that_exists(api, path):
    """Found by a fresh reviewer: ``/api/deals/abc/record.json`` suggested
    ``/api/deals/abc/record.json/``, which is no resource either."""
    r = api("alice").get(path)
    assert r.status_code == 404, r.content
    assert r.json()["code"] == "not_found" and path in r.json()["error"]
    assert "slash" not in r.json()["error"] and path.rstrip("/") + "/:" not in r.json()["error"]
    assert "/ " not in r.json()["error"].replace(path, "")


def test_too_many_tables_created_says_so_in_our_words_with_the_wait(api, settings):
    """Found by a fresh reviewer: the 429 said DRF's stock "Request was throttled. Expected
    available in 42 seconds." Ours says what was too many and the wait in seconds (the same
    as ``Retry-After``); the code stays ``throttled``."""
    import re

    from django.core.cache import cache

    cache.clear()
    settings.TRIX_TABLE_CREATE_RATE = "2/minute"
    settings.TRIX_MAX_OPEN_TABLES = 10
    alice = api("alice")
    new_table(alice)
    new_table(alice)
    r = alice.post("/api/tables/", {"variant": "trix"}, format="json")
    assert r.status_code == 429, r.content
    assert r.json()["code"] == "throttled"
    wait = int(r["Retry-After"])
    assert 1 <= wait <= 60
    assert re.fullmatch(r"Too many tables created: try again in (\d+) s\.", r.json()["error"])
    assert r.json()["error"] == f"Too many tables created: try again in {wait} s."
    assert Table.objects.count() == 2
    cache.clear()
