"""Verifiable shuffles: commit-reveal seeds, the ``trix-shuffle/1`` shuffle and its checks.

Pure Python (``hashlib``, ``hmac``, ``secrets``, ``cryptography`` for Ed25519; the card codes of
``games.engine.cards``), no Django, so ``trix verify`` runs anywhere.
The construction, its limits and test vectors are in ``docs/fairness.md``.

- ``random_stream``: HMAC-SHA256 counter-mode stream, unbiased ``below(n)``, Fisher-Yates
  (reusable for any random choice, e.g. tournament seat draws).
- ``chain``: ``SeedChain``, a reversed SHA-256 hash chain: one commitment for many seeds,
  each revealed only after its deal ended.
- ``shuffle``: ``shuffle()`` and ``deal_hands()`` of ``trix-shuffle/1``.
- ``match_shuffle``: ``MatchShuffle``, the fairness state of one match (what a table stores).
- ``canonical``: the canonical JSON bytes that are hashed and signed.
- ``receipt``: the match-start receipt ``trix-receipt/1`` and the site's Ed25519 signatures.
- ``transparency``: the public hash-chained log ``trix-log/1`` of commitments, receipts, draws.
- ``merkle``: the log's RFC 9162 Merkle tree, its proofs and C2SP checkpoints (stdlib only).
- ``verify``: ``verify_record``, ``verify_match``; ``payloads``: the public verification
  payloads of a deal and a match.
- ``verify_command``: ``verify_cli``, the ``trix verify`` command; what it reads
  (``verify_files``), the keys it checks signatures with (``verify_signers``), the Merkle
  proofs it checks (``verify_proofs``), the records against a log (``verify_log``) and its
  notes (``verify_notes``).
- ``draw``: the tournament seating draw ``trix-draw/1`` (commitment, key, draw order).
- ``seating``: knockout and Swiss seating and the shapes of a round (rules in
  ``docs/tournaments.md``); ``standings``: points, tie-breaks, the knockout cut; ``schedule``:
  a tournament's format parameters and its next round; ``draw_record``: the ``trix-draw/1``
  record and its ``verify_record``; ``table_results``: a tournament table's result from its
  match, and a draw record's results checked against its matches' records and the log.
  Import them from their modules.
"""

from games.fairness.chain import SeedChain, reveal_matches
from games.fairness.errors import FairnessError, RevealRefused, StateError
from games.fairness.match_shuffle import (
    BOT_CLIENT_SEED,
    MatchShuffle,
    new_client_seed,
    validate_client_seed,
)
from games.fairness.payloads import deal_verification, match_verification
from games.fairness.random_stream import RandomStream, fisher_yates
from games.fairness.shuffle import ALGORITHM, CANONICAL_DECK, deal_hands, shuffle
from games.fairness.verify import verify_match, verify_record
from games.fairness.verify_command import verify_cli

__all__ = [
    "ALGORITHM",
    "BOT_CLIENT_SEED",
    "CANONICAL_DECK",
    "FairnessError",
    "MatchShuffle",
    "RandomStream",
    "RevealRefused",
    "SeedChain",
    "StateError",
    "deal_hands",
    "deal_verification",
    "fisher_yates",
    "match_verification",
    "new_client_seed",
    "reveal_matches",
    "shuffle",
    "validate_client_seed",
    "verify_cli",
    "verify_match",
    "verify_record",
]
