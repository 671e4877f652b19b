"""The ``bot-seed`` log entry (``docs/fairness.md``, section 8a): admitted once per match,
only after its receipt and only with the seed the receipt's ``bot_play`` committed to, by the
site's log, ``transparency.verify_log`` and the standalone verifier alike."""

from __future__ import annotations

import json

import pytest

from games.fairness import bot_play, transparency
from games.fairness.errors import FairnessError
from games.fairness.receipt import build_receipt
from tests.games.fairness_helpers import load_standalone

standalone = load_standalone()
SEED = "b0" * 16


def _receipt(with_bot_play: bool = True) -> dict:
    return build_receipt(
        match_id="table-7",
        algorithm="trix-shuffle/1",
        commitment="ab" * 32,
        deals=8,
        variant="complex",
        options={},
        client_seeds=["mine", "bot", "bot", "bot"],
        issued_at="2026-12-07T10:00:00Z",
        bots=[1, 2, 3],
        bot_play=bot_play.build({1: "rules", 2: "rules", 3: "random"}, SEED)
        if with_bot_play
        else None,
    )


def _log(receipt: dict, seed: str, *, order: str = "after") -> list[dict]:
    commitment = {
        "match_id": "table-7",
        "algorithm": "trix-shuffle/1",
        "commitment": "ab" * 32,
        "deals": 8,
    }
    items = [("match-commitment", commitment)]
    receipt_item = ("match-receipt", {"receipt": receipt, "signature": "00" * 64})
    seed_item = ("bot-seed", {"match_id": "table-7", "seed": seed})
    items += [receipt_item, seed_item] if order == "after" else [seed_item, receipt_item]
    entries, prev = [], None
    for kind, body in items:
        prev = transparency.next_entry(
            prev=prev, kind=kind, body=body, logged_at="2026-12-07T10:00:00Z"
        )
        entries.append(prev)
    return entries


def _standalone_refusal(entries: list[dict], receipt: dict) -> str | None:
    lines = [json.dumps(e) for e in entries]
    try:
        standalone.check_log(standalone.read_log(lines), receipt, "00" * 64, [], partial=False)
    except standalone.Refused as refused:
        return str(refused)
    return None


def test_the_committed_seed_after_its_receipt_is_admitted_by_both_verifiers():
    receipt = _receipt()
    entries = _log(receipt, SEED)

    assert transparency.verify_log(entries) == transparency.entry_hash(entries[-1])
    assert _standalone_refusal(entries, receipt) is None


@pytest.mark.parametrize(
    ("receipt", "seed", "order"),
    [
        (_receipt(), SEED + "0", "after"),  # another seed than the committed one
        (_receipt(), SEED, "before"),  # revealed before the receipt committed to it
        (_receipt(with_bot_play=False), SEED, "after"),  # a receipt that committed to none
    ],
    ids=["another-seed", "before-the-receipt", "no-commitment"],
)
def test_a_seed_the_receipt_did_not_commit_first_is_refused(receipt, seed, order):
    entries = _log(receipt, seed, order=order)

    at = 2 if order == "after" else 1
    with pytest.raises(FairnessError, match=f"log entry {at}: the bots' seed of match 'table-7'"):
        transparency.verify_log(entries)
    refusal = _standalone_refusal(entries, receipt)
    assert refusal == f"log entry {at}: a bots' seed its match's receipt did not commit"


@pytest.mark.django_db
def test_the_site_log_refuses_a_second_or_uncommitted_bot_seed():
    from games.services import fairness_log

    receipt = _receipt()
    commitment = _log(receipt, SEED)[0]["body"]
    fairness_log.append(
        [
            fairness_log.match_commitment(**commitment),
            fairness_log.match_receipt(receipt=receipt, signature="00" * 64),
        ]
    )
    with pytest.raises(FairnessError, match=r"does not hash to the bot_play.seed_commitment"):
        fairness_log.append([fairness_log.bot_seed(match_id="table-7", seed="not it")])
    fairness_log.append([fairness_log.bot_seed(match_id="table-7", seed=SEED)])
    with pytest.raises(FairnessError, match="a second bot-seed of match 'table-7'"):
        fairness_log.append([fairness_log.bot_seed(match_id="table-7", seed=SEED)])
    assert [e["kind"] for e in fairness_log.entries()] == [
        "match-commitment",
        "match-receipt",
        "bot-seed",
    ]


@pytest.mark.django_db(transaction=True)
def test_a_match_called_off_reveals_its_bots_seed_once(django_user_model, tasks_applied_here):
    from games import services
    from games.models import Table
    from games.services import fairness_log

    alice = django_user_model.objects.create_user(username="alice", password="pw")
    timers = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}
    table = services.create_table(user=alice, variant="trix", options=timers)
    services.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="alice-seed")
    for seat in (1, 2, 3):
        services.seat_bot(user=alice, table_id=table.pk, seat=seat, bot="rules")
    kinds = [e["kind"] for e in fairness_log.entries()]
    assert "bot-seed" not in kinds  # secret while the match runs

    services.cancel_table(table_id=table.pk, reason="test: called off")
    services.cancel_table(table_id=table.pk, reason="test: again")

    table = Table.objects.get(pk=table.pk)
    revealed = [e for e in fairness_log.entries() if e["kind"] == "bot-seed"]
    assert [e["body"] for e in revealed] == [
        {"match_id": f"table-{table.pk}", "seed": table.bot_seed}
    ]
    assert bot_play.check_seed(table.receipt["bot_play"], table.bot_seed)


@pytest.mark.django_db
def test_a_bot_seed_that_is_not_printable_ascii_makes_no_table(django_user_model):
    """A table given a bot seed the log cannot hold would never end (found by the trial):
    it is refused when the table is created, nothing made."""
    from games import services
    from games.errors import BadRequest
    from games.models import Table

    alice = django_user_model.objects.create_user(username="alice", password="pw")
    with pytest.raises(BadRequest, match="bot_seed must be 1 to 64 printable ASCII"):
        services.create_table(user=alice, variant="trix", bot_seed="süss")
    assert not Table.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_table_whose_bot_seed_was_not_drawn_with_the_shuffle_commits_to_none(
    django_user_model, tasks_applied_here
):
    """A table created before the bots' seed was drawn with the shuffle (or given one for a
    test) issues a receipt without bot_play, as receipts did before: the verifiers then say
    its bots' moves cannot be checked, instead of calling a genuine match a forgery."""
    from games import services, shuffles
    from games.models import MatchRecord, Table

    alice = django_user_model.objects.create_user(username="alice", password="pw")
    timers = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}
    old = services.create_table(user=alice, variant="trix", options=timers, bot_seed="old-seed")
    services.take_seat(user=alice, table_id=old.pk, seat=0, client_seed="alice-seed")
    for seat in (1, 2, 3):
        services.seat_bot(user=alice, table_id=old.pk, seat=seat, bot="rules")
    old = Table.objects.get(pk=old.pk)
    assert old.receipt["bots"] == [1, 2, 3] and "bot_play" not in old.receipt
    services.cancel_table(table_id=old.pk, reason="test: over")
    assert not [e for e in fairness_log_entries() if e["kind"] == "bot-seed"]

    new = services.create_table(user=alice, variant="trix", options=timers)
    private = MatchRecord.objects.get(table=new).shuffle
    assert Table.objects.get(pk=new.pk).bot_seed == shuffles.bot_seed(private)


def fairness_log_entries() -> list[dict]:
    from games.services import fairness_log

    return list(fairness_log.entries())
