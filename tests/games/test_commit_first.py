"""Commit first (``docs/fairness.md``): a match's shuffle commitment enters the public log
before any client seed of that match reaches the server. Quick play takes a client seed only
at a table made before the call (else 409 ``commitment_first``, nothing made); each seat
taken before the start logs its seed (a ``seat-seed`` entry after the table's
``match-commitment``), and the match-start receipt names both entries; a seat sent with
another commitment than the table's is refused (409 ``commitment_changed``)."""

from __future__ import annotations

import pytest

from games import services
from games.errors import Conflict
from games.fairness import transparency
from games.models import LogEntry, Seat, Table
from games.services import fairness_log, lobby
from tests.games.helpers import new_table
from wallet.models import Transaction
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db

STAKE = 500


def _counts(user) -> tuple:
    """What a refused call must leave as it was: the tables, ``user``'s balance, the
    ledger's transactions (no money moved) and the fairness log's entries."""
    return (
        Table.objects.count(),
        wallet_balance(user),
        Transaction.objects.count(),
        LogEntry.objects.count(),
    )


@pytest.mark.parametrize("stake", [STAKE, 0])
def test_quick_play_makes_no_table_for_a_client_seed(make_user, api, tasks_applied_here, stake):
    """No table waits at the stake: the call that sends a client seed cannot be the one that
    makes the table (its commitment would be logged after the server saw the seed), at a
    staked table or a free one alike. Refused, nothing made; the service and the API."""
    ann = make_user("ann", funds=1_000)
    before = _counts(ann)
    with pytest.raises(Conflict) as refused:
        lobby.quick_play(user=ann, stake=stake, client_seed="ann-seed")
    assert refused.value.code == "commitment_first"
    assert "POST /api/tables/" in refused.value.message
    assert _counts(ann) == before

    bea = api("bea", funds=1_000)
    before = _counts(bea.user)
    r = bea.post("/api/quick-play/", {"stake": stake, "client_seed": "bea-seed"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "commitment_first", r.content
    assert _counts(bea.user) == before


def test_each_seat_logs_its_seed_after_the_commitment_and_the_receipt_names_them(
    make_user, tasks_applied_here
):
    """A seat taken before the start logs a ``seat-seed`` entry after the table's commitment
    (``source``: who chose the seed); the same seat retaken with the same seed logs nothing
    more; the receipt names the commitment's and each person's seed entry, not the bots'."""
    ann, bob = make_user("ann"), make_user("bob")
    table = services.create_table(user=ann, variant=lobby.DEFAULT_VARIANT)
    match_id = f"table-{table.pk}"
    (commitment,) = [e for e in fairness_log.entries() if e["kind"] == "match-commitment"]
    assert commitment["body"]["commitment"] == table.commitment

    services.take_seat(user=ann, table_id=table.pk, seat=0, client_seed="ann-seed")
    services.take_seat(user=bob, table_id=table.pk, seat=1)  # no seed: the server makes one
    bob_seed = Seat.objects.get(table=table, seat=1).client_seed
    assert bob_seed
    seeds = [e for e in fairness_log.entries() if e["kind"] == "seat-seed"]
    assert [e["body"] for e in seeds] == [
        {"match_id": match_id, "seat": 0, "client_seed": "ann-seed", "source": "player"},
        {"match_id": match_id, "seat": 1, "client_seed": bob_seed, "source": "server"},
    ]
    assert commitment["index"] < seeds[0]["index"] < seeds[1]["index"]

    # Left and retaken with the same seed before the start: the entry logged already.
    logged = LogEntry.objects.count()
    services.leave(user=ann, table_id=table.pk)
    services.take_seat(user=ann, table_id=table.pk, seat=0, client_seed="ann-seed")
    assert LogEntry.objects.count() == logged

    for seat in (2, 3):
        services.seat_bot(user=ann, table_id=table.pk, seat=seat, bot="rules")
    table.refresh_from_db()
    assert table.status == "playing"
    receipt = table.receipt
    assert receipt["bots"] == [2, 3]
    assert receipt["commitment_entry"] == commitment["index"]
    assert receipt["seed_entries"] == {"0": seeds[0]["index"], "1": seeds[1]["index"]}
    entries = list(fairness_log.entries())
    assert entries[-1]["kind"] == "match-receipt" and entries[-1]["body"]["receipt"] == receipt
    assert transparency.verify_log(entries) == fairness_log.head()["head"]
    assert fairness_log.check() == []


def test_a_seat_sent_with_another_commitment_is_refused(make_user, tasks_applied_here):
    """The commitment the player kept before sending the seed must be the table's: another
    one is refused before anything moves; the table's own one seats them."""
    host, cy = make_user("host", funds=1_000), make_user("cy", funds=1_000)
    table = services.create_table(user=host, variant=lobby.DEFAULT_VARIANT, stake=STAKE)
    assert table.commitment != "0" * 64
    before = _counts(cy)
    with pytest.raises(Conflict) as refused:
        services.take_seat(
            user=cy, table_id=table.pk, seat=0, client_seed="cy-seed", commitment="0" * 64
        )
    assert refused.value.code == "commitment_changed"
    assert table.commitment in refused.value.message
    assert Seat.objects.get(table=table, seat=0).user is None
    assert _counts(cy) == before

    services.take_seat(
        user=cy, table_id=table.pk, seat=0, client_seed="cy-seed", commitment=table.commitment
    )
    assert Seat.objects.get(table=table, seat=0).user == cy
    assert wallet_balance(cy) == 1_000 - STAKE


def test_the_api_refuses_a_seat_with_another_or_a_malformed_commitment(api, tasks_applied_here):
    host, dee = api("host", funds=1_000), api("dee", funds=1_000)
    table = new_table(host, variant=lobby.DEFAULT_VARIANT, stake=STAKE)
    url = f"/api/tables/{table['id']}/seats/"
    before = _counts(dee.user)
    body = {"seat": 0, "client_seed": "dee-seed", "commitment": "0" * 64}
    r = dee.post(url, body, format="json")
    assert r.status_code == 409 and r.json()["code"] == "commitment_changed", r.content
    r = dee.post(url, {**body, "commitment": "xyz"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content
    assert "commitment" in r.json()["error"].lower()
    # Only the commitment as it is: not padded with a newline or spaces, not a JSON number
    # of 64 digits, not in capitals (the trial's inputs).
    for odd in (table["commitment"] + "\n", f" {table['commitment']} ", int("1" * 64)):
        r = dee.post(url, {**body, "commitment": odd}, format="json")
        assert r.status_code == 400 and r.json()["code"] == "invalid", (odd, r.content)
    r = dee.post(url, {**body, "commitment": table["commitment"].upper()}, format="json")
    assert r.status_code == 400, r.content
    assert Seat.objects.get(table_id=table["id"], seat=0).user is None
    assert _counts(dee.user) == before
    r = dee.post(url, {**body, "commitment": table["commitment"]}, format="json")
    assert r.status_code == 200, r.content
    assert Seat.objects.get(table_id=table["id"], seat=0).user == dee.user


def test_quick_play_takes_a_client_seed_as_a_json_string_only(api, tasks_applied_here):
    """The trial's input: ``"client_seed": 5`` sat a player with the seed ``"5"`` where
    docs/api.md says a number is 400, as ``POST .../seats/`` answers. A seed the seat would
    refuse (not printable ASCII) is named as such, not answered with commitment_first."""
    eve = api("eve", funds=1_000)
    before = _counts(eve.user)
    r = eve.post("/api/quick-play/", {"stake": 0, "client_seed": 5}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content
    r = eve.post("/api/quick-play/", {"stake": 0, "client_seed": "caf\u00e9"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content
    assert "printable ASCII" in r.json()["error"], r.content
    assert _counts(eve.user) == before
