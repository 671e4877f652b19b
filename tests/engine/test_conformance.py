"""The conformance suite (``docs/conformance/*.json``, ``trix-conformance/1``): every scenario
passes through our engine, each quotes a rule of ``docs/rules.md``, the files match their
JSON Schema, and ``trix conformance`` reports a failing scenario as a failure."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path

import jsonschema
import pytest

from games.engine.cli import main
from games.engine.conformance import InvalidSuite, load_suite, run_scenario, run_suite

ROOT = Path(__file__).resolve().parents[2]
SUITE_FILES = sorted((ROOT / "docs" / "conformance").glob("*.json"))
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
SCHEMA = json.loads((ROOT / "docs" / "trix-conformance.schema.json").read_text(encoding="utf-8"))
SCENARIOS = [
    pytest.param(scenario, id=f"{path.stem}/{scenario['id']}")
    for path in SUITE_FILES
    for scenario in load_suite(path.read_text(encoding="utf-8"))["scenarios"]
]


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["conformance", *args], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_our_engine_passes_every_scenario(scenario):
    assert run_scenario(scenario) == []


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_quotes_the_rule_it_tests(scenario):
    assert scenario["rule"] in RULES


@pytest.mark.parametrize("path", SUITE_FILES, ids=lambda p: p.name)
def test_every_file_matches_the_schema(path):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), SCHEMA)


def test_the_suite_covers_each_contract_variant_and_house_rule():
    scenarios = [p.values[0] for p in SCENARIOS]
    assert len(scenarios) >= 25
    contracts = {
        a["contract"] for s in scenarios for a in s.get("actions", []) if a["type"] == "contract"
    }
    assert contracts == {"king", "queens", "diamonds", "ltoosh", "trix", "complex"}
    assert {s["variant"] for s in scenarios} == {
        "trix",
        "trix_partner",
        "complex",
        "complex_partner",
    }
    options = {k for s in scenarios for k in s.get("options", {})}
    assert {"double_scoring", "twos_complex_only", "double_asked", "self_double"} <= options
    kinds = {k for s in scenarios for k in s["expect"]}
    assert kinds == {"scores", "teams", "order", "asked", "shown", "illegal", "invalid_options"}


def test_the_command_passes_every_file():
    code, out, err = run_cli(*map(str, SUITE_FILES))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == len(SCENARIOS) + 1
    assert all(line.startswith("PASS ") for line in lines[:-1])
    assert lines[-1] == f"{len(SCENARIOS)} passed, 0 failed"


def _suite_with(change) -> dict:
    suite = load_suite((ROOT / "docs" / "conformance" / "doubles.json").read_text("utf-8"))
    suite = copy.deepcopy(suite)
    change({s["id"]: s for s in suite["scenarios"]})
    return suite


def test_a_wrong_expected_score_is_a_failure(tmp_path):
    def wrong(by_id):
        by_id["double-taker-pays-doubler-gains"]["expect"]["scores"]["3"] = -75

    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(_suite_with(wrong)), encoding="utf-8")
    code, out, _ = run_cli(str(path))
    assert code == 1
    assert (
        f"FAIL {path} double-taker-pays-doubler-gains: scores "
        "{'0': 0, '1': 0, '2': 75, '3': -150}, expected {'0': 0, '1': 0, '2': 75, '3': -75}"
    ) in out.splitlines()
    assert (
        out.splitlines()[-1]
        == f"{len(_suite_with(lambda _: None)['scenarios']) - 1} passed, 1 failed"
    )


@pytest.mark.parametrize(
    "change, failure",
    [
        # A refusal expected where the engine takes the action.
        (
            lambda s: s["king-cannot-double-a-queen"]["actions"][-1].update(cards=[]),
            "action 1 accepted, expected it refused",
        ),
        # An action the engine refuses where none is expected (the K♥ doubled twice over).
        (
            lambda s: s["double-taker-pays-doubler-gains"]["actions"][1].update(cards=["KH"]),
            "action 1 refused: cannot double KH: not in your hand",
        ),
        # The deal not over after the last action.
        (
            lambda s: s["double-taker-pays-doubler-gains"]["actions"].pop(),
            "the deal is not over after the last action",
        ),
        # Seats asked to double.
        (
            lambda s: s["only-the-holder-doubles"]["expect"].update(asked=[2]),
            "seats asked to double: [0, 1, 2, 3], expected [2]",
        ),
    ],
)
def test_each_kind_of_failure_is_reported(change, failure):
    results = dict(run_suite(_suite_with(change)))
    failed = {sid: f for sid, f in results.items() if f}
    assert len(failed) == 1
    assert failure in next(iter(failed.values()))


@pytest.mark.parametrize(
    "text, message",
    [
        ("[]", "a suite must be a JSON object"),
        ('{"format": "trix-deal/1"}', "format must be 'trix-conformance/1'"),
        ('{"format": "trix-conformance/1", "title": "t", "scenarios": []}', "non-empty list"),
        (
            '{"format": "trix-conformance/1", "title": "t", "scenarios": [{"id": "a", "rule": '
            '"r", "variant": "trix", "hands": {}, "actions": [], "expect": {"winner": 1}}]}',
            "scenario 'a': expect: unknown field(s): winner",
        ),
        (
            '{"format": "trix-conformance/1", "title": "t", "scenarios": [{"id": "a", "rule": '
            '"r", "variant": "trix", "options": {}, "expect": {"invalid_options": true}}, '
            '{"id": "a", "rule": "r", "variant": "trix", "options": {}, "expect": '
            '{"invalid_options": true}}]}',
            "scenario 1: id 'a' is used twice",
        ),
        ("{", "malformed JSON"),
    ],
)
def test_a_malformed_suite_is_refused(tmp_path, text, message):
    with pytest.raises(InvalidSuite, match=re.escape(message)):
        load_suite(text)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli(str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"{path}: not a conformance suite: ")


def test_a_missing_file_exits_2(tmp_path):
    code, _, err = run_cli(str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in err
