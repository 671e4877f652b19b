"""Whole tournaments on the real Celery worker: the rounds open by themselves (each once),
every entrant gets a final place, the prizes (the pool less the house fee) are paid once after
the review window, and the published trix-draw/1 record recomputes every seating."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import DRAW_SECRET as SECRET
from tests.tournaments.helpers import QUICK, check_finished, run_until
from tournaments import selectors, services
from tournaments.models import AdminAction, Entry, Round, RoundTable, Status
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)


def assert_final_decides_top(t, places: list[int]) -> None:
    """``places`` (every unit's final place, sorted) begin with the final table's units, placed
    as a competition ranking (ties share, the next skips: docs/tournaments.md "Final places")
    of their place at that table, then their match score there (higher first); every other
    unit comes after them."""
    final = RoundTable.objects.get(round__tournament=t, round__kind="final")
    keys = sorted((r["place"], -r["score"]) for r in final.result["results"] if r["unit"])
    expected = [1 + sum(other < key for other in keys) for key in keys]
    assert places[: len(expected)] == expected, (places, final.result)
    assert all(p > len(expected) for p in places[len(expected) :]), places


def _event(make_tournament, player, staff, count: int, **params):
    t = make_tournament(options=QUICK, capacity=64, review_seconds=0, **params)
    users = [player(f"p{t.pk}-{i:02d}") for i in range(count)]
    for i, user in enumerate(users):
        services.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")
    return t, users


def test_16_solo_knockout(worker, make_tournament, player, staff):
    t, users = _event(
        make_tournament, player, staff, 16, format="knockout", advance=2,
        prize_bps=[5000, 3000, 2000],
    )  # fmt: skip
    services.start(tournament_id=t.pk, by=staff, reason="everyone is here")
    t = run_until(t.pk, (Status.FINISHED,), worker=worker)  # no review window: paid at once
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [len(r.seating["tables"]) for r in rounds] == [4, 2, 1]
    assert [r.kind for r in rounds] == ["knockout", "knockout", "final"]
    assert all(None not in table for r in rounds for table in r.seating["tables"])
    bracket = selectors.bracket(t.pk)
    assert [len(r["tables"]) for r in bracket["rounds"]] == [4, 2, 1]
    assert all(len(x["advanced"]) == 2 for r in bracket["rounds"][:2] for x in r["tables"])
    assert bracket["rounds"][2]["tables"][0]["advanced"] == []
    check_finished(t)
    places = sorted(Entry.objects.filter(tournament=t).values_list("place", flat=True))
    assert_final_decides_top(t, places)
    assert max(places) <= 16
    assert t.pool == 1600 and t.house_fee == 160
    assert sum(wallet_balance(u) for u in users) == 16 * 10_000 - 160


def test_13_solo_swiss_with_bots(worker, make_tournament, player, staff):
    now = timezone.now()  # the beat closes registration and starts the event by itself
    t, users = _event(
        make_tournament, player, staff, 13, format="swiss", rounds=2,
        registration_closes_at=now + timedelta(seconds=6), starts_at=now + timedelta(seconds=7),
    )  # fmt: skip
    version = selectors.live_version(t.pk)
    t = run_until(t.pk, (Status.RUNNING,), timeout=30, worker=worker)
    assert selectors.live_version(t.pk) > version
    assert not AdminAction.objects.filter(tournament=t, action="start").exists()
    t = run_until(t.pk, (Status.FINISHED,), worker=worker)  # no review window: paid at once
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert len(rounds) == 2
    for r in rounds:  # 13 = 4 + 3 + 3 + 3: three bot seats, one per table
        assert sorted(sum(u is None for u in table) for table in r.seating["tables"]) == [
            0, 1, 1, 1,
        ]  # fmt: skip
    standings = selectors.standings(t.pk)
    assert len(standings) == 13 and standings[0]["rank"] == 1
    after_one = selectors.standings(t.pk, after_round=1)
    assert sum(s["points"] for s in after_one) < sum(s["points"] for s in standings)
    assert all(s["points"] == 0 for s in selectors.standings(t.pk, after_round=0))
    check_finished(t)
    bracket = selectors.bracket(t.pk)
    assert len(bracket["final"]) == 13 and bracket["final"][0]["place"] == 1


def test_8_teams_partnership_swiss_with_final(worker, make_tournament, player, staff):
    t = make_tournament(
        variant="complex_partner", options=QUICK, format="swiss", rounds=2, final_table=True,
        capacity=8, min_entrants=2, review_seconds=0, prize_bps=[6000, 4000],
    )  # fmt: skip
    users = [player(f"team{t.pk}-{i:02d}") for i in range(16)]
    for i in range(0, 16, 2):
        services.register(tournament_id=t.pk, by=users[i], client_seed=f"s{i}")
        team = services.invite_partner(
            tournament_id=t.pk, by=users[i], display_name=users[i + 1].username
        )
        services.accept_invite(team_id=team.pk, by=users[i + 1], client_seed=f"s{i + 1}")
    services.start(tournament_id=t.pk, by=staff, reason="early")
    t = run_until(t.pk, (Status.FINISHED,), worker=worker)  # no review window: paid at once
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [r.kind for r in rounds] == ["swiss", "swiss", "final"]
    assert [len(r.seating["tables"]) for r in rounds] == [4, 4, 1]
    check_finished(t)
    # Partners share their team's place and its prize, halved.
    for i in range(0, 16, 2):
        a, b = (Entry.objects.get(tournament=t, user=users[j]) for j in (i, i + 1))
        assert a.place == b.place and a.team_id == b.team_id
        assert abs(a.prize - b.prize) <= 1
    assert sum(e.prize for e in Entry.objects.filter(tournament=t)) == 1600 - 160
    assert t.draw_seed == SECRET.hex()


def test_5_teams_partnership_knockout_with_byes(worker, make_tournament, player, staff):
    t = make_tournament(
        variant="complex_partner", options=QUICK, format="knockout", capacity=8,
        min_entrants=2, review_seconds=0, prize_bps=[7000, 3000],
    )  # fmt: skip
    users = [player(f"ko{t.pk}-{i:02d}") for i in range(10)]
    for i in range(0, 10, 2):
        services.register(tournament_id=t.pk, by=users[i], client_seed=f"s{i}")
        team = services.invite_partner(
            tournament_id=t.pk, by=users[i], display_name=users[i + 1].username
        )
        services.accept_invite(team_id=team.pk, by=users[i + 1], client_seed=f"s{i + 1}")
    services.start(tournament_id=t.pk, by=staff, reason="early")
    t = run_until(t.pk, (Status.FINISHED,), worker=worker)  # no review window: paid at once
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [(len(r.seating["tables"]), len(r.seating["byes"])) for r in rounds] == [
        (2, 1), (1, 1), (1, 0),
    ]  # fmt: skip
    assert rounds[-1].kind == "final"
    check_finished(t)
    team_places = {e.team_id: e.place for e in Entry.objects.filter(tournament=t)}
    assert_final_decides_top(t, sorted(team_places.values()))
