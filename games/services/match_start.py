"""A match's start, when its fourth seat fills: the client seeds locked, the match-start
receipt issued, signed with the site's key and logged (``docs/fairness.md`` section 8), the
engine's first state stored and the worker woken to deal. Open tables start here
(:func:`start_if_full`, from ``games.services.tables``); tables made with their four seats
(a tournament's) issue their receipt here too (``games.services.seated_tables``).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games import shuffles, signing
from games.engine import new_match
from games.fairness import bot_play as bot_plays
from games.models import MatchRecord, Seat, Table, TableStatus
from games.services import changes, dispatch, fairness_log


def issue_receipt(
    table: Table,
    private: dict[str, Any],
    now,
    seats: list[Seat],
    *,
    logged_seeds: bool,
    tables_commitment: dict[str, Any] | None = None,
    key: signing.SiteKey | None = None,
) -> tuple:
    """Issue the match-start receipt of ``table`` whose client seeds just locked in
    ``private``: built, signed with the site's key and kept on the table (the caller saves
    it), started at ``now``; it names the seats of ``seats`` (the four, filled) that bots
    hold and, ``logged_seeds`` (each person's seed entered the log when the seat was taken),
    the log entries of the commitment and those seeds (commit first), or
    ``tables_commitment`` (a tournament's table: ``{"event", "entry"}``, the entry of the
    event's key commitment its secret comes from, ``games.fairness.event_tables``), and, when
    bots hold seats, their kinds and the commitment of the table's bot seed
    (``games.fairness.bot_play``, revealed when the match ends), if that seed was drawn with
    the shuffle (a table created before the seeds were, or given one for a test, commits to
    none, as receipts before ``bot_play`` did). Returns its
    ``match-receipt`` log entry for the caller to append in the same transaction. The
    receipt is never issued again: a seat a bot takes over later keeps the seed its person
    gave (``docs/fairness.md``, section 2). The receipt names the id of the key that signs
    it: ``key`` (read by the caller under the log's lock), or the key in use
    (``games.signing.current``), read here under the log's lock."""
    if key is None:
        # The log's head taken first: no rotation can log a new key between this read and
        # the receipt's entry, so the log shows the receipt under the key that signed it,
        # issued in that key's period (the time read after the lock).
        fairness_log.lock_head()
        key = signing.current()
        now = max(now, timezone.now().replace(microsecond=0))
    table.started_at = now
    bots = sorted(s.seat for s in seats if s.kind == "bot")
    table.receipt = shuffles.receipt(
        private,
        variant=table.variant,
        options=table.options,
        issued_at=fairness_log.stamp(now),
        bots=bots,
        order=fairness_log.receipt_order(
            match_id=private["match_id"],
            seeds={s.seat: s.client_seed for s in seats if s.seat not in bots},
        )
        if logged_seeds
        else None,
        tables_commitment=tables_commitment,
        bot_play=bot_plays.build(
            {s.seat: s.bot or "rules" for s in seats if s.kind == "bot"}, table.bot_seed
        )
        if bots and table.bot_seed == shuffles.bot_seed(private)
        else None,
        key_id=key.key_id,
    )
    table.receipt_signature = key.sign(table.receipt)
    return fairness_log.match_receipt(receipt=table.receipt, signature=table.receipt_signature)


def start_if_full(table: Table) -> None:
    """Start ``table``'s match if its four seats are filled (people or bots): the client
    seeds locked, the receipt issued (:func:`issue_receipt`) and logged, the match's first
    state stored, the worker woken to deal. Nothing when a seat is still open. The caller
    holds the table's row lock and saves the table."""
    seats = changes.seats(table)
    changes.set_kinds(table, seats)
    if any(s.kind is None for s in seats):
        return
    record = MatchRecord.objects.select_for_update().get(table=table)
    record.shuffle = shuffles.lock_client_seeds(record.shuffle, [s.client_seed for s in seats])
    now = timezone.now().replace(microsecond=0)
    receipt_entry = issue_receipt(table, record.shuffle, now, seats, logged_seeds=True)
    state = new_match(table.options)
    table.status = TableStatus.PLAYING
    changes.add_events(
        table,
        [
            {
                "type": "match_started",
                "commitment": table.commitment,
                "client_seeds": {str(s.seat): s.client_seed for s in seats},
            }
        ],
    )
    record.state = state.to_json()
    record.state_version = table.version
    record.save()
    fairness_log.append([receipt_entry])
    table.wake_at = timezone.now()
    dispatch.send_wake(table)
