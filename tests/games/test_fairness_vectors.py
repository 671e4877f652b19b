"""Published test vectors of trix-shuffle/1: fixed here and in docs/fairness.md.

Any change to the construction (encoding, stream, draws, Fisher-Yates direction, deck order,
hash chain) changes these outputs and fails these tests.
"""

import json
import re

import pytest

from games.engine.cards import CODES
from games.fairness import CANONICAL_DECK, RandomStream, SeedChain, deal_hands, shuffle
from tests.games.fairness_helpers import DOCS, STANDALONE, load_standalone

ZERO = "00" * 32
CHAIN_SECRET = bytes(range(32)).hex()
CHAIN_COMMITMENT = "07a29785477a02ea35c7f288c9262850b00e871ea8a0ebb228a8dfa5b62266a3"
CHAIN_SEEDS = {
    1: "6c6e6ddaa39aaf3b080c27f765d149753eb3436e168e76444a12b00aed36bbfa",
    2: "b444c2aed009986cfd0ff660f5a576548198070541d5d24c66d7c1bd323aaee2",
}

SHUFFLE_VECTORS = [
    {
        "server_seed": ZERO,
        "client_seeds": ["bot", "bot", "bot", "bot"],
        "match_id": "m-0001",
        "deal_number": 1,
        "first_block": "70fe65c75fdfa30de01bfb92a69bf093ff4464a7116d68e2a79bfca6ba94c951",
        "deck": "TD 3S 9C JD 2C 5H KD 2D 5S 2H JC 9S 4S TS QC 3D AD JS 3H 5D AS 6D QS 8H AH 7C "
        "4C TH 7S 6S 2S AC KH 5C 4H 6C 7H KC 4D 9H 8S 9D 8C 6H 3C 7D KS QD QH TC JH 8D",
    },
    {
        "server_seed": ZERO,
        "client_seeds": ["bot", "bot", "alice's seed", "bot"],
        "match_id": "m-0001",
        "deal_number": 1,
        "first_block": "67d8820e47d23eff36515dbbdfd99f02d12b2771e4870663613df7e490cba8de",
        "deck": "4D QH QS 3H 3S 6H JH 2S TC 6C 5H 2H JD 4H TD AC AH TH 6S AS 8H 9H TS 7D 5S 7H "
        "8C 7C 7S 3C KD KC 4S 9S QC 3D 2D QD JS 9C 5D 5C 8D 8S 4C 9D JC 6D 2C AD KH KS",
    },
    {
        "server_seed": CHAIN_SEEDS[2],
        "client_seeds": ["7f3a9c", "bot", "Zm9v", "bot"],
        "match_id": "m-0001",
        "deal_number": 2,
        "first_block": "28f40193e90445eeefffa47069f05e8f7aa24bbc07efecfac692c6cf6f50b890",
        "deck": "QC 4D 4C 2H 5D AH 2D AD KS 9H 7S KC 5H 8S TC QH 7C 5C 6C 8C AC 9D 7D 6H 6D TD "
        "3D AS JH 3H 9C 8H 8D QD 6S KD QS JS 5S 4S 9S JD KH 3C 2S JC TS 4H 3S 2C TH 7H",
    },
]

DRAW_VECTOR = {
    "server_seed": ZERO,
    "algorithm": "trix-draw-example/1",
    "scope": "t-0001",
    "index": 1,
    "client_seeds": ["alice", "bot"],
    "n": 3 * 2**30,
    "draws": [
        3108574627,
        2202756739,
        3195305875,
        1086096312,
        1898482795,
        2364581191,
        1745625405,
        1022125882,
    ],
}


def _doc_block(name: str, language: str) -> str:
    text = (DOCS / "fairness.md").read_text()
    match = re.search(
        rf"<!-- {name}: begin -->\n```{language}\n(.*?)```\n<!-- {name}: end -->", text, re.S
    )
    assert match, f"docs/fairness.md lacks the {name} block"
    return match.group(1)


def test_docs_publish_exactly_these_vectors():
    published = json.loads(_doc_block("test-vectors", "json"))
    assert published == {"shuffle_vectors": SHUFFLE_VECTORS, "draw_vector": DRAW_VECTOR}


def test_docs_show_the_standalone_verifier_verbatim():
    assert _doc_block("standalone", "python") == STANDALONE.read_text()


@pytest.mark.parametrize("vector", SHUFFLE_VECTORS, ids=["bots", "one-client-seed", "chain-deal-2"])
def test_shuffle_vectors(vector):
    inputs = (
        vector["server_seed"],
        vector["client_seeds"],
        vector["match_id"],
        vector["deal_number"],
    )
    stream = RandomStream(
        vector["server_seed"],
        "trix-shuffle/1",
        vector["match_id"],
        vector["deal_number"],
        vector["client_seeds"],
    )
    assert stream.block(0).hex() == vector["first_block"]
    assert shuffle(*inputs) == vector["deck"].split()
    assert load_standalone().shuffle(*inputs) == vector["deck"].split()


def test_draw_vector_exercises_rejection():
    v = DRAW_VECTOR
    inputs = (v["server_seed"], v["algorithm"], v["scope"], v["index"], v["client_seeds"])
    stream = RandomStream(*inputs)
    assert [stream.below(v["n"]) for _ in v["draws"]] == v["draws"]
    # Ten words were read for eight draws: the 4th and 5th were rejected.
    assert stream.blocks == 2
    words = RandomStream(*inputs)
    first = [words.word() for _ in range(5)]
    limit = 2**32 - 2**32 % v["n"]
    assert [w >= limit for w in first] == [False, False, False, True, True]


def test_chain_vector():
    chain = SeedChain(bytes.fromhex(CHAIN_SECRET), 20)
    assert chain.commitment == CHAIN_COMMITMENT
    chain.end(1)
    chain.end(2)
    assert chain.reveal(1) == CHAIN_SEEDS[1]
    assert chain.reveal(2) == CHAIN_SEEDS[2]


def test_canonical_deck_is_the_engines_card_numbering():
    assert CANONICAL_DECK == CODES
    assert CANONICAL_DECK[0] == "2C" and CANONICAL_DECK[12] == "AC"
    assert CANONICAL_DECK[13] == "2D" and CANONICAL_DECK[51] == "AS"


def test_dealing_one_card_at_a_time_from_seat_0():
    deck = SHUFFLE_VECTORS[0]["deck"].split()
    hands = deal_hands(deck)
    assert hands[0][:3] == ["TD", "2C", "5S"]
    assert hands[1][:3] == ["3S", "5H", "2H"]
    assert hands[3][-1] == "8D"
    assert [len(h) for h in hands] == [13, 13, 13, 13]


# --- the receipt, its signature and a 3-entry log (issue 12) ---------------------------------


def _receipt_vectors() -> dict:
    return json.loads(_doc_block("receipt-vectors", "json"))


def test_receipt_vectors_are_the_codes_output():
    from games.fairness.canonical import canonical_bytes
    from games.fairness.receipt import (
        build_receipt,
        key_id,
        load_private_key,
        private_key_text,
        public_key_hex,
        receipt_hash,
        sign,
    )
    from tests.games.fairness_helpers import RFC8032_TEST1_PUBLIC, RFC8032_TEST1_SECRET

    v = _receipt_vectors()
    key = load_private_key(v["signing_key"])
    assert v["signing_key"] == RFC8032_TEST1_SECRET == private_key_text(key)
    assert v["public_key"] == RFC8032_TEST1_PUBLIC == public_key_hex(key)
    assert v["key_id"] == key_id(key)
    receipt = build_receipt(
        match_id="m-0001",
        algorithm="trix-shuffle/1",
        commitment=CHAIN_COMMITMENT,
        deals=20,
        variant="trix",
        options={},
        client_seeds=SHUFFLE_VECTORS[2]["client_seeds"],
        issued_at="2026-12-01T10:00:00Z",
        bots=[1, 3],
    )
    assert v["receipt"] == receipt
    assert v["receipt_canonical"].encode() == canonical_bytes(receipt)
    assert v["receipt_hash"] == receipt_hash(receipt)
    assert v["signature"] == sign(receipt, key)  # Ed25519 is deterministic


def test_log_vectors_are_the_codes_output():
    from games.fairness.receipt import check_signature, load_private_key, load_public_key, sign
    from games.fairness.transparency import entry_hash, log_head, next_entry, verify_log

    v = _receipt_vectors()
    entries = []
    for entry in v["log"]:
        prev = entries[-1] if entries else None
        fields = {k: entry[k] for k in ("kind", "body", "logged_at")}
        entries.append(next_entry(prev=prev, **fields))
    assert entries == v["log"]
    assert [entry_hash(e) for e in entries] == v["entry_hashes"]
    assert verify_log(entries) == v["entry_hashes"][-1] == v["head"]["head"]
    assert v["log"][2]["body"] == {"receipt": v["receipt"], "signature": v["signature"]}
    head = {k: val for k, val in v["head"].items() if k != "signature"}
    assert head == log_head(3, v["head"]["head"])
    assert v["head"]["signature"] == sign(head, load_private_key(v["signing_key"]))
    check_signature(head, v["head"]["signature"], load_public_key(v["public_key"]))


def test_the_standalone_verifier_reproduces_the_receipt_vectors():
    v = _receipt_vectors()
    standalone = load_standalone()
    assert standalone.canonical(v["receipt"]).decode() == v["receipt_canonical"]
    assert standalone.sha256(v["receipt"]) == v["receipt_hash"]
    key, sig = bytes.fromhex(v["public_key"]), bytes.fromhex(v["signature"])
    assert standalone.ed25519_ok(key, v["receipt_canonical"].encode(), sig)
    assert [standalone.sha256(e) for e in v["log"]] == v["entry_hashes"]
    lines = [json.dumps(e) for e in v["log"]]
    log = standalone.read_log(lines)
    problems, note = standalone.check_log(log, v["receipt"], v["signature"], [])
    heads = log[2]
    assert problems == [] and heads[3] == v["head"]["head"]
    assert note == (
        f"in the log at entry 2; log head {v['head']['head']} at size 3; the receipt commits "
        "to no bots' seed"  # the vectors' receipt names bots, from before bot_play
    )
    head = {k: val for k, val in v["head"].items() if k != "signature"}
    head_sig = bytes.fromhex(v["head"]["signature"])
    assert standalone.ed25519_ok(key, standalone.canonical(head), head_sig)


def test_the_receipt_vector_is_the_receipt_of_shuffle_vector_3():
    v = _receipt_vectors()["receipt"]
    vector = SHUFFLE_VECTORS[2]
    assert v["commitment"] == CHAIN_COMMITMENT and v["deals"] == 20
    assert [v["client_seeds"][str(s)] for s in range(4)] == vector["client_seeds"]
    assert v["match_id"] == vector["match_id"]


def test_signing_key_vectors_are_the_codes_output_and_the_standalones():
    from games.fairness import signing_keys
    from games.fairness.canonical import canonical_bytes
    from games.fairness.receipt import load_private_key
    from tests.games.fairness_helpers import RFC8032_TEST1_SECRET

    v = json.loads(_doc_block("key-vectors", "json"))
    first, second = load_private_key(RFC8032_TEST1_SECRET), load_private_key(v["next_signing_key"])
    assert v["first"] == signing_keys.build_body(key=first)
    assert v["second"] == signing_keys.build_body(key=second, previous=first)
    statement = signing_keys.statement(v["second"])
    assert v["second_statement_canonical"].encode() == canonical_bytes(statement)
    standalone = load_standalone()
    logged = [(v["first"], "2026-12-01T09:00:00Z", 0), (v["second"], "2026-12-01T11:00:00Z", 7)]
    keys = standalone.key_history(logged, "key")
    assert [(k[0], k[2], k[3]) for k in keys] == [
        (v["first"]["key_id"], None, "2026-12-01T11:00:00Z"),  # the first key: from the start
        (v["second"]["key_id"], "2026-12-01T11:00:00Z", None),
    ]
