"""The log's Merkle tree as the site stores it (games.services.log_tree): subtree hashes
stored on append, roots and proofs from them, the migration's backfill, and the checkpoint
and proof endpoints under /fairness/, whose proofs verify against the served checkpoint."""

from __future__ import annotations

import importlib
import json

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from games.fairness import merkle, transparency
from games.fairness import receipt as receipts
from games.models import LogTreeNode
from games.services import fairness_log, log_tree
from tests.games.helpers import play_out


def _append(count: int, start: int) -> None:
    fairness_log.append(
        [
            fairness_log.draw_commitment(event=f"event-{start + i}", commitment="ab" * 32)
            for i in range(count)
        ]
    )


def _leaves() -> list[bytes]:
    return [transparency.entry_leaf_hash(e) for e in fairness_log.entries()]


def _public_key():
    return receipts.load_public_key(
        APIClient().get("/fairness/public-key.json").json()["public_key"]
    )


def _checkpoint(client: APIClient | None = None) -> merkle.Checkpoint:
    """The served checkpoint, its signature checked under the site's key."""
    response = (client or APIClient()).get("/fairness/checkpoint")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    text, signatures = merkle.parse_signed_note(response.content.decode())
    checkpoint = merkle.parse_checkpoint(text)
    key = _public_key()
    ((name, key_hash, signature),) = signatures
    assert name == checkpoint.origin == "trix.localhost/fairness/log"
    assert key_hash == merkle.ed25519_key_hash(name, bytes.fromhex(receipts.public_key_hex(key)))
    key.verify(signature, text.encode())
    (extension,) = checkpoint.extensions
    word, _, key_word, key_id = extension.split(" ")
    assert word == "time" and key_word == "key-id" and key_id == receipts.key_id(key)
    return checkpoint


@pytest.mark.django_db
def test_appends_store_the_subtrees_and_every_proof_verifies():
    sizes = []
    for count in (1, 3, 5, 4, 1, 6):
        _append(count, sum(sizes))
        sizes.append(count)
    leaves = _leaves()
    assert len(leaves) == 20
    # Each leaf and each completed perfect subtree once: 2n - popcount(n) rows.
    assert LogTreeNode.objects.count() == 2 * 20 - bin(20).count("1")
    roots = [merkle.tree_root(leaves[:n]) for n in range(21)]
    for size in range(21):
        assert log_tree.root_hash(size) == roots[size]
        for index in range(size):
            proof = log_tree.inclusion_proof(index, size)
            merkle.verify_inclusion(leaves[index], index, size, proof, roots[size])
        for first in range(size + 1):
            proof = log_tree.consistency_proof(first, size)
            merkle.verify_consistency(first, size, proof, roots[first], roots[size])


@pytest.mark.django_db
def test_the_migration_builds_the_tree_of_a_log_logged_before_it():
    _append(11, 0)
    expected = dict(LogTreeNode.objects.values_list("position", "hash"))
    LogTreeNode.objects.all().delete()  # as before the migration
    migration = importlib.import_module("games.migrations.0013_log_tree")
    migration.nodes(apps, None)
    assert dict(LogTreeNode.objects.values_list("position", "hash")) == expected
    _append(2, 11)  # appends go on from the backfilled tree
    assert log_tree.root_hash(13) == merkle.tree_root(_leaves())


@pytest.mark.django_db
def test_the_endpoints_serve_a_signed_checkpoint_and_proofs_that_verify_against_it():
    client = APIClient()
    empty = _checkpoint(client)
    assert (empty.size, empty.root) == (0, merkle.EMPTY_ROOT)
    _append(6, 0)
    saved = _checkpoint(client)
    assert saved.size == 6
    _append(7, 6)
    now = _checkpoint(client)
    assert now.size == 13 and now.root == merkle.tree_root(_leaves())

    for index in range(13):
        body = client.get(f"/fairness/proof/inclusion?index={index}&size=13").json()
        assert body["format"] == "trix-inclusion/1"
        assert (body["index"], body["size"]) == (index, 13)
        assert body["entry"]["index"] == index
        proof = [bytes.fromhex(h) for h in body["proof"]]
        leaf = transparency.entry_leaf_hash(body["entry"])
        merkle.verify_inclusion(leaf, index, 13, proof, now.root)
        tampered = {**body["entry"], "logged_at": "2000-01-01T00:00:00Z"}
        with pytest.raises(merkle.MerkleError):
            merkle.verify_inclusion(
                transparency.entry_leaf_hash(tampered), index, 13, proof, now.root
            )

    body = client.get("/fairness/proof/consistency?first=6&second=13").json()
    assert body == {
        "format": "trix-consistency/1",
        "first": 6,
        "second": 13,
        "proof": [h.hex() for h in log_tree.consistency_proof(6, 13)],
    }
    proof = [bytes.fromhex(h) for h in body["proof"]]
    merkle.verify_consistency(6, 13, proof, saved.root, now.root)
    with pytest.raises(merkle.MerkleError):  # a checkpoint of another history at size 6
        merkle.verify_consistency(6, 13, proof, merkle.leaf_hash(b"fork"), now.root)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/fairness/proof/inclusion?index=2",
        "/fairness/proof/inclusion?index=-1&size=2",
        "/fairness/proof/inclusion?index=3&size=3",
        "/fairness/proof/inclusion?index=0&size=4",  # beyond the log
        "/fairness/proof/consistency?first=3&second=2",
        "/fairness/proof/consistency?first=0&second=4",
        "/fairness/proof/consistency?first=x&second=2",
        "/fairness/proof/inclusion?index=%C2%B2&size=3",  # a superscript two: isdigit() says yes
        "/fairness/proof/inclusion?index=%D9%A1&size=3",  # an Arabic-Indic one
        "/fairness/proof/consistency?first=%EF%BC%91&second=2",  # a fullwidth one
        "/fairness/log.jsonl?after=%C2%B2",
    ],
)
def test_impossible_proof_requests_are_400(url):
    _append(3, 0)
    response = APIClient().get(url)
    assert response.status_code == 400
    assert response.content.decode().endswith("\n")


TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


@pytest.mark.django_db(transaction=True)
def test_trix_verify_proves_a_played_match_from_the_checkpoint_saved_at_its_start(
    django_user_model, tasks_applied_here, tmp_path
):
    """A player saves the checkpoint when they sit, and at the end downloads the newer one,
    the consistency proof and the inclusion proofs of the receipt and each deal record."""
    import io

    from games import services
    from games.engine.cli import main as trix
    from games.models import Deal

    client = APIClient()
    alice = django_user_model.objects.create_user(username="alice", password="pw")
    table = services.create_table(user=alice, variant="complex", options=TIMERS)
    services.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="alice-seed")
    saved = tmp_path / "saved-checkpoint"
    saved.write_bytes(client.get("/fairness/checkpoint").content)
    saved_size = log_tree.size()
    assert saved_size == 2  # the commitment, then alice's seat-seed entry (logged as she sat)
    for seat in (1, 2, 3):
        services.seat_bot(user=alice, table_id=table.pk, seat=seat, bot="rules")
    services.leave(user=alice, table_id=table.pk)
    table = play_out(table.pk)
    assert table.status == "finished"
    records = [d.record for d in Deal.objects.filter(table=table).order_by("number")]
    (tmp_path / "records.json").write_text(json.dumps(records))
    end = tmp_path / "checkpoint"
    end.write_bytes(client.get("/fairness/checkpoint").content)
    size = log_tree.size()
    # the commitment, alice's seat-seed entry, the receipt, 8 deal records, the bots' seed
    assert size == 12
    (tmp_path / "consistency.json").write_bytes(
        client.get(f"/fairness/proof/consistency?first={saved_size}&second={size}").content
    )
    options = ["--checkpoint", str(saved), "--new-checkpoint", str(end)]
    options += ["--consistency", str(tmp_path / "consistency.json")]
    for index in range(2, size):  # the receipt (entry 2, after the seat-seed), deals, bots' seed
        path = tmp_path / f"inclusion-{index}.json"
        path.write_bytes(client.get(f"/fairness/proof/inclusion?index={index}&size={size}").content)
        options += ["--inclusion", str(path)]
    key = tmp_path / "key.json"
    key.write_bytes(client.get("/fairness/public-key.json").content)
    out, err = io.StringIO(), io.StringIO()
    argv = ["verify", str(tmp_path / "records.json"), "--public-key", str(key), *options]
    assert trix(argv, out, err) == 0, err.getvalue()
    assert f"the receipt of match 'table-{table.pk}' is entry 2: proven" in out.getvalue()
    assert f"deal table-{table.pk}/8 is entry 10: proven" in out.getvalue()
    assert f"the bots' seed of match 'table-{table.pk}' is entry 11: proven" in out.getvalue()
    assert "extends the saved one" in out.getvalue()


@pytest.mark.django_db
def test_the_log_check_recomputes_the_stored_tree():
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    _append(7, 0)
    assert fairness_log.check() == []
    # A stored subtree hash changed behind the model's back (the 4 entries from 0).
    LogTreeNode.objects.filter(position=log_tree.position(2, 0)).update(hash="00" * 32)
    LogTreeNode.objects.filter(position=log_tree.position(0, 6)).delete()
    with pytest.raises(CommandError):
        call_command("fairness_log_check", stdout=StringIO())
    assert fairness_log.check() == [
        "log tree: the hash of entries 0..3 is wrong",
        "log tree: the hash of entries 6..6 is missing",
        "log tree: 11 subtree hashes expected for 7 entries",
    ]


@pytest.mark.django_db
def test_an_inclusion_proof_names_its_entry_by_what_it_is_about():
    """A browser finds its deal's entry by kind and subject (the log admits one of each)
    rather than downloading the log to learn its index."""
    _append(5, 0)
    client = APIClient()
    entries = list(fairness_log.entries())
    wanted = entries[3]
    subject = transparency.entry_key(wanted["kind"], wanted["body"])
    query = f"kind={wanted['kind']}&subject={subject}&size=5"
    by_key = client.get(f"/fairness/proof/inclusion?{query}")
    assert by_key.status_code == 200
    assert by_key.json() == client.get("/fairness/proof/inclusion?index=3&size=5").json()
    missing = client.get(f"/fairness/proof/inclusion?kind={wanted['kind']}&subject=nope&size=5")
    assert missing.status_code == 404
    assert missing.content.decode() == f"the log holds no {wanted['kind']} entry of that subject\n"
    outside = f"/fairness/proof/inclusion?{query[:-1]}3"  # entry 3 is not in the tree of 3
    assert client.get(outside).status_code == 400
    assert client.get(f"/fairness/proof/inclusion?kind=x&subject={subject}").status_code == 400
    for query in (  # never a 500: a NUL byte PostgreSQL refuses, an empty or unknown kind
        "kind=deal-record&subject=%00&size=5",
        "kind=%00&subject=a&size=5",
        "kind=&subject=a&size=5",
        "index=0&size=1&kind=",
        "kind=no-such-kind&subject=a&size=5",
        f"kind=deal-record&subject={'x' * 161}&size=5",
    ):
        answer = client.get(f"/fairness/proof/inclusion?{query}")
        assert answer.status_code == 400, (query, answer.status_code)
    late = client.get(f"/fairness/proof/inclusion?kind={wanted['kind']}&subject={subject}&size=3")
    assert late.content.decode() == "that entry is not in the tree of the first 3 entries\n"


@pytest.mark.django_db
def test_a_size_has_one_checkpoint_text_dated_by_its_last_entry(time_machine):
    """Witnesses cosign the exact text, so two fetches of the log at one size must give the
    same one: its time is when its last entry was logged, not when it was fetched."""
    time_machine.move_to("2026-12-07T10:00:00Z", tick=False)
    _append(3, 0)
    first = APIClient().get("/fairness/checkpoint").content
    time_machine.move_to("2026-12-07T11:30:00Z", tick=False)
    again = APIClient().get("/fairness/checkpoint").content
    assert first == again
    assert b"\ntime 2026-12-07T10:00:00Z key-id " in first
    _append(1, 3)
    assert b"\ntime 2026-12-07T11:30:00Z key-id " in APIClient().get("/fairness/checkpoint").content


@pytest.mark.django_db
def test_a_malformed_after_is_400_not_a_broken_header():
    answer = APIClient().get("/fairness/log.jsonl?after=%00")
    assert answer.status_code == 400
    assert "\x00" not in answer.get("ETag", "")
