"""The wire format of a live stream (Server-Sent Events): the version a stream starts after,
and the bytes of each message.

A message is::

    id: <version>
    event: state
    data: <the JSON the state poll answers for that caller after their previous version>

or, to a watcher that asked for ``?patches=1`` (:mod:`games.live.patch`)::

    id: <version>
    event: patch
    data: {"version": <version>, "since": <the version of the answer it changes>,
           "patch": <RFC 6902 JSON Patch operations turning that answer into this one>}

a ``: keepalive`` comment every :data:`KEEPALIVE` seconds on a quiet stream, and ``event:
end`` once nothing will change any more. EventSource reconnects by itself after
:data:`RETRY_MS` and sends ``Last-Event-ID`` (the last version it got).
"""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import JSONRenderer

KEEPALIVE = 15.0
"""Seconds between ``: keepalive`` comments on a quiet stream."""
RETRY_MS = 1000
"""EventSource's pause before reconnecting (the stream's ``retry:``), in milliseconds."""
CONTENT_TYPE = "text/event-stream"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
"""The headers of a stream: no cache, no buffering by a proxy (nginx reads the second)."""
KEEPALIVE_COMMENT = b": keepalive\n\n"
END_MESSAGE = b"event: end\ndata: {}\n\n"


class BadVersion(ValueError):
    """A ``since`` or ``Last-Event-ID`` that is not a whole number from 0."""


def requested_version(query: str | None, header: str | None) -> int | None:
    """The version a stream starts after: the ``Last-Event-ID`` header's if sent (it wins),
    else the ``since`` query's, else None (the full state). Raises :class:`BadVersion`."""
    value = header if header not in (None, "") else query
    if value is None or value == "":
        return None
    value = value.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 10:
        raise BadVersion("since (or Last-Event-ID) must be a whole number from 0")
    return int(value)


def message(version: int, data: bytes) -> bytes:
    """One SSE message: ``id: <version>``, ``event: state``, ``data: <json>``."""
    return b"id: %d\nevent: state\ndata: %s\n\n" % (version, data)


def encode(answer: dict[str, Any]) -> bytes:
    """An answer as the API renders it (DRF's JSON renderer: compact, UTF-8, one line)."""
    return JSONRenderer().render(answer)


def patch_message(version: int, since: int, ops: list[dict[str, Any]]) -> bytes:
    """One SSE patch message: ``id: <version>``, ``event: patch``, ``data: {"version",
    "since", "patch"}``, where ``patch`` (:func:`json_patch`'s) turns the answer at ``since``
    into the answer at ``version``."""
    data = encode({"version": version, "since": since, "patch": ops})
    return b"id: %d\nevent: patch\ndata: %s\n\n" % (version, data)
