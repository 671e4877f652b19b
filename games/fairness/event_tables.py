"""The secrets of a tournament's tables, committed before anyone registers: ``trix-tables/1``.

A tournament's tables are made with the seeds its entrants gave at registration, so a
secret drawn when a round opens would be drawn after the server saw those seeds. Instead,
when the tournament is created, the server draws one 32-byte ``key`` and logs its
commitment (a ``tables-commitment`` entry, beside the draw's commitment, before anyone can
register); every table of the event takes its match id and its secret from that key and its
place in the published seating, so the server chooses neither::

    match_id(event, round, table) = "<event>/round:<round>/table:<table>"
                                     (round from 1, table from 0, as the seating numbers them)
    secret(match_id)              = HMAC-SHA256(key, UTF-8 bytes of match_id)
    match commitment              = SHA-256^deals(secret)   (games.fairness.chain)
    tables commitment             = hex SHA-256(key)

When the event ends (finished, or called off once every table ended) the key is revealed (a
``tables-key`` entry): anyone then recomputes every table's commitment from it and checks it
is the one its receipt names. Until then a table's receipt names the entry of the event's
commitment (``tables_commitment``), and a verifier says the binding waits for the key.
Spec: ``docs/fairness.md``, section 7a. No Django.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from games.fairness.chain import hash_times
from games.fairness.errors import FairnessError
from games.fairness.random_stream import seed_bytes

ALGORITHM = "trix-tables/1"

_MATCH_ID = re.compile(r"(.+)/round:([1-9][0-9]*)/table:(0|[1-9][0-9]*)")


def new_key() -> bytes:
    """A fresh 32-byte key for a new tournament's tables."""
    return secrets.token_bytes(32)


def commitment(key: bytes) -> str:
    """The key's commitment: hex SHA-256 of its 32 bytes."""
    return hashlib.sha256(seed_bytes(key, "key")).hexdigest()


def match_id(event: str, round_number: int, table: int) -> str:
    """The match id of table ``table`` (from 0) of round ``round_number`` (from 1)."""
    return f"{event}/round:{round_number}/table:{table}"


def event_of(match: str) -> str | None:
    """The event a tournament table's match id names, or None for another match id."""
    found = _MATCH_ID.fullmatch(match)
    return found.group(1) if found else None


def table_secret(key: bytes | str, match: str) -> bytes:
    """The 32-byte secret of the table whose match id is ``match``."""
    return hmac.new(seed_bytes(key, "key"), match.encode(), hashlib.sha256).digest()


def check_match(key: bytes | str, match: str, deals: int, match_commitment: str) -> None:
    """Raise FairnessError unless ``match_commitment`` (a receipt's) is the commitment of the
    ``deals``-deal chain of table ``match``'s secret under the revealed ``key``."""
    mine = hash_times(table_secret(key, match), deals).hex()
    if not hmac.compare_digest(mine, match_commitment):
        raise FairnessError(
            f"match {match!r}: its commitment {match_commitment} is not the one the event's "
            f"revealed table key gives ({mine}): the table's secret was not the committed one"
        )
