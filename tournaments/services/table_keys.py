"""A tournament's table key (``games.fairness.event_tables``, ``trix-tables/1``): drawn when
the event is created and committed in the public log before anyone can register, sealed at
rest; each table of a round takes its match id and secret from it and its place in the
published seating; revealed in the log when the event ends, once no table of it plays.
``docs/fairness.md``, section 7a."""

from __future__ import annotations

from typing import Any

from games import sealing
from games.fairness import event_tables
from games.services import fairness_log
from tournaments.models import Tournament


def _context(t: Tournament) -> str:
    return f"tables:{t.ref}"


def commit(t: Tournament, key: bytes | None = None) -> tuple:
    """Draw the table key of the just-saved tournament ``t`` (``key``: the test's), seal it
    on ``t`` (the caller saves ``tables_secret``) and return its ``tables-commitment`` log
    entry for the caller to append with the draw's commitment."""
    key = event_tables.new_key() if key is None else bytes(key)
    t.tables_secret = sealing.seal(key, context=_context(t))
    return fairness_log.tables_commitment(event=t.ref, commitment=event_tables.commitment(key))


def table_items(t: Tournament, number: int, count: int) -> list[dict[str, Any]]:
    """For tables 0..``count - 1`` of round ``number`` of ``t``, the keys
    ``create_seated_tables`` takes to deal them from the event's key: ``shuffle_match_id``
    (``<event>/round:<n>/table:<i>``), ``shuffle_secret`` (the bots' seed is drawn from it,
    ``games.shuffles.bot_seed``) and ``tables_commitment`` (the receipt's ``{"event",
    "entry"}``); empty dicts for an event made before table keys (its tables draw their own
    secrets)."""
    if not t.tables_secret:
        return [{} for _ in range(count)]
    key = sealing.unseal(t.tables_secret, context=_context(t))
    entry = fairness_log.entry_index("tables-commitment", t.ref)
    items = []
    for index in range(count):
        match = event_tables.match_id(t.ref, number, index)
        items.append(
            {
                "shuffle_match_id": match,
                "shuffle_secret": event_tables.table_secret(key, match),
                "tables_commitment": {"event": t.ref, "entry": entry},
            }
        )
    return items


def reveal(t: Tournament) -> None:
    """Reveal the locked ``t``'s table key (the event ended: no table of it plays): kept on
    ``t`` (the caller saves ``tables_key``) and logged as its ``tables-key`` entry, once.
    Nothing for an event made before table keys."""
    if not t.tables_secret or t.tables_key:
        return
    key = sealing.unseal(t.tables_secret, context=_context(t))
    t.tables_key = key.hex()
    fairness_log.append(
        [
            fairness_log.tables_key(
                event=t.ref, commitment=event_tables.commitment(key), key=t.tables_key
            )
        ]
    )


def reseal(t: Tournament) -> bool:
    """Seal the locked ``t``'s table key anew when it is not sealed under the current
    ``TRIX_SEED_KEY`` (the caller saves ``tables_secret``); whether it was."""
    if not t.tables_secret or not sealing.needs_resealing(t.tables_secret):
        return False
    key = sealing.unseal(t.tables_secret, context=_context(t))
    t.tables_secret = sealing.seal(key, context=_context(t))
    return True
