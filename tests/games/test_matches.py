"""Whole matches through the API and a real Celery worker."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games import selectors, state_store
from games.engine import MatchState, cli
from games.models import Deal, MatchRecord, Table, TableAction, TableEvent
from tests.games.helpers import new_table, play_seat, seat_bots, wait_finished

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)


def check_four_bot_match(alice, table):
    """A four-bot match (played meanwhile) finished and is consistent."""
    done = wait_finished(table["id"])
    assert done.result["deals_played"] == 8
    assert sorted(done.result["placements"]) == ["0", "1", "2", "3"]
    # The stored state replays to itself, and the event log alone rebuilds it.
    stored = state_store.stored_json(done)
    assert stored == MatchRecord.objects.get(table_id=table["id"]).state  # checkpoint at the end
    state = MatchState.from_json(stored)
    assert state.to_json() == stored
    rebuilt = selectors.rebuild_from_events(table["id"])
    assert rebuilt.to_json() == stored
    # Every finished deal has its record with the revealed shuffle.
    deals = list(Deal.objects.filter(table_id=table["id"]).order_by("number"))
    assert [d.number for d in deals] == list(range(1, 9))
    assert all(d.record["shuffle"]["server_seed"] for d in deals)
    # Versions are gap-free and every bot action was applied exactly once.
    versions = list(
        TableEvent.objects.filter(table_id=table["id"]).values_list("version", flat=True)
    )
    assert versions == list(range(1, len(versions) + 1))
    assert not TableAction.objects.filter(table_id=table["id"]).exclude(status="applied").exists()
    # Anyone may read the finished table.
    r = APIClient().get(f"/api/tables/{table['id']}/")
    assert r.status_code == 200 and r.json()["result"]["deals_played"] == 8


def _strings(data) -> set[str]:
    if isinstance(data, dict):
        return {s for v in data.values() for s in _strings(v)}
    if isinstance(data, list):
        return {s for v in data for s in _strings(v)}
    return {data} if isinstance(data, str) and len(data) >= 32 else set()


def _hidden_leaks(body: dict, hands_by_deal: dict, seeds: dict, private: set) -> list[str]:
    """What this response shows that its reader must not see."""
    text = json.dumps(body)
    problems = []
    revealed = {
        e["server_seed"] for e in body.get("_all_events", []) if e["type"] == "seed_revealed"
    }
    for secret in (private | set(seeds.values())) - revealed - {body["table"]["commitment"]}:
        if secret in text:
            problems.append(f"an unrevealed secret at v{body['version']}")
    me = body["my_seat"]
    for event in body["events"]:
        if event["type"] == "hand" and event["seat"] != me:
            problems.append(f"hand of seat {event['seat']}")
    view = body["view"]
    if view and view["deal_number"] and view["phase"] != "over":
        initial = hands_by_deal[view["deal_number"]]
        played = set(body["_played"])
        face_up = {c for cards in view["shown"].values() for c in cards}
        view_text = json.dumps(view)
        for seat, cards in initial.items():
            if int(seat) == me:
                continue
            for card in set(cards) - played - face_up:
                if f'"{card}"' in view_text:
                    problems.append(f"seat {seat}'s {card} in the view of {me}")
    return problems


def test_whole_matches_four_bots_and_one_api_client(worker, api, tmp_path):
    """Two matches at once on the worker: four bots, and one API client with three bots,
    whose every response is scanned for unrevealed seeds and other seats' cards."""
    alice = api("alice")
    bots_table = new_table(alice)
    assert len(bots_table["commitment"]) == 64 and bots_table["status"] == "open"
    seat_bots(alice, bots_table["id"], range(4))
    table = new_table(alice, choose_timer=0, double_timer=0, play_timer=0)
    r = alice.post(
        f"/api/tables/{table['id']}/seats/",
        {"seat": 1, "client_seed": "alice's seed"},
        format="json",
    )
    assert r.status_code == 200, r.content
    assert r.json()["seats"][1]["is_me"] is True
    seat_bots(alice, table["id"], [0, 2, 3])
    responses: list[dict] = []
    public: list[tuple[int, str]] = []  # (version seen, text) of public pages during play
    anonymous = APIClient()

    def fetch_public(body):
        if len(responses) % 15 == 1:
            for url in (
                f"/api/matches/{table['id']}/verification/",
                f"/verify/matches/{table['id']}/",
                f"/api/tables/{table['id']}/state/",
            ):
                r = anonymous.get(url)
                assert r.status_code == 200, (url, r.content)
                after = Table.objects.get(pk=table["id"]).version
                public.append((after, r.content.decode()))

    last = play_seat(alice, table["id"], responses, each=fetch_public)
    assert last["table"]["result"]["deals_played"] == 8
    applied = TableAction.objects.filter(table_id=table["id"], seat=1, source="user")
    assert applied.filter(status="applied").count() > 8 * 13 * 0.5

    # Scan every response for unrevealed seeds and other seats' cards.
    deals = {d.number: d.record for d in Deal.objects.filter(table_id=table["id"])}
    hands_by_deal = {n: rec["hands"] for n, rec in deals.items()}
    seeds = {n: rec["shuffle"]["server_seed"] for n, rec in deals.items()}
    private = _strings(MatchRecord.objects.get(table_id=table["id"]).shuffle)
    all_events: list[dict] = []
    played: set[str] = set()
    problems = []
    for body in responses:
        for event in body["events"]:
            all_events.append(event)
            if event["type"] == "deal_started":
                played = set()
            elif event["type"] == "card_played":
                played.add(event["card"])
        body["_all_events"] = all_events
        body["_played"] = sorted(played)
        problems += _hidden_leaks(body, hands_by_deal, seeds, private)
        del body["_all_events"], body["_played"]
    assert problems == []
    revealed_at = {
        e.payload["server_seed"]: e.version
        for e in TableEvent.objects.filter(table_id=table["id"], type="seed_revealed")
    }
    for version, text in public:
        for secret in private | set(seeds.values()):
            if secret != last["table"]["commitment"] and secret in text:
                assert revealed_at.get(secret, 10**9) <= version, "unrevealed seed shown"
    # Every finished deal verifies, on the API, the public pages and the record download.
    check = anonymous.get(f"/api/matches/{table['id']}/verification/").json()
    assert check["verified"] and len(check["deals"]) == 8, check["mismatches"]
    deal_id = check["deals"][0]["deal_id"]
    one = anonymous.get(f"/api/deals/{deal_id}/verification/").json()
    assert one["verified"] and one["commitment_matches"]
    page = anonymous.get(f"/verify/deals/{deal_id}/")
    assert page.status_code == 200 and b"Verified" in page.content
    record = anonymous.get(f"/api/deals/{deal_id}/record.json")
    assert record["Content-Disposition"].startswith("attachment")
    from games.fairness import verify_record

    assert verify_record(json.loads(record.content)) == []
    # The auditors' tools accept the downloaded record: `trix verify` and the standalone
    # verifier of docs/fairness.md (Python's standard library only).
    path = tmp_path / "deal.json"
    path.write_bytes(record.content)
    key = tmp_path / "public-key.json"
    key.write_bytes(anonymous.get("/fairness/public-key.json").content)
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["verify", str(path), "--public-key", str(key)], out, err) == 0, err.getvalue()
    assert out.getvalue().strip().startswith("verified"), out.getvalue()
    assert "not checked" not in out.getvalue()
    standalone = subprocess.run(
        [sys.executable, str(ROOT / "games" / "fairness" / "verify_standalone.py"), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert standalone.returncode == 0 and "verified" in standalone.stdout, standalone.stderr
    # Seeds are revealed deal by deal, each after its deal ended.
    kinds = [e["type"] for e in all_events if e["type"] in ("deal_ended", "seed_revealed")]
    assert kinds == ["deal_ended", "seed_revealed"] * 8
    check_four_bot_match(alice, bots_table)
