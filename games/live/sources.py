"""What a live stream sends: a :class:`Source` per kind of key computes, at each of the key's
changes, the message bringing each watcher up from its version, once per audience (a
spectator's answer is shared by every spectator at the same version, so all spectators get
the same bytes; a seated user gets their own, computed once for all their tabs). Its methods
are synchronous (they read the database) and run in the hub's threads. :data:`TABLES`: the
tables' (``GET /api/tables/{id}/stream/``); a tournament's is ``tournaments.live``'s.

A private doubling pick (:mod:`games.services.picks`) changes no version and notifies nobody,
so it sends no message to anyone; its own seat sees it in its next answer, as with the poll."""

from __future__ import annotations

import threading
from collections import defaultdict

from django.contrib.auth.models import AnonymousUser

from games import selectors, sql
from games.live.sse import encode, message
from games.live.watchers import Delivery, Watcher


class Source:
    """What the feeds of one kind of key send. Its methods are synchronous (they read the
    database) and run in the hub's threads. ``patches``: whether its watchers may ask for
    ``event: patch`` messages (``?patches=1``)."""

    patches = False

    def current(self, key: int) -> tuple | None:
        """What the key's answers start from, read once per wake-up: a tuple whose first item
        is the key's current version; None when the key does not exist."""
        raise NotImplementedError

    def version(self, key: int) -> int | None:
        """The key's current version; None when it does not exist."""
        current = self.current(key)
        return None if current is None else current[0]

    def answers(self, key: int, behind: list[Watcher], current: tuple) -> list[Delivery]:
        """The messages bringing each of ``behind`` (watchers whose version is not the
        current one) up to ``current`` (:meth:`current`'s), each computed once per
        audience."""
        raise NotImplementedError

    def final_version(self, key: int) -> int | None:
        """The key's last version once nothing will change any more, else None."""
        raise NotImplementedError

    def catch_up(self, key: int, watchers: list[Watcher]) -> tuple[int | None, list[Delivery]]:
        """The key's current version (None: it does not exist) and the messages bringing
        each of ``watchers`` whose version is not that one up to date: what a feed does at
        each wake-up, in one call (one trip to the hub's threads)."""
        current = self.current(key)
        if current is None:
            return None, []
        behind = [w for w in watchers if w.version != current[0]]
        return current[0], self.answers(key, behind, current) if behind else []


class TableSource(Source):
    """A table: each watcher gets :func:`games.selectors.table_state` after its version.

    What an answer depends on beyond the table and ``since`` is the caller's seat (the view,
    ``my_seat``, ``returned_from_away``, the seat's private pick) and, in ``table.seats``,
    ``is_me`` (True only on the caller's own seat): a user who holds no seat gets exactly the
    answer an anonymous caller gets. So per ``since``, the watchers who hold no seat share
    one answer computed for an anonymous caller, and each seated user gets their own (one
    user holds at most one seat of a table: ``games_seat_one_per_user``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seated: dict[int, frozenset[int]] = {}  # table -> user ids seated (last seen)

    def current(self, key: int) -> tuple | None:
        return sql.live_fields(key)  # the answers start from these (games.sql.LIVE_FIELDS)

    def final_version(self, key: int) -> int | None:
        return selectors.table_over(key)

    def catch_up(self, key: int, watchers: list[Watcher]) -> tuple[int | None, list[Delivery]]:
        """As :meth:`Source.catch_up`, with the table's fields and the events after the
        oldest version among ``watchers`` read in one statement
        (:func:`games.sql.live_reading`): the answers need no other read while the process's
        caches of the table are current (every change of a watched table keeps them so)."""
        after = min((w.version or 0 for w in watchers), default=0)
        read = sql.live_reading(key, after)
        if read is None:
            return None, []
        fields, rows = read
        behind = [w for w in watchers if w.version != fields[0]]
        return fields[0], self.answers(key, behind, fields, (after, rows)) if behind else []

    def _remember(self, key: int, answer: dict) -> dict[int, int]:
        seats = {s["user_id"]: s["seat"] for s in answer["table"]["seats"] if s["user_id"]}
        with self._lock:
            if len(self._seated) > 4096:
                self._seated.clear()
            self._seated[key] = frozenset(seats)
        return seats

    def answers(
        self, key: int, behind: list[Watcher], current: tuple, read: tuple | None = None
    ) -> list[Delivery]:
        """As :meth:`Source.answers`; ``read``: the events :meth:`catch_up` read with
        ``current`` (``table_state``'s ``read``)."""
        groups: dict[int | None, list[Watcher]] = defaultdict(list)
        for w in behind:
            groups[w.version].append(w)
        with self._lock:
            seated_before = self._seated.get(key, frozenset())
        out: list[Delivery] = []
        final_version: int | None = None
        for since, watchers in groups.items():
            by_user: dict[int, list[Watcher]] = defaultdict(list)
            others: list[Watcher] = []
            for w in watchers:
                uid = _user_id(w.viewer)
                (by_user[uid] if uid in seated_before else others).append(w)
            if others:
                answer = selectors.table_state(
                    key, AnonymousUser(), since, fields=current, read=read
                )
                seats = self._remember(key, answer)
                data = message(answer["version"], encode(answer))
                final_version = _final(key, answer, final_version)
                for w in others:
                    uid = _user_id(w.viewer)
                    if uid in seats:  # seated at this version: their own answer below
                        by_user[uid].append(w)
                        continue
                    final = answer["version"] == final_version
                    out.append(Delivery(w, answer["version"], data, None, final))
            for users in by_user.values():
                answer = selectors.table_state(
                    key, users[0].viewer, since, fields=current, read=read
                )
                self._remember(key, answer)
                data = message(answer["version"], encode(answer))
                final_version = _final(key, answer, final_version)
                final = answer["version"] == final_version
                for w in users:
                    out.append(Delivery(w, answer["version"], data, answer["my_seat"], final))
        return out


def _user_id(user) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def _final(key: int, answer: dict, known: int | None) -> int | None:
    """The table's last version once it is over (read only for a table that ended)."""
    if known is not None or answer["table"]["status"] not in ("finished", "cancelled"):
        return known
    return selectors.table_over(key)


TABLES = TableSource()
"""The tables' source (``GET /api/tables/{id}/stream/``)."""
