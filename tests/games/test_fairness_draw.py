"""The seating draw ``trix-draw/1``: the key's bytes, the draw order, the draw record and its
refusals, and ``trix verify`` on a draw record (docs/fairness.md, docs/tournaments.md)."""

from __future__ import annotations

import copy
import hashlib
import hmac
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cli import main as trix
from games.fairness import FairnessError, verify_cli
from games.fairness.draw import (
    ALGORITHM,
    commitment,
    draw_key,
    draw_order,
    draw_ranks,
    new_secret,
)
from games.fairness.draw_record import build_record, verify_record
from games.fairness.random_stream import RandomStream
from tests.games.draw_helpers import (
    EXAMPLE,
    SECRET,
    compact_json,
    entrants,
    example_record,
    run_event,
    teams_of,
)


def enc(text: str) -> bytes:
    return len(text.encode()).to_bytes(4, "big") + text.encode()


# --- the key and the order -------------------------------------------------------------------


def test_commitment_is_sha256_of_the_secret():
    secret = new_secret()
    assert len(secret) == 32 and new_secret() != secret
    assert commitment(secret) == hashlib.sha256(secret).hexdigest()
    assert commitment(secret.hex()) == commitment(secret)
    with pytest.raises(FairnessError, match="draw secret"):
        commitment(b"short")


def test_the_key_is_the_documented_hmac():
    """docs/fairness.md byte layout, recomputed with hmac alone."""
    seeds = {"bob": "b-seed", "alice": "a seed"}
    message = enc("trix-draw/1") + enc("tournament:7") + (1).to_bytes(4, "big")
    message += (4).to_bytes(4, "big") + enc("alice") + enc("a seed") + enc("bob") + enc("b-seed")
    message += (0).to_bytes(8, "big")
    expected = hmac.new(SECRET, message, hashlib.sha256).digest()
    key = draw_key(
        secret=SECRET, event="tournament:7", entrants=["bob", "alice"], client_seeds=seeds
    )
    assert key == expected


def test_the_order_is_fisher_yates_over_the_sorted_units():
    key = bytes(range(32, 64))
    units = ["c", "a", "d", "b", "e"]
    stream = RandomStream(key, ALGORITHM, "order", 1, [])
    items = sorted(units)
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    assert draw_order(key, units) == items
    assert draw_order(key, list(reversed(units))) == items
    assert draw_ranks(key, units) == {u: i for i, u in enumerate(items, start=1)}


def test_every_input_changes_the_key():
    players = entrants(6)
    base = draw_key(secret=SECRET, event="t:1", entrants=list(players), client_seeds=players)
    other_seed = {**players, "p003": "changed"}
    assert (
        draw_key(secret=SECRET, event="t:1", entrants=list(players), client_seeds=other_seed)
        != base
    )
    assert (
        draw_key(secret=SECRET, event="t:2", entrants=list(players), client_seeds=players) != base
    )
    assert (
        draw_key(secret=bytes(32), event="t:1", entrants=list(players), client_seeds=players)
        != base
    )
    more = {**players, "p999": "x"}
    assert draw_key(secret=SECRET, event="t:1", entrants=list(more), client_seeds=more) != base


@pytest.mark.parametrize(
    "entrant_ids, seeds, message",
    [
        (["a", "a"], {"a": "x"}, "listed twice"),
        (["a", "b"], {"a": "x"}, "'b' has no client seed"),
        (["a"], {"a": "x", "z": "y"}, "'z', who is not an entrant"),
        (["a"], {"a": ""}, "client seed of a"),
        (["a\n"], {"a\n": "x"}, "entrant id must be printable"),
        ([], {}, "at least one entrant"),
    ],
)
def test_bad_draw_inputs_are_refused(entrant_ids, seeds, message):
    with pytest.raises(FairnessError, match=message):
        draw_key(secret=SECRET, event="t:1", entrants=entrant_ids, client_seeds=seeds)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 80), st.binary(min_size=32, max_size=32))
def test_the_order_is_a_permutation_and_deterministic(count, key):
    units = [f"u{i}" for i in range(count)]
    order = draw_order(key, units)
    assert sorted(order) == sorted(units)
    assert draw_order(key, list(reversed(units))) == order


# --- records -----------------------------------------------------------------------------------


def test_the_example_record_is_current_and_verifies():
    record = json.loads(EXAMPLE.read_text())
    assert record == example_record()
    assert EXAMPLE.read_text() == compact_json(record) + "\n"
    summary = verify_record(record)
    assert summary == {
        "event": "tournament:example",
        "format": "swiss",
        "team_mode": False,
        "entrants": 13,
        "units": 13,
        "rounds": 3,
        "played": 3,
        "bound": 0,  # a record of invented results: no matches were played
        "over": True,  # three Swiss rounds of three, all with results
    }


@pytest.fixture
def record():
    return json.loads(EXAMPLE.read_text())


def _refused(record, pattern):
    with pytest.raises(FairnessError, match=pattern):
        verify_record(record)


def test_two_seats_swapped_at_a_table_are_refused(record):
    table = record["rounds"][1]["tables"][2]
    table[0], table[1] = table[1], table[0]
    _refused(record, r"^round 2, table 3: the record seats")


def test_two_seats_swapped_between_tables_are_refused(record):
    tables = record["rounds"][2]["tables"]
    tables[0][0], tables[3][1] = tables[3][1], tables[0][0]
    _refused(record, r"^round 3, table 1: the record seats")


def test_an_added_entrant_is_refused(record):
    record["entrants"].append({"entrant": "p014", "client_seed": "late"})
    _refused(record, r"^round 1, table 1: ")


def test_an_entrant_added_to_a_table_is_refused(record):
    record["rounds"][0]["tables"][3][3] = "p099"
    _refused(record, r"^round 1, table 4: the record seats \[p002, p004, p012, p099\]")


def test_a_wrong_seed_is_refused(record):
    record["server_seed"] = "ff" + record["server_seed"][2:]
    _refused(record, "server_seed does not match commitment")


def test_a_changed_client_seed_is_refused(record):
    record["entrants"][4]["client_seed"] = "other"
    _refused(record, r"^round 1, table \d: ")


def test_a_changed_result_changes_the_next_round(record):
    """Results decide the standings, hence the next round: a record whose round-1 results
    were edited no longer matches its round-2 seating."""
    rows = record["rounds"][0]["results"][0]
    rows[0]["place"], rows[2]["place"] = rows[2]["place"], rows[0]["place"]
    with pytest.raises(FairnessError, match=r"^round 2"):
        verify_record(record)


@pytest.mark.parametrize(
    "edit, pattern",
    [
        (lambda r: r.update(format="trix-draw/2"), "format: expected 'trix-draw/1'"),
        (lambda r: r["entrants"].reverse(), "entrants: must be sorted"),
        (lambda r: r["rounds"][0]["tables"].append(["p001"]), r"round 1, table 5: not in the draw"),
        (lambda r: r["rounds"][0].update(byes=["p001"]), r"round 1: byes"),
        (lambda r: r["rounds"][0].update(kind="knockout"), r"round 1: kind 'knockout'"),
        (
            lambda r: r["rounds"][1]["order"].reverse(),
            r"round 2: input order differs at position 1",
        ),
        (lambda r: r["rounds"][0].update(results=None), r"round 1: has no results but"),
        (lambda r: r["rounds"].append(copy.deepcopy(r["rounds"][2])), r"round 4: its round field"),
        (
            lambda r: r["rounds"][0]["results"][1][0].update(place=9),
            r"round 1, table 2: result 0 place must be from 1 to 4",
        ),
        (
            lambda r: r["rounds"][0]["results"][1][0].update(unit="p001"),
            r"round 1, table 2: result 0 names 'p001'",
        ),
        (lambda r: r["tournament"].update(rounds=0), "tournament.rounds"),
    ],
)
def test_malformed_records_are_refused(record, edit, pattern):
    edit(record)
    _refused(record, pattern)


def test_an_event_over_is_refused():
    tournament = {"format": "knockout", "team_mode": False, "advance": 1}
    players = entrants(8)
    _, _, _, rounds = run_event(tournament, players)
    rec = build_record(
        event="tournament:1", tournament=tournament, secret=SECRET, entrants=players, rounds=rounds
    )
    verify_record(rec)
    extra = copy.deepcopy(rec["rounds"][-1])
    extra["round"] = len(rec["rounds"]) + 1
    rec["rounds"].append(extra)
    _refused(rec, rf"round {extra['round']}: the event was over after round {extra['round'] - 1}")


@pytest.mark.parametrize(
    "tournament, count",
    [
        ({"format": "knockout", "team_mode": False, "advance": 2}, 16),
        ({"format": "knockout", "team_mode": False, "advance": 1}, 13),
        ({"format": "knockout", "team_mode": True}, 14),
        ({"format": "swiss", "team_mode": True, "rounds": 3, "final": True}, 16),
        ({"format": "swiss", "team_mode": False, "rounds": 4, "final": True}, 10),
    ],
)
def test_records_of_every_format_verify_and_a_partial_one_too(tournament, count):
    players = entrants(count)
    teams = teams_of(players) if tournament["team_mode"] else None
    _, _, _, rounds = run_event(tournament, players, tie_every=3)
    rec = build_record(
        event="tournament:1",
        tournament=tournament,
        secret=SECRET,
        entrants=players,
        teams=teams,
        rounds=rounds,
    )
    assert verify_record(rec)["played"] == len(rounds)
    assert verify_record(rec)["over"] is True
    partial = copy.deepcopy(rec)
    del partial["rounds"][2:]
    partial["rounds"][1]["results"] = None
    assert verify_record(partial)["played"] == 1
    assert verify_record(partial)["over"] is False
    cut = copy.deepcopy(rec)  # every round shown has results, but the event goes on
    del cut["rounds"][1:]
    assert verify_record(cut)["over"] is False
    if teams:
        broken = copy.deepcopy(rec)
        broken["teams"]["t01"] = ["p001", "p003"]
        _refused(broken, "teams: every entrant must be in exactly one team")


# --- trix verify ---------------------------------------------------------------------------------


def _cli(path):
    out, err = io.StringIO(), io.StringIO()
    return verify_cli(str(path), out, err), out.getvalue(), err.getvalue()


def test_trix_verify_accepts_the_example_record(capsys):
    assert trix(["verify", str(EXAMPLE)]) == 0
    captured = capsys.readouterr()
    assert captured.out == (
        "verified: trix-draw/1 tournament:example, swiss, 13 entrants, 3 rounds (3 with results)\n"
        "note: tournament:example: its results name no matches (a record from before they "
        "did): nothing binds them to the deals played\n"
    )
    assert captured.err == ""


def test_trix_verify_refuses_a_swapped_seat_in_one_line(tmp_path, record):
    table = record["rounds"][0]["tables"][1]
    table[0], table[2] = table[2], table[0]
    path = tmp_path / "draw.json"
    path.write_text(json.dumps(record))
    code, out, err = _cli(path)
    assert code == 1 and out == ""
    assert (
        err.startswith("trix-draw/1: round 1, table 2: the record seats") and err.count("\n") == 1
    )


def test_trix_verify_accepts_a_draw_whose_commitment_was_saved(capsys, record):
    saved = record["commitment"].upper()  # as copied from the page, any case
    assert trix(["verify", str(EXAMPLE), "--commitment", saved]) == 0
    assert capsys.readouterr().out.startswith("verified: trix-draw/1 tournament:example")


def test_trix_verify_refuses_a_draw_whose_commitment_differs(tmp_path, capsys, record):
    """The record is self-consistent (its seed hashes to its own commitment), but the
    commitment saved before the start was another one: refused."""
    saved = commitment(bytes(32))
    assert saved != record["commitment"]
    assert trix(["verify", str(EXAMPLE), "--commitment", saved]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"trix-draw/1: commitment: the record's {record['commitment']} is not the commitment "
        f"you saved before the start, {saved}\n"
    )


def test_trix_verify_refuses_a_malformed_commitment_for_a_draw(capsys):
    assert trix(["verify", str(EXAMPLE), "--commitment", "not-hex"]) == 2
    assert "commitment" in capsys.readouterr().err


def test_the_documented_vectors():
    """docs/fairness.md "trix-draw/1" test vectors and its example error line."""
    text = (EXAMPLE.parent / "fairness.md").read_text()
    key = draw_key(
        secret=SECRET,
        event="tournament:7",
        entrants=["alice", "bob"],
        client_seeds={"alice": "a seed", "bob": "b-seed"},
    )
    order = draw_order(key, ["alice", "bob", "carol", "dave", "erin", "frank"])
    players = entrants(13)
    example_key = draw_key(
        secret=SECRET, event="tournament:example", entrants=list(players), client_seeds=players
    )
    for value in (
        commitment(SECRET),
        key.hex(),
        " ".join(order),
        example_key.hex(),
        " ".join(draw_order(example_key, list(players))),
    ):
        assert value in text
    record = json.loads(EXAMPLE.read_text())
    table = record["rounds"][1]["tables"][2]
    table[0], table[1] = table[1], table[0]
    with pytest.raises(FairnessError) as error:
        verify_record(record)
    assert " ".join(f"trix-draw/1: {error.value}".split()) in " ".join(text.split())


def test_the_installed_trix_command_verifies_the_example():
    """Through the console script itself, as an auditor runs it."""
    script = Path(sys.executable).parent / "trix"
    result = subprocess.run(
        [str(script), "verify", str(EXAMPLE)], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith("verified: trix-draw/1 tournament:example")
