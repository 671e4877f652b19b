"""The live streams' patches (``games.stream.json_patch``): RFC 6902 operations that turn
the answer a watcher holds into the new one exactly, or None (the whole answer is sent)."""

from __future__ import annotations

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from games import stream

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
    ops = stream.json_patch(old, new)
    if ops is not None:  # None: the check refused it, and the whole answer goes
        assert jsonpatch.apply_patch(old, ops) == new


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
    ops = stream.json_patch(old, new)
    assert ops == [
        {"op": "replace", "path": "/version", "value": 2},
        {"op": "add", "path": "/entrants/18", "value": {"name": "p17b", "status": "registered"}},
    ]


def test_a_patch_that_does_not_give_the_new_answer_is_refused(monkeypatch):
    wrong = jsonpatch.JsonPatch([{"op": "replace", "path": "/version", "value": 3}])
    monkeypatch.setattr(jsonpatch, "make_patch", lambda old, new: wrong)
    assert stream.json_patch({"version": 1}, {"version": 2}) is None
    broken = jsonpatch.JsonPatch([{"op": "remove", "path": "/missing"}])
    monkeypatch.setattr(jsonpatch, "make_patch", lambda old, new: broken)
    assert stream.json_patch({"version": 1}, {"version": 2}) is None


def test_the_message_says_which_answer_it_changes():
    message = stream.patch_message(7, 6, [{"op": "replace", "path": "/version", "value": 7}])
    assert message == (
        b'id: 7\nevent: patch\ndata: {"version":7,"since":6,'
        b'"patch":[{"op":"replace","path":"/version","value":7}]}\n\n'
    )
