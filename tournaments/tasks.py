"""Celery tasks of tournaments: thin, each calls one service (imported inside, so this module
imports without Django set up). Every service they call is idempotent, so a redelivered or
duplicated message changes nothing; the beat's :func:`sweep` re-sends what a killed worker
lost."""

from __future__ import annotations

from celery import shared_task


def _services():
    from tournaments import services

    return services


@shared_task(name="tournaments.tasks.start_due")
def start_due() -> int:
    """Beat: send a start task for every tournament whose start time has come."""
    return _services().start_due()


@shared_task(name="tournaments.tasks.start")
def start(tournament_id: int) -> None:
    """Start one tournament at its start time (cancelled below its minimum)."""
    _services().start(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.close_registration")
def close_registration(tournament_id: int) -> None:
    """Close registration at its closing time (incomplete teams refunded)."""
    _services().close_registration(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.advance")
def advance(tournament_id: int) -> None:
    """Open the next round, or finish, when the current round is complete."""
    _services().advance(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.table_finished")
def table_finished(table_id: int) -> None:
    """A tournament table ended: record its result, then move the tournament on."""
    services = _services()
    rt = services.record_table_result(table_id=table_id)
    if rt is not None and rt.recorded_at is not None:
        services.advance(tournament_id=rt.round.tournament_id)


@shared_task(name="tournaments.tasks.deal_ended")
def deal_ended(table_id: int) -> None:
    """A deal ended at a tournament table: the live page shows its running scores."""
    _services().table_deal_ended(table_id=table_id)


@shared_task(
    name="tournaments.tasks.pay_prizes", autoretry_for=(Exception,), retry_backoff=True,
    max_retries=8,
)  # fmt: skip
def pay_prizes(tournament_id: int) -> None:
    """After the review window: pay the prizes, exactly once."""
    _services().pay_prizes(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.sweep")
def sweep() -> dict:
    """Beat: the safety net (lost results, rounds not advanced, prizes due)."""
    return _services().sweep()
