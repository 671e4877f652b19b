"""The OpenAPI schema (``/api/schema/``) types every answer, and the API's real answers have
exactly the fields it describes (issue 10)."""

from __future__ import annotations

import copy
import uuid

import jsonschema
import pytest
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.games.helpers import play_seat, seat_bots, wait_until

OPERATIONS = ("get", "post", "put", "patch", "delete")
# Objects whose further fields depend on a value (an event's fields depend on its type).
OPEN_OBJECTS = {"TableEvent"}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema: dict, node: dict) -> tuple[str | None, dict]:
    ref = node.get("$ref")
    if ref is None:
        return None, node
    name = ref.rsplit("/", 1)[-1]
    return name, schema["components"]["schemas"][name]


def _typed(schema: dict, node: dict) -> bool:
    """A response body schema names its fields: an object with properties (or a reference
    to one), or an array of those."""
    _, node = _resolve(schema, node)
    if node.get("type") == "array":
        return _typed(schema, node.get("items", {}))
    return node.get("type", "object") == "object" and bool(node.get("properties"))


def test_every_operation_has_a_typed_success_answer(schema):
    seen = []
    for path, item in schema["paths"].items():
        assert path.startswith("/api/"), path
        for method in OPERATIONS:
            if method not in item:
                continue
            responses = item[method]["responses"]
            ok = {code: r for code, r in responses.items() if str(code).startswith("2")}
            assert ok, f"{method.upper()} {path}: no 2xx answer"
            for code, response in ok.items():
                body = response.get("content", {}).get("application/json", {}).get("schema")
                assert body is not None, f"{method.upper()} {path} {code}: no JSON body"
                assert _typed(schema, body), f"{method.upper()} {path} {code}: untyped {body}"
            seen.append(f"{method.upper()} {path}")
    assert len(seen) >= 13, seen  # the tables API, verification and the wallet


def test_the_table_status_enum_is_the_models(settings):
    from games.models import TableStatus

    overrides = settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]
    assert overrides["TableStatusEnum"] == TableStatus.values


def test_the_schema_validates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yaml"))


# -- real answers against the schema ----------------------------------------------------------


def _json_schema(schema: dict, node: dict) -> dict:
    """``node`` (OpenAPI 3.0) as JSON Schema over the schema's components: ``nullable`` as
    ``null`` allowed, and no field beyond those named (but in :data:`OPEN_OBJECTS`)."""

    def convert(value, name=None):
        if isinstance(value, list):
            return [convert(v) for v in value]
        if not isinstance(value, dict):
            return value
        out = {k: convert(v) for k, v in value.items() if k != "nullable"}
        if "properties" in out and "additionalProperties" not in out and name not in OPEN_OBJECTS:
            out["additionalProperties"] = False
        if value.get("nullable"):
            out = {"anyOf": [out, {"type": "null"}]}
        return out

    components = {
        name: convert(body, name) for name, body in schema["components"]["schemas"].items()
    }
    return {"components": {"schemas": components}, **convert(copy.deepcopy(node))}


def _validate(schema: dict, path: str, method: str, status: int, body) -> None:
    """``body`` is an answer the schema describes for ``method path`` with ``status``."""
    described = schema["paths"][path][method]["responses"][str(status)]
    expected = described["content"]["application/json"]["schema"]
    try:
        jsonschema.validate(body, _json_schema(schema, expected))
    except jsonschema.ValidationError as exc:
        pytest.fail(f"{method.upper()} {path} {status}: {exc.message} at {list(exc.path)}")


def _check(schema: dict, path: str, method: str, response) -> None:
    """A test client's ``response`` is one the schema describes for ``method path``."""
    _validate(schema, path, method, response.status_code, response.json())


@pytest.fixture
def player(django_user_model):
    """``player("alice")`` -> an APIClient logged in as a new user."""

    def make(name: str) -> APIClient:
        client = APIClient()
        client.force_login(django_user_model.objects.create_user(username=name))
        return client

    return make


def test_real_answers_have_the_fields_the_schema_describes(schema, worker, player):
    alice = player("alice")
    anyone = APIClient()
    no_timers = {"choose_timer": 0, "double_timer": 0, "play_timer": 0}  # alice plays herself
    body = {"variant": "complex_partner", "options": no_timers}
    r = alice.post("/api/tables/", body, format="json")
    assert r.status_code == 201
    _check(schema, "/api/tables/", "post", r)
    table_id = r.json()["id"]
    _check(schema, "/api/tables/", "get", anyone.get("/api/tables/"))
    _check(schema, "/api/tables/{table_id}/", "get", anyone.get(f"/api/tables/{table_id}/"))
    _check(schema, "/api/tables/{table_id}/", "get", anyone.get("/api/tables/999999/"))
    _check(
        schema,
        "/api/tables/{table_id}/state/",
        "get",
        anyone.get(f"/api/tables/{table_id}/state/"),
    )
    r = alice.post(f"/api/tables/{table_id}/seats/", {"seat": 0}, format="json")
    _check(schema, "/api/tables/{table_id}/seats/", "post", r)
    r = alice.post(f"/api/tables/{table_id}/bots/", {"seat": 1, "bot": "rules"}, format="json")
    _check(schema, "/api/tables/{table_id}/bots/", "post", r)
    seat_bots(alice, table_id, [2, 3])

    # Alice's first action: 202, then a retry of its id answers the same; a stale one 409.
    state = wait_until(
        lambda: (
            (b := alice.get(f"/api/tables/{table_id}/state/").json())["view"]
            and b["view"]["legal"]
            and b
        ),
        60,
    )
    action = {k: v for k, v in state["view"]["legal"][0].items() if k != "seat"}
    payload = {"id": str(uuid.uuid4()), "version": state["version"], "action": action}
    r = alice.post(f"/api/tables/{table_id}/actions/", payload, format="json")
    assert r.status_code == 202, r.content
    _check(schema, "/api/tables/{table_id}/actions/", "post", r)
    wait_until(lambda: alice.post(f"/api/tables/{table_id}/actions/", payload, format="json")
               .json().get("applied_version"), 30)  # fmt: skip
    _check(
        schema,
        "/api/tables/{table_id}/actions/",
        "post",
        alice.post(f"/api/tables/{table_id}/actions/", payload, format="json"),
    )
    stale = {**payload, "id": str(uuid.uuid4()), "version": 0}
    r = alice.post(f"/api/tables/{table_id}/actions/", stale, format="json")
    assert r.status_code == 409
    _check(schema, "/api/tables/{table_id}/actions/", "post", r)

    # Every state poll of the whole match, then the verification of what was dealt.
    polls: list = []
    play_seat(alice, table_id, polls)
    assert len(polls) > 10
    for body in polls:
        _validate(schema, "/api/tables/{table_id}/state/", "get", 200, body)
    r = anyone.get(f"/api/tables/{table_id}/")
    assert r.json()["result"] is not None
    _check(schema, "/api/tables/{table_id}/", "get", r)
    r = anyone.get(f"/api/matches/{table_id}/verification/")
    _check(schema, "/api/matches/{table_id}/verification/", "get", r)
    deal_id = r.json()["deals"][0]["deal_id"]
    r = anyone.get(f"/api/deals/{deal_id}/verification/")
    _check(schema, "/api/deals/{deal_id}/verification/", "get", r)
    r = anyone.get(f"/api/deals/{deal_id}/record.json")
    _validate(schema, "/api/deals/{deal_id}/record.json", "get", r.status_code, r.json())
    _check(
        schema,
        "/api/tables/{table_id}/leave/",
        "post",
        alice.post(f"/api/tables/{table_id}/leave/"),
    )

    # The rematch: read, proposed (201, then 200), its table, declined.
    rematch = f"/api/tables/{table_id}/rematch/"
    _check(schema, "/api/tables/{table_id}/rematch/", "get", anyone.get(rematch))
    r = alice.post(rematch)
    assert r.status_code == 201, r.content
    _check(schema, "/api/tables/{table_id}/rematch/", "post", r)
    _check(schema, "/api/tables/{table_id}/rematch/", "post", alice.post(rematch))
    _check(schema, "/api/tables/{table_id}/rematch/", "get", alice.get(rematch))
    new_id = r.json()["rematch"]["table_id"]
    _check(schema, "/api/tables/{table_id}/", "get", alice.get(f"/api/tables/{new_id}/"))
    r = alice.post(f"/api/tables/{table_id}/rematch/decline/")
    assert r.status_code == 200, r.content
    _check(schema, "/api/tables/{table_id}/rematch/decline/", "post", r)
    r = player("mallory").post(rematch)
    assert r.status_code == 403
    _check(schema, "/api/tables/{table_id}/rematch/", "post", r)

    # The wallet's answers.
    _check(schema, "/api/wallet/", "get", alice.get("/api/wallet/"))
    _check(schema, "/api/wallet/history/", "get", alice.get("/api/wallet/history/"))


def test_the_answer_to_an_action_id_is_one_the_schema_describes(schema):
    """``games.api.answers.action_answer``: 202 pending or applied, a rejection's own status."""
    from games.api.answers import action_answer
    from games.models import TableAction

    path = "/api/tables/{table_id}/actions/"
    pending = TableAction(id=uuid.uuid4(), version=3, status="pending")
    assert action_answer(pending)[0] == 202
    _validate(schema, path, "post", *action_answer(pending))
    applied = TableAction(id=uuid.uuid4(), version=3, status="applied", applied_version=4)
    status, body = action_answer(applied)
    assert (status, body["applied_version"]) == (202, 4)
    _validate(schema, path, "post", status, body)
    stale = TableAction(id=uuid.uuid4(), version=3, status="rejected", http_status=409, error="x")
    status, body = action_answer(stale)
    assert (status, body["code"]) == (409, "stale_version")
    _validate(schema, path, "post", status, body)
    illegal = TableAction(id=uuid.uuid4(), version=3, status="rejected", http_status=400, error="x")
    assert action_answer(illegal)[1]["code"] == "illegal_action"


def test_tournament_edit_and_open_are_described_and_answer_as_described(schema, db):
    """Staff's edit and open of a draft: in the schema with their request bodies, and their
    real answers (the detail with its ``edits``) have exactly the fields it describes."""
    from django.contrib.auth import get_user_model

    edit = schema["paths"]["/api/tournaments/{tournament_id}/edit/"]["post"]
    body = edit["requestBody"]["content"]["application/json"]["schema"]
    _, fields = _resolve(schema, body)
    assert set(fields["properties"]) == {
        "name",
        "description",
        "registration_opens_at",
        "registration_closes_at",
        "starts_at",
        "prize_bps",
        "capacity",
        "reason",
    }
    assert fields["required"] == ["reason"]
    assert "post" in schema["paths"]["/api/tournaments/{tournament_id}/open/"]
    staff = APIClient()
    staff.force_login(get_user_model().objects.create_user(username="boss", is_staff=True))
    created = {
        "name": "Schema cup",
        "capacity": 8,
        "min_entrants": 4,
        "rounds": 2,
        "prize_bps": [10000],
        "registration_opens_at": "2020-01-01T00:00:00Z",
        "registration_closes_at": "2099-01-01T00:00:00Z",
        "starts_at": "2099-01-01T01:00:00Z",
        "draft": True,
    }
    tid = staff.post("/api/tournaments/", created, format="json").json()["id"]
    edited = {"reason": "typo", "name": "Schema Cup", "prize_bps": [6000, 4000]}
    r = staff.post(f"/api/tournaments/{tid}/edit/", edited, format="json")
    assert r.status_code == 200 and len(r.json()["edits"]) == 2
    _check(schema, "/api/tournaments/{tournament_id}/edit/", "post", r)
    r = staff.post(f"/api/tournaments/{tid}/open/", {}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "registration"
    _check(schema, "/api/tournaments/{tournament_id}/open/", "post", r)
    r = staff.post(f"/api/tournaments/{tid}/open/", {}, format="json")
    _check(schema, "/api/tournaments/{tournament_id}/open/", "post", r)
