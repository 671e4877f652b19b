"""Celery tasks of ratings: rate a finished match; the beat's sweep rates what was missed."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="ratings.tasks.rate_table")
def rate_table(table_id: int) -> int:
    """Rate finished table ``table_id`` once (``ratings.services.rate_table``); how many
    players' ratings it holds changes for."""
    from ratings import services

    return len(services.rate_table(table_id=table_id))


@shared_task(name="ratings.tasks.sweep")
def sweep() -> int:
    """Beat: rate finished tables no signal got rated (a worker lost after the commit)."""
    from ratings import services

    return services.rate_unrated()
