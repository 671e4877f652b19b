"""The match check page /verify/matches/<id>/ (issue 12 review): all records in one download
that `trix verify` accepts with the site's key, log and head; the receipt and its signature;
the links to the public key, the log and its head; the command to run; a forfeited deal's
seed revealed without a record."""

from __future__ import annotations

import contextlib
import json
import re
import shlex
import subprocess
import sys
from io import StringIO

import pytest
from django.test import Client

from games import services
from games.engine.cli import main as trix
from games.models import Deal, Table
from games.views import STANDALONE
from tests.games.helpers import play_out

TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


def _saved_at_start(tmp_path, client, table: Table) -> dict[str, str]:
    """What the player's browser keeps when they sit (web/static/web/table/fairness.js), as
    the page's commands name it: the commitment, their seat and seed, the site's public key,
    the log's checkpoint and the receipt issued at the start (saved as files here)."""
    table.refresh_from_db()
    _save(tmp_path, client, "/fairness/checkpoint", "saved-checkpoint.txt")
    receipt = {"receipt": table.receipt, "signature": table.receipt_signature}
    (tmp_path / "saved-receipt.json").write_text(json.dumps(receipt))
    return {
        "SAVED-COMMITMENT": table.commitment,
        "SEAT=YOUR-SEED": "0=alice-seed",
        "SAVED-KEY": client.get("/fairness/public-key.json").json()["public_key"],
        "SAVED-RECEIPT.json": "saved-receipt.json",
        "SAVED-CHECKPOINT.txt": "saved-checkpoint.txt",
    }


def _filled(command: str, saved: dict[str, str]) -> str:
    """The page's ``command`` with the player's saved values in place of its capitals."""
    for token, value in saved.items():
        command = command.replace(token, value)
    return command


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
    client = Client()
    saved = _saved_at_start(tmp_path, client, table)
    services.replace_with_bot(table_id=table.pk, seat=0, reason="away")  # her seed stays
    table = play_out(table.pk)
    page = client.get(f"/verify/matches/{table.pk}/").content.decode()
    assert 'href="/fairness/log.jsonl"' in page
    assert f'href="/verify/matches/{table.pk}/records.json"' in page
    assert table.receipt_signature in page and table.receipt["issued_at"] in page
    assert "alice-seed" in page and "&quot;show_twos&quot;: true" in page
    # The commands name what the player saved, never the site's current values.
    standalone_command, command = _commands(page)
    assert command == (
        f"trix verify table-{table.pk}-records.json --public-key SAVED-KEY --log log.jsonl "
        "--checkpoint SAVED-CHECKPOINT.txt --commitment SAVED-COMMITMENT "
        "--client-seed SEAT=YOUR-SEED"
    )
    assert table.commitment not in command and "log-head" not in command
    assert "unrecorded" not in page
    records = _save(tmp_path, client, f"/verify/matches/{table.pk}/records.json", "records.json")
    assert json.loads(open(records).read()) == [
        d.record for d in Deal.objects.filter(table=table).order_by("number")
    ]
    _save(tmp_path, client, f"/verify/matches/{table.pk}/records.json",
          f"table-{table.pk}-records.json")  # fmt: skip
    _save(tmp_path, client, "/fairness/log.jsonl", "log.jsonl")
    argv = shlex.split(_filled(command, saved))[1:]
    out, err = StringIO(), StringIO()
    with contextlib.chdir(tmp_path):
        assert trix(argv, out, err) == 0, err.getvalue()
    assert out.getvalue().startswith("verified: 8 deal records\n")
    assert client.get("/verify/matches/99999/records.json").status_code == 404

    # The page's own command for the standalone verifier, downloaded from the page's link,
    # run on the files saved under the page's names.
    assert 'href="/fairness/verify_standalone.py"' in page
    verifier = _save(tmp_path, client, "/fairness/verify_standalone.py", "verify_standalone.py")
    assert open(verifier, "rb").read() == STANDALONE.read_bytes()
    command = _filled(standalone_command, saved)
    assert command.startswith("python3 verify_standalone.py ")
    done = subprocess.run(
        [sys.executable, *shlex.split(command)[1:]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and done.stdout.startswith("verified"), done.stdout + done.stderr


def _visible_order(page: str, *texts: str) -> list[int]:
    return [page.index(text) for text in texts]


@pytest.mark.django_db(transaction=True)
def test_the_pages_lead_with_what_was_proved_and_fold_the_hex(make_user, tasks_applied_here):
    """One sentence of what the check proved comes first; the seeds, the commitment and the
    receipt (hex and JSON) are folded in a <details> below the hands and the deals; the
    page says where to get the verifier (the players could not act on a page of hex)."""
    alice = make_user("alice")
    table = services.create_seated_table(
        created_by=alice,
        variant="complex",
        options=TIMERS,
        seats=[{"user": alice, "client_seed": "alice-seed"}] + [{"bot": "rules"}] * 3,
    )
    table = play_out(table.pk)
    deal = Deal.objects.filter(table=table).order_by("number").first()
    client = Client()
    for url, table_of_cards in (
        (f"/verify/deals/{deal.pk}/", 'data-testid="hand-1"'),
        (f"/verify/matches/{table.pk}/", 'id="deal-1"'),
    ):
        page = client.get(url).content.decode()
        lead, cards, raw, seed = _visible_order(
            page,
            "were fixed before anyone sat down",
            table_of_cards,
            '<details class="raw"',
            deal.record["shuffle"]["server_seed"],
        )
        assert lead < cards < raw < seed, url
        assert page.index(table.commitment) > raw, url
        assert 'href="/fairness/verify_standalone.py" download' in page, url
        assert "needs only Python 3" in page, url
    deal_page = client.get(f"/verify/deals/{deal.pk}/").content.decode()
    assert f"python3 verify_standalone.py deal-{deal.pk}.json" in deal_page
    assert f'download="deal-{deal.pk}.json"' in deal_page


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
    table.refresh_from_db()
    services.wake(table_id=table.pk, version=table.version)  # deal 1 is dealt
    services.leave(user=alice, table_id=table.pk)  # and ended by her forfeit at once
    table = play_out(table.pk)
    assert not Deal.objects.filter(table=table).exists()
    page = Client().get(f"/verify/matches/{table.pk}/").content.decode()
    assert 'data-testid="unrecorded"' in page
    assert "Deal 1 was ended by a forfeit before it was played out" in page
    assert 'data-testid="records"' not in page  # nothing to download


def _commands(page: str) -> list[str]:
    """The page's two commands: the standalone verifier's and `trix verify`'s."""
    return [
        re.search(rf'data-testid="{name}"><code data-command>(.*?)</code>', page).group(1)
        for name in ("standalone-command", "command")
    ]


def _alice_and_bots(make_user):
    alice = make_user("alice")
    table = services.create_seated_table(
        created_by=alice,
        variant="complex",
        options=TIMERS,
        seats=[{"user": alice, "client_seed": "alice-seed"}] + [{"bot": "rules"}] * 3,
    )
    return alice, table


def _play_deals(table_id: int, count: int) -> Table:
    """Wake the table until ``count`` deals have their records (the match still running)."""
    for _ in range(5000):
        table = Table.objects.get(pk=table_id)
        if Deal.objects.filter(table=table).count() >= count:
            assert table.status == "playing"
            return table
        services.wake(table_id=table_id, version=table.version)
    raise AssertionError("the deals did not end")


def _run_standalone(tmp_path, client, table_id: int, command: str, saved: dict[str, str]):
    """Save what the page links under the names its command uses and run the command with
    what the player ``saved`` at the start (:func:`_saved_at_start`)."""
    _save(tmp_path, client, "/fairness/verify_standalone.py", "verify_standalone.py")
    _save(tmp_path, client, f"/verify/matches/{table_id}/records.json",
          f"table-{table_id}-records.json")  # fmt: skip
    _save(tmp_path, client, "/fairness/log.jsonl", "log.jsonl")
    argv = shlex.split(_filled(command, saved))[1:]
    return subprocess.run([sys.executable, *argv], cwd=tmp_path, capture_output=True, text=True)


@pytest.mark.django_db(transaction=True)
def test_a_running_matchs_commands_take_partial_and_verify(make_user, tasks_applied_here, tmp_path):
    """More records will come: the commands take --partial, and what the page links then
    verifies (the log holds no record of the match that the download leaves out)."""
    _, table = _alice_and_bots(make_user)
    client = Client()
    saved = _saved_at_start(tmp_path, client, table)
    table = _play_deals(table.pk, 2)
    page = client.get(f"/verify/matches/{table.pk}/").content.decode()
    standalone, command = _commands(page)
    assert standalone.endswith(" --partial") and command.endswith(" --partial")
    assert 'data-testid="still-running"' in page and 'data-testid="ended-early"' not in page
    done = _run_standalone(tmp_path, client, table.pk, standalone, saved)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the log holds no other deal record of match" in done.stdout
    answer = client.get(f"/api/matches/{table.pk}/verification/").json()
    assert answer["partial"] is True and answer["ended_early"] is None


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_ended_by_a_forfeit_gets_no_partial(
    make_user, tasks_applied_here, tmp_path
):
    """A match a forfeit ended after its first deal: nothing in the records, the receipt or
    the log says it ended, so the page never adds --partial for it; it says the command
    reports the later deals missing, and that --partial is the player's own to add."""
    alice, table = _alice_and_bots(make_user)
    client = Client()
    saved = _saved_at_start(tmp_path, client, table)
    table = _play_deals(table.pk, 1)
    services.leave(user=alice, table_id=table.pk)  # her forfeit ends the match
    table = play_out(table.pk)
    assert table.status == "finished" and Deal.objects.filter(table=table).count() == 1
    page = client.get(f"/verify/matches/{table.pk}/").content.decode()
    standalone, command = _commands(page)
    assert "--partial" not in standalone and "--partial" not in command
    assert 'data-testid="still-running"' not in page
    ended = re.search(r'data-testid="ended-early">(.*?)</p>', page, re.S).group(1)
    assert "This match ended by a forfeit after 1 of its 8 deals" in ended
    done = _run_standalone(tmp_path, client, table.pk, standalone, saved)
    assert done.returncode == 1 and "missing [2, 3, 4, 5, 6, 7, 8]" in done.stdout
    done = _run_standalone(tmp_path, client, table.pk, standalone + " --partial", saved)
    assert done.returncode == 0, done.stdout + done.stderr
    answer = client.get(f"/api/matches/{table.pk}/verification/").json()
    assert answer["partial"] is False
    assert answer["ended_early"] == {"by": "forfeit", "records": 1, "deals": 8}


@pytest.mark.django_db(transaction=True)
def test_a_match_with_no_ended_deal_offers_no_command(make_user, tasks_applied_here):
    """A match ended by a forfeit before its first deal ended has no record: the page says
    so instead of "All 0 finished deals verified", and gives no command naming a records
    file it does not offer."""
    alice = make_user("alice")
    table = services.create_seated_table(
        created_by=alice,
        variant="trix",
        options=TIMERS,
        seats=[{"user": alice, "client_seed": "alice-seed"}] + [{"bot": "rules"}] * 3,
    )
    services.leave(user=alice, table_id=table.pk)  # before deal 1 is dealt: the match ends
    assert Table.objects.get(pk=table.pk).status == "finished"
    assert not Deal.objects.filter(table=table).exists()
    page = Client().get(f"/verify/matches/{table.pk}/").content.decode()
    assert "No deal of this match was played to its end" in page
    assert "finished deals verified" not in page
    assert 'data-testid="standalone-command"' not in page
    assert 'data-testid="command"' not in page
    assert f"table-{table.pk}-records.json" not in page
