"""Celery tasks: each one calls a service that locks the table row and applies one change.

Tasks are idempotent: a wake-up for an old version, an action already applied, a table's pot
already paid are no-ops, so a redelivered or duplicated message changes nothing. Their
positional arguments are the message format (queued messages keep working); they call the
services with keywords. Only :mod:`games.services.dispatch` sends them.
"""

from __future__ import annotations

from celery import shared_task


def _services():
    # Imported on use, so this module imports without Django set up (``./dev run`` checks
    # ``import games.tasks`` before it starts a worker).
    from games import services

    return services


@shared_task(name="games.tasks.apply_action")
def apply_action(action_id: str) -> None:
    """Apply a seat action stored pending (by its id) to its table: a row an older release
    queued, re-sent by the sweep."""
    _services().apply_action(action_id=action_id)


@shared_task(name="games.tasks.wake")
def wake(table_id: int, version: int) -> None:
    """The table's timer for ``version``: next deal, a bot's turn, or a timeout."""
    _services().wake(table_id=table_id, version=version)


_PAY_POT = {"autoretry_for": (Exception,), "retry_backoff": True, "max_retries": 8}


@shared_task(name="games.tasks.pay_pot", **_PAY_POT)
def pay_pot(table_id: int) -> None:
    """Pay a finished table's pot through the wallet, once."""
    _services().pay_pot(table_id=table_id)


@shared_task(name="games.tasks.settle", **_PAY_POT)
def settle(table_id: int) -> None:
    """The former name of :func:`pay_pot`, still registered so messages queued before the
    rename run; nothing sends it any more."""
    _services().pay_pot(table_id=table_id)


@shared_task(name="games.tasks.sweep_tables")
def sweep_tables() -> dict:
    """Celery beat: catch lost timers, pending actions and unpaid pots."""
    return _services().sweep()


@shared_task(name="games.tasks.expire_open_tables")
def expire_open_tables() -> list[int]:
    """Celery beat: cancel open tables nobody filled in time, refunding every stake."""
    return _services().expire_open_tables()
