"""Nothing private changes what anyone else observes (issue 13, item 1).

A simultaneous-doubling pick (``select``) is seen by its seat alone: before this fix it took
the next public table version, so a logged-out observer saw a version gap while the seat was
still waiting and so learnt who held the K♥ (a doublable card in Queens and Complex). And at
an ``auto_play_forced`` table the public deadline dropped to ``TRIX_FORCED_DELAY`` when the
seat to play had exactly one legal card. Here the tables run in this process, one known change
at a time (the worker's tasks are dropped), on a frozen clock (``time_machine``), so two runs
of the same match can be compared answer by answer: what a spectator and every other seat see
(versions, events, deadlines, views) must not depend on any seat's private picks.
"""

from __future__ import annotations

import threading
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.test import override_settings
from rest_framework.test import APIClient

from games import selectors, services, sql, state_store
from games.engine.cards import codes_of
from games.engine.turns import forced_action, legal_actions
from games.models import Table, TableAction, TableEvent
from tests.games.helpers import forget_log_keys, wait_until, waits_on

pytestmark = pytest.mark.django_db(transaction=True)

# The frozen clock's start: in the future, so that the session worker's beat (real time),
# which re-sends overdue wake-ups, never finds these tables' deadlines overdue and plays them.
START = datetime(2030, 1, 1, 9, 0, tzinfo=UTC)
TIMERS = {"choose_timer": 20, "double_timer": 10, "play_timer": 15}
STEP = timedelta(milliseconds=100)


@pytest.fixture(autouse=True)
def nobody_away(settings):
    """The runs here time seats out on purpose, turn after turn: no seat is marked away (which
    would shorten its deadlines; presence has its own tests, test_presence.py)."""
    settings.TRIX_AWAY_AFTER = 0


@pytest.fixture
def players(tasks_applied_here, make_user):
    return [make_user(name) for name in ("alice", "bob", "carol", "dave")]


def start_table(players, variant: str = "trix", **options) -> Table:
    """Four humans seated at a new casual table with a fixed shuffle; dealt."""
    forget_log_keys()  # the same match id in both runs of a match, on purpose
    table = services.create_table(
        user=players[0],
        variant=variant,
        stake=0,
        options={**TIMERS, **options},
        shuffle_secret=bytes(range(32)),
        shuffle_match_id="private-picks",
        bot_seed="fixed",
    )
    for seat, user in enumerate(players):
        services.take_seat(user=user, table_id=table.pk, seat=seat, client_seed=f"seed-{seat}")
    wake(table.pk)
    return Table.objects.get(pk=table.pk)


def wake(table_id: int) -> None:
    t = Table.objects.get(pk=table_id)
    services.wake(table_id=t.pk, version=t.version)


def facts(table_id: int) -> dict:
    """What the driver needs of the match now (read from the stored state, not a view)."""
    table = Table.objects.get(pk=table_id)

    def read(state):
        out = {"phase": state.phase, "to_act": state.to_act(), "deal": state.deal_number}
        if state.deal is not None:
            out["contract"] = state.deal.contract
            out["owner"] = state.owner
            out["doublable"] = {s: codes_of(state.deal.doublable(s)) for s in range(4)}
            out["forced"] = {s: forced_action(state, s) for s in out["to_act"]}
            out["legal"] = {
                s: [{k: v for k, v in a.items() if k != "seat"} for a in legal_actions(state, s)]
                for s in out["to_act"]
            }
        return out

    return {**state_store.read(table, read), "table": table}


def act(user, table_id: int, action: dict) -> TableAction:
    """Submit ``action`` for ``user``'s seat, as the web request does (which applies it)."""
    table = Table.objects.get(pk=table_id)
    action_id = uuid.uuid4()
    services.submit_action(
        user=user, table_id=table_id, action_id=action_id, version=table.version, action=action
    )
    row = TableAction.objects.get(pk=action_id)
    assert row.status == "applied", (action, row.error)
    return row


def time_out(table_id: int, traveller) -> None:
    """Let the seats to act run out of time and the timer fire."""
    table = Table.objects.get(pk=table_id)
    traveller.move_to(table.deadline + timedelta(milliseconds=1))
    services.wake(table_id=table_id, version=table.version)


def answer(table_id: int, user, since) -> dict:
    """``user``'s state answer (None: a logged-out spectator) without ``server_time``."""
    got = dict(selectors.table_state(table_id, user or AnonymousUser(), since))
    got.pop("server_time")
    return got


def to_doubling(players, contract: str) -> Table:
    """A new table advanced to the doubling of its first deal, the owner choosing
    ``contract``."""
    table = start_table(players)
    f = facts(table.pk)
    assert f["phase"] == "choose"
    act(players[f["owner"]], table.pk, {"type": "contract", "contract": contract})
    f = facts(table.pk)
    assert f["phase"] == "double" and f["contract"] == contract
    return f["table"]


@pytest.mark.parametrize("contract", ["king", "queens"])
def test_a_pick_changes_nothing_that_anyone_else_sees(players, contract):
    table = to_doubling(players, contract)
    f = facts(table.pk)
    holder = next(s for s in range(4) if f["doublable"][s])
    others = [None] + [players[s] for s in range(4) if s != holder]
    version = table.version

    def snapshot():
        return (
            sql.live_fields(table.pk),
            TableEvent.objects.filter(table=table).count(),
            [answer(table.pk, user, None) for user in others],
            [answer(table.pk, user, version) for user in others],
        )

    before = snapshot()
    pick = f["doublable"][holder]
    act(players[holder], table.pk, {"type": "select", "cards": pick})
    after = snapshot()
    assert after == before
    assert Table.objects.get(pk=table.pk).version == version

    # The seat itself (any session of its user) sees its pick; its answer is at the same
    # version with no event (the pick is not in the public log).
    mine = answer(table.pk, players[holder], version)
    assert mine["version"] == version and mine["events"] == []
    assert mine["view"]["doubling"]["selected"] == pick
    assert holder in mine["view"]["doubling"]["waiting"]

    # A timeout commits the pick (000: "timer commits the current selection").
    for seat in range(4):
        if seat != holder:
            act(players[seat], table.pk, {"type": "double", "cards": []})
    t = Table.objects.get(pk=table.pk)
    Table.objects.filter(pk=t.pk).update(
        deadline=t.deadline - timedelta(days=1), wake_at=t.deadline - timedelta(days=1)
    )
    wake(t.pk)
    revealed = TableEvent.objects.get(table=t, type="doubles_revealed").payload["doubles"]
    assert revealed[str(holder)] == pick


@override_settings(TRIX_TIMER_SCALE=1.0)
def test_a_pick_does_not_wake_a_spectators_long_poll(players):
    # Real-length timers: the doubling's deadline is seconds away, so the session worker's
    # sweep (real time, every second) cannot time the seats out during the poll's wait.
    table = to_doubling(players, "king")
    f = facts(table.pk)
    holder = next(s for s in range(4) if f["doublable"][s])
    got = {}

    def watch():
        try:
            started = time.monotonic()
            got["answer"] = selectors.table_state(table.pk, AnonymousUser(), table.version, 1.5)
            got["held"] = time.monotonic() - started
        finally:
            connections.close_all()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    wait_until(lambda: waits_on(table.pk), timeout=10)  # the poll is waiting
    act(players[holder], table.pk, {"type": "select", "cards": f["doublable"][holder]})
    thread.join(10)
    assert got["answer"]["version"] == table.version
    assert got["answer"]["events"] == []
    assert got["held"] >= 1.4  # not woken by the pick: held until its wait ran out


@override_settings(TRIX_TIMER_SCALE=1.0, TRIX_FORCED_DELAY=0.05)
def test_a_forced_card_keeps_the_phase_timer_as_the_public_deadline(players):
    """``auto_play_forced``: the server plays a seat's only legal card after
    ``TRIX_FORCED_DELAY``, but the public deadline stays the play timer, as for a seat with a
    choice (else the deadline tells the others the seat has one legal card)."""
    with time_machine.travel(START, tick=False) as traveller:
        table = start_table(players, auto_play_forced=True)
        seen_forced = seen_free = 0
        for _ in range(2000):
            f = facts(table.pk)
            t = f["table"]
            if f["phase"] == "over" or (seen_forced >= 3 and seen_free >= 3):
                break
            if f["phase"] == "deal":
                traveller.move_to(t.wake_at)
                wake(t.pk)
                continue
            if f["phase"] != "play":
                seat = f["to_act"][0]
                legal = f["legal"][seat][0]
                act(players[seat], t.pk, legal)
                continue
            seat = f["to_act"][0]
            public = answer(t.pk, None, t.version - 1)["deadline"]
            assert datetime.fromisoformat(public) == t.deadline
            # Every change here happened at the frozen "now": the deadline is now + timer.
            assert t.deadline - datetime.now(UTC) == timedelta(seconds=TIMERS["play_timer"])
            if f["forced"][seat] is not None:
                seen_forced += 1
                before = t.version
                traveller.move_to(datetime.now(UTC) + timedelta(seconds=0.05))
                wake(t.pk)  # the forced card is played at TRIX_FORCED_DELAY, not the deadline
                played = (
                    TableEvent.objects.filter(
                        table=t, version__gt=before, type="card_played"
                    ).first()
                    or TableEvent.objects.filter(table=t, version__gt=before, type="pass").first()
                )
                assert played is not None and played.payload["seat"] == seat
                continue
            seen_free += 1
            traveller.shift(STEP)
            legal = f["legal"][seat][0]
            act(players[seat], t.pk, legal)
        assert seen_forced >= 3 and seen_free >= 3


# -- a whole match, watched ------------------------------------------------------------------

PREFERRED = ("king", "queens", "complex", "diamonds", "ltoosh", "trix")


def normalised(got: dict, seat: int | None) -> dict:
    """An answer as compared between runs: the table's id and the deals' ids differ, and so
    do the log positions its receipt names (``commitment_entry``, ``seed_entries``: the
    first run's entries come first in the one log), and a seat's own pick is its own (the
    only thing of it that may differ). What it leaves out is copied without it; the rest is
    shared with the answer, which nothing changes."""
    table = _without(got["table"], "id")
    if table.get("receipt"):
        receipt = _without(table["receipt"], "commitment_entry")
        table["receipt"] = _without(receipt, "seed_entries")
        table.pop("receipt_signature")  # over the positions left out
    got = {
        **got,
        "table": table,
        "events": [_without(ev, "deal_id") for ev in got["events"]],
    }
    view = got["view"]
    if seat is not None and view and view.get("doubling"):
        got["view"] = {**view, "doubling": _without(view["doubling"], "selected")}
    return got


def _without(d: dict, key: str) -> dict:
    return {k: v for k, v in d.items() if k != key}


class Observers:
    """A logged-out spectator and each seat, each asking for what follows the last version
    it saw after every change the driver makes; an answer is kept when it says something new
    (a version, an event, or a deadline)."""

    def __init__(self, table_id: int, players):
        self.table_id = table_id
        self.who = [(None, None)] + [(seat, user) for seat, user in enumerate(players)]
        self.since = [None] * len(self.who)
        self.streams: list[list] = [[] for _ in self.who]

    def look(self) -> None:
        for i, (seat, user) in enumerate(self.who):
            got = answer(self.table_id, user, self.since[i])
            stream = self.streams[i]
            last = stream[-1] if stream else None
            if (
                last is None
                or got["version"] != last["version"]
                or got["events"]
                or got["deadline"] != last["deadline"]
            ):
                stream.append(normalised(got, seat))
            self.since[i] = got["version"]
            view = got["view"] or {}
            if view.get("phase") == "play" and got["deadline"]:
                # the public deadline is the play timer from the change just made
                left = datetime.fromisoformat(got["deadline"]) - datetime.now(UTC)
                assert left == timedelta(seconds=TIMERS["play_timer"]), (seat, got["version"])


def play_match(players, variant: str, picks: bool) -> tuple[Observers, int]:
    """Play one whole match at a frozen clock, the same public moves every run; with
    ``picks`` every seat still to answer a doubling makes several private picks first (the
    last one what it commits), without them only the seats that will time out pick, once.
    Returns the observers and the number of picks applied."""
    picked = 0
    with time_machine.travel(START, tick=False) as traveller:
        table = start_table(players, variant, auto_play_forced=True)
        obs = Observers(table.pk, players)
        obs.look()
        for _ in range(5000):
            f = facts(table.pk)
            t = f["table"]
            if f["phase"] == "over":
                break
            if f["phase"] == "deal":
                traveller.move_to(t.wake_at)
                wake(t.pk)
            elif f["phase"] == "choose":
                traveller.shift(STEP)
                owner = players[f["owner"]]
                legal = [a["contract"] for a in f["legal"][f["owner"]]]
                contract = next(c for c in PREFERRED if c in legal)
                act(owner, t.pk, {"type": "contract", "contract": contract})
            elif f["phase"] == "double":
                pending = sorted(f["to_act"])
                final = {s: f["doublable"][s] if (f["deal"] + s) % 2 == 0 else [] for s in pending}
                late = [s for s in pending if (f["deal"] + s) % 3 == 0]
                for s in pending:  # the pick slot of each seat: the same time in every run
                    choices = []
                    if picks:
                        choices = [f["doublable"][s], [], f["doublable"][s][:1], final[s]]
                    elif s in late:
                        choices = [final[s]]
                    for cards in choices:
                        act(players[s], t.pk, {"type": "select", "cards": cards})
                        picked += 1
                        obs.look()
                    traveller.shift(STEP)
                    obs.look()
                for s in pending:
                    if s not in late:
                        traveller.shift(STEP)
                        act(players[s], t.pk, {"type": "double", "cards": final[s]})
                        obs.look()
                if late:
                    time_out(t.pk, traveller)
            elif f["phase"] == "play":
                seat = f["to_act"][0]
                if f["forced"][seat] is not None:
                    traveller.move_to(t.wake_at)
                    wake(t.pk)
                elif t.version % 29 == 0:
                    time_out(t.pk, traveller)
                else:
                    traveller.shift(STEP)
                    legal = f["legal"][seat][0]
                    act(players[seat], t.pk, legal)
            obs.look()
        assert Table.objects.get(pk=table.pk).status == "finished"
    return obs, picked


@pytest.mark.parametrize(
    "variant",
    [
        "complex",  # 8 deals; the Complex doubles the K♥ and the queens
        pytest.param("trix", marks=pytest.mark.slow),  # 20 deals, King and Queens among them
    ],
)
def test_what_others_observe_of_a_whole_match_does_not_depend_on_private_picks(
    players, variant, monkeypatch
):
    """Two runs of the same match, the same public moves at the same times, differing only
    in the private picks: the spectator's and every seat's stream of answers (versions,
    events, deadlines, views less the seat's own pick) are identical. The seats' ratings are
    left out: the first run's end rates the players (the ratings app's task, on the worker
    when one runs), so the second run's seats legitimately show other ratings."""
    monkeypatch.setattr(selectors, "_seat_ratings", None)
    with override_settings(TRIX_TIMER_SCALE=1.0, TRIX_FORCED_DELAY=0.05, TRIX_DEAL_PAUSE=0.5):
        few, few_picks = play_match(players, variant, picks=False)
        many, many_picks = play_match(players, variant, picks=True)
    assert many_picks > few_picks > 0
    assert few.streams[0][-1]["table"]["status"] == "finished"
    for i, (seat, _) in enumerate(few.who):
        a, b = few.streams[i], many.streams[i]
        assert [x["version"] for x in a] == [x["version"] for x in b], seat
        for x, y in zip(a, b, strict=True):
            assert x == y, (seat, x["version"])
    # The commits of the timed-out seats' picks are in the public log of both runs.
    doubled = [
        e["doubles"]
        for x in few.streams[0]
        for e in x["events"]
        if e["type"] == "doubles_revealed" and e["doubles"]
    ]
    assert doubled


def test_the_seat_sees_its_pick_in_every_session_over_the_api(players):
    """Over HTTP: a pick posted from one session of the seat's user is applied without a new
    version; another session of that user sees it (``view.doubling.selected``), a spectator's
    answer and a long poll's do not move."""
    table = to_doubling(players, "queens")
    f = facts(table.pk)
    holder = next(s for s in range(4) if f["doublable"][s])
    tab_a, tab_b, spectator = APIClient(), APIClient(), APIClient()
    tab_a.force_login(players[holder])
    tab_b.force_login(players[holder])
    url = f"/api/tables/{table.pk}/"
    before = spectator.get(url + "state/", {"since": table.version - 1}).json()
    pick = f["doublable"][holder][-1:]
    body = {
        "id": str(uuid.uuid4()),
        "version": table.version,
        "action": {"type": "select", "cards": pick},
    }
    posted = tab_a.post(url + "actions/", body, format="json")
    assert posted.status_code == 202, posted.content
    again = tab_a.post(url + "actions/", body, format="json").json()  # the id's result
    assert again["status"] == "applied" and again["applied_version"] == table.version
    mine = tab_b.get(url + "state/", {"since": table.version, "wait": 0}).json()
    assert mine["version"] == table.version and mine["events"] == []
    assert mine["view"]["doubling"]["selected"] == pick
    after = spectator.get(url + "state/", {"since": table.version - 1}).json()
    before.pop("server_time")
    after.pop("server_time")
    assert after == before
