"""The public verification payloads of a deal and of a match (JSON, for the verification
pages and the API): what was recomputed and whether it matches (``games.fairness.verify``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.fairness.verify import check_deal, verify_match


def deal_verification(record: Any) -> dict[str, Any]:
    """The public verification payload of one ended deal, for a page or an API (JSON)::

        {"algorithm", "match_id", "deal_number", "commitment", "server_seed",
         "client_seeds": {"0": str, ...},   # as the record states them (None if absent)
         "commitment_matches": bool | None, # SHA-256^deal_number(server_seed) == commitment
         "deck": [52 codes] | None,         # the recomputed shuffle, position 0 dealt first
         "hands": {"0": [13 codes], ...} | None,  # recomputed, in dealt order
         "result": replay output (scores, ...) | None,
         "verified": bool, "mismatches": [str, ...]}

    Call it only with the record of an ended deal (that is the only kind carrying a seed).
    """
    problems, details = check_deal(record, replay=True)
    shuffle_object = record.get("shuffle") if isinstance(record, dict) else None
    if not isinstance(shuffle_object, dict):
        shuffle_object = {}
    payload = {
        field: shuffle_object.get(field)
        for field in (
            "algorithm",
            "match_id",
            "deal_number",
            "commitment",
            "server_seed",
            "client_seeds",
        )
    }
    payload.update(details)
    payload["verified"] = not problems
    payload["mismatches"] = problems
    return payload


def match_verification(records: Sequence[Any], public: dict[str, Any] | None = None) -> dict:
    """The public verification payload of a match (JSON)::

        {"match": public or None,            # MatchShuffle.public(): commitment, deals, ...
         "deals": [deal_verification(record), ...] sorted by deal number,
         "verified": bool, "mismatches": [str, ...]}   # verify_match over the ended deals

    ``records`` are the ended deals' records (possibly none yet); ``public`` is
    ``MatchShuffle.public()``, whose commitment every record must carry. The deals must run
    1..k (``verify_match(partial=True)``: a running match has only its ended deals).
    """
    deals = sorted(
        (deal_verification(record) for record in records),
        key=lambda payload: (not isinstance(payload["deal_number"], int), payload["deal_number"]),
    )
    problems = verify_match(list(records), partial=True) if records else []
    if public is not None:
        for payload in deals:
            if payload["commitment"] != public.get("commitment"):
                problems.append(
                    f"deal {payload['deal_number']}: shuffle.commitment differs from the "
                    "match's published commitment"
                )
    return {
        "match": public,
        "deals": deals,
        "verified": not problems,
        "mismatches": problems,
    }
