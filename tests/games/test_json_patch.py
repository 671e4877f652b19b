"""The live streams' patches (``games.live.patch.json_patch``): RFC 6902 operations that turn
the answer a watcher holds into the new one exactly, or None (the whole answer is sent)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import jsonpatch
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.live import patch, sse
from games.live.patch import json_patch

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3)
documents = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=25,
)
answers = st.dictionaries(st.sampled_from(["version", "entrants", "rounds", "x/y", "~"]), documents)


@settings(max_examples=400, deadline=None)
@given(answers, answers)
def test_a_patch_applied_to_the_old_answer_gives_the_new_one_exactly(old, new):
    ops = json_patch(old, new)
    if ops is not None:
        assert jsonpatch.apply_patch(old, ops) == new
    else:  # refused only where jsonpatch's own patch is wrong or the page would misapply it
        made = jsonpatch.make_patch(old, new).patch
        assert jsonpatch.apply_patch(old, made) != new or any(
            patch._moves_into_a_sibling(op) for op in made
        )


def test_a_move_into_a_sibling_is_refused_the_page_would_misapply_it(monkeypatch):
    """Found by a review: jsonpatch removes ``from`` before it finds ``path``, the page's
    fast-json-patch finds ``path`` first (here a list, not the object it looks for, and it
    throws): this patch gives ``new`` on the server and fails in the page."""
    old = {"e": [{"n": "A"}, [5], {"k": [{"n": "B"}]}]}
    new = {"e": [[5], {"k": [{"n": "A"}, {"n": "B"}]}]}
    move = [{"op": "move", "from": "/e/0", "path": "/e/1/k/0"}]
    assert jsonpatch.apply_patch(old, move) == new
    monkeypatch.setattr(jsonpatch, "make_patch", lambda a, b: jsonpatch.JsonPatch(move))
    assert json_patch(old, new) is None
    within = {"op": "move", "from": "/e/0", "path": "/e/2"}  # within one list: applied alike
    assert not patch._moves_into_a_sibling(within)


VENDOR = Path(__file__).resolve().parents[2] / "web/static/web/vendor/fast-json-patch/core.js"
_APPLY_IN_NODE = """
import { applyPatch } from "%s";
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(([old, ops]) => {
    try { return applyPatch(old, ops, true).newDocument; } catch (e) { return { failed: e.name }; }
  });
  process.stdout.write(JSON.stringify(out));
});
"""


MOVES_INTO_A_SIBLING = [
    (json.loads(old), json.loads(new))
    for old, new in (
        ('{"e": [0, {"a": []}, {"b": {"b": 1}}, {"a": [3, 2]}]}',
         '{"e": [{"a": []}, {"b": {"b": 1}}, {"a": [0]}]}'),
        ('{"e": [{"a": 0}, {"a": 0, "b": {"a": 2}}, {"a": []}]}',
         '{"e": [{"a": 0, "b": {"a": 2}}, {"a": [{"a": 0}]}]}'),
        ('{"e": [[1], 0, [{"b": 2, "a": 1}]]}', '{"e": [0, [[1], {"b": 2, "a": 1}]]}'),
    )
]  # fmt: skip
"""Pairs of answers whose jsonpatch patch moves a value into a later sibling: the page's
fast-json-patch gets them wrong (found among 20,000 random pairs)."""


def apply_in_node(pairs: list) -> list:
    """Each (answer, patch) applied as the page applies it: the vendored fast-json-patch's
    ``applyPatch`` validating, under Node.js; ``{"failed": <error>}`` where it throws."""
    if shutil.which("node") is None:  # ./dev test installs it (as Chromium)
        pytest.skip("needs Node.js (Debian's nodejs)")
    done = subprocess.run(
        ["node", "--input-type=module", "-e", _APPLY_IN_NODE % VENDOR.as_uri()],
        input=json.dumps(pairs), capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def test_the_pages_applier_gives_the_new_answer_from_every_patch_the_server_sends():
    """The patches the server sends, applied as the page applies them (the vendored
    fast-json-patch, under Node.js, validating), give exactly the new answer: 600 random
    pairs of answers, and the live page's kind of change (an entrant more, one renamed)."""
    rng = random.Random(15)

    def value(depth=0):
        roll = rng.random()
        if depth > 2 or roll < 0.4:
            return rng.choice([None, True, False, rng.randint(-3, 3), rng.choice("ab~/")])
        if roll < 0.7:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(["a", "b", "x/y", "~0", "k"]): value(depth + 1) for _ in range(3)}

    pairs = [({k: value() for k in ("version", "entrants", "x/y")}, None) for _ in range(600)]
    pairs = [(old, {k: value() if rng.random() < 0.5 else v for k, v in old.items()})
             for old, _ in pairs]  # fmt: skip
    page = {"version": 1, "entrants": [{"name": f"p{i}", "place": None} for i in range(30)]}
    grown = {"version": 2, "entrants": [*page["entrants"][:9], {"name": "p9b", "place": None},
                                        *page["entrants"][9:]]}  # fmt: skip
    renamed = json.loads(json.dumps(grown).replace('"p3"', '"Abu Fahd"'))
    pairs += [(page, grown), (grown, renamed), *MOVES_INTO_A_SIBLING]
    # (jsonpatch's own patches of those, as the page applies them: wrong or thrown)
    made = [(old, jsonpatch.make_patch(old, new).patch) for old, new in MOVES_INTO_A_SIBLING]
    wrong = zip(apply_in_node(made), MOVES_INTO_A_SIBLING, strict=True)
    assert all(applied != new for applied, (_, new) in wrong)
    sent = [(old, new, json_patch(old, new)) for old, new in pairs]
    sent = [(old, new, ops) for old, new, ops in sent if ops is not None]
    assert len(sent) > 500  # (the rest go whole)
    applied = apply_in_node([(old, ops) for old, _, ops in sent])
    assert [a for a, (_, new, _) in zip(applied, sent, strict=True) if a != new] == []


def test_an_entrant_more_is_one_operation_not_the_list():
    old = {
        "version": 1,
        "entrants": [{"name": f"p{i:02d}", "status": "registered"} for i in range(40)],
    }
    new = {
        "version": 2,
        "entrants": sorted(
            old["entrants"] + [{"name": "p17b", "status": "registered"}], key=lambda e: e["name"]
        ),
    }
    ops = json_patch(old, new)
    assert ops == [
        {"op": "replace", "path": "/version", "value": 2},
        {"op": "add", "path": "/entrants/18", "value": {"name": "p17b", "status": "registered"}},
    ]


def test_a_patch_that_does_not_give_the_new_answer_is_refused(monkeypatch):
    wrong = jsonpatch.JsonPatch([{"op": "replace", "path": "/version", "value": 3}])
    monkeypatch.setattr(jsonpatch, "make_patch", lambda old, new: wrong)
    assert json_patch({"version": 1}, {"version": 2}) is None
    broken = jsonpatch.JsonPatch([{"op": "remove", "path": "/missing"}])
    monkeypatch.setattr(jsonpatch, "make_patch", lambda old, new: broken)
    assert json_patch({"version": 1}, {"version": 2}) is None


def test_the_message_says_which_answer_it_changes():
    message = sse.patch_message(7, 6, [{"op": "replace", "path": "/version", "value": 7}])
    assert message == (
        b'id: 7\nevent: patch\ndata: {"version":7,"since":6,'
        b'"patch":[{"op":"replace","path":"/version","value":7}]}\n\n'
    )
