"""Helpers of the tournaments tests that run whole events on the real worker."""

from __future__ import annotations

import copy
import io
import time
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import time_machine
from django.db.models import Count
from django.utils import timezone

from games import fairness_archive, signing
from games import services as games
from games.fairness import archive, transparency, verify_archive
from games.fairness.draw_record import verify_record
from games.fairness.receipt import load_public_key
from games.fairness.table_results import check_against_log, check_against_records
from games.fairness_selectors import match_records
from games.models import Seat, Table
from games.services import fairness_log
from tournaments import selectors
from tournaments.models import Entry, EntryStatus, Round, RoundTable, Status, Tournament
from wallet.models import Transaction
from wallet.selectors import is_escrow_closed

#: Table options that make a tournament match quick on the test worker: the shortest
#: variant's 8 deals, one-second timers (x0.01 on the worker).
QUICK = {"choose_timer": 1, "double_timer": 1, "play_timer": 1}


def check_in_everyone(tournament_id: int, skip: set[int] = frozenset()) -> None:
    """Every seated player of the tournament's playing tables (but ``skip``, user ids) looks
    at their table, as the table page does (``games.services.check_in``)."""
    for seat in Seat.objects.filter(
        table__tournament_table__round__tournament_id=tournament_id,
        table__status="playing",
        user__isnull=False,
        checked_in_at__isnull=True,
    ).select_related("user"):
        if seat.user_id not in skip:
            games.check_in(user=seat.user, table_id=seat.table_id)


def run_until(tournament_id: int, statuses, timeout: float = 400, skip=frozenset(), worker=None):
    """Check players in as rounds open until the tournament reaches one of ``statuses``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        t = Tournament.objects.get(pk=tournament_id)
        if t.status in statuses:
            return t
        check_in_everyone(tournament_id, skip)
        time.sleep(0.2)
    rounds = list(Round.objects.filter(tournament_id=tournament_id).values("number", "status"))
    tables = list(
        RoundTable.objects.filter(round__tournament_id=tournament_id).values(
            "round__number", "index", "table__status", "recorded_at"
        )
    )
    raise AssertionError(
        f"tournament {tournament_id} stuck in {t.status}: rounds {rounds}; tables {tables}"
        + (f"\nworker log:\n{worker.tail(4000)}" if worker else "")
    )


def end_review_now(tournament_id: int) -> None:
    Tournament.objects.filter(pk=tournament_id).update(
        review_ends_at=timezone.now() - timedelta(seconds=1)
    )


def check_finished(t: Tournament) -> None:
    """A finished tournament: each round opened once, every entrant placed, prizes sum to the
    pool less the house fee and were paid once and logged so, the seating record verifies."""
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    for r in rounds:
        assert r.status == "finished"
        assert r.tables.count() == len(r.seating["tables"])
    # Every games table the tournament made belongs to exactly one round table.
    made = Table.objects.filter(origin__startswith=f"{t.ref}/")
    assert made.count() == RoundTable.objects.filter(round__tournament=t).count()
    assert not made.values("origin").annotate(n=Count("id")).filter(n__gt=1).exists()
    taking_part = Entry.objects.filter(
        tournament=t, status__in=(EntryStatus.REGISTERED, EntryStatus.DISQUALIFIED)
    )
    assert taking_part.exists() and not taking_part.filter(place__isnull=True).exists()
    prizes = sum(e.prize for e in taking_part)
    assert prizes == t.pool - t.house_fee
    paid = Transaction.objects.filter(reference=t.ref, kind="prizes")
    assert paid.count() == (1 if t.pool else 0)
    # The prizes are in the public log: the ledger transaction, each entrant's prize.
    logged = [
        e["body"]
        for e in fairness_log.entries_of("event-payout")
        if e["body"]["event"] == t.ref and e["body"]["reason"] == "result"
    ]
    if t.pool:
        prized = {e.entrant: e.prize for e in taking_part if e.prize}
        assert [(b["transaction"], b["payouts"], b["house_fee"]) for b in logged] == [
            (paid.get().pk, prized, t.house_fee)
        ]
    else:
        assert logged == []
    assert is_escrow_closed(t.ref) or not t.pool
    record = selectors.draw_record(t.pk)
    summary = verify_record(record)
    assert summary["rounds"] == len(rounds) == summary["played"]
    # Every table names its match; its results are what its deal records give, and its
    # records are the log's.
    tables = RoundTable.objects.filter(round__tournament=t)
    assert summary["bound"] == tables.count()
    deals = [d for rt in tables for d in match_records(rt.table_id)]
    assert check_against_records(record, deals) == ([], tables.count())
    assert check_against_log(record, transparency.logged(fairness_log.entries())) == []
    if logged:
        check_archived(t)


def archived(t: Tournament) -> tuple[archive.Archive, list[str], list[str]]:
    """The auditor archive of the day the event paid out (its prizes, or its fees back), an
    entry logged the next day first, and ``trix verify``'s (problems, notes) of it."""
    (payout,) = [e for e in fairness_log.entries_of("event-payout") if e["body"]["event"] == t.ref]
    day = payout["logged_at"][:10]
    after = datetime.combine(date.fromisoformat(day) + timedelta(days=1), datetime.min.time())
    with time_machine.travel(after.replace(tzinfo=UTC), tick=False):
        # A day is archived once the log holds an entry after it: a match made the next day.
        commitment = fairness_log.match_commitment(
            match_id=f"after-{t.pk}", algorithm="trix-shuffle/1", commitment="c" * 64, deals=8
        )
        fairness_log.append([commitment])
        data = fairness_archive.daily_archive(day)
    read = archive.read(io.BytesIO(data))
    key = load_public_key(signing.current().public_bytes().hex())
    return read, *verify_archive.check(read, key)


def check_archived(t: Tournament) -> None:
    """The archive of the day the event paid its prizes holds its draw record, every match
    it names and the payout, and verifies: each table's results recomputed."""
    read, problems, notes = archived(t)
    (name,) = read.draws
    assert name == f"draws/{archive.file_name(t.ref)}.json"
    assert problems == [], problems
    key = load_public_key(signing.current().public_bytes().hex())

    def refused(changed: archive.Archive, expected: str) -> None:
        problems = verify_archive.check(changed, key)[0]
        assert any(expected in line for line in problems), problems

    cut = copy.deepcopy(read.draws[name])
    if len(cut["rounds"]) > 1:
        # The draw cut after its first round: every round shown has results, yet the prizes
        # were paid as if the event had ended there.
        del cut["rounds"][1:]
        refused(replace(read, draws={name: cut}), "the event's rules seat another round")
        # The same with the event's round count edited to match: the log's later matches of
        # the event's tables are named by no round.
        if "rounds" in cut["tournament"]:
            cut["tournament"]["rounds"] = 1
            refused(replace(read, draws={name: cut}), "which the record does not name")
    # A table's match left out of the archive (its deals were logged that day).
    first = next(iter(read.records))
    fewer = {n: r for n, r in read.records.items() if n != first}
    refused(replace(read, records=fewer), "but the archive has no record of it")
    # The event's tables key left out: the tables' commitments could not be checked.
    no_key = [(e, p) for e, p in read.context if e["kind"] != "tables-key"]
    if len(no_key) < len(read.context):
        refused(replace(read, context=no_key), "lacks its tables-key entry")
    tables = RoundTable.objects.filter(round__tournament=t).count()
    assert f"{t.ref}: the results of {tables} of its {tables} tables recomputed" in " ".join(
        notes
    ), notes
