"""A site match's bots checked end to end (``docs/fairness.md``, section 8a): the receipt
commits to the bots' seed, the log reveals it when the match ends, and `trix verify --log`
replays every bot move the site made; a log the operator rewrote so that a bot doubled
otherwise is refused, naming the move and what the bot does."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games import services
from games.engine.cli import main as trix
from games.fairness import transparency
from games.fairness.canonical import sha256_hex
from games.models import Deal
from tests.games.fairness_helpers import toggle_a_bot_double
from tests.games.helpers import play_out

STANDALONE = Path(__file__).resolve().parents[2] / "games" / "fairness" / "verify_standalone.py"
TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


def _verify(tmp_path, records: list[dict], entries: list[dict]) -> tuple[int, str, str]:
    (tmp_path / "records.json").write_text(json.dumps(records))
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    out, err = StringIO(), StringIO()
    argv = ["verify", str(tmp_path / "records.json"), "--log", str(tmp_path / "log.jsonl")]
    return trix(argv, out, err), out.getvalue(), err.getvalue()


def _rewritten(entries: list[dict], records: list[dict], number: int, drop: str = "") -> list[dict]:
    """The log as an operator would rebuild it after changing deal ``number``'s record:
    that deal-record entry's hash replaced, entries of kind ``drop`` left out, and every
    entry chained anew."""
    out, prev = [], None
    for entry in entries:
        if entry["kind"] == drop:
            continue
        body = entry["body"]
        if entry["kind"] == "deal-record" and body["deal_number"] == number:
            body = {**body, "record_hash": sha256_hex(records[number - 1])}
        prev = transparency.next_entry(
            prev=prev, kind=entry["kind"], body=body, logged_at=entry["logged_at"]
        )
        out.append(prev)
    return out


@pytest.mark.django_db(transaction=True)
def test_every_bot_move_of_a_site_match_replays_and_a_changed_one_is_refused(
    django_user_model, tasks_applied_here, tmp_path
):
    alice = django_user_model.objects.create_user(username="alice", password="pw")
    table = services.create_table(user=alice, variant="complex", options=TIMERS)
    services.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="alice-seed")
    services.seat_bot(user=alice, table_id=table.pk, seat=1, bot="rules")
    services.seat_bot(user=alice, table_id=table.pk, seat=2, bot="random")
    services.seat_bot(user=alice, table_id=table.pk, seat=3, bot="rules")
    services.leave(user=alice, table_id=table.pk)  # a bot takes her seat: not checked
    table = play_out(table.pk)
    assert table.status == "finished"
    assert table.receipt["bot_play"]["kinds"] == {"1": "rules", "2": "random", "3": "rules"}
    records = [d.record for d in Deal.objects.filter(table=table).order_by("number")]
    response = APIClient().get("/fairness/log.jsonl")
    entries = transparency.parse_log(b"".join(response.streaming_content).decode())

    code, out, err = _verify(tmp_path, records, entries)

    assert code == 0, err
    assert f"match 'table-{table.pk}': every move of the bots (seats 1, 2, 3, trix-bots/1)" in out

    number, seat, card = toggle_a_bot_double(records, {1, 2, 3})
    forged = _rewritten(entries, records, number)
    transparency.verify_log(forged)  # a well-formed log: only the bots' replay tells

    code, out, err = _verify(tmp_path, records, forged)

    assert code == 1
    assert f"bots: deal {number}: seat {seat} (" in err
    assert "; the bot doubles" in err

    # The operator keeps the bots' seed back (the steered match ended): refused, as the log
    # holds a record of every deal.
    records = [d.record for d in Deal.objects.filter(table=table).order_by("number")]
    withheld = _rewritten(entries, records, 0, drop="bot-seed")
    code, out, err = _verify(tmp_path, records, withheld)
    assert code == 1
    assert (
        f"log: match 'table-{table.pk}' ended (the log holds a deal record of each of its 8" in err
    )
    assert "but not its bots' seed" in err
    standalone = subprocess.run(
        [
            sys.executable,
            str(STANDALONE),
            str(tmp_path / "records.json"),
            "--log",
            str(tmp_path / "log.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert standalone.returncode == 1
    assert f"match 'table-{table.pk}' ended but its bots' seed is not in the log" in (
        standalone.stdout + standalone.stderr
    )
