"""Issue 12: the signed match-start receipt (on the table, in every deal record, in the log)
and the public transparency log (its entries, its endpoints, its check, its serialised
appends)."""

from __future__ import annotations

import json
import threading
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from rest_framework.test import APIClient

from games import services, signing
from games.fairness import bot_play, transparency
from games.fairness import receipt as receipts
from games.fairness.canonical import canonical_bytes, sha256_hex
from games.fairness.errors import FairnessError
from games.models import AppendOnlyError, Deal, LogEntry, Table
from games.services import fairness_log
from tests.games.helpers import play_out

TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


def _log(client=None, after=None) -> list[dict]:
    client = client or APIClient()
    url = "/fairness/log.jsonl" + ("" if after is None else f"?after={after}")
    response = client.get(url)
    assert response.status_code == 200, response
    return transparency.parse_log(b"".join(response.streaming_content).decode())


def _public_key():
    body = APIClient().get("/fairness/public-key.json").json()
    assert body["algorithm"] == "ed25519"
    key = receipts.load_public_key(body["public_key"])
    assert body["key_id"] == receipts.key_id(key)
    return key


@pytest.mark.django_db(transaction=True)
def test_a_match_start_issues_a_signed_receipt_carried_by_every_deal(
    django_user_model, tasks_applied_here, tmp_path
):
    alice = django_user_model.objects.create_user(username="alice", password="pw")
    table = services.create_table(user=alice, variant="complex", options=TIMERS)
    (created,) = _log()
    assert created["kind"] == "match-commitment"
    assert created["body"] == {
        "match_id": f"table-{table.pk}",
        "algorithm": "trix-shuffle/1",
        "commitment": table.commitment,
        "deals": 8,
    }
    services.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="alice-browser-seed")
    assert Table.objects.get(pk=table.pk).receipt is None  # not before the seeds lock
    client = APIClient()
    assert client.get(f"/api/tables/{table.pk}/").json()["receipt"] is None
    for seat in (1, 2, 3):
        services.seat_bot(user=alice, table_id=table.pk, seat=seat, bot="rules")
    table = Table.objects.get(pk=table.pk)
    receipt, signature = table.receipt, table.receipt_signature
    receipts.check_receipt(receipt)
    assert receipt["match_id"] == f"table-{table.pk}" and receipt["deals"] == 8
    assert receipt["commitment"] == table.commitment and receipt["variant"] == "complex"
    assert receipt["options"] == table.options
    assert receipt["client_seeds"] == {
        "0": "alice-browser-seed",
        "1": "bot",
        "2": "bot",
        "3": "bot",
    }
    assert receipt["issued_at"] == table.started_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    key = _public_key()
    receipts.check_signature(receipt, signature, key)
    # Shown to anyone once issued: the table API and the state poll.
    shown = client.get(f"/api/tables/{table.pk}/").json()
    assert shown["receipt"] == receipt and shown["receipt_signature"] == signature
    state = client.get(f"/api/tables/{table.pk}/state/").json()
    assert state["table"]["receipt"] == receipt
    # Logged in the same transaction as the start, after the commitment and alice's
    # seat-seed entry (logged when she sat; the bots' seats have none), which it names.
    entries = _log()
    assert [e["kind"] for e in entries] == ["match-commitment", "seat-seed", "match-receipt"]
    assert entries[1]["body"] == {
        "match_id": f"table-{table.pk}",
        "seat": 0,
        "client_seed": "alice-browser-seed",
        "source": "player",
    }
    assert (receipt["commitment_entry"], receipt["seed_entries"]) == (0, {"0": 1})
    assert entries[2]["body"] == {"receipt": receipt, "signature": signature}
    assert transparency.find_receipt(entries, receipt["match_id"]) == entries[2]

    services.leave(user=alice, table_id=table.pk)  # a bot plays her seat (a free table)
    table = play_out(table.pk)
    assert table.status == "finished"
    records = [d.record for d in Deal.objects.filter(table=table).order_by("number")]
    assert [r["shuffle"]["deal_number"] for r in records] == list(range(1, 9))
    for record in records:
        block = record["shuffle"]
        assert block["deals"] == 8
        assert block["receipt"] == receipt and block["signature"] == signature
        for field in ("match_id", "commitment", "algorithm"):
            assert block[field] == receipt[field]
        assert block["client_seeds"] == receipt["client_seeds"]
    # A forged receipt (another client seed) does not carry the site's signature.
    forged = {**receipt, "client_seeds": {**receipt["client_seeds"], "0": "chosen-later"}}
    with pytest.raises(FairnessError, match="signature does not match"):
        receipts.check_signature(forged, signature, key)
    entries = _log()
    assert transparency.find_receipt(entries, receipt["match_id"])["body"]["receipt"] == receipt
    # Each ended deal's record logged, in order, by the hash of the record served.
    assert [e["kind"] for e in entries] == ["match-commitment", "seat-seed", "match-receipt"] + [
        "deal-record"
    ] * 8 + ["bot-seed"]
    # The bots' seed, committed in the receipt, revealed once the match ended.
    assert receipt["bot_play"] == {
        "decisions": "trix-bots/1",
        "kinds": {"1": "rules", "2": "rules", "3": "rules"},
        "seed_commitment": bot_play.seed_commitment(table.bot_seed),
    }
    assert entries[-1]["body"] == {"match_id": f"table-{table.pk}", "seed": table.bot_seed}
    for entry, record in zip(entries[3:-1], records, strict=True):
        assert entry["body"] == {
            "match_id": f"table-{table.pk}",
            "deal_number": record["deal_number"],
            "record_hash": sha256_hex(record),
        }
    _check_head(entries)
    _trix_verify_with_the_log(tmp_path, records, entries)
    # The reviewer's attack on the site: a second receipt for the match is not appended.
    resigned = signing.current().sign(forged)
    with pytest.raises(FairnessError, match="a second match-receipt of match 'table-"):
        fairness_log.append([fairness_log.match_receipt(receipt=forged, signature=resigned)])
    with pytest.raises(FairnessError, match="a second deal-record of deal 'table-"):
        fairness_log.append(
            [fairness_log.deal_record(match_id=receipt["match_id"], deal_number=3, record={})]
        )
    assert _log() == entries


def _trix_verify_with_the_log(tmp_path, records, entries) -> None:
    """`trix verify` of the served records with the served log, head and public key."""
    from games.engine.cli import main as trix

    (tmp_path / "records.json").write_text(json.dumps(records))
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    (tmp_path / "head.json").write_text(
        json.dumps(APIClient().get("/fairness/log-head.json").json())
    )
    (tmp_path / "key.json").write_text(
        json.dumps(APIClient().get("/fairness/public-key.json").json())
    )
    out, err = StringIO(), StringIO()
    argv = ["verify", str(tmp_path / "records.json"), "--log", str(tmp_path / "log.jsonl")]
    argv += ["--head", str(tmp_path / "head.json"), "--public-key", str(tmp_path / "key.json")]
    assert trix(argv, out, err) == 0, err.getvalue()
    assert "note: 8 record(s) each the deal-record logged for its deal" in out.getvalue()
    # Every move of seats 1..3 (bots from the start) replayed: the site's own decisions.
    assert f"decisions replayed from the seed logged at entry {len(entries) - 1}" in (
        out.getvalue()
    )


def _check_head(entries: list[dict]) -> None:
    """The served head is signed, names the log's size and head hash."""
    head = APIClient().get("/fairness/log-head.json").json()
    assert head["size"] == len(entries)
    assert head["head"] == transparency.verify_log(entries)
    signature = head.pop("signature")
    assert head["format"] == "trix-log-head/1"
    receipts.check_signature(head, signature, _public_key())
    out = StringIO()
    call_command("fairness_log_check", stdout=out)
    assert f"{len(entries)} entries, head {head['head']}" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_seated_tables_log_their_commitment_and_receipt(django_user_model, tasks_applied_here):
    alice = django_user_model.objects.create_user(username="alice", password="pw")
    made = services.create_seated_tables(
        created_by=alice,
        variant="complex",
        options=TIMERS,
        tables=[{"seats": [{"user": alice, "client_seed": "a-seed"}] + [{"bot": "rules"}] * 3}]
        + [{"seats": [{"bot": "random"}] * 4}],
    )
    entries = _log()
    assert [e["kind"] for e in entries] == ["match-commitment", "match-receipt"] * 2
    key = _public_key()
    pairs = zip(entries[::2], entries[1::2], strict=True)
    for table, (commit, issued) in zip(made, pairs, strict=True):
        table = Table.objects.get(pk=table.pk)
        assert commit["body"]["commitment"] == table.commitment
        assert issued["body"] == {"receipt": table.receipt, "signature": table.receipt_signature}
        receipts.check_signature(table.receipt, table.receipt_signature, key)
    assert made[0].receipt["client_seeds"]["0"] == "a-seed"
    _check_head(entries)


@pytest.mark.django_db(transaction=True)
def test_concurrent_table_creation_keeps_one_chain(django_user_model, settings):
    """Two threads (two PostgreSQL connections) creating tables at once: every entry is
    appended once, in one unbroken chain (the appends are serialised)."""
    assert connection.vendor == "postgresql"
    settings.TRIX_MAX_OPEN_TABLES = 10  # each thread opens ten tables
    users = [django_user_model.objects.create_user(username=f"u{n}") for n in range(2)]
    errors = []
    start = threading.Barrier(2)

    def create(user):
        try:
            start.wait()
            for _ in range(10):
                services.create_table(user=user, variant="complex", options=TIMERS)
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=create, args=(u,)) for u in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    entries = _log()
    assert len(entries) == 20 and {e["kind"] for e in entries} == {"match-commitment"}
    assert len({e["body"]["match_id"] for e in entries}) == 20
    transparency.verify_log(entries)
    assert fairness_log.check() == []


@pytest.mark.django_db
def test_the_log_endpoints(django_user_model):
    user = django_user_model.objects.create_user(username="u")
    client = APIClient()
    empty = client.get("/fairness/log-head.json").json()
    assert empty["size"] == 0 and empty["head"] == transparency.GENESIS
    for _ in range(3):
        services.create_table(user=user, variant="complex")
    whole = client.get("/fairness/log.jsonl")
    assert whole["Content-Type"].startswith("application/jsonl")
    assert "max-age=10" in whole["Cache-Control"] and "public" in whole["Cache-Control"]
    assert whole["X-Log-Size"] == "3" and whole.has_header("ETag")
    lines = b"".join(whole.streaming_content).splitlines()
    entries = [json.loads(line) for line in lines]
    # Each line is the entry's canonical JSON: its SHA-256 is the entry's hash.
    assert lines == [canonical_bytes(e) for e in entries]
    assert [e["index"] for e in _log(client, after=0)] == [1, 2]
    assert _log(client, after=2) == [] and _log(client, after=-1) == entries
    for bad in ("x", "-2", "1.5", "", "9" * 30):
        response = client.get("/fairness/log.jsonl", {"after": bad})
        assert response.status_code == 400 and b"after must be" in response.content, bad
    # Conditional requests: unchanged log, 304; a new entry, a new ETag.
    etag = whole["ETag"]
    assert client.get("/fairness/log.jsonl", HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.create_table(user=user, variant="complex")
    assert client.get("/fairness/log.jsonl", HTTP_IF_NONE_MATCH=etag).status_code == 200
    key = client.get("/fairness/public-key.json")
    assert "max-age=60" in key["Cache-Control"]  # a rotation is seen within a minute
    assert key.json()["public_key"] == receipts.public_key_hex(signing.current().private_key)
    assert client.post("/fairness/log.jsonl").status_code == 405


@pytest.mark.django_db(transaction=True)
def test_the_log_is_append_only_and_its_check_finds_a_broken_chain(django_user_model):
    user = django_user_model.objects.create_user(username="u")
    for _ in range(3):
        services.create_table(user=user, variant="complex")
    row = LogEntry.objects.get(index=1)
    row.kind = "draw-key"
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    from django.db import DatabaseError, transaction

    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LogEntry.objects.filter(index=1).update(kind="draw-key")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LogEntry.objects.filter(index=2).delete()
    # An entry written past the service (its prev not the hash before it) breaks the chain.
    good = fairness_log.entry_of(LogEntry.objects.get(index=2))
    forged = {**good, "index": 3, "prev": "ab" * 32}
    LogEntry.objects.bulk_create(
        [
            LogEntry(
                index=3,
                prev=forged["prev"],
                kind=forged["kind"],
                body=forged["body"],
                logged_at=LogEntry.objects.get(index=2).logged_at,
                hash=transparency.entry_hash(forged),
            )
        ]
    )
    out = StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("fairness_log_check", stdout=out)
    assert "log entry 3: prev is not the hash of entry 2" in out.getvalue()
    with pytest.raises(FairnessError, match="log entry 3"):
        transparency.verify_log(_log())


@pytest.mark.django_db(transaction=True)
def test_a_second_receipt_written_past_the_service_is_refused(django_user_model):
    """An entry the log does not admit, written past ``append`` (the key table refuses it;
    written without its key, ``fairness_log_check`` names both entries)."""
    from django.db import IntegrityError, transaction

    from games.models import LogKey

    user = django_user_model.objects.create_user(username="u")
    services.create_table(user=user, variant="complex")
    (first,) = _log()
    with pytest.raises(IntegrityError), transaction.atomic():
        LogKey.objects.create(
            entry=LogEntry.objects.create(
                index=1,
                prev=transparency.entry_hash(first),
                kind=first["kind"],
                body=first["body"],
                logged_at=LogEntry.objects.get(index=0).logged_at,
                hash="ab" * 32,
            ),
            kind=first["kind"],
            subject=first["body"]["match_id"],
        )
    again = transparency.next_entry(
        prev=first, kind=first["kind"], body=first["body"], logged_at=first["logged_at"]
    )
    LogEntry.objects.create(
        index=1,
        prev=again["prev"],
        kind=again["kind"],
        body=again["body"],
        logged_at=LogEntry.objects.get(index=0).logged_at,
        hash=transparency.entry_hash(again),
    )
    out = StringIO()
    with pytest.raises(CommandError, match="1 problem"):
        call_command("fairness_log_check", stdout=out)
    assert (
        f"log entry 1: a second match-commitment of match {first['body']['match_id']!r} "
        "(the log holds one at entry 0)" in out.getvalue()
    )
