"""Commit first at a tournament's tables (docs/fairness.md, section 7a): their seats come
with the seeds entrants gave at registration, so each table's secret comes from the event's
key, committed in the log when the event is created (before anyone can register) and
revealed when it ends. `trix verify` and the standalone verifier then check each table's
commitment against the key, and refuse a table whose secret was drawn otherwise."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from games import sealing
from games.engine.cli import main as trix
from games.fairness import event_tables, transparency
from games.fairness.canonical import sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.receipt import build_receipt, load_private_key, public_key_hex, sign
from games.fairness.transparency import next_entry
from games.models import TableStatus
from games.services import cancel_table, fairness_log
from tests.games.fairness_helpers import (
    ISSUED_AT,
    LOGGED_AT,
    RFC8032_TEST1_SECRET,
    carrying,
    load_standalone,
    played_records,
)
from tournaments import services
from tournaments.models import RoundTable, Status

standalone = load_standalone()
SITE_KEY = load_private_key(RFC8032_TEST1_SECRET)
SITE_PUBLIC = public_key_hex(SITE_KEY)
KEY = bytes(range(32))
EVENT = "tournament:9"
MATCH = event_tables.match_id(EVENT, 1, 0)
SEEDS = ["seed-a", "seed-b", "seed-c", "seed-d"]


def _kinds():
    return [e["kind"] for e in fairness_log.entries()]


def _round_one(make_tournament, player, staff):
    t = make_tournament(entry_fee=0, prize_bps=[10000])
    for i in range(4):
        services.register(tournament_id=t.pk, by=player(f"k{t.pk}-{i}"), client_seed=f"s-{i}")
    services.start(tournament_id=t.pk, by=staff, reason="test")
    services.advance(tournament_id=t.pk)
    (rt,) = RoundTable.objects.filter(round__tournament=t).select_related("table")
    return t, rt.table


def _key_entry(t):
    (entry,) = [
        e
        for e in fairness_log.entries()
        if e["kind"] == "tables-key" and e["body"]["event"] == t.ref
    ]
    return entry


@pytest.mark.django_db
def test_a_finished_event_reveals_the_key_its_tables_came_from(make_tournament, player, staff):
    t, table = _round_one(make_tournament, player, staff)
    assert "tables-key" not in _kinds()  # not while a table of it plays
    for _ in range(10):  # each round's tables end (called off here), until the event ends
        for rt in RoundTable.objects.filter(round__tournament=t, recorded_at__isnull=True):
            cancel_table(table_id=rt.table_id, reason="test: the table ends")
            services.record_table_result(table_id=rt.table_id)
        services.advance(tournament_id=t.pk)
        t.refresh_from_db()
        if t.status != Status.RUNNING:
            break
        assert "tables-key" not in _kinds()  # not while the event goes on
    assert t.status == Status.REVIEW
    key = sealing.unseal(t.tables_secret, context=f"tables:{t.ref}")
    assert t.tables_key == key.hex()
    entry = _key_entry(t)
    assert entry["body"] == {
        "event": t.ref,
        "commitment": event_tables.commitment(key),
        "key": key.hex(),
    }
    event_tables.check_match(key, table.receipt["match_id"], 8, table.receipt["commitment"])
    assert transparency.verify_log(list(fairness_log.entries()))
    services.advance(tournament_id=t.pk)  # again: the key is logged once
    assert _kinds().count("tables-key") == 1


@pytest.mark.django_db
def test_a_tables_bot_seed_comes_from_the_events_secret_key(make_tournament, player, staff):
    """The bots' seed of a tournament's table stays secret while the event runs: it comes
    from the table's secret (from the event's key, revealed when the event ends), not from
    the draw key every player can compute once the draw is revealed at the start."""
    import hashlib

    from games.fairness.bot_play import derived_seed

    t, table = _round_one(make_tournament, player, staff)
    key = sealing.unseal(t.tables_secret, context=f"tables:{t.ref}")
    match = event_tables.match_id(t.ref, 1, 0)
    assert table.bot_seed == derived_seed(event_tables.table_secret(key, match), match)
    public = hashlib.sha256(f"{t.draw_key}:1:0".encode()).hexdigest()
    assert table.bot_seed != public


@pytest.mark.django_db
def test_a_cancelled_event_reveals_its_key_once_its_tables_are_ended(
    make_tournament, player, staff
):
    t, table = _round_one(make_tournament, player, staff)
    services.cancel(tournament_id=t.pk, by=staff, reason="test: called off")
    t.refresh_from_db()
    table.refresh_from_db()
    assert table.status == TableStatus.CANCELLED
    assert _key_entry(t)["body"]["key"] == t.tables_key != ""
    transparency.verify_log(list(fairness_log.entries()))


# --- the verifiers ---------------------------------------------------------------------------


def _match(secret: bytes, *, revealed: bool):
    """(records, log) of a tournament table ``MATCH`` dealt from ``secret``, with its event's
    key committed at entry 0 and (``revealed``) revealed after its deals."""
    records = played_records("complex_partner", MATCH, secret.hex(), SEEDS)
    first = records[0]
    receipt = build_receipt(
        match_id=MATCH,
        algorithm=first["shuffle"]["algorithm"],
        commitment=first["shuffle"]["commitment"],
        deals=8,
        variant="complex_partner",
        options={"variant": "complex_partner"},
        client_seeds=SEEDS,
        issued_at=ISSUED_AT,
        bots=[],
        tables_commitment={"event": EVENT, "entry": 0},
    )
    records, receipt, signature = carrying(records, receipt, sign(receipt, SITE_KEY))
    entries: list[dict] = []

    def add(kind, body):
        prev = entries[-1] if entries else None
        entries.append(next_entry(prev=prev, kind=kind, body=body, logged_at=LOGGED_AT))

    commitment = event_tables.commitment(KEY)
    add(
        "tables-commitment",
        {"event": EVENT, "algorithm": "trix-tables/1", "commitment": commitment},
    )
    fields = ("match_id", "algorithm", "commitment", "deals")
    add("match-commitment", {f: receipt[f] for f in fields})
    add("match-receipt", {"receipt": receipt, "signature": signature})
    for record in records:
        body = {"match_id": MATCH, "deal_number": record["shuffle"]["deal_number"]}
        add("deal-record", {**body, "record_hash": sha256_hex(record)})
    if revealed:
        add("tables-key", {"event": EVENT, "commitment": commitment, "key": KEY.hex()})
    return records, entries


def _both(tmp_path, records, log):
    given, path = tmp_path / "given.json", tmp_path / "log.jsonl"
    given.write_text(json.dumps(records))
    path.write_text("".join(json.dumps(e) + "\n" for e in log))
    options = [str(given), "--public-key", SITE_PUBLIC, "--log", str(path)]
    out, err = io.StringIO(), io.StringIO()
    mine = (trix(["verify", *options], out, err), out.getvalue(), err.getvalue())
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = standalone.main(options)
    return mine, (code, out.getvalue(), err.getvalue())


def test_a_table_dealt_from_the_events_key_verifies_once_it_is_revealed(tmp_path):
    records, log = _match(event_tables.table_secret(KEY, MATCH), revealed=True)
    (code, out, err), (s_code, s_out, s_err) = _both(tmp_path, records, log)
    assert (code, err) == (0, ""), err
    assert (
        f"match {MATCH!r}: a table of {EVENT!r}, whose secret comes from the event's key "
        "committed at log entry 0, before anyone could register; the key (log entry 11) gives "
        "this commitment" in out
    )
    assert (s_code, s_err) == (0, ""), s_err
    assert "its revealed key gives this commitment" in s_out


def test_before_the_key_is_revealed_the_note_says_the_check_waits(tmp_path):
    records, log = _match(bytes(reversed(KEY)), revealed=False)
    (code, out, err), (s_code, s_out, _) = _both(tmp_path, records, log)
    assert code == 0, err
    assert "the key is revealed when the event ends: this commitment is checked then" in out
    assert s_code == 0 and "key not yet out" in s_out


def test_a_table_whose_secret_was_drawn_after_the_seeds_is_refused_by_the_key(tmp_path):
    """The operator draws a table's secret when the round opens (after it saw the seeds),
    not from the key it committed: once the key is out, both verifiers refuse the table."""
    records, log = _match(bytes(reversed(KEY)), revealed=True)
    (code, _, err), (s_code, _, s_err) = _both(tmp_path, records, log)
    assert code == 1 and "is not the one the event's revealed table key gives" in err
    assert s_code == 1 and "the event's key gives another commitment" in s_err


def test_a_key_that_is_not_the_committed_one_is_refused(tmp_path):
    records, log = _match(event_tables.table_secret(KEY, MATCH), revealed=True)
    other = bytes(32)
    log[-1] = next_entry(
        prev=log[-2],
        kind="tables-key",
        body={**log[-1]["body"], "key": other.hex()},
        logged_at=LOGGED_AT,
    )
    with pytest.raises(FairnessError, match="does not hash to its commitment"):
        transparency.verify_log(log)
    (code, _, err), (s_code, _, s_err) = _both(tmp_path, records, log)
    assert code == 1 and "does not hash to its commitment" in err
    assert s_code == 1 and "key not committed" in s_err


def test_a_receipt_naming_another_event_or_a_made_up_match_id_is_refused():
    receipt = {
        "format": "trix-receipt/1",
        "match_id": "table-12",
        "algorithm": "trix-shuffle/1",
        "commitment": "ab" * 32,
        "deals": 8,
        "variant": "trix",
        "options": {},
        "client_seeds": dict(zip("0123", SEEDS, strict=True)),
        "bots": [],
        "issued_at": ISSUED_AT,
        "tables_commitment": {"event": EVENT, "entry": 0},
    }
    from games.fairness.receipt import check_receipt

    with pytest.raises(FairnessError, match="is not a table of event"):
        check_receipt(receipt)
    with pytest.raises(standalone.Refused):
        standalone.check_receipt(receipt)
    receipt["match_id"] = event_tables.match_id("tournament:8", 1, 0)
    with pytest.raises(FairnessError, match="is not a table of event"):
        check_receipt(receipt)
