"""One open live stream as the hub sees it (:class:`Watcher`), the bounded mailbox its
messages wait in (:class:`Mailbox`), and one answer computed for it (:class:`Delivery`)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from games.live.sse import END_MESSAGE

END = object()
"""A mailbox item: send ``event: end`` and close."""
CUT = None
"""A mailbox item: close at once (fallen behind, its lifetime over, the process stops)."""


class Mailbox:
    """A watcher's bounded list of what is waiting to be written to its stream: the feed puts
    (``put_nowait``, :class:`asyncio.QueueFull` when ``size`` items wait), the stream waits
    (:meth:`wait`) while it is empty, then takes everything waiting at once as one piece
    (:meth:`take`); a cut stream's is emptied (:meth:`clear`).

    ``asyncio.Queue`` with ``asyncio.wait_for`` for the keepalive made a task per message and
    per watcher (about a third of a web process's event loop with 5,000 watchers): a wait
    here is one future, and the keepalives and the stream's lifetime are the hub's
    (:meth:`games.live.hub.Hub.tick`). A wait leaves nothing else behind that the garbage
    collector must visit (no coroutine, no new list: :meth:`take` answers bytes), since a web
    process's young collection visits the waits of every stream that got a message since the
    last one (``trix_site.heap``). ``last`` is when something was last put (``time.monotonic``)."""

    __slots__ = ("items", "size", "waiter", "last")

    def __init__(self, size: int):
        self.items: list = []
        self.size = size
        self.waiter: asyncio.Future | None = None
        self.last = time.monotonic()

    def full(self) -> bool:
        return len(self.items) >= self.size

    def empty(self) -> bool:
        return not self.items

    def put_nowait(self, item) -> None:
        if self.full():
            raise asyncio.QueueFull
        self.items.append(item)
        self.last = time.monotonic()
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        """Drop everything waiting."""
        self.items.clear()

    def wait(self) -> asyncio.Future:
        """A future done once something is put: ``while box.empty(): await box.wait()``."""
        self.waiter = asyncio.get_running_loop().create_future()
        return self.waiter

    def take(self) -> tuple[bytes | None, bool]:
        """Everything waiting, in order, as one piece to write, and whether the stream ends
        with it: ``(None, True)`` for a cut (close at once, nothing more written), the
        ``event: end`` message last for an end. Call it once :meth:`empty` is False."""
        items, self.waiter = self.items, None
        if items[0] is CUT:  # (a cut empties the mailbox first: it comes alone)
            items.clear()
            return None, True
        end = items[-1] is END
        if end:
            items[-1] = END_MESSAGE
        data = items[0] if len(items) == 1 else b"".join(items)
        items.clear()
        return data, end


@dataclass(eq=False)
class Watcher:
    """One open stream: who watches (``viewer``: the user, for a table), the last version it
    was sent (None: nothing yet), its bounded :class:`Mailbox` of encoded messages, the seat
    its last answer gave it (None: a spectator), when the stream ends (``time.monotonic``;
    None: never), whether it takes ``event: patch`` messages (``?patches=1``), the whole
    answer its last message gave it (``basis``: the very object, for a source that patches;
    None: none yet on this stream), the language its request was answered in
    (``request.LANGUAGE_CODE``: a source whose answers hold words answers in it), and a
    logged-in viewer's session (its key, the user's id and session auth hash: the stream is
    cut once that session no longer logs them in, :meth:`games.live.hub.Hub.cut_ended_sessions`)."""

    viewer: Any
    version: int | None
    queue: Mailbox = field(repr=False)
    seat: int | None = None
    ends_at: float | None = None
    patches: bool = False
    basis: Any = field(default=None, repr=False)
    language: str | None = None
    session: tuple[str, int, str] | None = field(default=None, repr=False)


@dataclass
class Delivery:
    """An answer computed for one watcher: its version, its encoded message, its seat,
    whether it is the last (nothing will change after it), and the whole answer the watcher
    holds once it has the message (:attr:`Watcher.basis`)."""

    watcher: Watcher
    version: int
    data: bytes
    seat: int | None = None
    final: bool = False
    basis: Any = None
