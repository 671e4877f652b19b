"""The beat's tasks: the safety net that re-sends whatever is due, so a killed worker loses
nothing."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.models import TableStatus
from tournaments import dispatch
from tournaments.models import Round, RoundTable, Status, Tournament


def sweep() -> dict[str, int]:
    """Beat: the safety net, so a killed worker loses nothing. Sends tasks for registration
    due to close, tournaments due to start, finished tables not recorded, running
    tournaments whose round is complete or that have no round yet, and prizes due.
    Returns counts."""
    now = timezone.now()
    late = now - timedelta(seconds=settings.TRIX_SWEEP_LATE)
    counts = {"close": 0, "start": 0, "record": 0, "advance": 0, "pay": 0}
    for tid in Tournament.objects.filter(
        status=Status.REGISTRATION, registration_closes_at__lte=now
    ).values_list("pk", flat=True):
        dispatch.send("close_registration", tid)
        counts["close"] += 1
    counts["start"] = start_due()
    for table_id in RoundTable.objects.filter(
        recorded_at__isnull=True,
        table__status__in=(TableStatus.FINISHED, TableStatus.CANCELLED),
        round__tournament__status__in=(Status.RUNNING, Status.PAUSED),
    ).values_list("table_id", flat=True):
        dispatch.send("table_finished", table_id)
        counts["record"] += 1
    for t in Tournament.objects.filter(status=Status.RUNNING, started_at__lt=late):
        last = Round.objects.filter(tournament=t).order_by("-number").first()
        if last is None or not last.tables.filter(recorded_at__isnull=True).exists():
            dispatch.send("advance", t.pk)  # no round yet, or every table of the last one recorded
            counts["advance"] += 1
    for tid in Tournament.objects.filter(status=Status.REVIEW, review_ends_at__lte=now).values_list(
        "pk", flat=True
    ):
        dispatch.send("pay_prizes", tid)
        counts["pay"] += 1
    return counts


def start_due() -> int:
    """Beat: send a start task for every tournament whose start time has come."""
    due = Tournament.objects.filter(
        status__in=(Status.REGISTRATION, Status.CLOSED), starts_at__lte=timezone.now()
    ).values_list("pk", flat=True)
    for tid in due:
        dispatch.send("start", tid)
    return len(due)
