"""The receipt, its Ed25519 signature and the transparency log (games.fairness.canonical,
receipt, transparency): formats of docs/fairness.md."""

import pytest

from games.fairness.canonical import canonical_bytes, sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.receipt import (
    build_receipt,
    check_receipt,
    check_signature,
    key_id,
    load_private_key,
    load_public_key,
    private_key_text,
    public_key_hex,
    receipt_hash,
    sign,
)
from games.fairness.transparency import (
    GENESIS,
    entry_hash,
    find_receipt,
    log_head,
    next_entry,
    parse_log,
    verify_log,
)

# RFC 8032 section 7.1, TEST 1.
RFC_SECRET = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
RFC_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
RFC_EMPTY_SIGNATURE = (
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
    "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
)
COMMITMENT = "07a29785477a02ea35c7f288c9262850b00e871ea8a0ebb228a8dfa5b62266a3"


def a_receipt(**changes):
    fields = dict(
        match_id="m-0001",
        algorithm="trix-shuffle/1",
        commitment=COMMITMENT,
        deals=20,
        variant="classic",
        options={"doubling": True},
        client_seeds=["7f3a9c", "bot", "Zm9v", "bot"],
        issued_at="2026-12-01T10:00:00Z",
        bots=[1, 3],
    )
    fields.update(changes)
    return build_receipt(**fields)


def test_canonical_bytes_sorted_compact_utf8_and_no_floats():
    assert canonical_bytes({"b": 1, "a": "ب", "c": [True, None]}) == (
        '{"a":"ب","b":1,"c":[true,null]}'.encode()
    )
    with pytest.raises(FairnessError, match="float"):
        canonical_bytes({"a": 1.0})
    with pytest.raises(FairnessError, match="keys"):
        canonical_bytes({1: "a"})


def test_rfc8032_test_1_key_and_signature():
    key = load_private_key(RFC_SECRET)
    assert public_key_hex(key) == RFC_PUBLIC
    assert private_key_text(key) == RFC_SECRET
    # RFC 8032's message is empty; the Ed25519 signature is deterministic.
    assert key.sign(b"").hex() == RFC_EMPTY_SIGNATURE
    assert len(key_id(key)) == 16


def test_receipt_shape_and_hash():
    receipt = a_receipt()
    assert receipt["client_seeds"] == {"0": "7f3a9c", "1": "bot", "2": "Zm9v", "3": "bot"}
    assert receipt["format"] == "trix-receipt/1"
    assert receipt_hash(receipt) == sha256_hex(receipt)
    assert receipt_hash(receipt) != receipt_hash(
        a_receipt(client_seeds=["x", "bot", "Zm9v", "bot"])
    )


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"client_seeds": ["a", "b", "c"]}, "exactly 4"),
        ({"client_seeds": ["a", "b", "c", ""]}, "client_seeds.3"),
        ({"commitment": COMMITMENT.upper()}, "commitment"),
        ({"deals": 0}, "deals"),
        ({"deals": True}, "deals"),
        ({"issued_at": "2026-12-01 10:00"}, "issued_at"),
        ({"options": {"x": 0.5}}, "float"),
    ],
)
def test_malformed_receipts_are_refused(changes, message):
    with pytest.raises(FairnessError, match=message):
        a_receipt(**changes)


def test_check_receipt_refuses_extra_and_missing_fields():
    receipt = a_receipt()
    with pytest.raises(FairnessError, match="unknown field"):
        check_receipt({**receipt, "extra": 1})
    del receipt["variant"]
    with pytest.raises(FairnessError, match="missing variant"):
        check_receipt(receipt)


def test_signature_checks_and_refuses_a_changed_receipt_or_another_key():
    key = load_private_key(RFC_SECRET)
    receipt = a_receipt()
    signature = sign(receipt, key)
    check_signature(receipt, signature, load_public_key(RFC_PUBLIC))
    forged = a_receipt(client_seeds=["forged", "bot", "Zm9v", "bot"])
    with pytest.raises(FairnessError, match="does not match"):
        check_signature(forged, signature, key.public_key())
    other = load_private_key("11" * 32)
    with pytest.raises(FairnessError, match="does not match"):
        check_signature(receipt, signature, other.public_key())
    with pytest.raises(FairnessError, match="128"):
        check_signature(receipt, signature[:-2], key.public_key())


def test_key_loading_refuses_garbage_without_echoing_it():
    with pytest.raises(FairnessError) as error:
        load_private_key("not-a-key-secret")
    assert "not-a-key-secret" not in str(error.value)
    with pytest.raises(FairnessError):
        load_public_key("zz" * 32)


def three_entries():
    key = load_private_key(RFC_SECRET)
    receipt = a_receipt()
    first = next_entry(
        prev=None,
        kind="match-commitment",
        body={
            "match_id": "m-0001",
            "algorithm": "trix-shuffle/1",
            "commitment": COMMITMENT,
            "deals": 20,
        },
        logged_at="2026-12-01T09:59:00Z",
    )
    second = next_entry(
        prev=first,
        kind="draw-commitment",
        body={"event": "tournament:7", "algorithm": "trix-draw/1", "commitment": COMMITMENT},
        logged_at="2026-12-01T09:59:30Z",
    )
    third = next_entry(
        prev=second,
        kind="match-receipt",
        body={"receipt": receipt, "signature": sign(receipt, key)},
        logged_at="2026-12-01T10:00:00Z",
    )
    return [first, second, third]


def test_log_chains_and_finds_a_receipt():
    entries = three_entries()
    assert entries[0]["prev"] == GENESIS
    assert entries[1]["prev"] == entry_hash(entries[0])
    assert verify_log(entries) == entry_hash(entries[2])
    assert verify_log([]) == GENESIS
    assert find_receipt(entries, a_receipt()["match_id"]) == entries[2]
    assert find_receipt(entries, "m-0002") is None
    assert log_head(3, entry_hash(entries[2]))["format"] == "trix-log-head/1"


def test_log_round_trips_as_json_lines():
    import json

    entries = three_entries()
    text = "\n".join(json.dumps(entry) for entry in entries) + "\n"
    assert parse_log(text) == entries
    with pytest.raises(FairnessError, match="line 2"):
        parse_log('{"a": 1}\n[1]\n')


@pytest.mark.parametrize("tamper", ["remove", "change", "reorder"])
def test_log_tampering_is_detected(tamper):
    entries = three_entries()
    if tamper == "remove":
        del entries[1]
    elif tamper == "change":
        entries[0]["body"]["deals"] = 8
    else:
        entries[0], entries[1] = entries[1], entries[0]
    with pytest.raises(FairnessError, match="log entry"):
        verify_log(entries)
