"""Issue 12: a tournament's draw goes into the public transparency log: its commitment when
it is created, its key (the revealed seed, the entrant list's hash) when the draw is made,
and every table of its rounds (commitment and signed receipt), in one verifiable chain."""

from __future__ import annotations

import pytest

from games import sealing
from games.fairness import event_tables, transparency
from games.fairness import receipt as receipts
from games.fairness.canonical import sha256_hex
from games.services import fairness_log
from tournaments import selectors, services
from tournaments.models import RoundTable

pytestmark = pytest.mark.django_db


def test_a_tournament_draw_is_logged_from_commitment_to_key(make_tournament, player, staff):
    t = make_tournament(entry_fee=0, prize_bps=[10000])
    entries = list(fairness_log.entries())
    assert [e["kind"] for e in entries[-2:]] == ["draw-commitment", "tables-commitment"]
    assert entries[-2]["body"] == {
        "event": f"tournament:{t.pk}",
        "algorithm": "trix-draw/1",
        "commitment": t.draw_commitment,
    }
    tables_key = sealing.unseal(t.tables_secret, context=f"tables:tournament:{t.pk}")
    assert entries[-1]["body"] == {  # the tables' key, committed before anyone registers
        "event": f"tournament:{t.pk}",
        "algorithm": "trix-tables/1",
        "commitment": event_tables.commitment(tables_key),
    }
    for i in range(4):
        services.register(tournament_id=t.pk, by=player(f"e{i}"), client_seed=f"seed-{i}")
    assert len(list(fairness_log.entries())) == len(entries)  # registering logs nothing
    services.start(tournament_id=t.pk, by=staff, reason="test")
    record = selectors.draw_record(t.pk)
    key = list(fairness_log.entries())[-1]
    assert key["kind"] == "draw-key"
    assert key["body"] == {
        "event": f"tournament:{t.pk}",
        "commitment": t.draw_commitment,
        "server_seed": record["server_seed"],
        "entrants_hash": sha256_hex(record["entrants"]),
    }
    services.advance(tournament_id=t.pk)  # round 1 opens (the worker's task, run here)
    tables = [rt.table for rt in RoundTable.objects.filter(round__tournament=t)]
    assert len(tables) == 1
    log = list(fairness_log.entries())
    assert [e["kind"] for e in log[-2:]] == ["match-commitment", "match-receipt"]
    receipt = log[-1]["body"]["receipt"]
    assert receipt == tables[0].receipt and receipt["commitment"] == tables[0].commitment
    # The table's match id is its place in the seating, its secret the key's for that id.
    assert receipt["match_id"] == f"tournament:{t.pk}/round:1/table:0"
    assert receipt["tables_commitment"] == {
        "event": f"tournament:{t.pk}",
        "entry": entries[-1]["index"],
    }
    event_tables.check_match(
        tables_key, receipt["match_id"], receipt["deals"], receipt["commitment"]
    )
    assert sorted(receipt["client_seeds"].values()) == [f"seed-{i}" for i in range(4)]
    public = receipts.load_public_key(receipts.public_key_hex(receipts.load_private_key("51" * 32)))
    receipts.check_signature(receipt, log[-1]["body"]["signature"], public)
    assert transparency.verify_log(log) == fairness_log.head()["head"]
    assert fairness_log.check() == []
