"""Creating tournaments, registering, teams and unregistering: the money moves through the
wallet, and every refusal has a clear message and writes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from tests.tournaments.conftest import snapshot
from tournaments import edits, selectors, services
from tournaments.errors import BadRequest, Conflict, NotAllowed, NotFound
from tournaments.models import AdminAction, Entry, EntryStatus, Status, TeamStatus, Tournament
from wallet.selectors import escrow_balance, wallet_balance

pytestmark = pytest.mark.django_db


def refused(exc_type, match, call, **kwargs):
    """``call(**kwargs)`` raises ``exc_type`` matching ``match`` and changes nothing."""
    before = snapshot()
    with pytest.raises(exc_type, match=match) as info:
        call(**kwargs)
    assert snapshot() == before
    return info.value


def test_only_staff_create_and_bad_parameters_are_named(player, make_tournament, staff):
    user = player()
    refused(NotAllowed, "only staff may create", make_tournament, by=user)
    refused(NotAllowed, "only staff", make_tournament, by=None)
    refused(BadRequest, "format must be", make_tournament, format="league")
    refused(BadRequest, "advance", make_tournament, format="knockout", advance=3)
    refused(BadRequest, "rounds", make_tournament, rounds=0)
    refused(BadRequest, "summing to 10000", make_tournament, prize_bps=[5000, 3000])
    refused(BadRequest, r"“Play timer \(s\)”", make_tournament, options={"play_timer": 0})
    refused(BadRequest, "minimum", make_tournament, min_entrants=40)
    refused(BadRequest, "entry fee", make_tournament, entry_fee=-1)
    refused(BadRequest, "registration must open", make_tournament,
            starts_at=timezone.now() - timedelta(hours=1))  # fmt: skip
    refused(BadRequest, "no table option “speed”", make_tournament, options={"speed": 3})
    t = make_tournament(variant="complex_partner", format="knockout", advance=2)
    assert t.team_mode and t.advance == 1 and t.status == Status.REGISTRATION
    assert t.draw_commitment and t.draw_secret.startswith("trix-seal/1:")  # sealed at rest
    assert len(services.open_draw_secret(t)) == 32
    assert AdminAction.objects.filter(tournament=t, action="create", by=staff).exists()


@pytest.mark.parametrize(
    ("team", "capacity", "minimum", "message"),
    [
        (False, 3, 4, "capacity (entrants): 3 is below the minimum to start (4)"),
        (True, 2, 3, "capacity (teams): 2 is below the minimum to start (3)"),
    ],
)
def test_a_capacity_below_the_minimum_blames_the_capacity(
    make_tournament, team, capacity, minimum, message
):
    """The capacity is what is too small: the message names it first, with both numbers."""
    variant = "complex_partner" if team else "complex"
    error = refused(BadRequest, "^capacity", make_tournament, variant=variant,
                    capacity=capacity, min_entrants=minimum)  # fmt: skip
    assert error.message.startswith(message)


def test_register_pays_the_fee_and_refusals_write_nothing(player, make_tournament):
    t = make_tournament(capacity=2, min_entrants=2, prize_bps=[7000, 3000])
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    entry = services.register(tournament_id=t.pk, by=alice, client_seed="alice-seed")
    assert entry.paid == 100 and entry.status == EntryStatus.REGISTERED
    assert wallet_balance(alice) == 9_900 and escrow_balance(t.ref) == 100

    e = refused(Conflict, "already registered", services.register, tournament_id=t.pk, by=alice)
    assert e.code == "already_registered"
    poor = player("poor", funds=50)
    e = refused(Conflict, "not enough funds.*0.50 USD", services.register,
                tournament_id=t.pk, by=poor, client_seed="s")  # fmt: skip
    assert e.code == "insufficient_funds"
    broke = player("broke", funds=0)
    refused(Conflict, "not enough funds", services.register, tournament_id=t.pk, by=broke,
            client_seed="s")  # fmt: skip
    refused(BadRequest, "client seed", services.register, tournament_id=t.pk, by=bob,
            client_seed="")  # fmt: skip
    bob.is_active = False
    bob.save()
    e = refused(NotAllowed, "suspended", services.register, tournament_id=t.pk, by=bob)
    assert e.code == "suspended"
    services.register(tournament_id=t.pk, by=player("dave"), client_seed="my-seed")
    e = refused(Conflict, "is full", services.register, tournament_id=t.pk, by=carol)
    assert e.code == "full"
    refused(NotFound, "no tournament", services.register, tournament_id=999999, by=carol)


def test_registration_window(player, make_tournament):
    now = timezone.now()
    early = make_tournament(registration_opens_at=now + timedelta(minutes=5))
    refused(Conflict, "opens at", services.register, tournament_id=early.pk, by=player())
    late = make_tournament()
    Tournament.objects.filter(pk=late.pk).update(
        registration_opens_at=now - timedelta(hours=2), registration_closes_at=now
    )
    e = refused(Conflict, "closed at", services.register, tournament_id=late.pk, by=player())
    assert e.code == "registration_closed"
    draft = make_tournament(draft=True)
    refused(Conflict, "not open for registration", services.register,
            tournament_id=draft.pk, by=player())  # fmt: skip


def test_unregister_refunds_by_the_rule_and_may_register_again(player, make_tournament):
    full = make_tournament()
    # Six hours later: its play does not overlap the first's (one event at a time).
    half = make_tournament(refund_bps=5000, starts_at=timezone.now() + timedelta(hours=6))
    alice = player("alice")
    services.register(tournament_id=full.pk, by=alice, client_seed="my-seed")
    services.register(tournament_id=half.pk, by=alice, client_seed="my-seed")
    assert wallet_balance(alice) == 9_800
    services.unregister(tournament_id=full.pk, by=alice)
    entry = services.unregister(tournament_id=half.pk, by=alice)
    assert entry.status == EntryStatus.WITHDRAWN and entry.refunded == 50
    assert wallet_balance(alice) == 9_950 and escrow_balance(half.ref) == 50
    refused(Conflict, "not registered", services.unregister, tournament_id=full.pk, by=alice)
    again = services.register(tournament_id=full.pk, by=alice, client_seed="my-seed")
    assert again.attempt == 2 and again.paid == 100 and wallet_balance(alice) == 9_850
    services.close_registration(tournament_id=full.pk)
    refused(Conflict, "registration for .* is closed", services.unregister,
            tournament_id=full.pk, by=alice)  # fmt: skip


def test_free_tournament_moves_no_money(player, make_tournament):
    t = make_tournament(entry_fee=0)
    alice = player("alice", funds=0)
    entry = services.register(tournament_id=t.pk, by=alice, client_seed="my-seed")
    assert entry.paid == 0 and escrow_balance(t.ref) == 0
    services.unregister(tournament_id=t.pk, by=alice)


def test_teams_invite_accept_decline_and_incomplete_refunded_at_close(player, make_tournament):
    t = make_tournament(variant="complex_partner", capacity=4, min_entrants=2)
    alice, bob, carol, dave = (player(n) for n in ("alice", "bob", "carol", "dave"))
    services.register(tournament_id=t.pk, by=alice, client_seed="my-seed")
    refused(NotFound, "no player is called", services.invite_partner,
            tournament_id=t.pk, by=alice, display_name="nobody")  # fmt: skip
    refused(BadRequest, "yourself", services.invite_partner,
            tournament_id=t.pk, by=alice, display_name="alice")  # fmt: skip
    team = services.invite_partner(tournament_id=t.pk, by=alice, display_name="Bob")
    assert team.invited == bob and team.status == TeamStatus.PENDING
    refused(NotAllowed, "no invitation", services.accept_invite, team_id=team.pk, by=carol)
    services.decline_invite(team_id=team.pk, by=bob)
    refused(NotAllowed, "no invitation", services.accept_invite, team_id=team.pk, by=bob)
    services.invite_partner(tournament_id=t.pk, by=alice, display_name="carol")
    entry = services.accept_invite(team_id=team.pk, by=carol, client_seed="carol")
    assert entry.team_id == team.pk and entry.paid == 100
    team.refresh_from_db()
    assert team.status == TeamStatus.COMPLETE
    refused(Conflict, "already complete", services.invite_partner,
            tournament_id=t.pk, by=alice, display_name="dave")  # fmt: skip
    # Dave's partner never accepts: refunded in full when registration closes.
    services.register(tournament_id=t.pk, by=dave, client_seed="my-seed")
    services.invite_partner(tournament_id=t.pk, by=dave, display_name="bob")
    assert [x["invitation"] for x in selectors.my_tournaments(bob)] == [
        Entry.objects.get(user=dave).team_id
    ]
    assert wallet_balance(dave) == 9_900
    services.close_registration(tournament_id=t.pk)
    dave_entry = Entry.objects.get(user=dave)
    assert dave_entry.status == EntryStatus.REFUNDED and wallet_balance(dave) == 10_000
    assert dave_entry.team.status == TeamStatus.REFUNDED
    t.refresh_from_db()
    assert t.status == Status.CLOSED
    assert [e["entrant"] for e in t.entrants] == sorted(e["entrant"] for e in t.entrants) and len(
        t.entrants
    ) == 2
    assert {e["team"] for e in t.entrants} == {team.unit}
    assert escrow_balance(t.ref) == 200


def test_below_minimum_at_the_start_cancels_and_refunds(player, make_tournament):
    t = make_tournament(min_entrants=4)
    players = [player() for _ in range(3)]
    for p in players:
        services.register(tournament_id=t.pk, by=p, client_seed="my-seed")
    Tournament.objects.filter(pk=t.pk).update(
        registration_closes_at=timezone.now(), starts_at=timezone.now()
    )
    t = services.start(tournament_id=t.pk)
    assert t.status == Status.CANCELLED
    assert all(wallet_balance(p) == 10_000 for p in players)
    assert escrow_balance(t.ref) == 0
    assert AdminAction.objects.get(tournament=t, action="cancel").reason.startswith(
        "3 entrants at the start, below the minimum of 4"
    )
    assert set(Entry.objects.filter(tournament=t).values_list("status", flat=True)) == {
        EntryStatus.REFUNDED
    }


def test_not_due_start_is_a_no_op_and_staff_start_is_checked(player, make_tournament, staff):
    t = make_tournament()
    assert services.start(tournament_id=t.pk).status == Status.REGISTRATION
    refused(NotAllowed, "only staff", services.start, tournament_id=t.pk, by=player())
    refused(BadRequest, "reason", services.pause, tournament_id=t.pk, by=staff, reason=" ")
    refused(Conflict, "only a running", services.pause, tournament_id=t.pk, by=staff,
            reason="why")  # fmt: skip


def test_the_secret_is_not_shown_before_the_reveal(player, make_tournament):
    t = make_tournament()
    detail = selectors.tournament_detail(t.pk)
    assert detail["draw_commitment"] == t.draw_commitment
    secret = services.open_draw_secret(t).hex()
    assert detail["draw_seed"] is None and secret not in str(detail)
    assert t.draw_secret not in str(detail)
    assert selectors.draw_record(t.pk) is None


def test_round_one_is_the_published_function_of_the_seeds(player, make_tournament, staff):
    """Round 1's seating is recomputed from the public data alone (the revealed secret, the
    published entrant list and client seeds): the same seeds give the same seating."""
    from games.fairness.draw import draw_key
    from games.fairness.schedule import next_round
    from tests.factories import DRAW_SECRET as SECRET
    from tournaments.models import Round

    t = make_tournament(capacity=16)
    for i in range(13):
        services.register(tournament_id=t.pk, by=player(), client_seed=f"seed-{i}")
    services.start(tournament_id=t.pk, by=staff, reason="now")
    services.advance(tournament_id=t.pk)  # the task start sends after its commit
    services.advance(tournament_id=t.pk)  # again: round 1 is open, nothing more opens
    t.refresh_from_db()
    assert Round.objects.filter(tournament=t).count() == 1
    published = t.entrants
    key = draw_key(
        secret=SECRET, event=t.ref, entrants=[e["entrant"] for e in published],
        client_seeds={e["entrant"]: e["client_seed"] for e in published},
    )  # fmt: skip
    assert key.hex() == t.draw_key and t.draw_seed == SECRET.hex()
    plan = next_round(
        key=key, units=[e["entrant"] for e in published],
        tournament={"format": "swiss", "team_mode": False, "rounds": 2, "final": False},
        played=[],
    )  # fmt: skip
    seating = Round.objects.get(tournament=t, number=1).seating
    assert seating["tables"] == plan.seating.tables and seating["order"] == plan.order
    # Another client seed gives another key (and, here, another seating).
    other = draw_key(
        secret=SECRET, event=t.ref, entrants=[e["entrant"] for e in published],
        client_seeds={e["entrant"]: e["client_seed"] + "x" for e in published},
    )  # fmt: skip
    assert other != key


def test_a_tournament_whose_window_is_over_is_refused(staff, make_tournament):
    """A fresh reviewer created one with its window and start in the past: 201, then the beat
    cancelled it 8 s later. It is refused now, naming the window."""
    now = timezone.now()
    with pytest.raises(BadRequest, match="must close in the future"):
        make_tournament(
            registration_opens_at=now - timedelta(hours=3),
            registration_closes_at=now - timedelta(hours=2),
            starts_at=now - timedelta(hours=1),
        )
    assert not Tournament.objects.exists()


def test_a_start_more_than_a_year_ahead_is_refused(staff, make_tournament):
    """An admin's start in the year 9999 was accepted, and every registration that then
    compared it with another event answered 500 (the span after it is past the calendar's
    end). A start (and so the whole window) is at most 100 years ahead, at creation and
    edit."""
    far = timezone.now() + timedelta(days=100 * 365 + 1)
    with pytest.raises(BadRequest, match="start: Give a time within 100 years"):
        make_tournament(starts_at=far)
    with pytest.raises(BadRequest, match="start: Give a time within 100 years"):
        make_tournament(starts_at=datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC))
    assert not Tournament.objects.exists()
    t = make_tournament()
    with pytest.raises(BadRequest, match="start: Give a time within 100 years"):
        edits.edit_tournament(tournament_id=t.pk, by=staff, reason="later", starts_at=far)
    assert Tournament.objects.get(pk=t.pk).starts_at == t.starts_at
    make_tournament(
        registration_closes_at=far - timedelta(days=2), starts_at=far - timedelta(days=2)
    )  # within a year: accepted


def test_an_entry_overlapping_an_event_the_player_is_in_is_refused(player, make_tournament):
    """A tournament entrant was seated at a knockout table and a Swiss table at the same
    moment. An event's play is taken to last TRIX_TOURNAMENT_SPAN (4 hours) from its start:
    an entry whose play would overlap an event the player is in is refused (409
    ``overlap``, nothing written), unless the admin allowed it for either event."""
    now = timezone.now()
    swiss = make_tournament(name="Swiss night", starts_at=now + timedelta(hours=1))
    knockout = make_tournament(
        name="Knockout", format="knockout", starts_at=now + timedelta(hours=3)
    )
    later = make_tournament(name="Next day", starts_at=now + timedelta(hours=6))
    allowed = make_tournament(
        name="Open night", starts_at=now + timedelta(hours=2), allow_overlap=True
    )
    alice = player("alice")
    services.register(tournament_id=swiss.pk, by=alice, client_seed="a")
    e = refused(Conflict, "already entered in Swiss night", services.register,
                tournament_id=knockout.pk, by=alice, client_seed="a")  # fmt: skip
    assert e.code == "overlap" and "Knockout" in e.message
    services.register(tournament_id=later.pk, by=alice, client_seed="a")
    services.register(tournament_id=allowed.pk, by=alice, client_seed="a")
    # Unregistered from the Swiss night: the knockout is free (the next day's starts 3 hours
    # after it: it overlaps that one now).
    services.unregister(tournament_id=swiss.pk, by=alice)
    e = refused(Conflict, "already entered in Next day", services.register,
                tournament_id=knockout.pk, by=alice, client_seed="a")  # fmt: skip
    services.unregister(tournament_id=later.pk, by=alice)
    services.register(tournament_id=knockout.pk, by=alice, client_seed="a")


def test_an_event_running_past_its_span_still_overlaps(player, make_tournament):
    now = timezone.now()
    long_one = make_tournament(name="Long one", starts_at=now + timedelta(hours=1))
    soon = make_tournament(name="Soon", starts_at=now + timedelta(hours=8))
    bob = player("bob")
    services.register(tournament_id=long_one.pk, by=bob, client_seed="b")
    started = now - timedelta(hours=5, minutes=7)  # started early: before its planned start
    Tournament.objects.filter(pk=long_one.pk).update(
        status=Status.RUNNING, starts_at=now - timedelta(hours=5), started_at=started
    )
    services.register(tournament_id=soon.pk, by=bob, client_seed="b")  # 8 hours away: free
    sooner = make_tournament(name="Sooner", starts_at=now + timedelta(hours=2))
    e = refused(Conflict, "already playing in Long one", services.register,
                tournament_id=sooner.pk, by=bob, client_seed="b")  # fmt: skip
    assert e.code == "overlap"
    # It names when the event actually started, and asks for no unregistering (too late).
    assert f"started at {started:%Y-%m-%d %H:%M} UTC" in e.message
    assert "Unregister" not in e.message
    Tournament.objects.filter(pk=long_one.pk).update(status=Status.REVIEW)  # its play ended
    services.register(tournament_id=sooner.pk, by=bob, client_seed="b")


def test_round_one_opens_while_an_entrant_waits_at_a_staked_table(player, make_tournament, staff):
    """The draw never fails on an entrant's casual seat: their tournament table takes
    priority, and their seat at a table still waiting for players is left, its stake back."""
    from games import services as games
    from games.models import Seat, Table

    t = make_tournament(entry_fee=0)
    users = [player(f"entrant{i}") for i in range(4)]
    for i, user in enumerate(users):
        services.register(tournament_id=t.pk, by=user, client_seed=f"seed-{i}")
    timers = {"choose_timer": 60, "double_timer": 60, "play_timer": 60}
    host = player("host")  # a creator who could sit at their staked table
    waiting = games.create_table(user=host, variant="complex", stake=250, options=timers)
    games.take_seat(user=users[0], table_id=waiting.pk, seat=1, client_seed="casual")
    assert wallet_balance(users[0]) == 10_000 - 250
    services.start(tournament_id=t.pk, by=staff, reason="all here")
    services.advance(tournament_id=t.pk)
    seat = Seat.objects.get(user=users[0], table__origin__startswith=f"{t.ref}/round:1/")
    assert seat.table.status == "playing"
    assert not Seat.objects.filter(table=waiting, user=users[0]).exists()
    assert Table.objects.get(pk=waiting.pk).status == "open"
    assert wallet_balance(users[0]) == 10_000
