"""A day's auditor archive (docs/fairness.md, "The daily archive"): ``/fairness/archive/DAY.zip``
holds the day's log entries with the proof they are the whole day, the earlier entries they
need, the day's matches' records and its events' draws; ``trix verify ARCHIVE.zip`` checks it
in one command and reconciles deals -> results -> payouts. Genuine archives verify; every
tampering and the operator's own re-signed rewrite are refused."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime

import pytest
import time_machine

from games import services, signing
from games.fairness import archive, merkle
from games.fairness.canonical import canonical_bytes
from games.fairness.settlements import reconcile
from games.fairness.transparency import entry_hash, entry_leaf_hash
from games.fairness.verify_command import verify_cli
from games.models import LogEntry
from games.services import fairness_log
from tests.games.fairness_helpers import played_records
from tests.games.helpers import play_out, staked_table

pytestmark = pytest.mark.django_db

STAKE = 100
TIMERS = {"choose_timer": 3600, "double_timer": 3600, "play_timer": 3600}
DAY = "2026-03-02"


def _at(text: str):
    return time_machine.travel(datetime.fromisoformat(text).replace(tzinfo=UTC), tick=False)


@pytest.fixture
def three_days(tasks_applied_here, make_user):
    """A match started on 1 March and ended by a forfeit on 2 March during its first deal
    (its pot paid that day), a free match of four bots played on 2 March, a table cancelled
    on 2 March (its stakes refunded), a table made on 3 March. Returns the bots' table."""
    with _at("2026-03-01T23:50:00"):
        table, users = staked_table(make_user, ["ann", "ben", "cat"])
        services.wake(table_id=table.pk, version=table.version)  # the first deal
    with _at("2026-03-02T00:10:00"):
        services.leave(user=users[0], table_id=table.pk)
        services.pay_pot(table_id=table.pk)
    with _at("2026-03-02T06:00:00"):
        host = make_user("host")
        bots = services.create_table(user=host, variant="complex", stake=0, options=TIMERS)
        for seat in range(4):
            services.seat_bot(user=host, table_id=bots.pk, seat=seat, bot="rules")
        bots = play_out(bots.pk)
    with _at("2026-03-02T12:00:00"):
        owners = [make_user(name, funds=1_000) for name in ("dan", "eve")]
        cancelled = services.create_table(
            user=owners[0], variant="complex", stake=STAKE, options=TIMERS
        )
        for seat, user in enumerate(owners):
            services.take_seat(
                user=user, table_id=cancelled.pk, seat=seat * 2, client_seed=f"c{seat}"
            )
        services.cancel_table(table_id=cancelled.pk, reason="test")
    with _at("2026-03-03T08:00:00"):
        services.create_table(user=owners[0], variant="complex", stake=0, options=TIMERS)
    return bots


def _download(client, day=DAY) -> bytes:
    with _at("2026-03-05T00:00:00"):
        response = client.get(f"/fairness/archive/{day}.zip")
    assert response.status_code == 200, response.content
    assert response["Content-Disposition"] == f'attachment; filename="trix-archive-{day}.zip"'
    return response.content


def _verify(tmp_path, data: bytes, key: str | None = "site") -> tuple[int, str, str]:
    path = tmp_path / "archive.zip"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    if key == "site":
        key = signing.current().public_bytes().hex()
    code = verify_cli(str(path), out, err, public_key=key)
    return code, out.getvalue(), err.getvalue()


def _files(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as packed:
        return {name: packed.read(name) for name in packed.namelist()}


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in files.items():
            out.writestr(name, data)
    return buffer.getvalue()


def _lines(data: bytes) -> list[dict]:
    return [json.loads(line) for line in data.splitlines()]


def _jsonl(items) -> bytes:
    return b"".join(canonical_bytes(item) + b"\n" for item in items)


def _resigned(files: dict[str, bytes]) -> dict[str, bytes]:
    """What the operator could do with its own key: rechain ``log.jsonl`` after an edit,
    prove the context in the new tree and sign a checkpoint of its root (the frontier, of
    the entries before, kept)."""
    log = _lines(files[archive.LOG])
    for before, entry in zip(log, log[1:], strict=False):
        entry["prev"] = entry_hash(before)
    before = [entry_leaf_hash(e) for e in fairness_log.entries(-1, log[0]["index"])]
    leaves = before + [entry_leaf_hash(e) for e in log]
    root = merkle.tree_root(leaves)
    context = []
    for item in _lines(files[archive.CONTEXT]):
        ranges = merkle.inclusion_ranges(item["entry"]["index"], len(leaves))
        proof = [merkle.tree_root(leaves[lo:hi]).hex() for lo, hi in ranges]
        context.append({**item, "proof": proof})
    note = files[archive.CHECKPOINT].decode()
    text, _ = merkle.parse_signed_note(note)
    old = merkle.parse_checkpoint(text)
    text = merkle.format_checkpoint(merkle.Checkpoint(old.origin, old.size, root, old.extensions))
    key = signing.current()
    line = merkle.signature_line(
        old.origin,
        merkle.ed25519_key_hash(old.origin, key.public_bytes()),
        key.private_key.sign(text.encode()),
    )
    return {
        **files,
        archive.LOG: _jsonl(log),
        archive.CONTEXT: _jsonl(context),
        archive.CHECKPOINT: (text + "\n" + line).encode(),
    }


def test_a_days_archive_verifies_and_reconciles_its_payouts(client, tmp_path, three_days):
    data = _download(client)
    assert _download(client) == data  # the same bytes whenever it is made
    files = _files(data)
    manifest = json.loads(files[archive.MANIFEST])
    log = _lines(files[archive.LOG])
    assert manifest["day"] == DAY and manifest["size"] == manifest["end"] + 1
    assert log[0]["logged_at"].startswith("2026-03-01")  # the neighbours bound the day
    assert log[-1]["logged_at"].startswith("2026-03-03")
    assert {e["logged_at"][:10] for e in log[1:-1]} == {DAY}
    context = [item["entry"]["kind"] for item in _lines(files[archive.CONTEXT])]
    assert {"match-commitment", "match-receipt", "seat-seed"} <= set(context)
    assert [n for n in files if n.startswith(archive.RECORDS)] == [
        f"records/{archive.file_name(three_days.receipt['match_id'])}.json"
    ]
    code, out, err = _verify(tmp_path, data)
    assert (code, err) == (0, ""), err
    assert out.startswith(f"verified: trix-archive/1 {DAY}\n")
    assert "the whole day" in out
    assert "then seat 0 left" in out  # the forfeit's payout, reconciled with the records
    assert "refunded, every stake back" in out
    code, out, _ = _verify(tmp_path, data, key=None)
    assert code == 0 and "give --public-key" in out


def test_the_archive_of_a_day_not_over_is_not_served(client, three_days):
    with _at("2026-03-02T23:59:00"):
        response = client.get(f"/fairness/archive/{DAY}.zip")
    assert response.status_code == 404 and b"has not ended" in response.content
    assert client.get("/fairness/archive/2026-13-40.zip").status_code == 404


def test_tampered_archives_are_refused(client, tmp_path, three_days):
    files = _files(_download(client))
    log = _lines(files[archive.LOG])
    payout = next(i for i, e in enumerate(log) if e["kind"] == "match-payout")

    def refused(changed: dict[str, bytes], expected: str) -> None:
        code, out, err = _verify(tmp_path, _zip(changed))
        assert code == 1 and out == "" and expected in err, err

    # A record withheld: the day logged it.
    (name,) = [n for n in files if n.startswith(archive.RECORDS)]
    records = json.loads(files[name])
    refused({**files, name: canonical_bytes(records[:-1])}, "the archive has no record of it")
    # A record edited: its hash is not the logged one.
    edited = json.loads(files[name])
    edited[0]["scores"] = {"0": 0, "1": 0, "2": 0, "3": 0}
    refused({**files, name: canonical_bytes(edited)}, "match ")
    # A payout changed in the log: the checkpoint's root no longer matches.
    body = dict(log[payout]["body"])
    changed = [*log[:payout], {**log[payout], "body": {**body, "transaction": 999}}]
    changed += log[payout + 1 :]
    refused({**files, archive.LOG: _jsonl(changed)}, "prev is not the hash of the one before")
    # The last entry changed (nothing after it to chain): the root no longer matches.
    last = log[-1]
    assert last["kind"] == "match-commitment"
    changed = [*log[:-1], {**last, "body": {**last["body"], "commitment": "0" * 64}}]
    refused({**files, archive.LOG: _jsonl(changed)}, "do not give the checkpoint's root")
    # The operator's own rewrite, rechained and re-signed with the site's key: the pot paid
    # as no seat's leaving gives (the two who stayed tie, whoever left).
    assert body["payouts"] == {"1": 150, "2": 150}  # seat 0 left: the others tie
    moved = {"1": 300}
    changed = [*log[:payout], {**log[payout], "body": {**body, "payouts": moved}}]
    changed += log[payout + 1 :]
    refused(_resigned({**files, archive.LOG: _jsonl(changed)}), "is not the pot rule's split")
    # An earlier entry the day needs left out: the receipt's commitment.
    context = _lines(files[archive.CONTEXT])
    kept = [c for c in context if c["entry"]["kind"] != "match-commitment"]
    refused({**files, archive.CONTEXT: _jsonl(kept)}, "before its match-commitment")
    # A day made to start later: its first entry passed off as the day before's.
    manifest = json.loads(files[archive.MANIFEST])
    first = manifest["first"]
    entries = list(fairness_log.entries())
    leaves = [entry_leaf_hash(e) for e in entries]
    later = {
        **manifest,
        "first": first + 1,
        "frontier": [
            merkle.tree_root(leaves[lo : lo + n]).hex() for lo, n in merkle.subtrees(0, first)
        ],
    }
    refused(
        {
            **files,
            archive.MANIFEST: json.dumps(later).encode(),
            archive.LOG: _jsonl(log[1:]),
        },
        "the day starts earlier than the archive says",
    )
    # Another key: the checkpoint is not the site's.
    code, _, err = _verify(tmp_path, _zip(files), key="11" * 32)
    assert code == 1 and "--public-key: key" in err, err


def test_a_paid_result_is_the_pot_rules_split_of_the_records_places():
    """settlements.reconcile on a whole match (simulated records): the right split is
    accepted, the winner's and the last's amounts swapped is refused."""
    records = played_records("complex", "m-7", "ab" * 32, ["a", "b", "c", "d"])
    from games.engine.pots import split_pot
    from games.engine.results import placements_by_score
    from games.fairness.table_results import replayed

    totals, _, _ = replayed(records)
    places = placements_by_score(totals)
    stakes = {0: 100, 1: 100, 2: 100, 3: 100}
    split = split_pot(400, stakes, places, False, house_fee_bps=500)
    entry = {
        "index": 9,
        "body": {
            "match_id": records[0]["shuffle"]["match_id"],
            "reason": "result",
            "transaction": 1,
            "stakes": {str(s): a for s, a in stakes.items()},
            "payouts": {str(s): a for s, a in split.payouts.items() if a},
            "house_fee": split.house_fee,
        },
    }
    receipt = {"variant": "complex", "options": records[0]["options"], "deals": len(records)}
    assert "the split by the places of its" in reconcile(entry, receipt, records)
    paid = entry["body"]["payouts"]
    best, worst = max(paid, key=paid.get), min(paid, key=paid.get)
    swapped = {**paid, best: paid[worst], worst: paid[best]}
    with pytest.raises(Exception, match="not the pot rule's split"):
        reconcile({**entry, "body": {**entry["body"], "payouts": swapped}}, receipt, records)


def test_log_times_never_go_back(tasks_applied_here):
    """An entry appended while the entry before carries a later time (another host's clock
    ahead) takes that time: a day's entries are one run of the log."""

    def commitment(match_id: str):
        return fairness_log.match_commitment(
            match_id=match_id, algorithm="trix-shuffle/1", commitment="a" * 64, deals=8
        )

    with _at("2026-03-02T10:00:05"):
        fairness_log.append([commitment("m1")])
    with _at("2026-03-02T10:00:01"):
        fairness_log.append([commitment("m2")])
    times = list(LogEntry.objects.order_by("index").values_list("logged_at", flat=True))
    assert times[-1] == times[-2] == datetime(2026, 3, 2, 10, 0, 5, tzinfo=UTC)


def test_days_without_entries_verify(client, tmp_path, three_days):
    """A day before the log's first entry: no entry, the neighbour after proves it."""
    data = _download(client, "2026-02-27")
    manifest = json.loads(_files(data)[archive.MANIFEST])
    assert manifest["first"] == manifest["end"] == 0
    code, out, err = _verify(tmp_path, data)
    assert (code, err) == (0, ""), err
    assert "2026-02-27: no log entry, the whole day" in out


def test_a_day_is_archived_once_the_log_holds_an_entry_after_it(client):
    """Until then an entry of that day could still come (a host whose clock lags): no
    archive of it, nor of any day of an empty log; the last date is no date."""
    with _at("2026-03-05T00:00:00"):
        empty = client.get("/fairness/archive/2026-03-01.zip", HTTP_ACCEPT_LANGUAGE="ar")
        last = client.get("/fairness/archive/9999-12-31.zip")
    assert empty.status_code == 404 and "أرشيف" in empty.content.decode()
    assert last.status_code == 404


def test_malformed_archives_get_one_line_each(client, tmp_path, three_days):
    """No traceback: each malformed archive is refused with one line naming what is wrong."""
    files = _files(_download(client))
    (name,) = [n for n in files if n.startswith(archive.RECORDS)]
    records = json.loads(files[name])
    bad_number = json.loads(files[name])
    bad_number[0]["shuffle"]["deal_number"] = [1]
    cases = {
        "null": _zip({**files, name: canonical_bytes([None, *records[1:]])}),
        "list deal number": _zip({**files, name: canonical_bytes(bad_number)}),
        "unknown file": _zip({**files, "extra/evil.exe": b"MZ"}),
        "blank line": _zip({**files, archive.CONTEXT: files[archive.CONTEXT] + b"\n"}),
        "not a zip": b"this is not a zip file",
    }
    for case, data in cases.items():
        code, out, err = _verify(tmp_path, data)
        assert code == 1 and out == "" and len(err.splitlines()) >= 1, case
        assert "Traceback" not in err and err.startswith("trix-archive/1: "), (case, err)
    # The same name twice: tools would show one copy, the verifier read another.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out, pytest.warns(UserWarning, match="Duplicate"):
        for file, data in [*files.items(), (name, canonical_bytes(records[:1]))]:
            out.writestr(file, data)
    code, _, err = _verify(tmp_path, buffer.getvalue())
    assert code == 1 and f"{name}: in the archive twice" in err, err
    # Corrupt compressed data.
    packed = bytearray(_download(client))
    at = packed.index(b"records/") + 60
    packed[at : at + 40] = bytes(40)
    code, _, err = _verify(tmp_path, bytes(packed))
    assert code == 1 and "Traceback" not in err and err.startswith("trix-archive/1: "), err


def test_an_unzipped_archive_verifies_as_its_zip(client, tmp_path, three_days):
    folder = tmp_path / "unzipped"
    with zipfile.ZipFile(io.BytesIO(_download(client))) as packed:
        packed.extractall(folder)
    out, err = io.StringIO(), io.StringIO()
    key = signing.current().public_bytes().hex()
    assert verify_cli(str(folder), out, err, public_key=key) == 0, err.getvalue()
    assert out.getvalue().startswith(f"verified: trix-archive/1 {DAY}")


def test_archives_built_for_one_address_are_limited(client, settings, three_days):
    """Each archive reads and proves a whole day: above ``TRIX_ARCHIVE_RATE`` builds per
    address, 429 with Retry-After and nothing built; a day not over stays 404."""
    from django.core.cache import cache

    cache.clear()
    settings.TRIX_ARCHIVE_RATE = "2/minute"
    with _at("2026-03-05T00:00:00"):
        codes = [client.get(f"/fairness/archive/{DAY}.zip").status_code for _ in range(3)]
        refused = client.get(f"/fairness/archive/{DAY}.zip", HTTP_ACCEPT_LANGUAGE="ar")
        not_over = client.get("/fairness/archive/2026-03-05.zip")
    cache.clear()
    assert codes == [200, 200, 429]
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json()["code"] == "throttled" and "أرشيف" in refused.json()["error"]
    assert not_over.status_code == 404


def test_a_day_with_a_key_rotation_verifies_with_the_key_saved_before_it(
    client, tmp_path, settings, tasks_applied_here, make_user
):
    """The site's key rotated in the middle of the day: the archive holds both keys' entries,
    its checkpoint is signed by the new key, and the old key saved before the rotation
    still pins it (the old key endorsed the new one, section 9b)."""
    from django.core.management import call_command

    from games.fairness import receipt as receipts

    old = signing.current().public_bytes().hex()
    host = make_user("host")

    def bots_match():
        table = services.create_table(user=host, variant="complex", stake=0, options=TIMERS)
        for seat in range(4):
            services.seat_bot(user=host, table_id=table.pk, seat=seat, bot="rules")
        return play_out(table.pk)

    with _at("2026-03-02T08:00:00"):
        bots_match()
    path = tmp_path / "new.key"
    with _at("2026-03-02T12:00:00"):
        call_command("rotate_signing_key", generate=str(path), stdout=io.StringIO())
        settings.TRIX_SIGNING_NEW_KEY = path.read_text().strip()
        call_command("rotate_signing_key", stdout=io.StringIO())
    new = receipts.key_id(receipts.load_private_key(path.read_text()))
    with _at("2026-03-02T16:00:00"):
        later = bots_match()
    assert later.receipt["key_id"] == new
    with _at("2026-03-03T08:00:00"):
        services.create_table(user=host, variant="complex", stake=0, options=TIMERS)
    data = _download(client)
    code, out, err = _verify(tmp_path, data, key=old)
    assert (code, err) == (0, ""), err
    assert f"is signed by key {new}" in out and "pinned by --public-key" in out


def test_bombs_links_and_week_dates_are_refused(client, tmp_path, three_days):
    """A file that unpacks far beyond its packed size, a link in an unzipped folder (to
    /dev/zero: read for ever) and a day written as an ISO week date: one line each."""
    data = _download(client)
    files = _files(data)
    bomb = _zip({**files, archive.CONTEXT: files[archive.CONTEXT] + b" " * (8 * 2**20)})
    code, _, err = _verify(tmp_path, bomb)
    assert code == 1 and "context.jsonl: unpacks to" in err, err
    # The same bomb with its headers stating a small size: unpacked no further than that
    # (where its checksum fails).
    lying = bytearray(bomb)
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = lying.find(signature)
        while at >= 0:
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if lying[name_at : name_at + len(archive.CONTEXT)] == archive.CONTEXT.encode():
                lying[at + offset : at + offset + 4] = (2**16).to_bytes(4, "little")
            at = lying.find(signature, at + 4)
    code, _, err = _verify(tmp_path, bytes(lying))
    assert code == 1 and "Bad CRC-32 for file 'context.jsonl'" in err, err
    manifest = json.loads(files[archive.MANIFEST])
    week = _zip({**files, archive.MANIFEST: json.dumps({**manifest, "day": "2026-W10-1"}).encode()})
    code, _, err = _verify(tmp_path, week)
    assert code == 1 and "is not a date YYYY-MM-DD" in err, err
    folder = tmp_path / "linked"
    with zipfile.ZipFile(io.BytesIO(data)) as packed:
        packed.extractall(folder)
    (folder / "records" / "zzz.json").symlink_to("/dev/zero")
    out, err = io.StringIO(), io.StringIO()
    assert verify_cli(str(folder), out, err) == 1
    assert "records/zzz.json: not a plain file" in err.getvalue(), err.getvalue()
