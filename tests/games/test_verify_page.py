"""The match check page /verify/matches/<id>/ (issue 12 review): all records in one download
that `trix verify` accepts with the site's key, log and head; the receipt and its signature;
the links to the public key, the log and its head; the command to run; a forfeited deal's
seed revealed without a record."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.test import Client

from games import services
from games.engine.cli import main as trix
from games.models import Deal, Table

TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


def _play_out(table_id: int) -> Table:
    for _ in range(5000):
        table = Table.objects.get(pk=table_id)
        if table.status != "playing":
            return table
        services.wake(table_id=table_id, version=table.version)
    raise AssertionError("the match did not end")


def _save(tmp_path, client, url, name):
    response = client.get(url)
    assert response.status_code == 200, url
    body = b"".join(response.streaming_content) if response.streaming else response.content
    (tmp_path / name).write_bytes(body)
    return str(tmp_path / name)


@pytest.mark.django_db(transaction=True)
def test_the_page_downloads_every_record_and_gives_the_command(
    make_user, tasks_applied_here, tmp_path
):
    alice = make_user("alice")
    table = services.create_seated_table(
        created_by=alice,
        variant="complex",
        options=TIMERS,
        seats=[{"user": alice, "client_seed": "alice-seed"}] + [{"bot": "rules"}] * 3,
    )
    services.replace_with_bot(table_id=table.pk, seat=0, reason="away")  # her seed stays
    table = _play_out(table.pk)
    client = Client()
    page = client.get(f"/verify/matches/{table.pk}/").content.decode()
    for link in ("/fairness/public-key.json", "/fairness/log.jsonl", "/fairness/log-head.json"):
        assert f'href="{link}"' in page
    assert f'href="/verify/matches/{table.pk}/records.json"' in page
    assert table.receipt_signature in page and table.receipt["issued_at"] in page
    assert "alice-seed" in page and "&quot;show_twos&quot;: true" in page
    command = (
        f"trix verify table-{table.pk}-records.json --public-key public-key.json --log "
        f"log.jsonl --head log-head.json --commitment {table.commitment} "
        "--client-seed SEAT=YOUR-SEED</code>"
    )
    assert command in page and "unrecorded" not in page
    records = _save(tmp_path, client, f"/verify/matches/{table.pk}/records.json", "records.json")
    assert json.loads(open(records).read()) == [
        d.record for d in Deal.objects.filter(table=table).order_by("number")
    ]
    argv = ["verify", records, "--client-seed", "0=alice-seed"]
    argv += ["--commitment", table.commitment]
    argv += ["--public-key", _save(tmp_path, client, "/fairness/public-key.json", "key.json")]
    argv += ["--log", _save(tmp_path, client, "/fairness/log.jsonl", "log.jsonl")]
    argv += ["--head", _save(tmp_path, client, "/fairness/log-head.json", "head.json")]
    out, err = StringIO(), StringIO()
    assert trix(argv, out, err) == 0, err.getvalue()
    assert out.getvalue().startswith("verified: 8 deal records\n")
    assert client.get("/verify/matches/99999/records.json").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_reveals_the_unfinished_deals_seed_without_a_record(
    make_user, tasks_applied_here
):
    alice = make_user("alice")
    table = services.create_seated_table(
        created_by=alice,
        variant="trix",
        options=TIMERS,
        seats=[{"user": alice, "client_seed": "alice-seed"}] + [{"bot": "rules"}] * 3,
    )
    services.leave(user=alice, table_id=table.pk)
    table = _play_out(table.pk)
    assert not Deal.objects.filter(table=table).exists()
    page = Client().get(f"/verify/matches/{table.pk}/").content.decode()
    assert 'data-testid="unrecorded"' in page
    assert "Deal 1 was ended by a forfeit before it was played out" in page
    assert 'data-testid="records"' not in page  # nothing to download
