"""Rating finished matches (ratings.services): the fixed set of two matches against the hand
reference, once per match, in finish order, and recomputed from history to the same numbers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import signals
from games.models import Table
from ratings import services, tasks
from ratings.models import Rating, RatingChange
from tests.ratings.conftest import finished_table
from tests.ratings.test_rating import MATCH_1, MATCH_2, hand_two_matches

pytestmark = pytest.mark.django_db


@pytest.fixture
def abc(make_user):
    return {who: make_user(who.lower() + "-player") for who in ("A", "B", "C")}


def play_fixed_set(abc):
    """MATCH_1 and MATCH_2 of test_rating as finished tables (solo), in that order."""
    made = []
    for match in (MATCH_1, MATCH_2):
        seats = [abc.get(who, who) for who in match["seats"]]
        made.append(finished_table(seats, match["places"]))
    return made


def snapshot():
    ratings = {
        (r.user_id, r.family): (r.mu, r.sigma, r.display, r.matches) for r in Rating.objects.all()
    }
    changes = {
        (c.table_id, c.user_id): (
            c.family, c.seat, c.place, c.mu_before, c.sigma_before, c.display_before,
            c.mu_after, c.sigma_after, c.display_after,
        )
        for c in RatingChange.objects.all()
    }  # fmt: skip
    return ratings, changes


def test_the_fixed_set_of_two_matches_equals_the_hand_reference(abc):
    for table in play_fixed_set(abc):
        services.rate_table(table_id=table.pk)
    hand = hand_two_matches()
    for who, user in abc.items():
        r = Rating.objects.get(user=user, family="solo")
        assert (r.mu, r.sigma) == pytest.approx(hand[who], abs=1e-9)
        assert r.display == round(1000 + 25 * (hand[who][0] - 3 * hand[who][1]))
        assert r.matches == 2
    assert not Rating.objects.filter(family="partnership").exists()
    a = RatingChange.objects.filter(user=abc["A"]).order_by("finished_at")
    assert [(c.place, c.display_before) for c in a] == [(1, 1000), (4, 1085)]
    assert a[1].display_after == Rating.objects.get(user=abc["A"]).display


def test_a_match_is_rated_once(abc):
    first, _ = play_fixed_set(abc)
    made = services.rate_table(table_id=first.pk)
    before = snapshot()
    again = services.rate_table(table_id=first.pk)
    assert [c.pk for c in again] == [c.pk for c in made] and len(made) == 3
    assert snapshot() == before


def test_a_resent_signal_changes_nothing(abc, monkeypatch, django_capture_on_commit_callbacks):
    """The receiver sends the task after the commit; here the task runs in place."""
    monkeypatch.setattr(tasks.rate_table, "delay", lambda table_id: tasks.rate_table(table_id))
    first, _ = play_fixed_set(abc)
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            signals.table_finished.send(
                sender=Table, table_id=first.pk, kind="casual", origin="", status="finished"
            )
    assert RatingChange.objects.filter(table=first).count() == 3
    assert Rating.objects.get(user=abc["A"]).matches == 1


def test_cancelled_and_personless_tables_are_not_rated(abc, monkeypatch):
    sent = []
    monkeypatch.setattr(tasks.rate_table, "delay", sent.append)
    cancelled = finished_table(
        [abc["A"], "rules", "rules", "rules"], (1, 2, 3, 4), status="cancelled"
    )
    bots = finished_table(["rules", "random", "rules", "random"], (1, 2, 3, 4))
    assert services.rate_table(table_id=cancelled.pk) == []
    assert services.rate_table(table_id=bots.pk) == []
    assert services.rate_table(table_id=999_999) == []
    signals.table_finished.send(sender=Table, table_id=cancelled.pk, status="cancelled")
    assert sent == []
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert services.unrated_tables() == []


def test_a_forfeit_is_rated_with_the_leaver_last(abc):
    """The engine ranks the leaver (solo) or the leaver's team (partnership) last."""
    solo = finished_table([abc["A"], abc["B"], abc["C"], "rules"], (4, 1, 2, 3), forfeit=0)
    services.rate_table(table_id=solo.pk)
    assert RatingChange.objects.get(table=solo, user=abc["A"]).place == 4
    assert Rating.objects.get(user=abc["A"]).display < Rating.objects.get(user=abc["B"]).display
    team = finished_table(
        [abc["A"], abc["B"], abc["C"], "rules"], (3, 1, 3, 1), variant="trix_partner", forfeit=2
    )
    services.rate_table(table_id=team.pk)
    a = Rating.objects.get(user=abc["A"], family="partnership")
    b = Rating.objects.get(user=abc["B"], family="partnership")
    assert a.mu < 25 < b.mu and a.matches == b.matches == 1


def _history(abc, make_user):
    """A mixed history: solo and partnership, bots of both kinds, ties, a forfeit, a
    cancelled table, tables finishing in another order than their ids."""
    d = make_user("d-player")
    now = timezone.now()
    A, B, C = abc["A"], abc["B"], abc["C"]
    return [
        finished_table([A, B, C, d], (1, 2, 3, 4), finished_at=now + timedelta(minutes=5)),
        finished_table([B, "rules", A, "random"], (2, 1, 2, 4), finished_at=now),
        finished_table(
            [A, B, C, d], (1, 3, 1, 3), variant="complex_partner", finished_at=now + timedelta(1)
        ),
        finished_table([d, C, "rules", A], (1, 1, 1, 1), variant="trix_partner"),
        finished_table([C, A, d, B], (4, 1, 2, 3), forfeit=0, variant="trix"),
        finished_table([C, A, d, B], (1, 2, 3, 4), status="cancelled"),
        finished_table([A, B, C, d], (2, 2, 2, 2), finished_at=now + timedelta(minutes=1)),
    ]


def test_recompute_gives_the_same_numbers(abc, make_user):
    tables = _history(abc, make_user)
    order = sorted(
        (t for t in tables if t.status == "finished"), key=lambda t: (t.finished_at, t.pk)
    )
    for table in order:  # as the signals came, in finish order
        services.rate_table(table_id=table.pk)
    incremental = snapshot()
    assert len(incremental[0]) == 8  # four players, two families
    assert services.recompute() == {"matches": 6, "players": 8}
    assert snapshot() == incremental
    call_command("recompute_ratings")
    assert snapshot() == incremental


def test_the_sweep_rates_missed_matches_in_finish_order(abc, make_user):
    tables = _history(abc, make_user)
    services.rate_table(table_id=tables[1].pk)  # the earliest, rated by its signal
    missed = services.unrated_tables()
    finished = [t for t in tables if t.status == "finished" and t.pk != tables[1].pk]
    assert missed == [t.pk for t in sorted(finished, key=lambda t: (t.finished_at, t.pk))]
    assert tasks.sweep() == 5
    swept = snapshot()
    services.recompute()
    assert snapshot() == swept
    assert services.unrated_tables() == []


def test_the_sweep_looks_at_the_newest_tables_only(abc, monkeypatch):
    old, new = play_fixed_set(abc)
    monkeypatch.setattr(services, "SWEEP_TABLES", 1)
    assert services.unrated_tables() == [new.pk]
    monkeypatch.setattr(services, "SWEEP_TABLES", 2)
    assert services.unrated_tables() == [old.pk, new.pk]
