"""Issue 31, deliverable 8: a ``trix-draw/1`` record's results are bound to the matches
played. Each played table names its match and the hashes of its deal records; a verifier
recomputes the table's places and scores from those records and finds exactly those hashes
in the log. An edited result, a withheld or swapped match and a draw whose seed or
entrants differ from the logged ones are each refused, by name."""

from __future__ import annotations

import copy
import dataclasses
import io
import json

import pytest

from games.fairness import event_tables
from games.fairness.canonical import sha256_hex
from games.fairness.draw import draw_key
from games.fairness.draw_record import build_record, verify_record
from games.fairness.errors import FairnessError
from games.fairness.receipt import load_private_key, sign
from games.fairness.schedule import next_round
from games.fairness.seating import UnitResult
from games.fairness.table_results import (
    TableMatch,
    check_against_log,
    check_against_records,
    expected_rows,
)
from games.fairness.transparency import logged, next_entry
from games.fairness.verify_command import verify_cli
from games.fairness.verify_log import draw_in_log
from tests.games.draw_helpers import SECRET, entrants, teams_of
from tests.games.fairness_helpers import (
    LOGGED_AT,
    RFC8032_TEST1_SECRET,
    played_records,
    with_receipt,
)

EVENT = "tournament:7"
KEY = load_private_key(RFC8032_TEST1_SECRET)


def _event(team_mode: bool = False, deals: int | None = None, **match_fields):
    """A one-round event of one table whose match the engine played (its records dealt as
    the event's table 0 of round 1; ``deals``: only its first deals, a match ended early):
    (draw record, the match's records, the log)."""
    tournament = {"format": "swiss", "team_mode": team_mode, "rounds": 1, "final": False}
    players = entrants(4)
    teams = teams_of(players) if team_mode else None
    units = sorted(teams) if team_mode else sorted(players)
    key = draw_key(secret=SECRET, event=EVENT, entrants=list(players), client_seeds=players)
    plan = next_round(key=key, units=units, tournament=tournament, played=[])
    match_id = event_tables.match_id(EVENT, 1, 0)
    variant = "trix_partner" if team_mode else "trix"
    records = played_records(variant, match_id, "42" * 32, ["a", "b", "c", "d"])
    records, receipt, signature = with_receipt(records, KEY)
    records = records[:deals]
    match = TableMatch(
        match_id=match_id,
        records=tuple(sha256_hex(r) for r in records),
        end="played",
        forfeit=None,
        no_show=(),
        disqualified=(),
    )
    match = dataclasses.replace(match, **match_fields)
    table = plan.seating.tables[0]
    seats = [table[0], table[1], table[0], table[1]] if team_mode else table
    rows = expected_rows(match, seats, team_mode, records)
    record = build_record(
        event=EVENT,
        tournament=tournament,
        secret=SECRET,
        entrants=players,
        teams=teams,
        rounds=[(plan.kind, plan.order, plan.seating, [[UnitResult(**r) for r in rows]])],
        matches=[[match]],
    )
    log = _log(record, records, receipt, signature)
    return record, records, log


def _log(record, records, receipt, signature):
    entries: list[dict] = []

    def add(kind, body):
        prev = entries[-1] if entries else None
        entries.append(next_entry(prev=prev, kind=kind, body=body, logged_at=LOGGED_AT))

    commitment = record["commitment"]
    add("draw-commitment", {"event": EVENT, "algorithm": "trix-draw/1", "commitment": commitment})
    entrants_hash = sha256_hex(record["entrants"])
    body = {"event": EVENT, "commitment": commitment, "server_seed": record["server_seed"]}
    add("draw-key", {**body, "entrants_hash": entrants_hash})
    fields = ("match_id", "algorithm", "commitment", "deals")
    add("match-commitment", {f: receipt[f] for f in fields})
    add("match-receipt", {"receipt": receipt, "signature": signature})
    for r in records:
        body = {"match_id": receipt["match_id"], "deal_number": r["shuffle"]["deal_number"]}
        add("deal-record", {**body, "record_hash": sha256_hex(r)})
    return entries


@pytest.fixture(scope="module")
def solo():
    return _event()


def _edited(record, **row):
    out = copy.deepcopy(record)
    out["rounds"][0]["results"][0][0].update(row)
    return out


def test_a_genuine_event_is_bound_to_its_match_records_and_log(solo):
    record, records, log = solo
    assert verify_record(record)["bound"] == 1
    assert check_against_records(record, records) == ([], 1)
    index = logged(log)
    assert check_against_log(record, index) == [] and draw_in_log(record, index) == []


def test_a_partnership_event_is_bound_too():
    record, records, log = _event(team_mode=True)
    assert [len(rows) for rows in record["rounds"][0]["results"]] == [2]
    assert check_against_records(record, records) == ([], 1)
    assert check_against_log(record, logged(log)) == []


def test_an_edited_score_or_place_is_refused(solo):
    record, records, _ = solo
    row = record["rounds"][0]["results"][0][0]
    problems, _ = check_against_records(_edited(record, score=row["score"] + 5), records)
    assert len(problems) == 1
    assert problems[0].startswith("round 1, table 1: the record's results are ")
    assert "; the deal records of match 'tournament:7/round:1/table:0' give " in problems[0]
    swapped = copy.deepcopy(record)
    rows = swapped["rounds"][0]["results"][0]
    other = next(r for r in rows if r["place"] != row["place"])
    rows[0]["place"], other["place"] = other["place"], rows[0]["place"]
    assert verify_record(swapped)  # still a ranking: only the deal records show it is false
    assert len(check_against_records(swapped, records)[0]) == 1


def test_a_penalty_the_record_claims_must_be_applied(solo):
    record, records, _ = solo
    winner = next(r["unit"] for r in record["rounds"][0]["results"][0] if r["place"] == 1)
    claimed = copy.deepcopy(record)
    claimed["rounds"][0]["matches"][0]["no_show"] = [winner]
    problems, _ = check_against_records(claimed, records)
    assert len(problems) == 1 and "give" in problems[0]  # the winner must then rank last
    penalised, records2, _ = _event(no_show=(winner,))
    rows = penalised["rounds"][0]["results"][0]
    assert next(r["place"] for r in rows if r["unit"] == winner) == 4
    assert check_against_records(penalised, records2) == ([], 1)


def test_records_given_in_part_or_of_another_deal_are_refused(solo):
    record, records, _ = solo
    problems, checked = check_against_records(record, records[:-1])
    assert checked == 0
    assert problems == [
        f"round 1, table 1: deals [{len(records)}] of match 'tournament:7/round:1/table:0' "
        "are not among the files given (give all of its records, or none)"
    ]
    assert check_against_records(record, []) == ([], 0)  # none given: not checked
    moved = copy.deepcopy(record)
    hashes = moved["rounds"][0]["matches"][0]["records"]
    hashes[0], hashes[1] = hashes[1], hashes[0]
    problems, _ = check_against_records(moved, records)
    assert problems == [
        "round 1, table 1: the record named as deal 1 of match "
        "'tournament:7/round:1/table:0' is another match's or another deal's"
    ]


def test_a_record_withheld_or_added_or_a_match_swapped_is_refused_by_the_log(solo):
    record, records, log = solo
    index = logged(log)
    short = copy.deepcopy(record)
    short["rounds"][0]["matches"][0]["records"].pop()
    assert check_against_log(short, index) == [
        f"round 1, table 1: the record names {len(records) - 1} deal records of match "
        f"'tournament:7/round:1/table:0'; the log holds {len(records)} (entries "
        + ", ".join(str(i) for i in range(4, 4 + len(records)))
        + ")"
    ]
    other = copy.deepcopy(record)
    other["rounds"][0]["matches"][0]["records"][2] = "00" * 32
    assert check_against_log(other, index) == [
        f"round 1, table 1: deal 3 of match 'tournament:7/round:1/table:0': the record names "
        f"{'00' * 32}, the log's entry 6 {sha256_hex(records[2])}"
    ]
    elsewhere = copy.deepcopy(record)
    elsewhere["rounds"][0]["matches"][0]["match_id"] = "table-99"
    assert check_against_log(elsewhere, index) == [
        "round 1, table 1: the log holds no receipt of match 'table-99'"
    ]
    unbound = copy.deepcopy(record)
    del unbound["rounds"][0]["matches"]
    assert verify_record(unbound)["bound"] == 0  # a record from before matches were named
    assert check_against_log(unbound, index) == []
    with_tables = index | {("tables-commitment", EVENT): {"index": 0}}
    assert check_against_log(unbound, with_tables) == [
        "round 1: its results name no matches, though the log holds the event's "
        "tables-commitment (its tables' matches are logged)"
    ]


def test_a_draw_the_log_did_not_commit_to_is_refused(solo):
    record, _, log = solo
    index = logged(log)
    assert draw_in_log(record, {}) == [f"log: no draw-commitment entry of {EVENT!r}"]
    without_key = {k: v for k, v in index.items() if k[0] != "draw-key"}
    assert draw_in_log(record, without_key) == [
        f"log: no draw-key entry of {EVENT!r}: its draw is not logged"
    ]
    renamed = copy.deepcopy(record)
    renamed["entrants"][0]["client_seed"] = "mine"
    (line,) = draw_in_log(renamed, index)
    assert line.startswith("log: the record's entrants hash to ") and "entry 1" in line


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("end", "won", "end must be one of played, forfeit, cancelled"),
        ("forfeit", 2, "forfeit must be a seat 0..3 exactly when end is forfeit"),
        ("no_show", ["p999"], "no_show must list units seated at the table"),
        ("records", ["xyz"], "records"),
        ("extra", 1, "must be an object with exactly"),
    ],
)
def test_a_malformed_match_is_refused_by_the_record_check(solo, field, value, message):
    record = copy.deepcopy(solo[0])
    record["rounds"][0]["matches"][0][field] = value
    with pytest.raises(FairnessError, match=rf"round 1, table 1: match: .*{message}"):
        verify_record(record)


def _cli(tmp_path, files: dict, *args, **options):
    folder = tmp_path / "event"
    folder.mkdir(exist_ok=True)
    for name, value in files.items():
        (folder / name).write_text(json.dumps(value))
    out, err = io.StringIO(), io.StringIO()
    path = str(folder / args[0]) if args else str(folder)
    code = verify_cli(path, out, err, **options)
    return code, out.getvalue(), err.getvalue()


def _log_file(tmp_path, log):
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in log))
    return str(path)


def test_trix_verify_checks_a_draw_with_its_matches_and_the_log(solo, tmp_path):
    record, records, log = solo
    files = {"draw.json": record, "match.json": records}
    code, out, err = _cli(tmp_path, files, log=_log_file(tmp_path, log))
    assert (code, err) == (0, "")
    assert f"note: {EVENT}: the results of 1 of its 1 tables recomputed from their deal " in out
    assert f"note: {EVENT}: the matches of its 1 tables with results are the log's" in out
    edited = _edited(record, score=record["rounds"][0]["results"][0][0]["score"] - 1)
    code, _, err = _cli(tmp_path, {**files, "draw.json": edited}, log=_log_file(tmp_path, log))
    assert code == 1
    assert err.startswith("draw.json: trix-draw/1: round 1, table 1: the record's results are")


def test_trix_verify_checks_a_draw_record_alone_against_the_log(solo, tmp_path):
    record, _, log = solo
    log_path = _log_file(tmp_path, log)
    code, out, err = _cli(tmp_path, {"draw.json": record}, "draw.json", log=log_path)
    assert (code, err) == (0, "")
    assert "the results of 0 of its 1 tables recomputed" in out
    assert "(download the others' records to check them too)" in out
    short = copy.deepcopy(record)
    short["rounds"][0]["matches"][0]["records"].pop()
    code, _, err = _cli(tmp_path, {"draw.json": short}, "draw.json", log=log_path)
    assert code == 1 and err.startswith("trix-draw/1: round 1, table 1: the record names ")
    code, out, err = _cli(tmp_path, {"draw.json": record}, "draw.json")
    assert code == 0 and "not checked against the log: give --log" in out
    code, _, err = _cli(tmp_path, {"draw.json": record}, "draw.json", head="x.json")
    assert code == 2 and "a draw record takes --commitment, and --log with --head" in err


def test_a_signed_head_is_checked_for_a_draw_record(solo, tmp_path):
    from games.fairness.transparency import log_head, verify_log

    record, _, log = solo
    payload = log_head(len(log), verify_log(log))
    head = tmp_path / "head.json"
    head.write_text(json.dumps({**payload, "signature": sign(payload, KEY)}))
    code, out, err = _cli(
        tmp_path,
        {"draw.json": record},
        "draw.json",
        log=_log_file(tmp_path, log),
        head=str(head),
        public_key=KEY.public_key().public_bytes_raw().hex(),
    )
    assert (code, err) == (0, "")
    assert "note: " in out and str(len(log)) in out


def test_a_forfeit_ranks_the_leaver_last_and_a_cancelled_table_shares_place_one(solo):
    rows = solo[0]["rounds"][0]["results"][0]
    winner = next(seat for seat, r in enumerate(rows) if r["place"] == 1)
    forfeited, records, _ = _event(end="forfeit", forfeit=winner, deals=19)
    assert forfeited["rounds"][0]["results"][0][winner]["place"] == 4
    assert check_against_records(forfeited, records) == ([], 1)
    played = copy.deepcopy(forfeited)
    played["rounds"][0]["matches"][0].update(end="played", forfeit=None)
    assert len(check_against_records(played, records)[0]) == 1  # a played match has all 20
    cancelled, records, _ = _event(end="cancelled", deals=5)
    assert [(r["place"], r["score"]) for r in cancelled["rounds"][0]["results"][0]] == [(1, 0)] * 4
    assert check_against_records(cancelled, records) == ([], 1)


# --- the standalone verifier (Python's standard library only) -----------------------------------


def _standalone(tmp_path, files: dict, *options):
    """Run the standalone verifier as its own process on a folder of ``files``."""
    import subprocess
    import sys

    from tests.games.fairness_helpers import STANDALONE

    folder = tmp_path / "standalone"
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for name, value in files.items():
        (folder / name).write_text(json.dumps(value))
    done = subprocess.run(
        [sys.executable, "-I", str(STANDALONE), str(folder), *map(str, options)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def test_the_standalone_checks_a_draw_and_many_matches_against_the_log(solo, tmp_path):
    record, records, log = solo
    other, receipt, signature = with_receipt(
        played_records("trix", "table-5", "24" * 32, ["e", "f", "g", "h"]), KEY
    )
    entries = copy.deepcopy(log)
    for kind, body in [
        (
            "match-commitment",
            {f: receipt[f] for f in ("match_id", "algorithm", "commitment", "deals")},
        ),  # fmt: skip
        ("match-receipt", {"receipt": receipt, "signature": signature}),
    ] + [
        ("deal-record", {"match_id": "table-5", "deal_number": n, "record_hash": sha256_hex(r)})
        for n, r in enumerate(other, 1)
    ]:
        entries.append(next_entry(prev=entries[-1], kind=kind, body=body, logged_at=LOGGED_AT))
    log_path = _log_file(tmp_path, entries)
    files = {"draw.json": record, "a.json": records, "b.json": other}
    code, out, err = _standalone(tmp_path, files, "--log", log_path)
    assert (code, err) == (0, ""), out
    assert "note: match 'tournament:7/round:1/table:0': in the log at entry 3;" in out
    assert "note: match 'table-5': in the log at entry " in out
    assert f"note: trix-draw/1 {EVENT}: its commitment and key are the log's; its 1 tables'" in out
    assert "1 of 1 tables' records given; its seating and results are not recomputed here" in out


@pytest.mark.parametrize(
    "edit, line",
    [
        (
            lambda d: d["rounds"][0]["matches"][0]["records"].pop(),
            "trix-draw/1: round 1, table 1: log: the log's 20 deal records of "
            "'tournament:7/round:1/table:0' are not the 19 the record names",
        ),
        (
            lambda d: d["rounds"][0]["matches"][0].update(match_id="table-5"),
            "trix-draw/1: round 1, table 1: log: no receipt of match 'table-5'",
        ),
        (
            lambda d: d["entrants"][0].update(client_seed="mine"),
            "trix-draw/1: log: its entrants are not the ones the draw-key hashed",
        ),
        (
            lambda d: d.update(server_seed="00" * 32),
            "trix-draw/1: server_seed does not match commitment",
        ),
    ],
)
def test_the_standalone_refuses_a_draw_the_log_does_not_hold(solo, tmp_path, edit, line):
    record, records, log = solo
    edited = copy.deepcopy(record)
    edit(edited)
    code, out, _ = _standalone(tmp_path, {"draw.json": edited}, "--log", _log_file(tmp_path, log))
    assert code == 1 and line in out.splitlines(), out


def test_a_match_with_every_deal_cannot_have_ended_early(solo, tmp_path):
    """A forfeit or a cancellation ends a match before its last deal: a table naming a record
    of every deal cannot claim either (a trial rewrote a final's places so)."""
    record, records, log = solo
    rows = record["rounds"][0]["results"][0]
    winner = next(seat for seat, r in enumerate(rows) if r["place"] == 1)
    match = TableMatch(
        match_id=record["rounds"][0]["matches"][0]["match_id"],
        records=tuple(record["rounds"][0]["matches"][0]["records"]),
        end="forfeit",
        forfeit=winner,
        no_show=(),
        disqualified=(),
    )
    with pytest.raises(FairnessError, match="has a record of every one of its 20 deals"):
        expected_rows(match, record["rounds"][0]["tables"][0], False, records)
    for end, forfeit in (("forfeit", winner), ("cancelled", None)):
        claimed = copy.deepcopy(record)
        claimed["rounds"][0]["matches"][0].update(end=end, forfeit=forfeit)
        (line,) = check_against_log(claimed, logged(log))
        assert line == (
            "round 1, table 1: match 'tournament:7/round:1/table:0' has a record of every one "
            f"of its 20 deals: it was played to its end, not ended by a {end}"
        )
        code, out, _ = _standalone(
            tmp_path, {"draw.json": claimed}, "--log", _log_file(tmp_path, log)
        )
        assert code == 1 and "it was played to its end" in out, out


TABLES_KEY = "ef" * 32


def _with_tables(log, reveal: bool):
    """``log`` with the event's tables-commitment first, as the site logs it at the event's
    creation, and (``reveal``, the event ended) its tables-key and its prizes last."""
    first = {"event": EVENT, "algorithm": "trix-tables/1"}
    first["commitment"] = event_tables.commitment(bytes.fromhex(TABLES_KEY))
    rebuilt = [next_entry(prev=None, kind="tables-commitment", body=first, logged_at=LOGGED_AT)]
    for old in log:
        rebuilt.append(
            next_entry(prev=rebuilt[-1], kind=old["kind"], body=old["body"], logged_at=LOGGED_AT)
        )
    if reveal:
        key = {"event": EVENT, "commitment": first["commitment"], "key": TABLES_KEY}
        paid = {"event": EVENT, "reason": "result", "transaction": 9, "house_fee": 0}
        paid |= {"stakes": {"p001": 100, "p002": 100}, "payouts": {"p001": 200}}
        for kind, body in (("tables-key", key), ("event-payout", paid)):
            rebuilt.append(next_entry(prev=rebuilt[-1], kind=kind, body=body, logged_at=LOGGED_AT))
    return rebuilt


def test_an_ended_event_must_show_every_rounds_results(solo, tmp_path):
    record, records, log = solo
    ended = _with_tables(log, reveal=True)
    hidden = copy.deepcopy(record)
    hidden["rounds"][0]["results"] = None
    del hidden["rounds"][0]["matches"]
    line = (
        "round 1: has no results, though the event ended (its prizes were paid: log entry "
        f"{len(ended) - 1})"
    )
    assert line in check_against_log(hidden, logged(ended))
    code, out, _ = _standalone(tmp_path, {"draw.json": hidden}, "--log", _log_file(tmp_path, ended))
    assert code == 1 and "has no results, though the event ended" in out, out
    running = _with_tables(log, reveal=False)  # still running (or called off): no prizes
    assert check_against_log(hidden, logged(running)) == []


def test_the_standalone_refuses_results_naming_no_matches_where_the_log_has_them(solo, tmp_path):
    record, _, log = solo
    unbound = copy.deepcopy(record)
    del unbound["rounds"][0]["matches"]
    path = _log_file(tmp_path, _with_tables(log, reveal=False))
    code, out, _ = _standalone(tmp_path, {"draw.json": unbound}, "--log", path)
    assert code == 1 and "round 1: its results name no matches" in out, out


def test_a_draw_with_no_results_yet_says_so(solo, tmp_path):
    record, _, _ = solo
    running = copy.deepcopy(record)
    running["rounds"][0]["results"] = None
    del running["rounds"][0]["matches"]
    code, out, _ = _cli(tmp_path, {"draw.json": running}, "draw.json")
    assert code == 0
    assert f"note: {EVENT}: no round has results yet: no result to bind" in out
    assert "a record from before" not in out
