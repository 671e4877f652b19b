"""A match's shuffle state: where a table's hands come from, the one place the tables app
touches the shuffle (``games.fairness``).

Three things are called "deal": this module is the *shuffle* side of a match (its secret
seeds, and the hands of deal number n); the engine's ``deal`` phase and ``{"type": "deal"}``
action put those hands on the table (``games.engine``); a finished deal's public record is
a :class:`games.models.Deal` row (``trix-deal/1``). (This module was ``games.dealing``.)

The commit-reveal shuffle (``games.fairness``): a match-level commitment made when
the table is created (before any seat is taken), the four client seeds locked when the match
starts (bots use the fixed public value :data:`BOT_CLIENT_SEED`, and the receipt names the
seats bots hold then), each deal's hands from ``trix-shuffle/1``, and a deal's server seed
revealed only after the deal ended. A seat a bot takes over later keeps its person's seed.

Every function takes and returns the private shuffle state: plain JSON for
``MatchRecord.shuffle`` that never leaves the server. It is ``MatchShuffle.to_dict()`` with
the chain's secret sealed (:mod:`games.sealing`, associated data ``match:<match id>``)::

    {"algorithm", "match_id", "client_seeds": [4] | None,
     "chain": {"length", "commitment", "ended_through", "sealed": "trix-seal/1:..."}}

so the database holds no readable secret: each function opens it, works on the
``MatchShuffle`` and seals it again (a fresh nonce, the current key).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from games.fairness import (
    BOT_CLIENT_SEED,
    MatchShuffle,
    deal_verification,
    match_verification,
    new_client_seed,
    validate_client_seed,
)
from games.fairness.bot_play import derived_seed
from games.fairness.errors import FairnessError
from games.fairness.receipt import build_receipt
from games.fairness.shuffle import ALGORITHM
from games.sealing import SealError, seal, unseal

__all__ = [
    "BOT_CLIENT_SEED",
    "FairnessError",
    "SealError",
    "clean_client_seed",
    "deal_verification",
    "match_verification",
    "create",
    "end_deal",
    "hands",
    "lock_client_seeds",
    "announced",
    "bot_seed",
    "public",
    "receipt",
    "reseal",
    "seal_plain",
    "shuffle_block",
]


def _context(match_id: object) -> str:
    return f"match:{match_id}"


def _open(private: dict[str, Any]) -> MatchShuffle:
    """The stored (sealed) state as a :class:`MatchShuffle`. Raises :class:`FairnessError`
    when malformed or not sealed, :class:`SealError` when it does not open."""
    if not isinstance(private, dict) or not isinstance(private.get("chain"), dict):
        raise FairnessError("stored match shuffle must be an object with its chain")
    chain = dict(private["chain"])
    if "sealed" not in chain:
        raise FairnessError("stored match shuffle is not sealed (run the migrations)")
    secret = unseal(chain.pop("sealed"), context=_context(private.get("match_id")))
    return MatchShuffle.from_dict({**private, "chain": {**chain, "secret": secret.hex()}})


def _store(shuffle: MatchShuffle) -> dict[str, Any]:
    """``shuffle.to_dict()`` with its secret sealed: what ``MatchRecord.shuffle`` holds."""
    data = shuffle.to_dict()
    chain = data["chain"]
    secret = bytes.fromhex(chain.pop("secret"))
    chain["sealed"] = seal(secret, context=_context(shuffle.match_id))
    return data


def seal_plain(stored: dict[str, Any]) -> dict[str, Any]:
    """A state stored before secrets were sealed (its chain's ``"secret"`` in hex) sealed;
    a sealed one unchanged. For the data migration."""
    chain = stored.get("chain") if isinstance(stored, dict) else None
    if not isinstance(chain, dict) or "secret" not in chain:
        return stored
    return _store(MatchShuffle.from_dict(stored))


def reseal(stored: dict[str, Any]) -> dict[str, Any]:
    """The state sealed anew under the current ``TRIX_SEED_KEY`` (after a key rotation)."""
    return _store(_open(stored))


def create(match_id: str, deals: int, secret: bytes | None = None) -> tuple[dict[str, Any], str]:
    """A new match's private shuffle state and its public commitment (hex).

    ``secret`` (32 bytes) is for tests and replays only; the site draws a fresh one."""
    shuffle = (
        MatchShuffle.create(match_id, deals)
        if secret is None
        else MatchShuffle.from_secret(match_id, deals, secret)
    )
    return _store(shuffle), shuffle.commitment


def bot_seed(private: dict[str, Any]) -> str:
    """The match's bot seed, drawn with its shuffle: HMAC of the chain's secret
    (``games.fairness.bot_play.derived_seed``), so it is fixed with the commitment, before
    any client seed. Server only until the match ends."""
    shuffle = _open(private)
    secret = bytes.fromhex(shuffle.to_dict()["chain"]["secret"])
    return derived_seed(secret, shuffle.match_id)


#: The client seed's label, by which a sentence names the field (``docs/i18n.md``, Messages):
#: the API's ``client_seed``.
CLIENT_SEED_LABEL = gettext_lazy("Your client seed")


def clean_client_seed(value: Any) -> str:
    """A seat's client seed: the given one if valid (1..64 printable ASCII), a fresh one if
    none is given (``None``). Raises :class:`FairnessError` naming the rule (an empty or
    blank seed too: docs/fairness.md)."""
    if value is None:
        return new_client_seed()
    return validate_client_seed(value)


def lock_client_seeds(private: dict[str, Any], seeds: list[str]) -> dict[str, Any]:
    """Fix the four client seeds (seat order) for every deal of the match."""
    shuffle = _open(private)
    shuffle.lock_client_seeds(seeds)
    return _store(shuffle)


def hands(private: dict[str, Any], deal_number: int) -> dict[str, list[str]]:
    """The four hands of deal ``deal_number`` (1-based) as the engine's ``deal`` action
    takes them: ``{"0": [13 codes], ...}``. Server only."""
    dealt = _open(private).deal(deal_number)
    return {str(seat): list(cards) for seat, cards in enumerate(dealt)}


def end_deal(private: dict[str, Any], deal_number: int) -> dict[str, Any]:
    """Mark deal ``deal_number`` ended (for any reason): its seed may now be revealed."""
    shuffle = _open(private)
    shuffle.end_deal(deal_number)
    return _store(shuffle)


def shuffle_block(
    private: dict[str, Any],
    deal_number: int,
    *,
    receipt: dict[str, Any] | None = None,
    signature: str = "",
) -> dict[str, Any]:
    """The ``"shuffle"`` object of an ended deal's record: algorithm, match id, deal number,
    commitment, revealed seed, client seeds, the match's deal count ``deals`` and, for a
    match started with one, its signed receipt (``receipt``, ``signature``).
    Raises ``RevealRefused`` before the deal ended."""
    shuffle = _open(private)
    block = {**shuffle.shuffle_record(deal_number), "deals": shuffle.deals}
    if receipt is not None:
        block.update(receipt=receipt, signature=signature)
    return block


def announced(private: dict[str, Any]) -> dict[str, Any]:
    """What a table's creation announces (the ``match-commitment`` log entry's body):
    ``{"match_id", "algorithm", "commitment", "deals"}``, read without opening the secret."""
    chain = private["chain"]
    return {
        "match_id": private["match_id"],
        "algorithm": ALGORITHM,
        "commitment": chain["commitment"],
        "deals": chain["length"],
    }


def receipt(
    private: dict[str, Any],
    *,
    variant: str,
    options: dict[str, Any],
    issued_at: str,
    bots: list[int],
    order: tuple[int, dict[str, int]] | None = None,
    tables_commitment: dict[str, Any] | None = None,
    bot_play: dict[str, Any] | None = None,
    key_id: str | None = None,
) -> dict[str, Any]:
    """The match-start receipt ``trix-receipt/1`` of a match whose client seeds are locked:
    match id, algorithm, commitment, deal count, ``variant``, ``options`` (the table's),
    the four client seeds, ``bots`` (the seats bots hold at the start, ascending: their
    seeds are :data:`BOT_CLIENT_SEED`), ``issued_at`` (``YYYY-MM-DDTHH:MM:SSZ``) and, when the
    log holds them, ``order``: the log index of the commitment and of each seat's
    ``seat-seed`` entry, or a tournament table's ``tables_commitment``, and the bots'
    ``bot_play``, and the ``key_id`` of the key that will sign it
    (``games.fairness.receipt.build_receipt``). Public only; the caller signs it
    (``games.signing``). Raises ``FairnessError`` before the seeds lock, or when a
    seat named a bot has another seed."""
    shuffle = _open(private)
    seeds = shuffle.client_seeds
    if seeds is None:
        raise FairnessError("no receipt before the client seeds are locked")
    return build_receipt(
        match_id=shuffle.match_id,
        algorithm=ALGORITHM,
        commitment=shuffle.commitment,
        deals=shuffle.deals,
        variant=variant,
        options=options,
        client_seeds=list(seeds),
        issued_at=issued_at,
        bots=bots,
        order=order,
        tables_commitment=tables_commitment,
        bot_play=bot_play,
        key_id=key_id,
    )


def public(private: dict[str, Any]) -> dict[str, Any]:
    """What anyone may see at any time: commitment, client seeds, revealed seeds only."""
    return _open(private).public()
