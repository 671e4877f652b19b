"""The live clients of ``benchmarks/site.py``, run in processes of their own so their load
does not skew the measuring client: watchers of tables and scripted human players.

One process runs many clients on one asyncio loop over raw asyncio streams (no HTTP library:
lighter than one, and the site's API needs only GET, a POST and chunked transfer):

- a **watcher** holds one table's live updates as a spectator: the Server-Sent Events stream
  (``GET /api/tables/{id}/stream/?since=V``, ``text/event-stream``, messages ``id: <version>``
  / ``event: state`` / ``data: <the state poll's answer>``; a dropped connection reconnects
  with ``Last-Event-ID``) or, where the site has no stream, the long poll
  (``GET /api/tables/{id}/state/?since=V&wait=5``). It notes, for each version, when it
  reached it (a message with ``id: V`` delivers every version after the one before it).
  A negative id ``-N`` is tournament N's live page instead, as in the site's notifications
  (``GET /api/tournaments/N/stream/?patches=1``, as the page asks: after the first whole
  answer, ``event: patch`` messages, ``id: <version>`` too; or the long poll
  ``.../live/?since=V&wait=5``);
- a **human** sits at a table with three bots, logged in by a session the parent made: it
  reads its seat's state the same way and, when its seat has legal actions, posts one of them
  (``POST /api/tables/{id}/actions/``) as a person would, after ``think`` seconds; it notes the
  moment of each POST. An anonymous watcher of the same table is another seat's client: the
  parent matches each action's version (from the database) with the moment that watcher saw it.

    python benchmarks/live_clients.py CONFIG.json

CONFIG: ``{"port", "ports"?, "transport": "sse"|"poll", "watchers": [[table or -tournament,
count], ...], "humans": [{"table", "session", "csrf", "think", "post_port"?}], "out": path}``
(``ports``: the streams' processes, each key's streams to one of them, :func:`port_of`). The
process prints ``connected <answered> <watchers>`` once every watcher has had its first answer
(or after ``connect_timeout`` seconds, 180 by default, with those that have), runs until a line
arrives on stdin (or stdin closes), then writes its figures to ``out`` (JSON) and exits.
"""

from __future__ import annotations

import asyncio
import collections
import json
import random
import resource
import sys
import threading
import time
import uuid

HOST = "127.0.0.1"
WAIT = 5  # long-poll seconds (the fallback transport)


class Figures:
    """What one process saw: per (table, version) the first and last arrival and how many
    watchers it reached; deliveries per second; the humans' POSTs and their other seats'
    first sight of each version."""

    def __init__(self):
        self.first: dict[tuple[int, int], float] = {}
        self.last: dict[tuple[int, int], float] = {}
        self.count: collections.Counter = collections.Counter()
        self.per_second: collections.Counter = collections.Counter()
        self.errors = 0
        self.reconnects = 0
        self.refused: collections.Counter = collections.Counter()  # HTTP status -> answers
        self.posts: list[list] = []  # [action id, table, time of the POST, HTTP status, error]
        self.other_seat: dict[tuple[int, int], float] = {}

    def seen(self, table: int, after: int, upto: int, now: float, other_seat: bool) -> None:
        self.per_second[int(now)] += 1
        for version in range(after + 1, upto + 1):
            key = (table, version)
            if other_seat:
                self.other_seat.setdefault(key, now)
                continue
            self.first.setdefault(key, now)
            self.last[key] = now
            self.count[key] += 1

    def dump(self) -> dict:
        return {
            "seen": [
                [t, v, self.first[t, v], self.last[t, v], n] for (t, v), n in self.count.items()
            ],
            "per_second": list(self.per_second.items()),
            "errors": self.errors,
            "reconnects": self.reconnects,
            "refused": dict(self.refused),
            "posts": self.posts,
            "other_seat": [[t, v, at] for (t, v), at in self.other_seat.items()],
        }


class Refused(ConnectionError):
    """A read answered with another status than 200 (a 429 of the read limits, say)."""

    def __init__(self, what: str, status: int):
        super().__init__(f"{what} answered {status}")
        self.status = status


async def _headers(reader) -> tuple[int, dict[str, str]]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return status, headers
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


async def _body_chunks(reader, headers):
    """The body as it arrives: de-chunked (``Transfer-Encoding: chunked``), or to its length,
    or to the end of the connection."""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readline()
                return
            data = await reader.readexactly(size + 2)
            yield data[:-2]
    elif "content-length" in headers:
        yield await reader.readexactly(int(headers["content-length"]))
    else:
        while data := await reader.read(65536):
            yield data


def port_of(key: int, ports: list[int]) -> int:
    """The port of a key's streams (a table's id, a tournament's negative id): ``key % N``, one
    process per key as the proxy's hash gives (``site.stream_port``'s rule)."""
    return ports[abs(key) % len(ports)]


def _request(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class Reader:
    """One table's live updates for one client: calls ``on_state(version, answer or None)``
    for each new version (``answer`` decoded only when ``decode``)."""

    def __init__(self, port, transport, table, figures, *, cookie="", decode=False,
                 other_seat=False, on_state=None, ready=None):  # fmt: skip
        self.port, self.transport, self.table = port, transport, table
        self.figures, self.cookie, self.decode = figures, cookie, decode
        self.other_seat, self.on_state, self.ready = other_seat, on_state, ready
        self.version = 0

    def _headers(self, extra: dict[str, str]) -> dict[str, str]:
        out = dict(extra)
        if self.cookie:
            out["Cookie"] = self.cookie
        return out

    def _base(self) -> str:
        """The API path of what is watched: a table, or (a negative id) a tournament."""
        if self.table < 0:
            return f"/api/tournaments/{-self.table}"
        return f"/api/tables/{self.table}"

    async def run(self) -> None:
        first = True
        while True:
            try:
                reader, writer = await asyncio.open_connection(HOST, self.port, limit=1 << 22)
                try:
                    if self.transport == "sse":
                        await self._stream(reader, writer)
                    else:
                        await self._poll(reader, writer)
                finally:
                    writer.close()
            except asyncio.CancelledError:
                raise
            except (OSError, ConnectionError, ValueError, asyncio.IncompleteReadError) as exc:
                self.figures.errors += 1
                if isinstance(exc, Refused):
                    self.figures.refused[exc.status] += 1
            self.figures.reconnects += 1
            if first and self.ready is not None:  # never connected: do not hold the start
                self.ready.release()
                first = False
            await asyncio.sleep(0.2 + random.random() * 0.3)

    def _got(self, version: int, data: bytes | None) -> None:
        if self.ready is not None:
            self.ready.release()
            self.ready = None
        if version <= self.version:
            return
        now = time.time()
        self.figures.seen(self.table, self.version, version, now, self.other_seat)
        self.version = version
        if self.on_state is not None:
            self.on_state(version, json.loads(data) if (self.decode and data) else None)

    async def _stream(self, reader, writer) -> None:
        headers = {"Accept": "text/event-stream"}
        if self.version:
            headers["Last-Event-ID"] = str(self.version)
        query = "?patches=1" if self.table < 0 else ""  # the tournament page's, as it asks
        writer.write(_request("GET", f"{self._base()}/stream/{query}", self._headers(headers)))
        status, response = await _headers(reader)
        if status != 200:
            raise Refused("stream", status)
        buffer = b""
        async for chunk in _body_chunks(reader, response):
            buffer += chunk
            while True:
                cut = buffer.find(b"\n\n")
                if cut < 0:
                    break
                message, buffer = buffer[:cut], buffer[cut + 2 :]
                version, data = None, []
                for line in message.split(b"\n"):
                    if line.startswith(b"id:"):
                        version = int(line[3:])
                    elif line.startswith(b"data:") and self.decode:
                        data.append(line[5:].lstrip(b" "))
                if version is not None:
                    self._got(version, b"\n".join(data))
        raise ConnectionError("stream ended")

    async def _poll(self, reader, writer) -> None:
        while True:
            since = f"?since={self.version}&wait={WAIT}" if self.version else "?"
            path = f"{self._base()}/{'live' if self.table < 0 else 'state'}/{since}"
            writer.write(_request("GET", path, self._headers({})))
            status, response = await _headers(reader)
            body = b"".join([c async for c in _body_chunks(reader, response)])
            if status != 200:
                raise Refused("state", status)
            if self.ready is not None and not self.version:
                self.ready.release()
                self.ready = None
            answer = json.loads(body)
            self.version = self.version or 0
            if answer["version"] > self.version:
                self._got(answer["version"], body)


class Human:
    """A scripted person at seat ``my_seat`` of ``table``: reads its state, posts a legal
    action ``think`` seconds after its turn comes, once per version."""

    def __init__(self, port, transport, spec, figures):
        self.port, self.table, self.figures = port, spec["table"], figures
        self.post_port = spec.get("post_port", port)  # another process group's (--api-workers)
        self.cookie = f"sessionid={spec['session']}; csrftoken={spec['csrf']}"
        self.csrf, self.think = spec["csrf"], spec["think"]
        self.acted_at = -1
        self.pending: asyncio.Task | None = None
        self.reader = Reader(port, transport, self.table, figures, cookie=self.cookie,
                             decode=True, other_seat=None, on_state=self.on_state)  # fmt: skip
        self.reader.figures = _Quiet()  # the human's own reads are not deliveries to watchers
        self.post_conn = None
        self.posting = asyncio.Lock()  # one POST at a time on its connection

    def on_state(self, version: int, answer: dict | None) -> None:
        view = (answer or {}).get("view") or {}
        legal = [a for a in view.get("legal") or [] if a.get("type") != "select"]
        if not legal or version <= self.acted_at:
            return
        self.acted_at = version
        action = {k: v for k, v in random.choice(legal).items() if k != "seat"}
        self.pending = asyncio.ensure_future(self.post(version, action))

    async def post(self, version: int, action: dict) -> None:
        await asyncio.sleep(self.think)
        action_id = str(uuid.uuid4())
        body = json.dumps({"id": action_id, "version": version, "action": action}).encode()
        headers = {
            "Content-Type": "application/json",
            "Cookie": self.cookie,
            "X-CSRFToken": self.csrf,
        }
        async with self.posting:
            await self._send(action_id, body, headers)

    async def _send(self, action_id: str, body: bytes, headers: dict[str, str]) -> None:
        for _ in range(2):
            try:
                if self.post_conn is None:
                    self.post_conn = await asyncio.open_connection(HOST, self.post_port)
                reader, writer = self.post_conn
                at = time.time()
                writer.write(_request("POST", f"/api/tables/{self.table}/actions/", headers, body))
                status, response = await _headers(reader)
                answer = b"".join([c async for c in _body_chunks(reader, response)])
                error = {} if status == 202 else json.loads(answer or b"{}")
                code = error.get("code") or error.get("error", "")
                self.figures.posts.append([action_id, self.table, at, status, code])
                return
            except (OSError, ConnectionError, ValueError, asyncio.IncompleteReadError):
                self.figures.errors += 1
                if self.post_conn is not None:
                    self.post_conn[1].close()
                self.post_conn = None


class _Quiet:
    """Figures that count nothing (a human's reads of its own seat)."""

    errors = reconnects = 0

    @property
    def refused(self) -> collections.Counter:
        return collections.Counter()

    def seen(self, *_):
        pass


async def main(config: dict) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    figures = Figures()
    port, transport = config["port"], config["transport"]
    ports = config.get("ports") or [port]
    total = sum(n for _, n in config["watchers"])
    ready = asyncio.Semaphore(0)
    tasks = []
    for table, n in config["watchers"]:
        for _ in range(n):
            reader = Reader(port_of(table, ports), transport, table, figures, ready=ready)
            tasks.append(asyncio.ensure_future(reader.run()))
            if len(tasks) % 100 == 0:  # 100 connections opened at a time (the accept backlog)
                await asyncio.sleep(0.05)
    for spec in config["humans"]:
        at = port_of(spec["table"], ports)
        human = Human(at, transport, spec, figures)
        tasks.append(asyncio.ensure_future(human.reader.run()))
        other = Reader(at, transport, spec["table"], figures, other_seat=True)
        tasks.append(asyncio.ensure_future(other.run()))
    deadline = time.monotonic() + config.get("connect_timeout", 180)
    answered = 0
    try:
        while answered < total:
            await asyncio.wait_for(ready.acquire(), max(0.01, deadline - time.monotonic()))
            answered += 1
    except TimeoutError:
        pass  # measured anyway; the parent prints how many had their first answer
    print(f"connected {answered} {total}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    threading.Thread(
        target=lambda: (sys.stdin.readline(), loop.call_soon_threadsafe(stop.set)), daemon=True
    ).start()
    await stop.wait()
    for task in tasks:
        task.cancel()
    with open(config["out"], "w") as out:
        json.dump(figures.dump(), out)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        config = json.load(f)
    try:  # the clients stand for other machines: their own CPU is kept small (uvicorn's loop)
        import uvloop
    except ImportError:
        asyncio.run(main(config))
    else:
        uvloop.run(main(config))
