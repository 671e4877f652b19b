"""Live updates: how a page learns of a table's (or a tournament's) next version without
asking again and again. Each module has one job:

- :mod:`~games.live.listener`: the process's one PostgreSQL ``LISTEN`` on the channel every
  committed change notifies (a thread, reconnecting after a loss);
- :mod:`~games.live.long_poll`: a state poll's wait for the next version
  (``GET /api/tables/{id}/state/?since=V&wait=S``);
- :mod:`~games.live.hub`: the live streams' fan-out on the server's event loop, one feed per
  watched key;
- :mod:`~games.live.sources`: what a stream of each kind of key sends to each audience;
- :mod:`~games.live.watchers`: one open stream as the hub sees it, and its bounded mailbox;
- :mod:`~games.live.sse` and :mod:`~games.live.patch`: the Server-Sent Events messages and
  the JSON patches some of them carry;
- :mod:`~games.live.streams`: one stream's body and the views' answer
  (``GET /api/tables/{id}/stream/``, ``GET /api/tournaments/{id}/stream/``).

Without PostgreSQL (SQLite, the embedded default) there are no notifications: waits and feeds
read the version every :data:`games.live.long_poll.POLL` seconds.
"""
