"""Issue 31, deliverable 7 on the site: the key in use is the one the log names last; a
rotation (`manage.py rotate_signing_key`) logs the new key endorsed by the old one; receipts,
heads and checkpoints name their key; `/fairness/keys.json` lists every key with its
period, and a match that straddles a rotation verifies from the key saved at its start."""

from __future__ import annotations

import json
import os
import stat
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from rest_framework.test import APIClient

from games import services, signing
from games.checks import signing_key_loads
from games.engine.cli import main as trix
from games.errors import Unavailable
from games.fairness import receipt as receipts
from games.fairness import signing_keys, transparency
from games.fairness.errors import FairnessError
from games.models import Deal, Table
from games.services import fairness_log
from tests.games.fairness_helpers import load_standalone
from tests.games.helpers import play_out

TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


def _started(user, seed: str) -> Table:
    table = services.create_table(user=user, variant="complex", options=TIMERS)
    services.take_seat(user=user, table_id=table.pk, seat=0, client_seed=seed)
    for seat in (1, 2, 3):
        services.seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
    return Table.objects.get(pk=table.pk)


def _get(client, url) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, response
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def _rotate(**options) -> str:
    out = StringIO()
    call_command("rotate_signing_key", stdout=out, **options)
    return out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_a_rotation_hands_over_to_the_new_key_and_a_match_across_it_verifies(
    django_user_model, tasks_applied_here, tmp_path, settings, request
):
    alice = django_user_model.objects.create_user(username="alice", password="pw")
    client = APIClient()
    old = signing.current()
    saved_key = tmp_path / "key.json"  # what the player's browser keeps when she sits
    saved_key.write_bytes(_get(client, "/fairness/public-key.json"))
    first = _started(alice, "alice-first")
    assert first.receipt["key_id"] == old.key_id
    # Before any rotation: the key in use, not yet logged, without a period.
    (listed,) = json.loads(_get(client, "/fairness/keys.json"))["keys"]
    assert (listed["key_id"], listed["log_index"], listed["valid_from"]) == (
        old.key_id,
        None,
        None,
    )
    assert listed["public_key"] == old.public()["public_key"]
    signing_keys.check_body({k: listed[k] for k in signing_keys.BODY_FIELDS})

    # Step 1: a new key, written once, readable by its owner alone.
    path = tmp_path / "new-signing.key"
    out = _rotate(generate=str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    new_id = receipts.key_id(receipts.load_private_key(path.read_text()))
    assert f"wrote key {new_id} to {path}" in out
    with pytest.raises(CommandError, match="cannot write"):
        _rotate(generate=str(path))
    with pytest.raises(CommandError, match="TRIX_SIGNING_NEW_KEY is not set"):
        _rotate()
    with pytest.raises(CommandError, match="--generate needs a file name"):
        _rotate(generate="")
    # Step 2: every process holds it, and goes on signing with the logged (old) key.
    settings.TRIX_SIGNING_NEW_KEY = path.read_text().strip()
    assert signing.current().key_id == old.key_id
    # Step 3, an hour after the first match started (a receipt from before the log recorded
    # any key): logged, endorsed by the old key; the site signs with the new one from now on.
    later = time_machine.travel(timezone.now() + timedelta(hours=1), tick=True)
    later.start()
    request.addfinalizer(later.stop)
    out = _rotate()
    assert f"logged key {old.key_id}\n" in out
    assert f"logged key {new_id}, endorsed by key {old.key_id}" in out
    assert signing.current().key_id == new_id
    assert json.loads(_get(client, "/fairness/public-key.json"))["key_id"] == new_id
    with pytest.raises(CommandError, match=f"key {new_id} is the signing key in use already"):
        _rotate()
    with pytest.raises(CommandError, match="the log records signing keys already"):
        _rotate(log_current=True)
    stranger = receipts.new_private_key()  # a fork: another key endorsed by the old one
    fork = fairness_log.signing_key(key=stranger, previous=old.private_key)
    with pytest.raises(FairnessError, match=f"but the log's key until then is {new_id}"):
        fairness_log.append([fork])
    keys = json.loads(_get(client, "/fairness/keys.json"))
    assert [k["key_id"] for k in keys["keys"]] == [old.key_id, new_id]
    assert keys["keys"][0]["valid_until"] == keys["keys"][1]["valid_from"]
    assert keys["keys"][1]["valid_until"] is None
    ring = signing_keys.keyring_from_document(keys)
    assert ring.order == [old.key_id, new_id]

    # The match started before the rotation plays out; a new one names the new key.
    services.leave(user=alice, table_id=first.pk)
    first = play_out(first.pk)
    second = _started(alice, "alice-second")
    assert second.receipt["key_id"] == new_id
    receipts.check_signature(second.receipt, second.receipt_signature, ring.keys[new_id].public_key)
    head = json.loads(_get(client, "/fairness/log-head.json"))
    assert head["key_id"] == new_id
    assert f"key-id {new_id}\n" in _get(client, "/fairness/checkpoint").decode()

    records = [d.record for d in Deal.objects.filter(table=first).order_by("number")]
    assert {r["shuffle"]["receipt"]["key_id"] for r in records} == {old.key_id}
    (tmp_path / "records.json").write_text(json.dumps(records))
    log = _get(client, "/fairness/log.jsonl")
    (tmp_path / "log.jsonl").write_bytes(log)
    (tmp_path / "head.json").write_text(json.dumps(head))
    (tmp_path / "keys.json").write_text(json.dumps(keys))
    kinds = [e["kind"] for e in transparency.parse_log(log.decode())]
    assert kinds.count("signing-key") == 2
    argv = ["verify", str(tmp_path / "records.json"), "--public-key", str(saved_key)]
    argv += ["--log", str(tmp_path / "log.jsonl"), "--head", str(tmp_path / "head.json")]
    out, err = StringIO(), StringIO()
    assert trix(argv, out, err) == 0, err.getvalue()
    assert f"valid under key {old.key_id} (the log's signing-key entries, pinned by" in (
        out.getvalue()
    )
    out, err = StringIO(), StringIO()
    assert trix([*argv, "--keys", str(tmp_path / "keys.json")], out, err) == 0, err.getvalue()
    standalone = load_standalone()
    options = ["--public-key", old.public()["public_key"], "--log", str(tmp_path / "log.jsonl")]
    options += ["--head", str(tmp_path / "head.json")]
    assert standalone.main([str(tmp_path / "records.json"), *options]) == 0
    call_command("fairness_log_check", stdout=StringIO())

    # A process without the logged key signs nothing rather than sign with a retired one.
    settings.TRIX_SIGNING_NEW_KEY = ""
    with pytest.raises(Unavailable, match="Matches cannot start right now"):
        signing.current()
    for url in ("/fairness/log-head.json", "/fairness/checkpoint"):
        response = client.get(url)
        assert (response.status_code, response.json()["code"]) == (503, "signing_unavailable")
        assert response["Retry-After"] == "60"
    # What signs nothing is still served: the key in use (from the log) and the list.
    assert json.loads(_get(client, "/fairness/public-key.json"))["key_id"] == new_id
    assert client.get("/fairness/keys.json").status_code == 200
    health = client.get("/health/").json()
    assert health["signing"] == {"ok": False, "error": "signing_unavailable"}
    bob = django_user_model.objects.create_user(username="bob", password="pw")
    table = services.create_table(user=bob, variant="complex", options=TIMERS)
    services.take_seat(user=bob, table_id=table.pk, seat=0, client_seed="bob-seed")
    for seat in (1, 2):
        services.seat_bot(user=bob, table_id=table.pk, seat=seat, bot="rules")
    player = APIClient()
    player.force_authenticate(bob)
    url = f"/api/tables/{table.pk}/bots/"
    response = player.post(url, {"seat": 3, "bot": "rules"}, format="json")
    assert (response.status_code, response.json()["code"]) == (503, "signing_unavailable")
    assert response["Retry-After"] == "60"
    assert Table.objects.get(pk=table.pk).status == "open"  # nothing half-started
    assert signing_key_loads(None) == []  # the keys load: which one signs is the log's to say


@pytest.mark.django_db(transaction=True)
def test_logging_the_key_in_use_without_a_rotation(settings):
    key = signing.current()
    out = StringIO()
    call_command("rotate_signing_key", "--log-current", stdout=out)
    assert f"logged key {key.key_id}\n" in out.getvalue()
    (listed,) = json.loads(_get(APIClient(), "/fairness/keys.json"))["keys"]
    assert (listed["key_id"], listed["log_index"], listed["previous"]) == (key.key_id, 0, None)
    assert (listed["valid_from"], listed["valid_until"]) == (None, None)  # from the start
    with pytest.raises(CommandError, match="the log records signing keys already"):
        call_command("rotate_signing_key", "--log-current", stdout=StringIO())
    settings.TRIX_SIGNING_NEW_KEY = settings.TRIX_SIGNING_KEY
    with pytest.raises(CommandError, match="TRIX_SIGNING_NEW_KEY is not set"):
        call_command("rotate_signing_key", stdout=StringIO())
