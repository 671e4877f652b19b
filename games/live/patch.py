"""Patches instead of whole answers: a live stream whose source sends every watcher its whole
answer (a tournament's page) sends a watcher that asked for ``?patches=1`` the change instead,
once the stream has sent it a whole answer (:func:`json_patch`); applied to the answer the
stream sent last, it gives exactly the whole answer at the new version. A new stream (a
reconnection) always starts with a whole answer."""

from __future__ import annotations

import logging
from typing import Any

import jsonpatch

log = logging.getLogger(__name__)


def json_patch(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The RFC 6902 JSON Patch operations turning ``old`` into ``new``
    (``jsonpatch.make_patch``; the page applies them with the same standard's
    ``fast-json-patch``), checked here by applying them to ``old``: None when that does not
    give ``new`` exactly (send the whole answer instead). ``old`` and ``new`` are JSON
    documents as :func:`encode` renders them (dicts, lists, strings, numbers, bools, None)."""
    try:
        ops = jsonpatch.make_patch(old, new).patch
        if any(_moves_into_a_sibling(op) for op in ops):
            return None
        if jsonpatch.apply_patch(old, ops) != new:
            return None
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError, ValueError):
        log.exception("no patch: the whole answer is sent")  # (a value JSON does not know)
        return None
    return ops


def _moves_into_a_sibling(op: dict[str, Any]) -> bool:
    """Whether ``op`` moves a value into another element of the container it leaves (``from``
    ``/a/0``, ``path`` ``/a/1/k/0``): ``jsonpatch`` removes first, then walks ``path``; the
    page's ``fast-json-patch`` walks ``path`` on the document before the removal and, where
    that finds another element, throws or puts the value elsewhere (about one patch in 9,000
    random ones); such an answer goes whole."""
    if op.get("op") != "move":
        return False
    source, target = op["from"].split("/"), op["path"].split("/")
    return len(target) > len(source) and target[: len(source) - 1] == source[:-1]
