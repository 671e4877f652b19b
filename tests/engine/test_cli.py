"""The ``trix`` command: replay and simulate in-process through ``main(argv, out, err)``, the
installed console script in a subprocess, the example record in ``docs/``, and the engine's
freedom from Django."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.cli import main

from .helpers import build_hands, make_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example-deal.json"

KING_HANDS = build_hands({0: "H:2", 1: "H:3", 2: "H:K", 3: "H:A"})
GOOD = make_record("king", KING_HANDS, "2H 3H KH AH", doubles={2: "KH"})


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_replay_good_record_json(tmp_path):
    code, out, err = run("replay", write(tmp_path, "good.json", GOOD))
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["scores"] == {"0": 0, "1": 0, "2": 75, "3": -150}
    assert result["tricks"] == [{"leader": 0, "cards": ["2H", "3H", "KH", "AH"], "taker": 3}]
    assert "teams" not in result


def test_replay_good_record_text(tmp_path):
    code, out, err = run("replay", write(tmp_path, "good.json", GOOD), "--text")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "trix  contract king  owner seat 0"
    assert "   3   -150" in lines and "   2     75" in lines
    assert any(line.split()[:2] == ["1", "0"] and line.split()[-1] == "3" for line in lines)


def test_replay_invalid_record_names_the_play(tmp_path):
    bad = {**GOOD, "plays": ["2H", "3H", "KH", "2C"]}
    code, out, err = run("replay", write(tmp_path, "bad.json", bad))
    assert code == 1 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("invalid record: play 3: seat 3: ")
    assert "must follow suit" in err or "not in the hand" in err


@pytest.mark.parametrize("text", ["{not json", "", "[]"])
def test_replay_malformed_json(tmp_path, text):
    code, out, err = run("replay", write(tmp_path, "bad.json", text))
    assert code == 1 and out == ""
    assert err.startswith("invalid record: ") and err.count("\n") == 1


def test_replay_missing_file(tmp_path):
    code, out, err = run("replay", str(tmp_path / "nope.json"))
    assert code == 2 and out == "" and "cannot read" in err


def test_simulate_json_shape_and_records(tmp_path):
    records = tmp_path / "records"
    code, out, err = run(
        "simulate",
        "--variant",
        "complex_partner",
        "--matches",
        "3",
        "--seed",
        "9",
        "--bots",
        "rules,random,rules,random",
        "--json",
        "--records",
        str(records),
    )
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["variant"] == "complex_partner"
    assert data["matches"] == 3 and data["deals"] == 24
    assert data["bots"] == {"0": "rules", "1": "random", "2": "rules", "3": "random"}
    assert set(data["seats"]) == {"0", "1", "2", "3"}
    for row in data["seats"].values():
        assert set(row) == {"bot", "mean_total", "firsts"}
    assert set(data["teams"]) == {"0+2", "1+3"}
    assert data["teams"]["0+2"]["bots"] == "rules+rules"
    wins = data["teams"]["0+2"]["wins"] + data["teams"]["1+3"]["wins"] + data["draws"]
    assert wins == 3
    assert data["teams"]["0+2"]["mean_total"] == -data["teams"]["1+3"]["mean_total"]
    assert data["deals_per_second"] > 0 and data["matches_per_second"] > 0
    files = sorted(records.iterdir())
    assert len(files) == 24
    for f in files:
        code, out, err = run("replay", str(f))
        assert (code, err) == (0, ""), f
        # Every simulated deal came through a commitment and trix-shuffle/1 (issue 3).
        code, out, err = run("verify", str(f))
        assert (code, out.splitlines()[0], err) == (0, "verified", ""), f
    # The same seed plays the same matches.
    again = json.loads(
        run(
            "simulate",
            "--matches",
            "3",
            "--seed",
            "9",
            "--json",
            "--bots",
            "rules,random,rules,random",
        )[1]
    )
    assert again["seats"] == data["seats"]


def test_simulate_text_and_bad_arguments():
    code, out, err = run("simulate", "--variant", "trix", "--matches", "1", "--seed", "1")
    assert code == 0 and out.startswith("trix: 1 matches, 20 deals")
    assert run("simulate", "--matches", "0")[0] == 2
    code, _, err = run("simulate", "--bots", "random,clever,random,random")
    assert code == 2 and "unknown bot 'clever'" in err
    code, _, err = run("simulate", "--options", '{"turbo": 1}')
    assert code == 2 and "unknown option 'turbo'" in err


def trix_script() -> str:
    return str(Path(sys.executable).parent / "trix")


def test_installed_console_script(tmp_path):
    path = write(tmp_path, "good.json", GOOD)
    done = subprocess.run([trix_script(), "replay", path], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"]["3"] == -150
    done = subprocess.run(
        [trix_script(), "replay", "-"], input="{oops", capture_output=True, text=True
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("invalid record: malformed JSON")


# The example record of docs/: a complex_partner deal played by the rules bots, with three
# doubled queens: Q♥ (seat 3) taken by seat 0, Q♦ taken by its doubler seat 1 on its own
# lead (net -25 for the queen), Q♠ (seat 1) taken by seat 0.
EXAMPLE_SCORES = {"0": -240, "1": -270, "2": -15, "3": 25}
EXAMPLE_TEAMS = {"0+2": -255, "1+3": -245}


def test_example_deal_replays_to_the_stated_scores():
    code, out, err = run("replay", str(EXAMPLE))
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["variant"] == "complex_partner" and result["contract"] == "complex"
    assert result["scores"] == EXAMPLE_SCORES
    assert result["teams"] == EXAMPLE_TEAMS
    assert sum(EXAMPLE_SCORES.values()) == -500
    record = json.loads(EXAMPLE.read_text())
    assert record["doubles"] == {"1": ["QD", "QS"], "3": ["QH"]}
    assert len(result["tricks"]) == 13


def test_the_engine_imports_no_django():
    code = (
        "import sys, games.engine, games.engine.cli, games.engine.simulate, games.engine.bots;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework',"
        " 'celery', 'psycopg'));"
        "assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_replay_a_file_that_is_not_text(tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00not text")
    code, out, err = run("replay", str(path))
    assert code == 1 and out == ""
    assert err.startswith("invalid record: ") and err.count("\n") == 1


# -- hostile input (issue 12) --------------------------------------------------------------


@pytest.mark.parametrize("command", ["replay", "verify"])
def test_json_nested_100000_deep_is_one_line_not_a_traceback(tmp_path, command):
    path = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    code, out, err = run(command, path)
    assert code == 1 and out == ""
    assert "nested too deep" in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "bad, message",
    [
        ({**GOOD, "owner": 0.0}, "owner must be a seat 0..3, not 0.0"),
        ({**GOOD, "options": []}, "options must be an object"),
        ({**GOOD, "doubles": None}, "doubles must be an object keyed by seat"),
        ({**GOOD, "plays": ["2h", "3H", "KH", "AH"]}, "not a card code: '2h'"),
        ({**GOOD, "deal_number": True}, "deal_number must be a whole number"),
    ],
)
def test_replay_refuses_hostile_records(tmp_path, bad, message):
    code, out, err = run("replay", write(tmp_path, "bad.json", bad))
    assert code == 1 and out == ""
    assert message in err and err.count("\n") == 1, err


def test_the_command_refuses_deep_json_without_a_traceback(tmp_path):
    path = write(tmp_path, "deep.json", '{"a":' * 100_000 + "1" + "}" * 100_000)
    for command in ("replay", "verify"):
        argv = [sys.executable, "-m", "games.engine.cli", command, path]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 1 and done.stdout == ""
        assert "Traceback" not in done.stderr and "nested too deep" in done.stderr


@pytest.mark.parametrize("value", ["[]", "false", '""', "0", "null", "3.5", '"variant"'])
def test_simulate_options_must_be_a_json_object(value):
    code, out, err = run("simulate", "--matches", "1", "--options", value)
    assert code == 2 and out == ""
    assert err == "bad options: --options must be a JSON object of table options\n", err


@pytest.mark.parametrize("value", ['{"variant": "trix"}', '{"variant": "complex_partner"}'])
def test_simulate_options_may_not_name_the_variant(value):
    code, out, err = run("simulate", "--matches", "1", "--options", value)
    assert code == 2 and out == ""
    assert err == "bad options: give the variant with --variant, not in --options\n", err


def test_simulate_options_that_are_not_json():
    code, out, err = run("simulate", "--matches", "1", "--options", "{oops")
    assert code == 2 and out == "" and err.startswith("bad options: malformed JSON")
    assert err.count("\n") == 1
