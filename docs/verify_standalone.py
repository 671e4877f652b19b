"""Check a trix-deal/1 record's shuffle with nothing but Python 3's standard library.
Usage: python3 verify_standalone.py RECORD.json  (or - for stdin). Spec: docs/fairness.md"""

import hashlib
import hmac
import json
import sys

DECK = [rank + suit for suit in "CDHS" for rank in "23456789TJQKA"]  # 2C=0 ... AS=51


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


def verify(record):
    s, errors = record["shuffle"], []
    if s["algorithm"] != "trix-shuffle/1":
        return [f"shuffle.algorithm: {s['algorithm']!r} is not 'trix-shuffle/1'"]
    h = bytes.fromhex(s["server_seed"])
    for _ in range(s["deal_number"]):  # the seed of deal d hashes to the commitment d times
        h = hashlib.sha256(h).digest()
    if h.hex() != s["commitment"].lower():
        errors.append(f"shuffle.server_seed does not match shuffle.commitment ({h.hex()})")
    seeds = [s["client_seeds"][str(seat)] for seat in range(4)]
    deck = shuffle(s["server_seed"], seeds, s["match_id"], s["deal_number"])
    for seat in range(4):  # dealt one at a time from seat 0: card i goes to seat i % 4
        if sorted(deck[seat::4]) != sorted(record["hands"][str(seat)]):
            errors.append(f"hands.{seat}: the shuffle dealt {' '.join(sorted(deck[seat::4]))}")
    return errors


if __name__ == "__main__":
    try:
        text = sys.stdin.read() if sys.argv[1] == "-" else open(sys.argv[1]).read()
        problems = verify(json.loads(text))
    except (OSError, ValueError, LookupError, TypeError, AttributeError) as exc:
        sys.exit(f"cannot check this record: {type(exc).__name__}: {exc}")
    print("\n".join(problems) or "verified")
    sys.exit(1 if problems else 0)
