"""Issue 31, deliverable 7 on the verifying side: signing keys with ids and a history. Each
key is logged signed by itself and endorsed by the one before; receipts and heads name their
key; `trix verify` and the standalone verifier pick the key by id among the log's keys or
`/fairness/keys.json`, pinned by the key the player saved, and refuse a signature made by a
key outside its period."""

from __future__ import annotations

import copy
import io
import json

import pytest

from games.engine.cli import main as trix
from games.fairness import signing_keys
from games.fairness.canonical import sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.receipt import (
    key_id,
    load_private_key,
    public_key_hex,
    sign,
)
from games.fairness.transparency import log_head, next_entry, verify_log
from tests.games.fairness_helpers import (
    RFC8032_TEST1_SECRET,
    load_standalone,
    played_records,
    with_receipt,
)

OLD = load_private_key(RFC8032_TEST1_SECRET)
NEW = load_private_key("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
OLD_ID, NEW_ID = key_id(OLD), key_id(NEW)
STRANGER = load_private_key("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7")
SEEDS = ["7f3a9c", "bot", "Zm9v", "bot"]
ROTATED_AT = "2026-12-01T11:00:00Z"


def _match(match_id: str, secret: str, key, issued_at: str, key_id_named: str | None):
    records = played_records("complex_partner", match_id, secret, SEEDS)
    for record in records:
        record["deal_number"] = record["shuffle"]["deal_number"]
    return with_receipt(records, key, issued_at=issued_at, key_id=key_id_named)


@pytest.fixture(scope="module")
def before():
    """A match whose receipt the old key signed at 10:00, naming it."""
    return _match("table-12", bytes(range(32)).hex(), OLD, "2026-12-01T10:00:00Z", OLD_ID)


@pytest.fixture(scope="module")
def after():
    """A match whose receipt the new key signed at 12:00, after the rotation at 11:00."""
    return _match("table-13", bytes(range(1, 33)).hex(), NEW, "2026-12-01T12:00:00Z", NEW_ID)


def rotated_log(*matches, first_at: str | None = None) -> list[dict]:
    """A log as the site writes it: per match its commitment, receipt (at the receipt's time)
    and deal records; at the rotation (11:00), between the matches issued before and after
    it, the old key (unless ``first_at`` logged it earlier, as ``--log-current`` does) and
    the new key, endorsed by the old."""
    entries: list[dict] = []

    def add(kind, body, at):
        prev = entries[-1] if entries else None
        entries.append(next_entry(prev=prev, kind=kind, body=body, logged_at=at))

    def rotate():
        if first_at is None:
            add("signing-key", signing_keys.build_body(key=OLD), ROTATED_AT)
        add("signing-key", signing_keys.build_body(key=NEW, previous=OLD), ROTATED_AT)

    if first_at is not None:
        add("signing-key", signing_keys.build_body(key=OLD), first_at)
    rotated = False
    for records, receipt, signature in matches:
        at = receipt["issued_at"]
        if not rotated and at > ROTATED_AT:
            rotate()
            rotated = True
        fields = ("match_id", "algorithm", "commitment", "deals")
        add("match-commitment", {f: receipt[f] for f in fields}, at)
        add("match-receipt", {"receipt": receipt, "signature": signature}, at)
        for record in records:
            body = {"match_id": receipt["match_id"], "deal_number": record["deal_number"]}
            add("deal-record", {**body, "record_hash": sha256_hex(record)}, at)
    if not rotated:
        rotate()
    return entries


def keys_json(entries) -> dict:
    logged = [
        (e["body"], e["index"], e["logged_at"]) for e in entries if e["kind"] == "signing-key"
    ]
    return signing_keys.keys_document(logged, None)


def write(tmp_path, name, value) -> str:
    path = tmp_path / name
    if name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(e) + "\n" for e in value))
    else:
        path.write_text(json.dumps(value))
    return str(path)


def verify(tmp_path, folder, *options):
    out, err = io.StringIO(), io.StringIO()
    code = trix(["verify", str(folder), *map(str, options)], out, err)
    return code, out.getvalue(), err.getvalue()


def records_dir(tmp_path, *matches):
    folder = tmp_path / "records"
    folder.mkdir(exist_ok=True)
    for records, receipt, _ in matches:
        (folder / f"{receipt['match_id']}.json").write_text(json.dumps(records))
    return folder


def standalone(*argv) -> tuple[int, str]:
    module = load_standalone()
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = module.main([str(a) for a in argv])
    return code, out.getvalue()


# --- the statements ----------------------------------------------------------------------


def test_a_key_is_signed_by_itself_and_endorsed_by_the_key_before_it():
    first = signing_keys.build_body(key=OLD)
    assert first["previous"] is None and first["endorsement"] is None
    assert signing_keys.check_body(first) == first
    second = signing_keys.build_body(key=NEW, previous=OLD)
    assert (second["key_id"], second["previous"]) == (NEW_ID, OLD_ID)
    assert second["previous_key"] == public_key_hex(OLD)
    signing_keys.check_body(second)
    stranger = dict(second, endorsement=sign(signing_keys.statement(second), STRANGER))
    with pytest.raises(FairnessError, match=f"endorsement of key {NEW_ID} is not key {OLD_ID}"):
        signing_keys.check_body(stranger)
    unsigned = dict(second, signature=sign(signing_keys.statement(second), OLD))
    with pytest.raises(FairnessError, match="own signature of its statement is not valid"):
        signing_keys.check_body(unsigned)
    misnamed = dict(first, key_id=NEW_ID)
    with pytest.raises(FairnessError, match="is not its key's id"):
        signing_keys.check_body(misnamed)
    half = dict(second, endorsement=None)
    with pytest.raises(FairnessError, match="come together"):
        signing_keys.check_body(half)
    with pytest.raises(FairnessError, match="cannot follow itself"):
        signing_keys.check_body(signing_keys.build_body(key=OLD, previous=OLD))


def test_the_log_holds_a_chain_of_keys_never_a_fork():
    entries = rotated_log()
    verify_log(entries)
    at = "2026-12-01T12:00:00Z"
    # a second first key
    again = entries + [
        next_entry(
            prev=entries[-1],
            kind="signing-key",
            body=signing_keys.build_body(key=STRANGER),
            logged_at=at,
        )
    ]
    with pytest.raises(
        FairnessError,
        match=f"names None as the key before it, but the log's key until then is {NEW_ID}",
    ):
        verify_log(again)
    # a fork: another key endorsed by the old one after the new one
    body = signing_keys.build_body(key=STRANGER, previous=OLD)
    fork = entries + [next_entry(prev=entries[-1], kind="signing-key", body=body, logged_at=at)]
    with pytest.raises(
        FairnessError,
        match=f"names {OLD_ID} as the key before it, but the log's key until then is {NEW_ID}",
    ):
        verify_log(fork)
    # a key the log has not recorded named as previous
    body = signing_keys.build_body(key=NEW, previous=STRANGER)
    alone = [next_entry(prev=None, kind="signing-key", body=body, logged_at=at)]
    with pytest.raises(FairnessError, match="which the log has not recorded"):
        verify_log(alone)
    # a key logged twice
    body = signing_keys.build_body(key=OLD, previous=NEW)
    back = entries + [next_entry(prev=entries[-1], kind="signing-key", body=body, logged_at=at)]
    with pytest.raises(FairnessError, match=f"a second signing-key of key '{OLD_ID}'"):
        verify_log(back)


def test_a_keyring_picks_the_key_by_id_within_its_period():
    ring = signing_keys.keyring_from_log(rotated_log())
    assert ring.key(OLD_ID, "2026-12-01T10:00:00Z", "x").key_id == OLD_ID
    assert ring.key(OLD_ID, ROTATED_AT, "x").key_id == OLD_ID  # both in use at the change
    assert ring.key(None, "2026-12-01T12:00:00Z", "x").key_id == NEW_ID
    with pytest.raises(
        FairnessError,
        match=f"signed at 2026-12-01T12:00:00Z by key {OLD_ID}, which was in use from "
        "the start until 2026-12-01T11:00:00Z",
    ):
        ring.key(OLD_ID, "2026-12-01T12:00:00Z", "the receipt")
    with pytest.raises(
        FairnessError,
        match=f"signed at 2026-12-01T10:00:00Z by key {NEW_ID}, which was in use from "
        f"{ROTATED_AT} until now",
    ):
        ring.key(NEW_ID, "2026-12-01T10:00:00Z", "the receipt")
    # The first key signed everything before the log recorded it, even logged earlier on
    # its own (rotate_signing_key --log-current at 09:00): from the start.
    early = signing_keys.keyring_from_log(rotated_log(first_at="2026-12-01T09:00:00Z"))
    assert early.key(OLD_ID, "2026-12-01T08:00:00Z", "x").key_id == OLD_ID
    with pytest.raises(FairnessError, match=f"signed by key {key_id(STRANGER)}, which is not in"):
        ring.key(key_id(STRANGER), None, "the receipt")


def test_keys_json_is_a_chain_with_periods():
    document = keys_json(rotated_log())
    assert [(k["key_id"], k["valid_from"], k["valid_until"]) for k in document["keys"]] == [
        (OLD_ID, None, ROTATED_AT),  # the first key: from the start
        (NEW_ID, ROTATED_AT, None),
    ]
    ring = signing_keys.keyring_from_document(document)
    assert ring.order == [OLD_ID, NEW_ID]
    moved = copy.deepcopy(document)
    moved["keys"][0]["valid_until"] = "2026-12-01T13:00:00Z"
    with pytest.raises(FairnessError, match="valid_until must be the next key's valid_from"):
        signing_keys.keyring_from_document(moved)
    swapped = copy.deepcopy(document)
    body = signing_keys.build_body(key=STRANGER, previous=NEW)  # endorsed by another key
    swapped["keys"][1].update({**body, "previous": OLD_ID, "previous_key": public_key_hex(OLD)})
    with pytest.raises(FairnessError, match="is not key .*'s signature|own signature"):
        signing_keys.keyring_from_document(swapped)
    with pytest.raises(FairnessError, match="not a trix-keys/1 list"):
        signing_keys.keyring_from_document({"keys": []})


# --- trix verify and the standalone verifier ---------------------------------------------


def test_receipts_on_both_sides_of_a_rotation_verify_from_the_key_saved_before(
    tmp_path, before, after
):
    # A receipt from before receipts named their key, issued before the log recorded any.
    legacy = _match("table-11", bytes(range(5, 37)).hex(), OLD, "2026-12-01T09:30:00Z", None)
    entries = rotated_log(legacy, before, after)
    folder = records_dir(tmp_path, legacy, before, after)
    log = write(tmp_path, "log.jsonl", entries)
    old, new = public_key_hex(OLD), public_key_hex(NEW)
    code, out, err = verify(tmp_path, folder, "--public-key", old, "--log", log)
    assert (code, err) == (0, ""), err
    assert (
        f"note: receipt signatures valid under keys {', '.join(sorted([OLD_ID, NEW_ID]))} "
        "(the log's signing-key entries, pinned by --public-key)" in out
    )
    # The key saved after the rotation vouches for the old one too (it names it).
    assert verify(tmp_path, folder, "--public-key", new, "--log", log)[0] == 0
    # Without the log or keys.json, only the key given.
    code, _, err = verify(tmp_path, folder, "--public-key", old)
    assert code == 1
    assert (
        f"the receipt is signed by key {NEW_ID}, which is not in --public-key (it holds "
        f"{OLD_ID}); give --keys" in err
    )
    keys = write(tmp_path, "keys.json", keys_json(entries))
    code, out, err = verify(tmp_path, folder, "--public-key", old, "--keys", keys)
    assert (code, err) == (0, ""), err
    assert "(--keys, pinned by --public-key)" in out
    code, out, err = verify(tmp_path, folder, "--keys", keys)
    assert (code, err) == (0, ""), err
    assert "(--keys, not pinned: give --public-key, the key you saved)" in out
    assert verify(tmp_path, folder, "--public-key", old, "--keys", keys, "--log", log)[0] == 0
    # A key saved from another site pins nothing here.
    code, _, err = verify(tmp_path, folder, "--public-key", public_key_hex(STRANGER), "--log", log)
    assert code == 1 and err.startswith(f"--public-key: key {key_id(STRANGER)} is not one of")
    # keys.json whose periods are not the log's.
    moved = keys_json(entries)
    moved["keys"][0]["valid_until"] = moved["keys"][1]["valid_from"] = "2026-12-01T12:30:00Z"
    moved_path = write(tmp_path, "moved.json", moved)
    code, _, err = verify(tmp_path, folder, "--keys", moved_path, "--log", log)
    assert (code, err) == (
        1,
        "--keys: the keys and periods listed are not the log's signing-key entries\n",
    )
    # The standalone verifier, match by match.
    for records, _, _ in (legacy, before, after):
        path = write(tmp_path, "one.json", records)
        code, text = standalone(path, "--public-key", old, "--log", log)
        assert code == 0, text
        assert "(the log's signing-key entries, pinned by --public-key)" in text
        code, text = standalone(path, "--public-key", old, "--keys", keys)
        assert code == 0, text
    path = write(tmp_path, "one.json", after[0])
    code, text = standalone(path, "--public-key", old)
    assert code == 1 and f"signed by key {NEW_ID}, not one of the keys given ({OLD_ID})" in text
    code, text = standalone(path, "--keys", moved_path, "--log", log)
    assert code == 1 and "--keys: the keys and periods listed are not the log's" in text


def test_a_retired_key_signing_after_its_period_is_refused(tmp_path, before):
    """The operator keeps the old key after the rotation and signs a new match with it."""
    late = _match("table-14", bytes(range(2, 34)).hex(), OLD, "2026-12-01T12:30:00Z", OLD_ID)
    entries = rotated_log(before, late)
    log = write(tmp_path, "log.jsonl", entries)
    path = write(tmp_path, "late.json", late[0])
    code, _, err = verify(tmp_path, path, "--public-key", public_key_hex(OLD), "--log", log)
    assert code == 1
    assert (
        f"the receipt was signed at 2026-12-01T12:30:00Z by key {OLD_ID}, which was in use "
        f"from the start until {ROTATED_AT}" in err
    )
    code, text = standalone(path, "--public-key", public_key_hex(OLD), "--log", log)
    assert code == 1
    assert (
        f"signed at 2026-12-01T12:30:00Z by key {OLD_ID}, in use from the start "
        f"until {ROTATED_AT}" in text
    )
    # A receipt naming no key (as before key ids) is checked with the key in use at its time.
    unnamed = _match("table-15", bytes(range(3, 35)).hex(), OLD, "2026-12-01T12:30:00Z", None)
    log = write(tmp_path, "log2.jsonl", rotated_log(before, unnamed))
    path = write(tmp_path, "unnamed.json", unnamed[0])
    code, _, err = verify(tmp_path, path, "--public-key", public_key_hex(OLD), "--log", log)
    assert code == 1 and "signature does not match" in err
    code, text = standalone(path, "--public-key", public_key_hex(OLD), "--log", log)
    assert code == 1 and "shuffle.signature: not valid" in text


def test_a_head_names_its_key(tmp_path, before, after):
    entries = rotated_log(before, after)
    log = write(tmp_path, "log.jsonl", entries)
    payload = log_head(len(entries), verify_log(entries), NEW_ID)
    head = write(tmp_path, "head.json", {**payload, "signature": sign(payload, NEW)})
    folder = records_dir(tmp_path, before, after)
    options = ["--public-key", public_key_hex(OLD), "--log", log, "--head", head]
    code, out, err = verify(tmp_path, folder, *options)
    assert (code, err) == (0, ""), err
    assert standalone(write(tmp_path, "a.json", after[0]), *options)[0] == 0
    # Signed by the old key but naming the new one: refused.
    forged = write(tmp_path, "forged.json", {**payload, "signature": sign(payload, OLD)})
    options[-1] = forged
    code, _, err = verify(tmp_path, folder, *options)
    assert code == 1 and err.startswith("--head: signature:")
    code, text = standalone(write(tmp_path, "a.json", after[0]), *options)
    assert code == 1 and "--head: signature: not valid" in text


def _append(entries, match, at):
    """``match``'s commitment, receipt and deal records appended to ``entries`` at ``at``."""
    records, receipt, signature = match
    fields = ("match_id", "algorithm", "commitment", "deals")
    items = [("match-commitment", {f: receipt[f] for f in fields})]
    items.append(("match-receipt", {"receipt": receipt, "signature": signature}))
    for record in records:
        body = {"match_id": receipt["match_id"], "deal_number": record["deal_number"]}
        items.append(("deal-record", {**body, "record_hash": sha256_hex(record)}))
    for kind, body in items:
        entries.append(next_entry(prev=entries[-1], kind=kind, body=body, logged_at=at))
    return entries


def test_a_retired_key_signing_inside_its_period_but_logged_after_it_is_refused(tmp_path, before):
    """The operator signs with the old key, dated the second of the rotation (inside the old
    key's period), and appends it after the new key's entry: the log's order refuses it, and
    a head or checkpoint of a log that holds the rotation signed by the old key."""
    from games.fairness import merkle
    from games.fairness.transparency import entry_leaf_hash

    late = _match("table-16", bytes(range(4, 36)).hex(), OLD, ROTATED_AT, OLD_ID)
    entries = _append(rotated_log(before), late, ROTATED_AT)  # after the rotation's entries
    log = write(tmp_path, "log.jsonl", entries)
    path = write(tmp_path, "late.json", late[0])
    code, _, err = verify(tmp_path, path, "--public-key", public_key_hex(OLD), "--log", log)
    index = [e["kind"] for e in entries].index("match-receipt", len(entries) - 10)
    assert (code, err) == (
        1,
        f"the receipt of match 'table-16' is log entry {index}, logged when key {OLD_ID} was "
        "not the site's key: a retired key's signature\n",
    )
    # The honest match before the rotation still verifies against the same log.
    code, _, err = verify(
        tmp_path,
        write(tmp_path, "b.json", before[0]),
        "--public-key",
        public_key_hex(OLD),
        "--log",
        log,
    )
    assert (code, err) == (0, ""), err
    # A head and a checkpoint of the whole log, signed by the retired key.
    payload = log_head(len(entries), verify_log(entries), OLD_ID)
    head = write(tmp_path, "head.json", {**payload, "signature": sign(payload, OLD)})
    records = write(tmp_path, "b.json", before[0])
    options = ["--public-key", public_key_hex(OLD), "--log", log]
    code, _, err = verify(tmp_path, records, *options, "--head", head)
    assert (code, err) == (
        1,
        f"--head: signed by key {OLD_ID}, which the log's first {len(entries)} entries "
        f"retired (their last signing key is {NEW_ID})\n",
    )
    root = merkle.tree_root([entry_leaf_hash(e) for e in entries])
    text = merkle.format_checkpoint(
        merkle.Checkpoint("o", len(entries), root, (f"time {ROTATED_AT} key-id {OLD_ID}",))
    )
    key_hash = merkle.ed25519_key_hash("o", bytes.fromhex(public_key_hex(OLD)))
    note = text + "\n" + merkle.signature_line("o", key_hash, OLD.sign(text.encode()))
    saved = tmp_path / "checkpoint.txt"
    saved.write_text(note)
    code, text = standalone(records, *options, "--head", head)
    assert code == 1 and f"--head: signed by key {OLD_ID}, retired by then ({NEW_ID})" in text
    code, text = standalone(path, "--public-key", public_key_hex(OLD), "--log", log)
    assert code == 1
    assert "log: the receipt was logged when its key was not the site's (retired)" in text
    code, _, err = verify(tmp_path, records, *options, "--checkpoint", saved)
    assert (code, err) == (
        1,
        f"--checkpoint: signed by key {OLD_ID}, which the log's first {len(entries)} entries "
        f"retired (their last signing key is {NEW_ID})\n",
    )


def test_a_saved_key_list_may_be_the_start_of_a_longer_history(tmp_path, before, after):
    """keys.json saved before a later rotation still agrees with the log: its keys are the
    log's first keys, its last one still open. Times going back and a bad log_index are
    refused."""
    entries = rotated_log(before, after)
    saved = keys_json(entries)
    third = STRANGER
    body = signing_keys.build_body(key=third, previous=NEW)
    entries.append(
        next_entry(
            prev=entries[-1], kind="signing-key", body=body, logged_at="2026-12-01T13:00:00Z"
        )
    )
    log = write(tmp_path, "log.jsonl", entries)
    keys = write(tmp_path, "keys.json", saved)
    folder = records_dir(tmp_path, before, after)
    options = ["--public-key", public_key_hex(OLD), "--keys", keys, "--log", log]
    code, _, err = verify(tmp_path, folder, *options)
    assert (code, err) == (0, ""), err
    for records, _, _ in (before, after):
        code, text = standalone(write(tmp_path, "one.json", records), *options)
        assert code == 0, text
    # A list longer than the log's history is not its start.
    longer = keys_json(entries)
    code, _, err = verify(
        tmp_path,
        folder,
        *options[:2],
        "--keys",
        write(tmp_path, "l.json", longer),
        "--log",
        write(tmp_path, "short.jsonl", entries[:-1]),
    )
    assert code == 1 and "not the log's signing-key entries" in err
    # The next key logged before the one before it.
    first = rotated_log(first_at="2026-12-01T09:00:00Z")
    first[-1]["logged_at"] = "2026-12-01T08:00:00Z"
    with pytest.raises(
        FairnessError, match="was logged at 2026-12-01T08:00:00Z, before the key before it"
    ):
        signing_keys.keyring_from_log(first)
    for bad in ("seven", -1, None, True):
        broken = copy.deepcopy(saved)
        broken["keys"][1]["log_index"] = bad
        with pytest.raises(FairnessError, match="log_index"):
            signing_keys.keyring_from_document(broken)
        code, text = standalone(
            write(tmp_path, "one.json", before[0]), "--keys", write(tmp_path, "b.json", broken)
        )
        assert code == 1 and "--keys: key 1: log_index" in text, text


def test_a_keys_file_that_is_not_a_key_list_is_refused(tmp_path, before):
    """``--keys`` given is never taken for none: a file holding JSON null, a list or bad
    JSON is refused (exit 1, as an unreadable --log is), by both verifiers."""
    path = write(tmp_path, "b.json", before[0])
    for name, text in (("null.json", "null"), ("list.json", "[]"), ("bad.json", "{")):
        keys = tmp_path / name
        keys.write_text(text)
        code, out, err = verify(tmp_path, path, "--public-key", public_key_hex(OLD), "--keys", keys)
        assert (code, out) == (1, ""), out
        assert err.startswith("--keys: "), err
        code, text_out = standalone(path, "--public-key", public_key_hex(OLD), "--keys", keys)
        assert code == 1 and "--keys: " in text_out, text_out


def test_an_older_key_list_with_a_newer_log_checks_with_the_logs_keys(tmp_path, before):
    """keys.json saved before later rotations (even before the first: the key then in use,
    no period) with the newer log: the log's keys are used, so a receipt of a later key
    verifies and a retired key's receipt logged after its retirement is refused. A head
    from before key ids is checked with whichever of the keys signed it."""
    third = STRANGER
    entries = rotated_log(before)  # OLD, then NEW at 11:00
    body = signing_keys.build_body(key=third, previous=NEW)
    at = "2026-12-01T13:00:00Z"
    entries.append(next_entry(prev=entries[-1], kind="signing-key", body=body, logged_at=at))
    new_match = _match(
        "table-17", bytes(range(6, 38)).hex(), third, "2026-12-01T13:30:00Z", key_id(third)
    )
    forged = _match("table-18", bytes(range(7, 39)).hex(), NEW, "2026-12-01T13:00:00Z", NEW_ID)
    _append(entries, new_match, "2026-12-01T13:30:00Z")
    _append(entries, forged, "2026-12-01T13:30:00Z")
    log = write(tmp_path, "log.jsonl", entries)
    two_keys = keys_json(entries[: [e["kind"] for e in entries].index("signing-key", 2) + 1])
    one_key = signing_keys.keys_document([], signing_keys.build_body(key=OLD))
    payload = log_head(3, verify_log(entries[:3]))  # an old head, signed by OLD, no key_id
    head = write(tmp_path, "head.json", {**payload, "signature": sign(payload, OLD)})
    for name, saved in (("two.json", two_keys), ("one.json", one_key)):
        keys = write(tmp_path, name, saved)
        options = ["--public-key", public_key_hex(OLD), "--keys", keys, "--log", log]
        good = write(tmp_path, "good.json", new_match[0])
        code, _, err = verify(tmp_path, good, *options, "--head", head)
        assert (code, err) == (0, ""), (name, err)
        code, text = standalone(good, *options, "--head", head)
        assert code == 0, (name, text)
        bad = write(tmp_path, "bad.json", forged[0])
        code, _, err = verify(tmp_path, bad, *options)
        assert code == 1 and "logged when key" in err and "a retired key's signature" in err, err
        code, text = standalone(bad, *options)
        assert code == 1 and "(retired)" in text, text


def test_a_retired_keys_receipt_without_a_key_id_is_placed_by_its_time(tmp_path, before):
    """A receipt naming no key (as before key ids), signed by the retired key, dated inside
    its period and logged after the next key's entry: its key is the one of its time, and
    the log's order refuses it, in both verifiers."""
    late = _match("table-19", bytes(range(8, 40)).hex(), OLD, "2026-12-01T10:59:59Z", None)
    entries = _append(rotated_log(before), late, ROTATED_AT)
    log = write(tmp_path, "log.jsonl", entries)
    path = write(tmp_path, "late.json", late[0])
    code, _, err = verify(tmp_path, path, "--public-key", public_key_hex(OLD), "--log", log)
    assert code == 1 and f"logged when key {OLD_ID} was not the site's key" in err, err
    code, text = standalone(path, "--public-key", public_key_hex(OLD), "--log", log)
    assert code == 1 and "(retired)" in text, text
