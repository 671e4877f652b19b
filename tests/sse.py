"""A plain Server-Sent Events reader for the live streams' tests (``http.client``): reads a
stream message by message, keeping each message's raw bytes."""

from __future__ import annotations

import functools
import http.client
import json
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass
class Message:
    raw: bytes  # the message's lines as sent, up to and with its blank line
    id: str | None
    event: str | None
    data: str

    def json(self):
        return json.loads(self.data)


class Stream:
    """``Stream(base_url, path, headers)``; ``status``, ``headers``; ``next()`` the next
    message (comments and the ``retry:`` line skipped), None when the stream ended."""

    def __init__(self, base_url: str, path: str, headers: dict | None = None, timeout=60.0):
        parts = urlsplit(base_url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = self.response.headers
        self.comments: list[bytes] = []

    def next(self) -> Message | None:
        raw = b""
        fields: dict[str, str] = {}
        data: list[str] = []
        while True:
            line = self.response.readline()
            if not line:
                return None
            raw += line
            text = line.decode().rstrip("\n")
            if text == "":
                if data or fields.get("event"):
                    return Message(raw, fields.get("id"), fields.get("event"), "\n".join(data))
                raw = b""  # a retry line or a comment alone
                continue
            if text.startswith(":"):
                self.comments.append(line)
                continue
            name, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                data.append(value)
            else:
                fields[name] = value

    def states(self, until_version: int | None = None, limit: int = 10_000):
        """The ``state`` messages until ``end``, the stream's close, or one at
        ``until_version`` or later."""
        out = []
        for _ in range(limit):
            m = self.next()
            if m is None or m.event == "end":
                break
            out.append(m)
            if until_version is not None and int(m.id) >= until_version:
                break
        return out

    def close(self) -> None:
        self.conn.close()


def off_the_loop(test):
    """Run a test's body in a thread of its own. The session's Playwright browser (sync API)
    keeps an event loop running in the main thread once a browser test has run, and there
    ``asyncio.run`` and Django's ``async_to_sync`` (the test client calling an async view)
    refuse to run. The module's tests are transactional, so the thread sees their rows."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        from django.db import connections

        box = {}

        def body():
            try:
                box["result"] = test(*args, **kwargs)
            except BaseException as exc:  # re-raised in the test's own thread
                box["error"] = exc
            finally:
                connections.close_all()

        thread = threading.Thread(target=body, name=f"test:{test.__name__}")
        thread.start()
        thread.join()
        if "error" in box:
            raise box["error"]
        return box.get("result")

    return run
