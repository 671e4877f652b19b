"""Receivers of other apps' signals: a tournament table that ends is recorded by a task; a
deal that ends at one shows its running scores on the live page (a task bumps the version)."""

from __future__ import annotations

#: The origin prefix of a tournament's tables (``tournament:12/round:3/table:2``).
ORIGIN_PREFIX = "tournament:"


def on_table_finished(sender=None, *, table_id: int, kind: str = "", origin: str = "", **_):
    """``games.signals.table_finished``: a tournament table finished or was cancelled; send
    the task that records it and advances the tournament (after the commit, if any)."""
    if kind != "tournament" or not str(origin).startswith(ORIGIN_PREFIX):
        return
    from tournaments import dispatch

    dispatch.send_on_commit("table_finished", table_id)


def on_deal_ended(sender=None, *, table_id: int, kind: str = "", origin: str = "", **_):
    """``games.signals.deal_ended``: a deal ended at a tournament table still playing; send
    the task that shows its running scores on the live page (after the commit, if any)."""
    if kind != "tournament" or not str(origin).startswith(ORIGIN_PREFIX):
        return
    from tournaments import dispatch

    dispatch.send_on_commit("deal_ended", table_id)
