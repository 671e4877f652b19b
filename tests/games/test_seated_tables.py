"""Tables created with their seats assigned, many at once (``games.services.
create_seated_tables``): the same rows as the one-table path (``create_seated_table``) and as
the per-table code it replaced (kept below as the reference), every check made before
anything is written, one wake-up per table after the commit, and few SQL statements."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.selectors import display_name
from games import services, shuffles
from games.engine import Options
from games.errors import BadRequest
from games.models import LogEntry, LogKey, MatchRecord, Seat, Table, TableEvent
from games.services import changes, match_start, seated_tables, tables

pytestmark = pytest.mark.django_db(transaction=True)

TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}
SECRET = bytes(range(32))


def _reference(*, created_by, variant, options, seats, origin, bot_seed, secret, match_id):
    """The per-table code ``create_seated_table`` ran before the batch (main at deea071),
    its writing part: the rows the batch must reproduce."""
    parsed = Options.from_dict({**options, "variant": variant})
    specs = seated_tables._seat_specs(seats)
    with transaction.atomic():
        table = tables._new_table(
            created_by=created_by,
            variant=variant,
            options=parsed,
            kind="tournament",
            origin=origin,
            stake=0,
            bot_seed=bot_seed,
            shuffle_secret=secret,
            shuffle_match_id=match_id,
        )
        now = timezone.now()
        rows = changes.seats(table)
        events = []
        for row, (user, bot, seed) in zip(rows, specs, strict=True):
            row.user, row.bot, row.client_seed, row.joined_at = user, bot, seed, now
            if user is not None:
                events.append(
                    {
                        "type": "seat_taken",
                        "seat": row.seat,
                        "user_id": user.pk,
                        "name": display_name(user),
                        "client_seed": seed,
                        "staked": 0,
                    }
                )
            else:
                events.append({"type": "bot_seated", "seat": row.seat, "bot": bot})
        Seat.objects.bulk_update(rows, ["user", "bot", "client_seed", "joined_at"])
        changes.add_events(table, events)
        match_start.start_if_full(table)
        table.save()
    return table


TABLE_FIELDS = [
    "variant", "options", "kind", "origin", "stake", "status", "version", "created_by_id",
    "commitment", "bot_seed", "seat_kinds", "result", "settled", "deadline",
]  # fmt: skip
"""Every field of a table but its id and its timestamps (compared for being set below)."""


def _opened(stored: dict) -> tuple:
    """A stored shuffle state without its sealed text, and what it shows once opened."""
    chain = {k: v for k, v in stored["chain"].items() if k != "sealed"}
    return {**stored, "chain": chain}, shuffles.public(stored)


def _rows(table_id: int) -> dict:
    """What a table is in the database, ids and timestamps left out."""
    table = Table.objects.get(pk=table_id)
    assert table.created_at and table.started_at and table.wake_at and not table.finished_at
    seats = list(Seat.objects.filter(table_id=table_id).order_by("seat"))
    assert all(s.joined_at for s in seats)
    record = MatchRecord.objects.get(table_id=table_id)
    return {
        "table": {name: getattr(table, name) for name in TABLE_FIELDS},
        "seats": [
            (s.seat, s.user_id, s.bot, s.staked, s.client_seed, s.checked_in_at) for s in seats
        ],
        "events": [
            (e.version, e.type, e.payload, e.visible_to, e.log)
            for e in TableEvent.objects.filter(table_id=table_id).order_by("version")
        ],
        # The shuffle state as it opens (its sealed text has a fresh nonce each time).
        "record": (record.state, record.state_version, _opened(record.shuffle)),
    }


def _items(users):
    """Three tables: people and bots in different places, fixed seeds and secrets."""
    a, b, c, d, e = users
    return [
        {
            "seats": [
                {"user": a, "client_seed": "seed-a"},
                {"user": b, "client_seed": "seed-b"},
                {"bot": "rules"},
                {"user": c, "client_seed": "seed-c"},
            ],
            "origin": "tournament:9/round:2/table:0",
            "bot_seed": "b" * 64,
            "shuffle_secret": SECRET,
            "shuffle_match_id": "equivalence-0",
        },
        {
            "seats": [{"bot": "random"}, {"user": d, "client_seed": "seed-d"}]
            + [{"bot": "rules"}] * 2,
            "origin": "tournament:9/round:2/table:1",
            "bot_seed": "c" * 64,
            "shuffle_secret": bytes(reversed(SECRET)),
            "shuffle_match_id": "equivalence-1",
        },
        {
            "seats": [{"bot": "rules"}] * 3 + [{"user": e, "client_seed": "seed-e"}],
            "origin": "",
            "bot_seed": "d",
            "shuffle_secret": SECRET,
            "shuffle_match_id": "equivalence-2",
        },
    ]


@pytest.fixture
def five(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve")]


@pytest.fixture
def wakes(monkeypatch):
    """The wake-ups sent (after the commit), as ``(table id, version)``; nothing reaches a
    worker."""
    from games import tasks

    sent = []
    monkeypatch.setattr(tasks.wake, "delay", lambda *a: sent.append(a))
    monkeypatch.setattr(tasks.wake, "apply_async", lambda a, *_, **k: sent.append(tuple(a)))
    return sent


@pytest.mark.parametrize("variant", ["complex_partner", "trix"])
def test_the_batch_writes_what_the_one_table_path_and_the_old_code_wrote(five, wakes, variant):
    creator = five[0]
    items = _items(five)
    batch = services.create_seated_tables(
        created_by=creator, variant=variant, options=TIMERS, tables=items
    )
    assert [t.origin for t in batch] == [i["origin"] for i in items]
    assert sorted(wakes) == sorted((t.pk, 6) for t in batch)
    for table, item in zip(batch, items, strict=True):
        # The same match id three times on purpose (one table, three ways): the log admits one
        # commitment and receipt per match, so its keys are forgotten between the ways.
        LogKey.objects.all().delete()
        one = services.create_seated_table(
            created_by=creator,
            variant=variant,
            options=TIMERS,
            seats=item["seats"],
            origin=item["origin"],
            bot_seed=item["bot_seed"],
            shuffle_secret=item["shuffle_secret"],
            shuffle_match_id=item["shuffle_match_id"],
        )
        LogKey.objects.all().delete()
        old = _reference(
            created_by=creator,
            variant=variant,
            options=TIMERS,
            seats=item["seats"],
            origin=item["origin"],
            bot_seed=item["bot_seed"],
            secret=item["shuffle_secret"],
            match_id=item["shuffle_match_id"],
        )
        got = _rows(table.pk)
        assert got == _rows(one.pk)
        assert got == _rows(old.pk)
        assert [e[1] for e in got["events"]][0] == "table_created"
        assert got["table"]["status"] == "playing" and got["record"][1] == 6


def test_the_match_id_defaults_to_the_table_id(five, wakes):
    batch = services.create_seated_tables(
        created_by=five[0],
        variant="trix",
        options=TIMERS,
        tables=[{"seats": [{"bot": "rules"}] * 4, "origin": "x"}] * 2,
    )
    for table in batch:
        shuffle = MatchRecord.objects.get(table=table).shuffle
        assert f"table-{table.pk}" in str(shuffle)
        # drawn with the shuffle: HMAC of the chain's secret (docs/fairness.md, 8a)
        assert table.bot_seed == shuffles.bot_seed(shuffle)
    assert batch[0].commitment != batch[1].commitment


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"seats": [{"bot": "genius"}] * 4}, r"^table 1: seat 0: unknown bot 'genius'"),
        ({"seats": "three"}, "^table 1: seats must be a list of exactly 4 seats$"),
        ({"seats": [{"bot": "rules"}] * 4, "origin": "x" * 65}, "^table 1: origin must be at"),
        ({"seats": [{"bot": "rules"}] * 4, "bot_seed": ""}, "^table 1: bot_seed must be"),
        ({"seats": [{"bot": "rules"}] * 4, "stake": 5}, "^table 1: unknown keys stake$"),
        ("a table", "^table 1: give a dict"),
    ],
)
def test_a_bad_table_of_the_batch_is_named_and_nothing_is_written(five, wakes, bad, message):
    before = (Table.objects.count(), Seat.objects.count(), TableEvent.objects.count())
    good = {"seats": [{"bot": "rules"}] * 4, "origin": "ok"}
    with pytest.raises(BadRequest, match=message):
        services.create_seated_tables(
            created_by=five[0], variant="trix", options=TIMERS, tables=[good, bad, good]
        )
    assert (Table.objects.count(), Seat.objects.count(), TableEvent.objects.count()) == before
    assert wakes == []


def test_the_shared_rules_of_the_batch(five, wakes):
    alice = five[0]
    with pytest.raises(BadRequest, match="needs every timer"):
        services.create_seated_tables(
            created_by=alice,
            variant="trix",
            options={"play_timer": 0},
            tables=[{"seats": [{"bot": "rules"}] * 4}],
        )
    with pytest.raises(BadRequest, match="not created with its seats assigned"):
        services.create_seated_tables(
            created_by=alice, variant="trix", options=TIMERS, tables=[], kind="casual"
        )
    with pytest.raises(BadRequest, match="tables must be a list"):
        services.create_seated_tables(created_by=alice, variant="trix", options=TIMERS, tables=3)
    assert (
        services.create_seated_tables(created_by=alice, variant="trix", options=TIMERS, tables=[])
        == []
    )
    assert Table.objects.count() == 0 and wakes == []


def test_sixty_four_tables_take_a_handful_of_statements(django_user_model, wakes):
    users = [django_user_model.objects.create_user(username=f"p{i}") for i in range(256)]
    items = [
        {
            "seats": [{"user": u, "client_seed": f"s{u.pk}"} for u in users[4 * i : 4 * i + 4]],
            "origin": f"tournament:1/round:1/table:{i}",
            "bot_seed": None,
        }
        for i in range(64)
    ]
    with CaptureQueriesContext(connection) as queries:
        made = services.create_seated_tables(
            created_by=users[0], variant="complex", options=TIMERS, tables=items
        )
    assert len(made) == 64 and len(wakes) == 64
    # 10, 2 for the seated people (their rows locked, their live seats elsewhere:
    # games.services.live_seats), and 7 for the transparency log (its lock, its head, what it
    # holds of these matches already, the 128 entries in one INSERT, their keys in another,
    # the Merkle subtree hashes stored before that the new ones need, the new ones in one
    # INSERT), and 2 for the signing key in use (the log's lock taken before it, then the
    # log's last key, read once for all 64).
    assert len(queries) <= 21, [q["sql"][:80] for q in queries]
    assert LogEntry.objects.filter(kind="match-receipt").count() == 64
    assert Seat.objects.filter(table__in=made, user__isnull=False).count() == 256
    assert TableEvent.objects.filter(table__in=made).count() == 64 * 6
