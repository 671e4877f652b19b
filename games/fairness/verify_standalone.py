"""Check trix-deal/1 records' shuffles with nothing but Python 3's standard library.

python3 verify_standalone.py RECORDS [--receipt FILE] [--public-key HEX] [--keys FILE]
    [--log FILE] [--head FILE] [--partial]

RECORDS is one record file, a file holding a JSON list of one match's records, a directory of
*.json files, or - for stdin. A directory's records (files of one record or of a list) are
grouped into matches by match id and commitment; a trix-draw/1 record among them is checked
against its commitment, the log and the records given (not its seating or results: trix
verify recomputes those). A list or each match is checked as a whole match:
its deals must be 1..N, each once (N: the receipt's deal count; with --partial 1..k, for a
match still running or ended by a forfeit, and with --log only when the log holds no other
deal record of the match: records withheld are named and refused). The cards only: the plays
are not replayed, but with --log each record must be the one logged for its deal (its hash in
the log), and the log must hold one receipt per match (the records'). A seat the receipt names
a bot must have the client seed "bot"; a note says which seats are people. With --log, the
receipt's commitment must come before its seeds in the log (commit first), and a tournament
table's commitment must be the one its event's revealed key gives. --head: a log head
saved earlier must be the head of the log's first entries. Signatures are checked with the
key each names (receipt.key_id, a head's key_id) among the site's keys: the log's
signing-key entries or --keys (/fairness/keys.json), a chain each key endorsing the next,
pinned by --public-key (the key you saved); the key must have been in use when it signed.
Prints "verified" (then notes) and exits 0, or one line per problem and exits 1.
Spec: docs/fairness.md."""

import argparse
import hashlib
import hmac
import json
import os
import re
import sys

DECK = [rank + suit for suit in "CDHS" for rank in "23456789TJQKA"]  # 2C=0 ... AS=51
SEATS = ["0", "1", "2", "3"]
MAX_DEALS = 100_000  # the longest seed chain: bounds the hashing a hostile record asks for
RECEIPT_FIELDS = ["algorithm", "client_seeds", "commitment", "deals", "format", "issued_at"]
RECEIPT_FIELDS += ["match_id", "options", "variant"]  # and "bots" (older receipts lack it)
BOT_CLIENT_SEED = "bot"  # the client seed of every seat a receipt names a bot
DEALS = {"trix": 20, "trix_partner": 20, "complex": 8, "complex_partner": 8}  # docs/rules.md
ENTRY_FIELDS = ["body", "index", "kind", "logged_at", "prev"]
COMMITTED = ["match_id", "algorithm", "commitment", "deals"]  # a match-commitment's body
SHUFFLE_FIELDS = {"algorithm", "match_id", "deal_number", "commitment", "server_seed"}
SHUFFLE_FIELDS |= {"client_seeds", "deals", "receipt", "signature"}


LOG_KEYS = {  # what each kind of log entry is about: the log admits one entry per kind and key
    "match-commitment": lambda b: b["match_id"],
    "match-receipt": lambda b: b["receipt"]["match_id"],
    "seat-seed": lambda b: f"{b['match_id']}/{b['seat']}/{sha256_text(b['client_seed'])}",
    "draw-commitment": lambda b: b["event"],
    "draw-key": lambda b: b["event"],
    "tables-commitment": lambda b: b["event"],
    "tables-key": lambda b: b["event"],
    "deal-record": lambda b: f"{b['match_id']}/{b['deal_number']}",
    "match-payout": lambda b: b["match_id"],
    "event-payout": lambda b: b["event"],
    "bot-seed": lambda b: b["match_id"],
    "signing-key": lambda b: b["key_id"],
}
BODY_FIELDS = {  # each kind's body has exactly these fields (docs/fairness.md section 9)
    "match-commitment": "algorithm commitment deals match_id",
    "match-receipt": "receipt signature",
    "seat-seed": "client_seed match_id seat source",
    "draw-commitment": "algorithm commitment event",
    "draw-key": "commitment entrants_hash event server_seed",
    "tables-commitment": "algorithm commitment event",
    "tables-key": "commitment event key",
    "deal-record": "deal_number match_id record_hash",
    "match-payout": "house_fee match_id payouts reason stakes transaction",
    "event-payout": "event house_fee payouts reason stakes transaction",
    "bot-seed": "match_id seed",
    "signing-key": "algorithm endorsement key_id previous previous_key public_key signature",
}
KEY_FIELDS = ["algorithm", "endorsement", "key_id", "previous", "previous_key", "public_key"]
KEY_FIELDS += ["signature"]  # a signing-key entry's body; keys.json adds its period:
LISTED_FIELDS = sorted(KEY_FIELDS + ["log_index", "valid_from", "valid_until"])


def sha256_text(text):  # a seat-seed entry's key names its seed by this hash
    return hashlib.sha256(text.encode()).hexdigest()


def sha256_text_of(hex_text):  # a revealed key's commitment: SHA-256 of its 32 bytes
    return hashlib.sha256(bytes.fromhex(hex_text)).hexdigest() if is_hex(hex_text) else None


class Refused(Exception):
    """Input that cannot be checked; the message is one line naming the field."""


def need(ok, line):
    if not ok:
        raise Refused(line)


def is_text(v):  # a client seed or an id: 1..64 printable ASCII characters
    return isinstance(v, str) and 0 < len(v) <= 64 and all(" " <= c <= "~" for c in v)


def is_count(v, top=MAX_DEALS):  # an int 1..top: not true, not 2.0, not 0 or -1
    return type(v) is int and 1 <= v <= top


def is_hex(v, digits=64):
    return isinstance(v, str) and re.fullmatch(f"[0-9a-f]{{{digits}}}", v) is not None


def seeds_ok(v):  # exactly the seats "0".."3", each a client seed
    return isinstance(v, dict) and sorted(v) == SEATS and all(map(is_text, v.values()))


def payout_ok(b):  # whole minor units; what was staked is what was paid out, to stakers
    stakes, paid, fee = b.get("stakes"), b.get("payouts"), b.get("house_fee")
    if not (isinstance(stakes, dict) and stakes and isinstance(paid, dict)):
        return False
    amounts = [*stakes.values(), *paid.values()]
    if not all(type(v) is int and v > 0 for v in amounts) or not (type(fee) is int and fee >= 0):
        return False
    return set(paid) <= set(stakes) and sum(stakes.values()) == sum(paid.values()) + fee


def no_floats(obj):
    need(not isinstance(obj, float), "canonical JSON: a float is not allowed")
    for item in obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else []:
        no_floats(item)


def canonical(obj):  # the bytes hashed and signed: sorted keys, no spaces, UTF-8, no floats
    no_floats(obj)
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def sha256(obj):  # the hash of a receipt or a log entry: hex SHA-256 of its canonical bytes
    return hashlib.sha256(canonical(obj)).hexdigest()


# Ed25519 signature verification (RFC 8032, 5.1.7); points in extended coordinates X, Y, Z, T.
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the order of the base point
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def add(a, b):  # RFC 8032, 5.1.4: also doubles, and (0, 1, 1, 0) is the neutral point
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    a_, b_ = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    c, d = 2 * D * t1 * t2 % P, 2 * z1 * z2 % P
    e, f, g, h = b_ - a_, d - c, d + c, b_ + a_
    return e * f % P, g * h % P, f * g % P, e * h % P


def times(n, point):  # [n]point by double-and-add
    result = (0, 1, 1, 0)
    while n:
        if n & 1:
            result = add(result, point)
        point, n = add(point, point), n >> 1
    return result


def decode(raw):  # RFC 8032, 5.1.3: 32 bytes -> a point, or None when they encode none
    if len(raw) != 32:
        return None
    y, sign = int.from_bytes(raw, "little") & (2**255 - 1), raw[31] >> 7
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P or (x == 0 and sign):
        return None
    if x & 1 != sign:
        x = P - x
    return x, y, 1, x * y % P


def encode(point):  # RFC 8032, 5.1.2
    x, y, z, _ = point
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


BASE = decode((4 * pow(5, P - 2, P) % P).to_bytes(32, "little"))  # y = 4/5, x even


def ed25519_ok(public_key, message, signature):
    """Whether signature (64 bytes) is public_key's (32 bytes) Ed25519 signature of message."""
    a = decode(public_key)
    if a is None or len(signature) != 64 or decode(signature[:32]) is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    k = hashlib.sha512(signature[:32] + public_key + message).digest()
    k = int.from_bytes(k, "little") % L
    minus_a = (P - a[0], a[1], a[2], P - a[3])
    return s < L and encode(add(times(s, BASE), times(k, minus_a))) == signature[:32]


# The shuffle of a deal (docs/fairness.md, "The construction").
def enc(text):  # a string as uint32 length then UTF-8 bytes
    return len(text.encode()).to_bytes(4, "big") + text.encode()


def words(key, msg):  # HMAC-SHA256 in counter mode, read as big-endian 32-bit words
    for k in range(2**64):
        block = hmac.new(key, msg + k.to_bytes(8, "big"), hashlib.sha256).digest()
        yield from (int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4))


def shuffle(server_seed, client_seeds, match_id, deal_number):
    msg = enc("trix-shuffle/1") + enc(match_id) + deal_number.to_bytes(4, "big")
    msg += len(client_seeds).to_bytes(4, "big") + b"".join(enc(s) for s in client_seeds)
    stream, deck = words(bytes.fromhex(server_seed), msg), list(DECK)
    for i in range(51, 0, -1):  # Fisher-Yates; reject words >= the largest multiple of i+1
        j = next(w for w in stream if w < 2**32 - 2**32 % (i + 1)) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# Strict input checks: each raises Refused naming the first bad field.
def check_receipt(r, where="receipt"):
    optional = {"bots", "bot_play", "commitment_entry", "seed_entries", "tables_commitment"}
    optional.add("key_id")  # the id of the key that signed it (older receipts lack it)
    fields = isinstance(r, dict) and sorted(set(r) - optional) == RECEIPT_FIELDS
    need(fields, f"{where}: needs {RECEIPT_FIELDS}, and may have {sorted(optional)}")
    need(r["format"] == "trix-receipt/1", f"{where}.format: must be 'trix-receipt/1'")
    for field in ("match_id", "algorithm", "variant"):
        need(is_text(r[field]), f"{where}.{field}: must be 1 to 64 printable ASCII characters")
    need(is_hex(r["commitment"]), f"{where}.commitment: must be 64 lower-case hex digits")
    need(is_count(r["deals"]), f"{where}.deals: must be a whole number from 1 to {MAX_DEALS}")
    rules = DEALS.get(r["variant"], r["deals"])  # a match's chain covers exactly its deals
    need(r["deals"] == rules, f"{where}.deals: {r['deals']}, where {r['variant']} plays {rules}")
    need(isinstance(r["options"], dict), f"{where}.options: must be an object")
    need(seeds_ok(r["client_seeds"]), f'{where}.client_seeds: must map "0".."3" to client seeds')
    issued = isinstance(r["issued_at"], str) and re.fullmatch(r"[\dT:-]{19}Z", r["issued_at"])
    need(issued, f"{where}.issued_at: must be a UTC time YYYY-MM-DDTHH:MM:SSZ")
    bots = r.get("bots", [])  # the seats bots held at the start (older receipts name none)
    ok = isinstance(bots, list) and all(type(b) is int and 0 <= b <= 3 for b in bots)
    need(
        ok and bots == sorted(set(bots)),
        f"{where}.bots: must be a list of seats 0..3, ascending, each once",
    )
    for seat in bots:  # a bot's seed is the constant: the site cannot choose it
        seed = r["client_seeds"][str(seat)]
        need(
            seed == BOT_CLIENT_SEED,
            f"{where}.client_seeds.{seat}: {seed!r} is not the bots' "
            f"client seed {BOT_CLIENT_SEED!r}, and {where}.bots names seat {seat} a bot",
        )
    if "commitment_entry" in r or "seed_entries" in r:  # commit first: the log's order
        first, entries = r.get("commitment_entry"), r.get("seed_entries")
        need("bots" in r and type(first) is int and first >= 0, f"{where}.commitment_entry")
        people = [seat for seat in SEATS if int(seat) not in bots]
        need(isinstance(entries, dict) and sorted(entries) == people, f"{where}.seed_entries")
        for seat, index in entries.items():
            need(type(index) is int and index > first, f"{where}.seed_entries.{seat}: not after")
    if "bot_play" in r:  # the bots' rule, kinds and seed commitment (revealed at the end)
        b = r["bot_play"]
        ok = isinstance(b, dict) and sorted(b) == ["decisions", "kinds", "seed_commitment"]
        need(ok and is_text(b["decisions"]), f"{where}.bot_play: decisions, kinds, seed_commitment")
        kinds = b["kinds"]
        ok = isinstance(kinds, dict) and sorted(kinds) == [str(seat) for seat in bots]
        need(ok and "bots" in r, f"{where}.bot_play.kinds: must name exactly the bot seats")
        need(all(k in ("random", "rules") for k in kinds.values()), f"{where}.bot_play.kinds")
        need(is_hex(b["seed_commitment"]), f"{where}.bot_play.seed_commitment: 64 hex digits")
    if "tables_commitment" in r:  # a tournament's table: its secret from the event's key
        t = r["tables_commitment"]
        ok = isinstance(t, dict) and sorted(t) == ["entry", "event"] and is_text(t["event"])
        need(ok and type(t["entry"]) is int and t["entry"] >= 0, f"{where}.tables_commitment")
        need("commitment_entry" not in r, f"{where}: tables_commitment with commitment_entry")
        mine = re.fullmatch(r"(.+)/round:[1-9]\d*/table:(0|[1-9]\d*)", r["match_id"])
        need(mine and mine.group(1) == t["event"], f"{where}.match_id: not a table of the event")
    need(is_hex(r.get("key_id", "0" * 16), 16), f"{where}.key_id: must be 16 lower-case hex digits")
    canonical(r)


def seats(numbers):  # ["1", "3"] -> "seats 1, 3"
    return f"seat{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}"


def seats_note(receipt):
    """Which seats the receipt names bots (their client seed fixed) and which people."""
    if "bots" not in receipt:
        return (
            "the receipt does not name its bots (issued before receipts named them): which "
            "seats were bots is unknown"
        )
    bots = [str(seat) for seat in receipt["bots"]]
    people = [seat for seat in SEATS if seat not in bots]
    note = "the receipt names no bots"
    if bots:
        kind = "bots" if len(bots) > 1 else "a bot"
        note = f"the receipt names {seats(bots)} {kind} (client seed {BOT_CLIENT_SEED!r}, required)"
    if not people:
        return note + ": all four seeds are fixed"
    are = "are people" if len(people) > 1 else "is a person"
    return f"{note}; {seats(people)} {are}: each seed must be the one its player sent"


def check_record(r):
    need(isinstance(r, dict), "must be a JSON object")
    need(r.get("format") == "trix-deal/1", "format: must be 'trix-deal/1'")
    need(isinstance(r.get("options", {}), dict), "options: must be an object")
    need(type(r.get("owner")) is int and 0 <= r["owner"] <= 3, "owner: must be a seat 0..3")
    need(isinstance(r.get("doubles", {}), dict), "doubles: must be an object keyed by seat")
    s = r.get("shuffle")
    need(isinstance(s, dict), "shuffle: missing, so there is no revealed seed to check")
    need(set(s) <= SHUFFLE_FIELDS, f"shuffle: unknown field(s) {sorted(set(s) - SHUFFLE_FIELDS)}")
    need(s.get("algorithm") == "trix-shuffle/1", "shuffle.algorithm: must be 'trix-shuffle/1'")
    need(is_text(s.get("match_id")), "shuffle.match_id: must be 1 to 64 printable ASCII")
    need("deals" not in s or is_count(s["deals"]), f"shuffle.deals: must be 1..{MAX_DEALS}")
    top = s.get("deals", MAX_DEALS)
    need(is_count(s.get("deal_number"), top), f"shuffle.deal_number: must be a number 1..{top}")
    same = type(r.get("deal_number", 1)) is int
    same = same and r.get("deal_number", s["deal_number"]) == s["deal_number"]
    need(same, "deal_number: must be the whole number shuffle.deal_number")
    for field in ("commitment", "server_seed"):
        need(is_hex(s.get(field)), f"shuffle.{field}: must be 64 lower-case hex digits")
    need(seeds_ok(s.get("client_seeds")), 'shuffle.client_seeds: must map exactly "0".."3"')
    hands = r.get("hands")
    need(isinstance(hands, dict) and sorted(hands) == SEATS, 'hands: must map exactly "0".."3"')
    for seat in SEATS:
        cards = hands[seat]
        ok = isinstance(cards, list) and len(cards) == 13 and all(c in DECK for c in cards)
        need(ok, f"hands.{seat}: must be a list of 13 card codes")
    if "receipt" in s or "signature" in s:
        check_receipt(s.get("receipt"), "shuffle.receipt")
        need(is_hex(s.get("signature"), 128), "shuffle.signature: must be 128 lower-case hex")


def verify(record):
    """The mismatches of one record (empty: verified); check_record has accepted it."""
    s, errors = record["shuffle"], []
    h = bytes.fromhex(s["server_seed"])
    for _ in range(s["deal_number"]):  # the seed of deal d hashes to the commitment d times
        h = hashlib.sha256(h).digest()
    if h.hex() != s["commitment"]:
        errors.append(f"shuffle.server_seed does not match shuffle.commitment ({h.hex()})")
    seeds = [s["client_seeds"][seat] for seat in SEATS]
    deck = shuffle(s["server_seed"], seeds, s["match_id"], s["deal_number"])
    for seat in range(4):  # dealt one at a time from seat 0: card i goes to seat i % 4
        if sorted(deck[seat::4]) != sorted(record["hands"][str(seat)]):
            errors.append(f"hands.{seat}: the shuffle dealt {' '.join(sorted(deck[seat::4]))}")
    for field in ("match_id", "algorithm", "commitment", "client_seeds", "deals"):
        if "receipt" in s and s.get(field) != s["receipt"][field]:
            errors.append(f"shuffle.{field}: differs from the receipt's {s['receipt'][field]!r}")
    return errors


def verify_match(shuffles, receipt, partial):
    """The mismatches across one match: one receipt for all, deals 1..N each once."""
    first, errors = shuffles[0], []
    for s in shuffles[1:]:
        for field in ("match_id", "commitment", "client_seeds", "deals", "receipt", "signature"):
            if sha256(s.get(field)) != sha256(first.get(field)):
                errors.append(f"deal {s['deal_number']}: shuffle.{field} differs from deal 1's")
    numbers = sorted(s["deal_number"] for s in shuffles)
    last = numbers[-1] if partial else (receipt or first).get("deals", numbers[-1])
    if numbers != list(range(1, last + 1)):
        missing = sorted(set(range(1, last + 1)) - set(numbers))
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        errors.append(f"deals: must be 1..{last} once each; missing {missing}, twice {repeated}")
    return errors


def read_log(lines):
    """Check the log's hash chain and that it admits each entry: one per kind and key (a
    receipt after its match's commitment, ...). Returns (entries, {(kind, key): entry}, the
    head after each entry)."""
    head, heads, seen = "0" * 64, ["0" * 64], {}
    entries = [strict_json(line) for line in lines if line.strip()]
    need(all(isinstance(e, dict) for e in entries), "log: every line must be an object")
    for i, e in enumerate(entries):
        need(isinstance(e, dict) and sorted(e) == ENTRY_FIELDS, f"log entry {i}: fields")
        need(type(e["index"]) is int and e["index"] == i, f"log entry {i}: index {e['index']!r}")
        need(e["prev"] == head, f"log entry {i}: prev is not the hash of entry {i - 1}")
        need(isinstance(e["body"], dict), f"log entry {i}: body must be an object")
        need(e["kind"] in LOG_KEYS, f"log entry {i}: kind {e['kind']!r} is unknown")
        fields = BODY_FIELDS[e["kind"]]
        need(sorted(e["body"]) == fields.split(), f"log entry {i}: a {e['kind']} body: {fields}")
        try:
            key = (e["kind"], LOG_KEYS[e["kind"]](e["body"]))
            hash(key)
        except (KeyError, TypeError, AttributeError):
            raise Refused(f"log entry {i}: a {e['kind']} body without its fields") from None
        other = seen.get(key, {}).get("index")
        need(other is None, f"log entry {i}: a second {key[0]} of {key[1]!r} (and entry {other})")
        if e["kind"] == "deal-record":
            n = e["body"]["deal_number"]
            need(is_count(n, 2**63), f"log entry {i}: deal_number must be a whole number from 1")
        if e["kind"] in ("match-payout", "event-payout"):
            need(payout_ok(e["body"]), f"log entry {i}: its stakes are not its payouts and fee")
        if e["kind"] == "match-receipt":
            c = seen.get(("match-commitment", key[1]), {"body": {}, "index": None})
            same = all(c["body"].get(k) == e["body"]["receipt"].get(k) for k in COMMITTED)
            need(same, f"log entry {i}: no match-commitment of {key[1]!r} before its receipt")
            check_order(e["body"]["receipt"], c["index"], seen, i)
        if e["kind"] == "tables-key":  # the event's key, revealed: it hashes to its commitment
            b, c = e["body"], seen.get(("tables-commitment", key[1]), {"body": {}})["body"]
            need(c.get("commitment") == b["commitment"], f"log entry {i}: no tables-commitment")
            need(sha256_text_of(b["key"]) == b["commitment"], f"log entry {i}: key not committed")
        if e["kind"] == "bot-seed":  # a match ended: its bots' seed, as its receipt committed
            b, r = e["body"], seen.get(("match-receipt", key[1]), {"body": {}})["body"]
            committed = (r.get("receipt") or {}).get("bot_play", {}).get("seed_commitment")
            need(is_text(b["seed"]), f"log entry {i}: seed")
            said = hashlib.sha256(("trix-bot-seed/1:" + b["seed"]).encode()).hexdigest()
            need(
                committed == said, f"log entry {i}: a bots' seed its match's receipt did not commit"
            )
        if e["kind"] == "seat-seed":
            b = e["body"]
            need(type(b["seat"]) is int and 0 <= b["seat"] <= 3, f"log entry {i}: seat")
            need(b["source"] in ("player", "server"), f"log entry {i}: source")
            first = ("match-commitment", b["match_id"]) in seen
            need(first, f"log entry {i}: a client seed of {b['match_id']!r} before its commitment")
            late = ("match-receipt", b["match_id"]) in seen
            need(not late, f"log entry {i}: a client seed of {b['match_id']!r} after its receipt")
        seen[key] = e
        head = sha256(e)
        heads.append(head)
    return entries, seen, heads


def check_log(log, receipt, signature, records, partial=False):
    """The match against the log read_log accepted (log: its entries, seen, heads): its one
    receipt of this match is the records' and each record is the one logged for its deal;
    partial: the log holds no deal record of the match the records leave out. Returns
    (problems, note)."""
    entries, seen, heads = log
    head = heads[-1]
    logged = seen.get(("match-receipt", receipt["match_id"]))
    need(logged, "log: this receipt and signature are not in the log")
    mine = sha256({"receipt": receipt, "signature": signature})
    at = logged["index"]
    need(sha256(logged["body"]) == mine, f"log: the log holds another receipt for the match ({at})")
    tables = receipt.get("tables_commitment")
    if tables:  # a tournament's table: once its event's key is revealed, it gives the commitment
        c = seen.get(("tables-commitment", tables["event"]), {}).get("index")
        need(c == tables["entry"], f"log: no tables-commitment of {tables['event']!r} there")
        revealed = seen.get(("tables-key", tables["event"]))
        if revealed:
            k = bytes.fromhex(revealed["body"]["key"])
            h = hmac.new(k, receipt["match_id"].encode(), hashlib.sha256).digest()
            for _ in range(receipt["deals"]):
                h = hashlib.sha256(h).digest()
            need(h.hex() == receipt["commitment"], "log: the event's key gives another commitment")
    problems = []
    for r in records:
        n = r["shuffle"]["deal_number"]
        e = seen.get(("deal-record", f"{receipt['match_id']}/{n}"), {"body": {}})
        if e["body"].get("record_hash") != sha256(r):
            problems.append(f"deal {n}: log: not the record logged for this deal (plays, scores)")
    if partial:
        problems += withheld(entries, receipt, records)
    note = f"in the log at entry {at}; log head {head} at size {len(entries)}"
    problems_, bots = check_bot_seed(receipt, records, seen)
    return problems + problems_, note + bots


def check_bot_seed(receipt, records, seen):
    """A match with bots (bot_play): its bots' seed, once logged, is the one its committed
    secret gives (HMAC-SHA256 of the last deal's seed), when that deal's record is given; a
    log that shows the match ended (every deal's record, its payout, or its tournament's
    revealed key or payout) without the seed withheld it. Returns (problems, note's tail)."""
    mid, block = receipt["match_id"], receipt.get("bot_play")
    if not block:
        return [], "; the receipt commits to no bots' seed" if receipt.get("bots") else ""
    revealed = seen.get(("bot-seed", mid))
    if not revealed:
        every = all(("deal-record", f"{mid}/{n}") in seen for n in range(1, receipt["deals"] + 1))
        event = (receipt.get("tables_commitment") or {}).get("event")
        ends = [("match-payout", mid), ("tables-key", event), ("event-payout", event)]
        if every or any(end in seen for end in ends):  # the log shows the match ended
            return [f"log: match {mid!r} ended but its bots' seed is not in the log"], ""
        return [], "; the bots' seed is revealed when the match ends"
    seed = revealed["body"]["seed"]
    last = [r for r in records if r["shuffle"]["deal_number"] == receipt["deals"]]
    if last:
        key = bytes.fromhex(last[0]["shuffle"]["server_seed"])
        drawn = hmac.new(key, ("trix-bot-seed/1:" + mid).encode(), hashlib.sha256).hexdigest()
        if drawn != seed:
            return [f"log: the bots' seed of {mid!r} is not the one its secret gives"], ""
    return [], (
        f"; the bots' seed (entry {revealed['index']}) is the one the receipt committed"
        + (
            ", drawn with the shuffle's secret"
            if last
            else " (that the secret gives it shows only with the last deal's record)"
        )
        + "; that every bot move is the bot's is checked by trix verify, not here"
    )


def check_order(receipt, commitment_index, seen, i):
    """A receipt naming commitment_entry and seed_entries: the log holds the match's
    commitment and each seat's seat-seed entry (that seat, that seed) at those indexes."""
    if "commitment_entry" not in receipt:
        return
    mid = receipt["match_id"]
    need(receipt["commitment_entry"] == commitment_index, f"log entry {i}: commitment_entry")
    for seat, index in receipt["seed_entries"].items():
        seed = receipt["client_seeds"][seat]
        key = LOG_KEYS["seat-seed"]({"match_id": mid, "seat": int(seat), "client_seed": seed})
        got = seen.get(("seat-seed", key), {}).get("index")
        need(got == index, f"log entry {i}: no seat-seed of seat {seat} at entry {index}")


def order_note(receipt, entries):
    """Whether the match's commitment came before its client seeds (commit first)."""
    if "tables_commitment" in receipt:
        t = receipt["tables_commitment"]
        note = f"a table of {t['event']!r}: its secret from the key committed at entry {t['entry']}"
        if entries is None:
            return note + ": give --log to check"
        keys = [
            e for e in entries if e["kind"] == "tables-key" and e["body"]["event"] == t["event"]
        ]
        return note + ("; its revealed key gives this commitment" if keys else "; key not yet out")
    if "commitment_entry" not in receipt:
        return (
            "the receipt does not show that its commitment came before the client seeds (a "
            "tournament table, or a receipt from before seeds entered the log)"
        )
    first, seeds = receipt["commitment_entry"], receipt["seed_entries"]
    where = "; ".join(f"seat {seat}: entry {index}" for seat, index in sorted(seeds.items()))
    if entries is None:
        return f"the receipt names commitment entry {first}, seeds {where}: give --log to check"
    made = [s for s, n in sorted(seeds.items()) if entries[n]["body"]["source"] == "server"]
    note = f"commit first: the commitment (entry {first}) came before each seed ({where})"
    return note + (f"; the server made the seed of {seats(made)}" if made else "")


def withheld(entries, receipt, records):
    """--partial with --log: the log's deal records of the match that no record given is."""
    mid, deals = receipt["match_id"], receipt["deals"]
    kept = [e["body"] for e in entries if e["kind"] == "deal-record"]
    logged = sorted(b["deal_number"] for b in kept if b["match_id"] == mid)
    given = {r["shuffle"]["deal_number"] for r in records}
    missing = [n for n in logged if n not in given]
    if not missing:
        return []
    many = len(missing) > 1
    line = f"log: the log holds deal record{'s' if many else ''} {', '.join(map(str, missing))}"
    line += f" of match {mid!r} that {'were' if many else 'was'} not given: "
    if set(range(1, deals + 1)) <= set(logged):
        return [line + "a verification of part of a match that the log shows finished is refused"]
    return [
        line + "--partial accepts a match's first deals only when they are every deal record "
        "the log holds of it"
    ]


def partial_note(shuffles, receipt, logged):
    """The --partial note: which deals were given, and what is known of the rest."""
    last, deals = max(s["deal_number"] for s in shuffles), (receipt or shuffles[0]).get("deals")
    given = f"deal{'s 1-' if last > 1 else ' '}{last}" + ("" if deals is None else f" of {deals}")
    if deals == last:
        return f"--partial: not needed: {given}, the whole match"
    if logged:
        return (
            f"--partial: {given}; the log holds no other deal record of match "
            f"{shuffles[0]['match_id']!r}: nothing it logged was withheld (only a payout or a "
            "bots' seed entry in the log says the match ended)"
        )
    return (
        f"--partial: only the first deals were required ({given.split(' ', 1)[1]}); "
        "completeness could not be checked without the log (--log): later records of this "
        "match may exist and be withheld"
    )


def key_id_of(raw):  # a key's id: the first 16 hex digits of SHA-256 of its 32 raw bytes
    return hashlib.sha256(raw).hexdigest()[:16]


def key_history(items, where):
    """[(signing-key body, valid_from, log index)] in order -> [(key id, raw key, from, until,
    its entry's index, the next key's entry's index)]: a chain, each key signed by itself and
    endorsed by the one before, logged after it; each in use from its time (the first: from
    the start) until (inclusive) the next one's."""
    keys, last = [], None
    for n, (b, start, index) in enumerate(items):
        w = f"{where} {n}"
        need(isinstance(b, dict) and sorted(b) == KEY_FIELDS, f"{w}: fields {KEY_FIELDS}")
        need(b["algorithm"] == "ed25519", f"{w}: algorithm must be 'ed25519'")
        need(is_hex(b["public_key"]), f"{w}: public_key must be 64 lower-case hex digits")
        raw = bytes.fromhex(b["public_key"])
        need(b["key_id"] == key_id_of(raw), f"{w}: key_id is not its key's id")
        said = {k: b[k] for k in ("algorithm", "key_id", "public_key", "previous", "previous_key")}
        said = canonical({"format": "trix-signing-key/1", **said})
        ok = is_hex(b["signature"], 128) and ed25519_ok(raw, said, bytes.fromhex(b["signature"]))
        need(ok, f"{w}: key {b['key_id']} did not sign its own statement")
        before = keys[-1] if keys else (None,) * 6
        need(b["previous"] == before[0], f"{w}: names key {b['previous']}, not {before[0]}")
        need(all(k[0] != b["key_id"] for k in keys), f"{w}: key {b['key_id']} comes back")
        need(not (last and start and start < last), f"{w}: logged before the key before it")
        last = start or last
        if keys:
            e = b["endorsement"]
            ok = b["previous_key"] == before[1].hex() and is_hex(e, 128)
            need(ok and ed25519_ok(before[1], said, bytes.fromhex(e)), f"{w}: not endorsed")
            keys[-1] = before[:3] + (start, before[4], index)
        else:
            need(b["previous_key"] is None and b["endorsement"] is None, f"{w}: endorsed by?")
        keys.append((b["key_id"], raw, start if keys else None, None, index, None))
    return keys


def listed_keys(path):
    """The keys of a saved /fairness/keys.json (trix-keys/1), checked as a chain."""
    try:
        doc = load(path)
    except (OSError, ValueError, RecursionError) as exc:
        raise Refused(f"--keys: cannot read {path}: {exc}") from None
    ok = isinstance(doc, dict) and doc.get("format") == "trix-keys/1" and doc.get("keys")
    need(ok and isinstance(doc["keys"], list), "--keys: not a trix-keys/1 list")
    last = -1
    for n, item in enumerate(doc["keys"]):
        need(isinstance(item, dict) and sorted(item) == LISTED_FIELDS, f"--keys: key {n}: fields")
        start, index = item["valid_from"], item["log_index"]
        need(is_time(start) if n else start is None, f"--keys: key {n}: valid_from")
        alone = index is None and len(doc["keys"]) == 1
        need(alone or (type(index) is int and index > last), f"--keys: key {n}: log_index")
        last = index if type(index) is int else last
    items = [({k: i[k] for k in KEY_FIELDS}, i["valid_from"], i["log_index"]) for i in doc["keys"]]
    keys = key_history(items, "--keys: key")
    for n, item in enumerate(doc["keys"]):
        need(item["valid_until"] == keys[n][3], f"--keys: key {n}: valid_until is not the next's")
    return keys


def is_time(v):  # a UTC time YYYY-MM-DDTHH:MM:SSZ, compared as text
    return isinstance(v, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", v) is not None


def signer(keys, wanted, at, what):
    """The key (a key_history tuple) named wanted (None: the one in use at `at`, or the only
    one), which must have been in use at `at` (when known)."""

    def covers(k):
        return (k[2] is None or k[2] <= at) and (k[3] is None or at <= k[3])

    ids = ", ".join(k[0] for k in keys)
    if wanted is None:
        found = [k for k in keys if len(keys) == 1 or (at is not None and covers(k))]
        need(len(found) == 1, f"{what}: names no key, and which of {ids} signed it is unknown")
    else:
        found = [k for k in keys if k[0] == wanted]
        need(found, f"{what}: signed by key {wanted}, not one of the keys given ({ids})")
    k = found[0]
    period = f"from {k[2] or 'the start'} until {k[3] or 'now'}"
    need(at is None or covers(k), f"{what}: signed at {at} by key {k[0]}, in use {period}")
    return k


def not_older(keys, key, entries, size, what):
    """A head of the log's first size entries is signed by the last key they log, or a later
    one: never by a key those entries retired."""
    logged = [e["body"]["key_id"] for e in entries[:size] if e["kind"] == "signing-key"]
    order = [k[0] for k in keys]
    if logged and logged[-1] in order and key[0] in order:
        retired = order.index(key[0]) < order.index(logged[-1])
        need(not retired, f"{what}: signed by key {key[0]}, retired by then ({logged[-1]})")


def check_head(path, heads, keys, entries):
    """A log head saved earlier: the log's first size entries hash to it; signed by the key
    it names among keys, not one they retired."""
    saved = load(path)
    need(isinstance(saved, dict) and saved.get("format") == "trix-log-head/1", "--head: format")
    size, head = saved.get("size"), saved.get("head")
    need(type(size) is int and size >= 0, "--head: size must be a whole number from 0")
    need(size < len(heads), "--head: more entries than the log has")
    need(heads[size] == head, f"--head: the log's first {size} entries hash to another head")
    if keys is not None:
        payload = {"format": "trix-log-head/1", "size": size, "head": head}
        if "key_id" in saved:  # heads name their key (older heads do not)
            payload["key_id"] = saved["key_id"]
        signature = saved.get("signature")
        need(is_hex(signature, 128), "--head: signature: must be 128 lower-case hex")
        message, sig = canonical(payload), bytes.fromhex(signature)
        if "key_id" not in saved and len(keys) > 1:  # an old head: any of the keys may sign
            found = [k for k in keys if ed25519_ok(k[1], message, sig)]
            need(found, "--head: signature: names no key, valid under none of the keys")
            key = found[0]
        else:
            key = signer(keys, saved.get("key_id"), None, "--head")
        need(ed25519_ok(key[1], message, sig), "--head: signature: not valid")
        not_older(keys, key, entries, size, "--head")
    return f"the saved head (size {size}) is the head of the log's first {size} entries"


def strict_json(text):  # JSON with no key given twice in an object
    def pairs(items):
        keys = [k for k, _ in items]
        need(len(set(keys)) == len(keys), f"JSON: a key given twice in {sorted(keys)}")
        return dict(items)

    return json.loads(text, object_pairs_hook=pairs)


def load(path):
    if path == "-":
        return strict_json(sys.stdin.read())
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
        return [load(os.path.join(path, name)) for name in names]
    with open(path, encoding="utf-8") as handle:
        return strict_json(handle.read())


def site_keys(args, entries):
    """(the keys signatures are checked with, where they came from), or (None, None):
    --keys or the log's signing-key entries, pinned by --public-key (the key you saved, one
    of them: the chain of endorsements vouches for the others); or --public-key alone. A
    --keys saved before a later rotation may be the start of the log's keys, which are then
    the ones used."""
    listed = listed_keys(args.keys) if args.keys is not None else None
    logged = None
    if entries is not None:
        keyed = [e for e in entries if e.get("kind") == "signing-key"]
        items = [(e.get("body"), e.get("logged_at"), e.get("index")) for e in keyed]
        logged = key_history(items, "log: signing-key") if items else None
    if listed is not None and entries is not None:
        mine = [(k[0], k[2], k[3], k[4]) for k in listed]
        unlogged = len(mine) == 1 and mine[0][1:] == (None, None, None)  # before any rotation
        if logged is None or unlogged:
            same = unlogged and (logged is None or logged[0][0] == mine[0][0])
        else:
            theirs = [(k[0], k[2], k[3], k[4]) for k in logged][: len(mine)]
            last, end = mine[-1], theirs[-1]
            same = mine[:-1] == theirs[:-1] and last in (end, (*end[:2], None, end[3]))
            same = same and len(mine) == len(theirs)
        need(same, "--keys: the keys and periods listed are not the log's signing-key entries")
    keys = logged or listed  # the log's keys: a saved list may end before later rotations
    source = "the log's signing-key entries" if logged else "--keys"
    if args.public_key is None:
        return listed and keys, f"{source}, not pinned: give --public-key, the key you saved"
    need(is_hex(args.public_key.strip().lower()), "--public-key: must be 64 hex digits")
    pinned = bytes.fromhex(args.public_key.strip())
    if keys is None:
        return [(key_id_of(pinned), pinned, None, None, None, None)], "--public-key"
    ids = ", ".join(k[0] for k in keys)
    ok = any(k[1] == pinned for k in keys)
    need(ok, f"--public-key: key {key_id_of(pinned)} is not one of {source} ({ids})")
    return keys, f"{source}, pinned by --public-key"


def check_draw(d, seen, records):
    """A trix-draw/1 record: its seed is its commitment's; with the log (seen), the event's
    draw-commitment and draw-key entries are its commitment, seed and entrants, and each
    played table's match is logged, is that table's, and names exactly the log's deal records
    of it (one with every deal's record was played to its end: no forfeit, no cancellation),
    a round with results names its matches where the log holds the event's tables, and once
    the prizes were paid every round has results; each named record given is of that match
    and deal. The seating and the results are not recomputed here (trix verify does).
    Returns (problems, notes)."""
    need(isinstance(d.get("event"), str) and is_text(d["event"]), "trix-draw/1: event")
    event, problems = d["event"], []
    for field in ("commitment", "server_seed"):
        need(is_hex(d.get(field)), f"trix-draw/1: {field}: must be 64 lower-case hex digits")
    need(isinstance(d.get("entrants"), list), "trix-draw/1: entrants: must be a list")
    need(isinstance(d.get("rounds"), list), "trix-draw/1: rounds: must be a list")
    if sha256_text_of(d["server_seed"]) != d["commitment"]:
        problems.append("trix-draw/1: server_seed does not match commitment")
    given = {sha256(r): r for r in records}
    tables = checked = 0
    seen_ = seen or {}
    paid = seen_.get(("event-payout", event), {}).get("body", {}).get("reason") == "result"
    for n, rnd in enumerate(d["rounds"], 1):
        need(isinstance(rnd, dict), f"trix-draw/1: round {n}: must be an object")
        if rnd.get("results") is None and paid:  # the prizes paid: the event was played out
            problems.append(f"trix-draw/1: round {n}: has no results, though the event ended")
        if rnd.get("results") is not None and "matches" not in rnd:
            if ("tables-commitment", event) in seen_:
                problems.append(f"trix-draw/1: round {n}: its results name no matches")
        played = rnd.get("results") is not None and isinstance(rnd.get("matches"), list)
        for t, m in enumerate(rnd["matches"] if played else [], 1):
            where = f"trix-draw/1: round {n}, table {t}"
            ok = isinstance(m, dict) and is_text(m.get("match_id"))
            ok = ok and isinstance(m.get("records"), list) and all(map(is_hex, m["records"]))
            need(ok, f"{where}: match: match_id and records (hex hashes)")
            tables += 1
            mid = m["match_id"]
            for k, h in enumerate(m["records"], 1):
                r = given.get(h)
                if r is not None and (r["shuffle"]["match_id"], r["shuffle"]["deal_number"]) != (
                    mid,
                    k,
                ):
                    problems.append(f"{where}: the record named as deal {k} is not that deal")
            checked += all(h in given for h in m["records"])
            if seen is None:
                continue
            receipt = seen.get(("match-receipt", mid), {}).get("body", {}).get("receipt")
            if receipt is None:
                problems.append(f"{where}: log: no receipt of match {mid!r}")
                continue
            own = f"{event}/round:{n}/table:{t - 1}"
            if receipt.get("tables_commitment") and mid != own:
                problems.append(f"{where}: match {mid!r} is not this table's ({own!r})")
            hashes, k = [], 1
            while ("deal-record", f"{mid}/{k}") in seen:
                hashes.append(seen[("deal-record", f"{mid}/{k}")]["body"]["record_hash"])
                k += 1
            if hashes != m["records"]:
                problems.append(
                    f"{where}: log: the log's {len(hashes)} deal records of {mid!r} are not "
                    f"the {len(m['records'])} the record names"
                )
            elif m.get("end") != "played" and len(hashes) == receipt.get("deals"):
                problems.append(
                    f"{where}: match {mid!r} has a record of every one of its {len(hashes)} "
                    f"deals: it was played to its end, not ended by a {m.get('end')}"
                )
    notes = [f"trix-draw/1 {event}: its server seed is its commitment's"]
    if seen is not None:
        c = seen.get(("draw-commitment", event), {}).get("body", {})
        k = seen.get(("draw-key", event), {}).get("body", {})
        if c.get("commitment") != d["commitment"]:
            problems.append(f"trix-draw/1: log: no draw-commitment of {event!r} to its commitment")
        elif k.get("server_seed") != d["server_seed"]:
            problems.append(f"trix-draw/1: log: no draw-key of {event!r} with its server seed")
        elif k.get("entrants_hash") != sha256(d["entrants"]):
            problems.append("trix-draw/1: log: its entrants are not the ones the draw-key hashed")
        notes.append(
            f"trix-draw/1 {event}: its commitment and key are the log's; its {tables} tables' "
            "matches are logged, each with every deal record the log holds of it"
        )
    notes.append(
        f"trix-draw/1 {event}: {checked} of {tables} tables' records given; its seating and "
        "results are not recomputed here (trix verify does)"
    )
    return problems, notes


def check_match(args, records, match, log, keys, source):
    """(problems, notes) of one match's records (match: checked as a whole match, not one
    record alone) against the receipt saved, the keys and the log read_log accepted."""
    shuffles = [r["shuffle"] for r in records]
    receipt, signature = shuffles[0].get("receipt"), shuffles[0].get("signature")
    notes = []
    if receipt is None:
        given = args.receipt or args.public_key is not None or args.keys is not None or args.log
        need(not given, "shuffle.receipt: missing")
        notes.append("cards only, no receipt: nothing binds the client seeds to the match start")
    if args.receipt:  # the receipt the player saved: a receipt, or {"receipt", "signature"}
        saved = load(args.receipt)
        saved = saved if isinstance(saved, dict) and "receipt" in saved else {"receipt": saved}
        check_receipt(saved["receipt"])
        need(sha256(saved["receipt"]) == sha256(receipt), "--receipt: the records carry another")
        need(saved.get("signature", signature) == signature, "--receipt: another signature")
    entries = log[0] if log else None
    if keys is not None and receipt is not None:
        at = receipt["issued_at"]
        key = signer(keys, receipt.get("key_id"), at, "shuffle.signature")
        ok = ed25519_ok(key[1], canonical(receipt), bytes.fromhex(signature))
        need(ok, "shuffle.signature: not valid")
        notes.append(f"receipt signed by key {key[0]} ({source})")
        if entries is not None:  # logged while that key was the site's: not a retired key's
            mine = [
                i
                for i, e in enumerate(entries)
                if e.get("kind") == "match-receipt"
                and isinstance(e.get("body"), dict)
                and e["body"].get("receipt") == receipt
            ]
            after = key[4] is None or key[2] is None or (mine and mine[0] > key[4])
            before = key[5] is None or (mine and mine[0] < key[5])
            retired = "log: the receipt was logged when its key was not the site's (retired)"
            need(not mine or (after and before), retired)
    elif receipt is not None:
        notes.append("receipt signature not checked: give --public-key")
    if receipt is not None:
        notes.append(seats_note(receipt))
        if not log:
            notes.append(order_note(receipt, None))
    problems = [
        f"deal {r['shuffle']['deal_number']}: {line}" for r in records for line in verify(r)
    ]
    if log:
        logged, note = check_log(log, receipt, signature, records, args.partial and match)
        problems += logged
        notes.append(note)
        notes.append(order_note(receipt, entries))
    if match:
        problems += verify_match(shuffles, receipt, args.partial)
    if args.partial:
        one = "--partial: not used: one record is checked alone, not as a match"
        notes.append(partial_note(shuffles, receipt, bool(args.log)) if match else one)
    return problems, notes


def check(args):
    """(problems, notes) for the parsed command line; raises Refused, OSError, ValueError.
    A directory may hold many matches (grouped by match id and commitment, each checked as a
    whole match; its files may be lists of records) and trix-draw/1 records (check_draw)."""
    loaded = load(args.records)
    items = []
    for item in loaded if isinstance(loaded, list) else [loaded]:
        items.extend(item if isinstance(item, list) and isinstance(loaded, list) else [item])
    draws = [x for x in items if isinstance(x, dict) and x.get("format") == "trix-draw/1"]
    records = [x for x in items if not (isinstance(x, dict) and x.get("format") == "trix-draw/1")]
    need(records or draws, "records: none given")
    for position, record in enumerate(records, 1):
        try:
            check_record(record)
        except Refused as refused:
            raise Refused(f"record {position}: {refused}") from None
    need(not args.head or args.log, "--head: give the log too (--log FILE)")
    log = None
    if args.log:
        with open(args.log, encoding="utf-8") as handle:
            log = read_log(handle.read().splitlines())
    keys, source = site_keys(args, log[0] if log else None)
    matches = {}  # a directory by match id and commitment; a list is one match's records
    for r in records:
        mid = (r["shuffle"]["match_id"], r["shuffle"]["commitment"])
        matches.setdefault(mid if os.path.isdir(args.records) else None, []).append(r)
    need(len(matches) < 2 or not args.receipt, "--receipt: one match's receipt: give its records")
    problems, notes = [], []
    for group in matches.values():
        label = f"match {group[0]['shuffle']['match_id']!r}: " if len(matches) > 1 else ""
        found, said = check_match(args, group, isinstance(loaded, list), log, keys, source)
        problems += [label + line for line in found]
        notes += [label + line for line in said]
    for d in draws:
        found, said = check_draw(d, log[1] if log else None, records)
        problems += found
        notes += said
    if args.head:
        notes.append(check_head(args.head, log[2], keys, log[0]))
    return problems, notes


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", help="a record, a JSON list of records, a directory, or -")
    parser.add_argument("--receipt", help="the receipt file you saved")
    parser.add_argument("--public-key", help="the site's Ed25519 public key (64 hex digits)")
    parser.add_argument("--keys", help="the site's keys (/fairness/keys.json) saved to a file")
    parser.add_argument("--log", help="the site's log (/fairness/log.jsonl) saved to a file")
    parser.add_argument("--head", help="a log head saved earlier (/fairness/log-head.json)")
    parser.add_argument(
        "--partial",
        action="store_true",
        help="a match's first deals only (with --log: if the log holds no other of its records)",
    )
    args = parser.parse_args(argv)
    try:
        problems, notes = check(args)
    except (OSError, ValueError, RecursionError, Refused) as exc:
        print(f"cannot check this record: {exc}", file=sys.stderr)
        return 1
    print("\n".join(problems) or "\n".join(["verified"] + [f"note: {n}" for n in notes]))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
