"""The table page's own check of a deal (``web/static/web/table/verify.js``, issue 12), run
as an ES module in Chromium: it reproduces the published test vectors of docs/fairness.md and
the site's own shuffles (``games.fairness``), and names each way a record can disagree with
what the browser saved before sitting."""

from __future__ import annotations

import json

import pytest

from games.fairness import MatchShuffle
from tests.games.test_fairness_vectors import _doc_block

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MODULE = "/static/web/table/verify.js"
SECRET = bytes(range(32))
MY_SEED = "my own seed: 7f3a9c ~"
SEAT = 2


def run(page, body: str, arg=None):
    """Evaluate ``body`` (an async function body with ``v``, the module, and ``arg``)."""
    return page.evaluate(f"async (arg) => {{ const v = await import('{MODULE}'); {body} }}", arg)


@pytest.fixture
def page(new_page):
    page = new_page()
    page.goto("/")
    return page


def match(deals: int = 20) -> MatchShuffle:
    shuffle = MatchShuffle.from_secret("table-7", deals, SECRET)
    shuffle.lock_client_seeds(["bot", "bot", MY_SEED, "bot"])
    return shuffle


def record(shuffle: MatchShuffle, number: int) -> dict:
    """The parts of a trix-deal/1 record the check reads: its shuffle object and hands."""
    while shuffle.ended_through < number:
        dealt = shuffle.deal(shuffle.ended_through + 1)
        shuffle.end_deal(shuffle.ended_through + 1)
    return {
        "shuffle": shuffle.shuffle_record(number),
        "hands": {str(s): sorted(cards) for s, cards in enumerate(dealt)},
    }


def saved(shuffle: MatchShuffle, rec: dict, **changes) -> dict:
    """What the browser kept: the commitment before sitting, its seed, the hand it saw."""
    return {
        "match_id": shuffle.match_id,
        "commitment": shuffle.commitment,
        "deals": shuffle.deals,
        "seat": SEAT,
        "client_seed": MY_SEED,
        "hand": rec["hands"][str(SEAT)],
        **changes,
    }


def check(page, rec: dict, kept: dict, deal: int) -> dict:
    return run(page, "return await v.checkDeal(arg[0], arg[1], arg[2]);", [rec, kept, deal])


def test_the_published_vectors(page):
    vectors = json.loads(_doc_block("test-vectors", "json"))["shuffle_vectors"]
    got = run(
        page,
        """const out = [];
        for (const x of arg) {
          const inputs = [x.server_seed, x.client_seeds, x.match_id, x.deal_number];
          out.push({first_block: await v.firstBlock(...inputs),
                    deck: (await v.shuffle(...inputs)).join(" ")});
        }
        return out;""",
        vectors,
    )
    assert got == [{"first_block": x["first_block"], "deck": x["deck"]} for x in vectors]
    # The chain vector of docs/fairness.md §1: seed_2 hashed twice is the commitment.
    assert (
        run(page, "return await v.chainHash(arg, 2);", vectors[2]["server_seed"])
        == "07a29785477a02ea35c7f288c9262850b00e871ea8a0ebb228a8dfa5b62266a3"
    )


def test_every_deal_of_a_site_match_is_verified_and_deals_as_games_fairness(page):
    shuffle = match(deals=8)
    for number in range(1, 9):
        rec = record(shuffle, number)
        result = check(page, rec, saved(shuffle, rec), number)
        assert result == {"status": "verified", "problems": [], "signature": "unchecked"}, number
        deck = run(
            page,
            "return await v.shuffle(arg.server_seed, [0,1,2,3].map((s) => arg.client_seeds[s]),"
            " arg.match_id, arg.deal_number);",
            rec["shuffle"],
        )
        assert [sorted(deck[s::4]) for s in range(4)] == [rec["hands"][str(s)] for s in range(4)]


def keys(result: dict) -> list[str]:
    assert result["status"] == "mismatch", result
    return [p["key"] for p in result["problems"]]


def test_each_disagreement_with_what_the_browser_saved_is_named(page):
    shuffle = match()
    rec = record(shuffle, 2)
    other = "ab" * 32

    # The commitment saved before sitting is not the record's (a swapped match).
    result = check(page, rec, saved(shuffle, rec, commitment=other), 2)
    assert keys(result) == ["commitment", "seed_chain"]
    assert result["problems"][0] == {"key": "commitment", "got": shuffle.commitment, "saved": other}
    # The record names another client seed for our seat.
    assert keys(check(page, rec, saved(shuffle, rec, client_seed="what I sent"), 2)) == [
        "client_seed"
    ]
    # Another match id: the shuffle it gives is not the hand we held.
    assert keys(check(page, rec, saved(shuffle, rec, match_id="table-8"), 2)) == ["match_id"]
    forged = json.loads(json.dumps(rec))
    forged["shuffle"]["match_id"] = "table-8"
    # (and every seat's hand the record lists is not the one that shuffle deals)
    every = ["record_hands"] * 4
    assert keys(check(page, forged, saved(shuffle, forged), 2)) == ["match_id", *every, "hand"]
    # The hand we saw is not the one the seed deals (one card differs).
    seen = list(rec["hands"][str(SEAT)])
    spare = next(c for c in rec["hands"]["0"] if c not in seen)
    changed = [spare, *seen[1:]]
    result = check(page, rec, saved(shuffle, rec, hand=changed), 2)
    assert keys(result) == ["hand", "record_hand"]
    assert result["problems"][0] == {"key": "hand", "extra": seen[0], "missing": spare}
    # Another seat's client seed changed in the record: another shuffle.
    forged = json.loads(json.dumps(rec))
    forged["shuffle"]["client_seeds"]["0"] = "not bot"
    assert keys(check(page, forged, saved(shuffle, rec), 2)) == [*every, "hand"]
    # Deal 2's record shown as deal 1 or 3; deal 1's seed given for deal 2.
    assert keys(check(page, rec, saved(shuffle, rec), 3)) == ["deal_number", "seed_chain"]
    forged = json.loads(json.dumps(rec))
    forged["shuffle"]["server_seed"] = record(match(), 1)["shuffle"]["server_seed"]
    assert "seed_chain" in keys(check(page, forged, saved(shuffle, rec), 2))
    # A deal number beyond the match's deals, and malformed fields.
    forged = json.loads(json.dumps(rec))
    forged["shuffle"]["deal_number"] = 21
    assert "malformed" in keys(check(page, forged, saved(shuffle, rec), 21))
    forged = json.loads(json.dumps(rec))
    forged["shuffle"]["server_seed"] = "zz" * 32
    forged["shuffle"]["client_seeds"]["1"] = ""
    assert keys(check(page, forged, saved(shuffle, rec), 2)) == ["malformed", "malformed"]
    assert keys(check(page, {"hands": {}}, saved(shuffle, rec), 2)) == ["malformed"]


def test_the_receipt_must_name_our_seed_and_commitment(page):
    shuffle = match()
    rec = record(shuffle, 1)
    receipt = {
        "format": "trix-receipt/1",
        "match_id": shuffle.match_id,
        "algorithm": "trix-shuffle/1",
        "commitment": shuffle.commitment,
        "deals": 20,
        "client_seeds": {"0": "bot", "1": "bot", "2": MY_SEED, "3": "bot"},
    }
    rec["shuffle"].update(deals=20, receipt=receipt, signature="00" * 64)
    assert check(page, rec, saved(shuffle, rec), 1)["status"] == "verified"
    receipt["client_seeds"]["2"] = "the server's choice"
    receipt["commitment"] = "cd" * 32
    receipt["deals"] = 8
    assert keys(check(page, rec, saved(shuffle, rec), 1)) == [
        "receipt_commitment",
        "receipt_deals",
        "receipt_client_seed",
    ]
    rec["shuffle"]["deals"] = 8
    assert "deals" in keys(check(page, rec, saved(shuffle, rec), 1))


def test_a_later_deal_must_carry_the_receipt_the_browser_kept(page):
    shuffle = match()
    rec = record(shuffle, 1)
    receipt = {"match_id": shuffle.match_id, "commitment": shuffle.commitment, "deals": 20,
               "client_seeds": {"0": "bot", "1": "bot", "2": MY_SEED, "3": "bot"},
               "issued_at": "2026-12-01T10:00:00Z"}  # fmt: skip
    rec["shuffle"].update(deals=20, receipt=receipt, signature="ab" * 64)
    kept = saved(shuffle, rec, receipt=json.loads(json.dumps(receipt)), signature="ab" * 64)
    # The same receipt with its keys in another order is the same receipt.
    kept["receipt"] = dict(reversed(list(kept["receipt"].items())))
    assert check(page, rec, kept, 1)["status"] == "verified"
    rec["shuffle"]["receipt"] = {**receipt, "issued_at": "2026-12-01T11:00:00Z"}
    assert keys(check(page, rec, kept, 1)) == ["receipt_changed"]
    rec["shuffle"].update(receipt=receipt, signature="cd" * 64)
    assert keys(check(page, rec, kept, 1)) == ["receipt_changed"]


def test_without_the_hand_or_without_web_crypto(page, new_page):
    shuffle = match()
    rec = record(shuffle, 1)
    assert check(page, rec, saved(shuffle, rec, hand=None), 1) == {
        "status": "seen-no-hand",
        "problems": [],
        "signature": "unchecked",
    }
    plain = new_page()
    # As on plain http at a non-localhost address: no crypto.subtle.
    plain.add_init_script("Object.defineProperty(window.crypto, 'subtle', {value: undefined})")
    plain.goto("/")
    assert run(plain, "return v.cryptoAvailable();") is False
    assert check(plain, rec, saved(shuffle, rec), 1) == {"status": "unavailable", "problems": []}


@pytest.mark.parametrize(
    ("seed", "problem"),
    [
        ("", {"key": "seed_empty"}),
        ("x" * 65, {"key": "seed_long", "count": 65}),
        ("café", {"key": "seed_chars", "char": "é"}),
        ("tab\there", {"key": "seed_chars", "char": "\t"}),
        ("a", None),
        (" ~" * 32, None),
    ],
)
def test_client_seed_rule_is_the_servers(page, seed, problem):
    from games.fairness import validate_client_seed
    from games.fairness.errors import FairnessError

    assert run(page, "return v.clientSeedProblem(arg);", seed) == problem
    if problem is None:
        assert validate_client_seed(seed) == seed
    else:
        with pytest.raises(FairnessError):
            validate_client_seed(seed)


def _site_receipt(shuffle: MatchShuffle) -> dict:
    """A receipt as the site issues it (games.fairness.receipt), seats 0, 1 and 3 bots."""
    from games.fairness.receipt import build_receipt

    return build_receipt(
        match_id=shuffle.match_id,
        algorithm="trix-shuffle/1",
        commitment=shuffle.commitment,
        deals=shuffle.deals,
        variant="trix",
        options={"variant": "trix"},
        client_seeds=["bot", "bot", MY_SEED, "bot"],
        issued_at="2026-12-01T10:00:00Z",
        bots=[0, 1, 3],
    )


def test_the_receipts_signature_is_checked_with_the_key_saved_at_the_sit(page):
    """Web Crypto's Ed25519 checks the receipt's signature over its canonical bytes, under
    the site's key this browser kept when it sat: the site's signature is valid; another
    key's, or a receipt changed after signing, is named."""
    from games.fairness.receipt import new_private_key, public_key_hex, sign

    site, other = new_private_key(), new_private_key()
    shuffle = match()
    rec = record(shuffle, 1)
    receipt = _site_receipt(shuffle)
    rec["shuffle"].update(deals=20, receipt=receipt, signature=sign(receipt, site))
    kept = saved(shuffle, rec, public_key=public_key_hex(site))
    assert check(page, rec, kept, 1) == {"status": "verified", "problems": [], "signature": "valid"}
    rec["shuffle"]["signature"] = sign(receipt, other)
    assert keys(check(page, rec, kept, 1)) == ["receipt_signature"]
    rec["shuffle"].update(
        receipt={**receipt, "issued_at": "2026-12-01T11:00:00Z"}, signature=sign(receipt, site)
    )
    assert keys(check(page, rec, kept, 1)) == ["receipt_signature"]
    # Without a saved key there is nothing to check it against: unchecked, not refused.
    rec["shuffle"].update(receipt=receipt, signature=sign(receipt, other))
    assert check(page, rec, saved(shuffle, rec), 1)["signature"] == "unchecked"


def test_a_receipt_signed_after_a_rotation_is_checked_through_the_old_keys_endorsement(page):
    """The site rotated its key between the Sit and the match start: the receipt names the
    new key, which the key kept at the Sit endorsed (keys.json as the browser kept it): valid
    in the new key's period; without the list, outside the period, or with a key no
    endorsement leads to, not valid."""
    from games.fairness import signing_keys
    from games.fairness.receipt import key_id, new_private_key, public_key_hex, sign

    old, new, stranger = new_private_key(), new_private_key(), new_private_key()
    shuffle = match()
    rec = record(shuffle, 1)
    receipt = {**_site_receipt(shuffle), "key_id": key_id(new)}
    rec["shuffle"].update(deals=20, receipt=receipt, signature=sign(receipt, new))
    logged = [
        (signing_keys.build_body(key=old), 0, "2026-12-01T09:00:00Z"),
        (signing_keys.build_body(key=new, previous=old), 5, "2026-12-01T09:59:00Z"),
    ]
    listed = signing_keys.keys_document(logged, None)
    kept = saved(shuffle, rec, public_key=public_key_hex(old), keys=listed)
    assert check(page, rec, kept, 1) == {"status": "verified", "problems": [], "signature": "valid"}
    assert keys(check(page, rec, {**kept, "keys": None}, 1)) == ["receipt_signature"]
    late = signing_keys.keys_document(
        [logged[0], (logged[1][0], 5, "2026-12-01T10:30:00Z")], None
    )  # the new key logged after the receipt's time
    assert keys(check(page, rec, {**kept, "keys": late}, 1)) == ["receipt_signature"]
    forged = signing_keys.keys_document(
        [logged[0], (signing_keys.build_body(key=new, previous=stranger), 5, logged[1][2])], None
    )
    forged["keys"][1].update(previous=key_id(old), previous_key=public_key_hex(old))
    assert keys(check(page, rec, {**kept, "keys": forged}, 1)) == ["receipt_signature"]


def test_every_seats_hand_and_the_bots_seeds_are_checked(page):
    """Not only the browser's own 13 cards: each seat's hand in the record must be the one
    the shuffle dealt it, and a seat the receipt names a bot must have the seed "bot"."""
    shuffle = match()
    rec = record(shuffle, 1)
    receipt = _site_receipt(shuffle)
    rec["shuffle"].update(deals=20, receipt=receipt, signature="00" * 64)
    kept = saved(shuffle, rec)
    assert check(page, rec, kept, 1)["status"] == "verified"
    swapped = json.loads(json.dumps(rec))
    swapped["hands"]["0"], swapped["hands"]["3"] = rec["hands"]["3"], rec["hands"]["0"]
    got = check(page, swapped, kept, 1)
    assert [(p["key"], p["n"]) for p in got["problems"]] == [
        ("record_hands", 1),
        ("record_hands", 4),
    ]
    forged = json.loads(json.dumps(rec))
    forged["shuffle"]["receipt"]["bots"] = [0, 1, 2, 3]
    got = check(page, forged, kept, 1)
    assert [(p["key"], p["n"]) for p in got["problems"]] == [("receipt_bot", 3)]


def test_a_record_dealt_from_other_seeds_than_the_receipts_is_named(page):
    """The second trial's finding: a record whose bot seat's seed was changed (the hands
    dealt again from it, so they agree with the record's own seeds) under the real, signed
    receipt passed as verified. The record's seeds must be the receipt's, every seat."""
    from games.fairness import shuffle as deal_cards

    shuffle = match()
    rec = record(shuffle, 1)
    receipt = _site_receipt(shuffle)
    rec["shuffle"].update(deals=20, receipt=receipt, signature="00" * 64)
    ground = json.loads(json.dumps(rec))
    ground["shuffle"]["client_seeds"]["1"] = "grind-1234"
    seeds = [ground["shuffle"]["client_seeds"][str(s)] for s in range(4)]
    deck = deal_cards(ground["shuffle"]["server_seed"], seeds, "table-7", 1)
    ground["hands"] = {str(s): sorted(deck[s::4]) for s in range(4)}
    kept = saved(shuffle, ground, hand=ground["hands"][str(SEAT)])
    got = check(page, ground, kept, 1)
    assert [(p["key"], p.get("n")) for p in got["problems"]] == [("receipt_seeds", 2)]


def test_a_record_without_the_receipt_the_browser_kept_is_named(page):
    shuffle = match()
    rec = record(shuffle, 1)
    receipt = _site_receipt(shuffle)
    kept = saved(shuffle, rec, receipt=receipt, signature="00" * 64)
    assert keys(check(page, rec, kept, 1)) == ["receipt_missing"]
