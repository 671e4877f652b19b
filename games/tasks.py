"""Celery tasks: each one calls a service that locks the table row and applies one change.

Tasks are idempotent: a wake-up for an old version, an action already applied, a table
already settled are no-ops, so a redelivered or duplicated message changes nothing.
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
    """Apply a submitted seat action (by its id) to its table."""
    _services().apply_action(action_id)


@shared_task(name="games.tasks.wake")
def wake(table_id: int, version: int) -> None:
    """The table's timer for ``version``: next deal, a bot's turn, or a timeout."""
    _services().wake(table_id, version)


@shared_task(
    name="games.tasks.settle",
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=8,
)
def settle(table_id: int) -> None:
    """Pay a finished table's pot through the wallet, once."""
    _services().settle(table_id)


@shared_task(name="games.tasks.sweep_tables")
def sweep_tables() -> dict:
    """Celery beat: catch lost timers, pending actions and unsettled tables."""
    return _services().sweep()
