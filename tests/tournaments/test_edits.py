"""Editing a tournament after its creation (``tournaments.edits``): the edits that touch no
registered entrant's money or seat are taken and recorded with who, when, why, old and new;
every other edit is refused and changes nothing."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from tests.tournaments.conftest import snapshot
from tournaments import edits, services
from tournaments.errors import BadRequest, Conflict, NotAllowed, NotFound
from tournaments.models import Entry, Status, Tournament, TournamentEdit

pytestmark = pytest.mark.django_db


def refused(exc_type, match, **kwargs):
    """``edits.edit_tournament(**kwargs)`` raises ``exc_type`` matching ``match`` and
    changes nothing (no field, no edit row, no version)."""
    before = snapshot()
    with pytest.raises(exc_type, match=match) as info:
        edits.edit_tournament(**kwargs)
    assert snapshot() == before
    return info.value


def test_name_description_times_prizes_and_capacity_before_anyone_registers(make_tournament, staff):
    t = make_tournament(draft=True)
    version = t.version
    now = timezone.now()
    opens, closes, starts = (now + timedelta(hours=h) for h in (1, 2, 3))
    edited = edits.edit_tournament(
        tournament_id=t.pk,
        by=staff,
        reason="  moved to the weekend  ",
        name="  Weekend cup ",
        description="Sixteen players, shoot-out.",
        registration_opens_at=opens,
        registration_closes_at=closes,
        starts_at=starts,
        prize_bps=[7000, 3000],
        capacity=12,
    )
    t.refresh_from_db()
    assert (t.name, t.description, t.prize_bps, t.capacity) == (
        "Weekend cup",
        "Sixteen players, shoot-out.",
        [7000, 3000],
        12,
    )
    assert (t.registration_opens_at, t.registration_closes_at, t.starts_at) == (
        opens,
        closes,
        starts,
    )
    assert edited.pk == t.pk and t.version == version + 1 and t.status == Status.DRAFT
    rows = list(TournamentEdit.objects.filter(tournament=t).order_by("id"))
    assert [r.field for r in rows] == list(edits.EDITABLE)
    assert {(r.by_id, r.reason) for r in rows} == {(staff.pk, "moved to the weekend")}
    by_field = {r.field: (r.old, r.new) for r in rows}
    assert by_field["name"] == ("Test cup", "Weekend cup")
    assert by_field["description"] == ("", "Sixteen players, shoot-out.")
    assert by_field["prize_bps"] == ([5000, 3000, 2000], [7000, 3000])
    assert by_field["capacity"] == (16, 12)
    assert by_field["starts_at"][1] == starts.isoformat()
    assert all(r.at is not None for r in rows)


def test_an_unchanged_value_is_not_recorded_and_no_change_at_all_is_refused(make_tournament, staff):
    t = make_tournament()
    edits.edit_tournament(tournament_id=t.pk, by=staff, reason="typo", name="Test cup", capacity=20)
    assert list(TournamentEdit.objects.values_list("field", flat=True)) == ["capacity"]
    refused(BadRequest, "nothing to change", tournament_id=t.pk, by=staff, reason="again",
            name="Test cup", capacity=20, starts_at=t.starts_at)  # fmt: skip


def test_after_a_registration_capacity_only_grows_and_the_prizes_are_fixed(
    make_tournament, staff, player
):
    t = make_tournament()
    bob = player()
    services.register(tournament_id=t.pk, by=bob, client_seed="bob-seed")
    services.unregister(tournament_id=t.pk, by=bob)  # a withdrawn entry still counts
    base = {"tournament_id": t.pk, "by": staff, "reason": "why not"}
    error = refused(Conflict, "before the first registration", **base, prize_bps=[10000])
    assert error.code == "registered"
    error = refused(Conflict, "capacity can only grow", **base, capacity=8)
    assert error.code == "registered"
    # one refused field refuses the whole edit: the name given with it is not changed
    refused(Conflict, "capacity can only grow", **base, name="Renamed", capacity=8)
    edits.edit_tournament(**base, capacity=32, name="Bigger cup")
    t.refresh_from_db()
    assert (t.capacity, t.name, t.prize_bps) == (32, "Bigger cup", [5000, 3000, 2000])


def test_capacity_bounds(make_tournament, staff, settings):
    t = make_tournament(min_entrants=4, prize_bps=[5000, 3000, 2000])
    base = {"tournament_id": t.pk, "by": staff, "reason": "size"}
    error = refused(BadRequest, "^capacity is 3, below the minimum to start", **base, capacity=3)
    assert "raise the capacity" in error.message
    settings.TRIX_TOURNAMENT_MAX_ENTRANTS = 64
    refused(BadRequest, "capacity must be at most 64", **base, capacity=65)
    refused(BadRequest, "whole number", **base, capacity="12")
    t5 = make_tournament(min_entrants=2, prize_bps=[4000, 3000, 2000, 1000])
    refused(BadRequest, "pays 4 places; the event takes 3", tournament_id=t5.pk, by=staff,
            reason="x", capacity=3)  # fmt: skip


def test_times_change_before_the_start_only(make_tournament, staff, player):
    t = make_tournament()  # registration open since a minute ago
    base = {"tournament_id": t.pk, "by": staff, "reason": "later"}
    later = timezone.now() + timedelta(days=1)
    error = refused(Conflict, "registration opens has passed", **base,
                    registration_opens_at=later - timedelta(hours=2))  # fmt: skip
    assert error.code == "wrong_status"
    refused(BadRequest, "close by the start", **base, registration_closes_at=later)
    refused(BadRequest, "start must be in the future", **base,
            starts_at=timezone.now() - timedelta(minutes=1))  # fmt: skip
    refused(BadRequest, "with its time zone", **base,
            starts_at=later.replace(tzinfo=None))  # fmt: skip
    edits.edit_tournament(**base, registration_closes_at=later, starts_at=later)
    t.refresh_from_db()
    assert t.registration_closes_at == later == t.starts_at
    players = [player() for _ in range(4)]
    for i, p in enumerate(players):
        services.register(tournament_id=t.pk, by=p, client_seed=f"seed-{i}")
    services.close_registration(tournament_id=t.pk)  # closed: only the start may move
    t.refresh_from_db()
    assert t.status == Status.CLOSED
    refused(Conflict, "only while registration is not closed", **base,
            registration_closes_at=later + timedelta(hours=1))  # fmt: skip
    refused(Conflict, "only while registration is not closed", **base, capacity=40)
    edits.edit_tournament(**base, starts_at=later + timedelta(hours=1))
    services.start(tournament_id=t.pk, by=staff, reason="go")
    refused(Conflict, "only before the start", **base, starts_at=later + timedelta(hours=2))
    # the name and description still change while it runs
    edits.edit_tournament(**base, name="Running cup", description="on now")
    assert Tournament.objects.get(pk=t.pk).name == "Running cup"


def test_fixed_fields_unknown_tournament_reason_and_staff(make_tournament, staff, player):
    t = make_tournament()
    base = {"tournament_id": t.pk, "reason": "x"}
    refused(NotAllowed, "only staff may edit tournaments", **base, by=player(), name="Mine")
    refused(NotAllowed, "only staff", **base, by=None, name="Mine")
    refused(BadRequest, "give a reason", tournament_id=t.pk, by=staff, reason=" ", name="N")
    refused(NotFound, "no tournament", tournament_id=999999, by=staff, reason="x", name="N")
    refused(BadRequest, "name must be 1 to 100", **base, by=staff, name=" ")
    refused(BadRequest, "description must be text", **base, by=staff, description="x" * 2001)
    with pytest.raises(BadRequest, match="entry_fee cannot change once the tournament"):
        edits.check_edit(t, {"entry_fee": 0, "name": "Free"})
    with pytest.raises(TypeError):
        edits.edit_tournament(**base, by=staff, entry_fee=0)  # no such keyword


def test_a_refused_edit_after_a_valid_check_still_changes_nothing(make_tournament, staff):
    """The prizes change with a capacity too small for them: refused as a whole."""
    t = make_tournament(min_entrants=2, capacity=4, prize_bps=[6000, 4000])
    refused(BadRequest, "pays 5 places; the event takes 4", tournament_id=t.pk, by=staff,
            reason="x", prize_bps=[2000] * 5)  # fmt: skip


def _someone_waits_for_a_lock() -> bool:
    """Whether another connection waits for a row lock (asked on a fresh connection: a
    transaction sees one snapshot of pg_stat_activity)."""
    found = []

    def ask():
        try:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
                )
                found.append(cursor.fetchone()[0] > 0)
        finally:
            connections.close_all()

    thread = threading.Thread(target=ask)
    thread.start()
    thread.join()
    return found[0]


@pytest.mark.django_db(transaction=True)
def test_an_edit_waits_for_a_registration_holding_the_row(make_tournament, staff, player):
    """The edit locks the tournament row: a prize table edit that arrives while a
    registration holds the row waits for it, then sees the entry and is refused (checked
    before the lock, it would have changed the prizes an entrant had just paid under)."""
    from tests.games.helpers import wait_until

    assert connection.vendor == "postgresql", "run with ./dev test (PostgreSQL)"
    t = make_tournament()
    bob = player()
    outcome = {}

    def edit():
        try:
            edits.edit_tournament(tournament_id=t.pk, by=staff, reason="x", prize_bps=[10000])
        except Conflict as exc:
            outcome["refused"] = exc.code
        else:
            outcome["changed"] = True
        finally:
            connections.close_all()

    thread = threading.Thread(target=edit)
    with transaction.atomic():  # a registration in progress: the row locked, an entry made
        Tournament.objects.select_for_update().get(pk=t.pk)
        Entry.objects.create(tournament=t, user=bob, client_seed="bob-seed")
        thread.start()
        wait_until(_someone_waits_for_a_lock, 30)
    thread.join(30)
    assert outcome == {"refused": "registered"}
    t.refresh_from_db()
    assert t.prize_bps == [5000, 3000, 2000] and not t.edits.exists()
