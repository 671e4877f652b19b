"""Models of the games app: tables, seats, the stored match state, the event log, actions
and deals.

A :class:`Table` holds four :class:`Seat` rows from its creation. Its match lives in
:class:`MatchRecord` (the engine's ``MatchState.to_json()``, i.e. the log that rebuilds it,
and the private shuffle state). Every change of a table appends :class:`TableEvent` rows
(one version each; who may see each one) and bumps ``Table.version``, except a seat's
private doubling pick, a :class:`DoublingPick` that changes no version. :class:`TableAction`
keeps every seat action by its client-chosen id, so an action is applied exactly once.
:class:`Deal` keeps each finished deal's ``trix-deal/1`` record. :class:`LogEntry` is the
public transparency log of commitments, receipts, deals, draws and payouts.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from games.policy import TableKind


class TableStatus(models.TextChoices):
    OPEN = "open", "open (waiting for players)"
    PLAYING = "playing", "playing"
    FINISHED = "finished", "finished"
    CANCELLED = "cancelled", "cancelled"


class Table(models.Model):
    """A table: four seats, a stake (integer minor units per human seat), the options, the
    match's progress; ``kind`` (:class:`games.policy.TableKind`) decides what it does on
    timers, leaving and its end; ``origin`` names what created it (a tournament round).
    ``version`` is the version of the last :class:`TableEvent`.

    ``deadline`` is when the seats to act lose their turn to the timeout (None: no timer or
    nobody human to act); ``wake_at`` is when a worker must look at the table next (a bot's
    turn, a timeout, the next deal); the beat sweep re-sends lost wake-ups."""

    variant = models.CharField(max_length=32)
    options = models.JSONField(help_text="every engine option, defaults filled in")
    kind = models.CharField(
        max_length=16,
        choices=TableKind.choices,
        default=TableKind.CASUAL,
        help_text="what the table does on timers, leaving and its end (games.policy)",
    )
    origin = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_index=True,
        help_text="who made it: '' for a player, e.g. 'tournament:12/round:3/table:2'",
    )
    stake = models.PositiveBigIntegerField(default=0, help_text="minor units per human seat")
    status = models.CharField(
        max_length=16, choices=TableStatus.choices, default=TableStatus.OPEN, db_index=True
    )
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tables_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    wake_at = models.DateTimeField(null=True, blank=True, db_index=True)
    commitment = models.CharField(max_length=128, help_text="the shuffle commitment (public)")
    receipt = models.JSONField(
        null=True,
        blank=True,
        help_text="the match-start receipt trix-receipt/1 (public; null until the seeds lock)",
    )
    receipt_signature = models.CharField(
        max_length=128, blank=True, default="", help_text="the site's Ed25519 signature of it"
    )
    bot_seed = models.CharField(max_length=64, help_text="seeds the bots' choices")
    seat_kinds = models.JSONField(
        default=list, help_text="per seat: 'human', a bot kind, or null (kept with the seats)"
    )
    result = models.JSONField(null=True, blank=True)
    settled = models.BooleanField(default=False)
    away = models.JSONField(
        default=list, help_text="the seats marked away (public; games.services.presence)"
    )
    missed = models.JSONField(
        default=list, help_text="per seat: turns timed out in a row ([] = none; public)"
    )
    private = models.BooleanField(
        default=False, help_text="not listed in the lobby (its creator shares an invite link)"
    )
    invite_token = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_index=True,
        help_text="the secret of the table's invite link /invite/<token>/ ('' = none yet)",
    )
    rematch_of = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch",
        help_text="the finished table this one is the rematch of (one rematch per table)",
    )
    holds_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="a rematch: its seats held for the finished table's players until then",
    )

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.variant}, {self.status})"

    @property
    def ref(self) -> str:
        """The table's reference in the ledger: ``table:<id>``."""
        return f"table:{self.pk}"


class Seat(models.Model):
    """One of a table's four seats: empty, a user's, or a bot's (``bot`` names its kind).

    At a rematch an empty seat may be held for a person (``held_for``) until the table's
    ``holds_until``, unless they declined (``hold_declined``): nobody else takes it then
    (:meth:`held`)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(max_length=16, blank=True, default="")
    staked = models.PositiveBigIntegerField(default=0)
    client_seed = models.CharField(max_length=64, blank=True, default="")
    joined_at = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when the seated user first opened the table or acted (tournament no-shows)",
    )
    address_hash = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="at a staked table, the HMAC-SHA256 (hex) of the IP address the seat was "
        "taken from (games.services.tables.address_hash); never the address itself",
    )
    held_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="held_seats",
        help_text="a rematch: the player of the finished table this seat is held for, until "
        "the table's holds_until (games.services.rematch)",
    )
    hold_declined = models.BooleanField(
        default=False, help_text="the player it was held for declined the rematch"
    )

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="games_seat_unique"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="games_seat_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} seat {self.seat}"

    @property
    def kind(self) -> str | None:
        if self.user_id:
            return "human"
        if self.bot:
            return "bot"
        return None

    def held(self, table: Table, now) -> bool:
        """This empty seat is held for its person at ``now`` (``table`` is its table)."""
        return (
            self.kind is None
            and self.held_for_id is not None
            and not self.hold_declined
            and table.holds_until is not None
            and now < table.holds_until
        )


class MatchRecord(models.Model):
    """The stored match state of a table (one row per table, created with it).

    ``state`` is a checkpoint: ``MatchState.to_json()`` (its log plus a summary; the state is
    rebuilt by replaying it) as of table version ``state_version``. It is rewritten when the
    record changes anyway (the match starts, a deal ends, the match ends), not on every
    action: the changes since are the ``log`` increments of the :class:`TableEvent` rows
    after ``state_version`` (``games.state_store`` puts the two together). ``shuffle`` is the
    private fairness state (it holds the unrevealed seeds): it never leaves the server."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="match"
    )
    state = models.JSONField(null=True, blank=True)
    state_version = models.PositiveIntegerField(
        default=0, help_text="the table version the stored state is at"
    )
    shuffle = models.JSONField()

    def __str__(self) -> str:
        return f"match of table {self.table_id}"


class AppendOnlyError(Exception):
    """An event of the log was to be changed or deleted."""


class TableEvent(models.Model):
    """One entry of a table's append-only event log.

    ``visible_to`` is None for everyone, else the list of seats that may see it (a hand).
    ``payload`` is the engine event without ``type``/``visible_to``. ``log`` is set on the
    first event of a change of the match: the increment of the match log that change made,
    ``{"deals": [{"0": [13 codes], ...}], "actions": [compact engine actions]}``; it holds
    hands, so it is server-only (never in an API answer)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    visible_to = models.JSONField(null=True, blank=True)
    log = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="games_event_version"),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} v{self.version} {self.type}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise AppendOnlyError("table events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("table events are append-only")


class DoublingPick(models.Model):
    """A seat's current pick while doubling is simultaneous (a ``select`` action): not yet its
    answer, seen by that seat alone, committed by a timeout (000: "timer commits the current
    selection"). Kept here, out of the match state and the event log, so a pick never takes a
    table version, an event or a deadline that anyone else could see; one row per
    seat, overwritten by its next pick; ``deal`` is the deal number it was made in (an older
    deal's pick counts for nothing)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="picks")
    seat = models.PositiveSmallIntegerField()
    deal = models.PositiveSmallIntegerField()
    cards = models.JSONField(default=list, help_text="card codes, e.g. ['KH']")
    picked_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="games_pick_one_per_seat"),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} seat {self.seat} pick in deal {self.deal}"


ACTION_TYPES = ("contract", "select", "double", "play", "pass")
"""The engine action types a seated user may submit (``TableAction.action["type"]``); the
server adds ``forfeit`` (leaving), ``deal``, bots' and timeouts' actions itself."""


class ActionStatus(models.TextChoices):
    PENDING = "pending", "pending"
    APPLIED = "applied", "applied"
    REJECTED = "rejected", "rejected"


class TableAction(models.Model):
    """A seat action by its id: submitted by a user, a bot or the timer; applied once.

    ``version`` is the table version it was made against; ``applied_version`` the table's
    version after it; a rejected action keeps its ``error``/``code`` (400 or 409)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True
    )
    source = models.CharField(max_length=8, default="user")  # user, bot, timeout
    version = models.PositiveIntegerField()
    action = models.JSONField()
    status = models.CharField(
        max_length=16, choices=ActionStatus.choices, default=ActionStatus.PENDING
    )
    applied_version = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    submitted_at = models.DateTimeField()
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["submitted_at"]
        indexes = [models.Index(fields=["status", "submitted_at"])]

    def __str__(self) -> str:
        return f"action {self.id} of table {self.table_id} seat {self.seat}"


class Deal(models.Model):
    """A finished deal of a table and its ``trix-deal/1`` record (with its ``shuffle`` block
    once the shuffle is verifiable). Public: its seed is revealed, its hands are history.

    Not the engine's ``deal`` phase (the hands being played) nor :mod:`games.shuffles` (the
    match's secret shuffle state, which dealt them)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    contract = models.CharField(max_length=16)
    record = models.JSONField()
    ended_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_deal_number"),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} deal {self.number}"


class Heartbeat(models.Model):
    """When a periodic job of the workers last completed: ``name`` -> ``at``. The beat's
    sweep (:func:`games.services.wakes.sweep`, name :data:`SWEEP`) records itself here, so the
    health endpoint (``/health/``) sees beat, broker and a consuming worker at work, or their
    absence: the sweep's age."""

    SWEEP = "games.sweep"

    name = models.CharField(max_length=50, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


class TransparencyLogRow(models.Model):
    """A row of the transparency log (an entry, a node of its tree): written once, by
    ``games.services.fairness_log.append``, never changed or deleted
    (:class:`AppendOnlyError`)."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError("the transparency log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("the transparency log is append-only")


class LogEntry(TransparencyLogRow):
    """One entry of the public transparency log ``trix-log/1`` (``games.fairness.transparency``,
    docs/fairness.md): every match commitment, match-start receipt, finished deal, tournament
    draw and payout of an escrow, each entry holding the hash of the one before. Append-only
    (:class:`AppendOnlyError`); written by ``games.services.fairness_log.append`` alone,
    served at ``/fairness/log.jsonl``.

    ``logged_at`` is whole seconds (UTC); ``hash`` is the entry's hash (kept to read the head
    without rehashing; ``manage.py fairness_log_check`` recomputes every one)."""

    index = models.PositiveBigIntegerField(primary_key=True, help_text="0, 1, 2, ...")
    prev = models.CharField(max_length=64, help_text="hash of the entry before (GENESIS at 0)")
    kind = models.CharField(max_length=32)
    body = models.JSONField()
    logged_at = models.DateTimeField(db_index=True)  # a day's archive finds its first entry
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["index"]
        verbose_name_plural = "log entries"

    def __str__(self) -> str:
        return f"log entry {self.index} ({self.kind})"


class LogKey(models.Model):
    """What a log entry is about (``games.fairness.transparency.entry_key``: the match id,
    the event, ``"<match id>/<deal number>"`` or ``"<match id>/<seat>/<seed hash>"``), unique
    per kind: the log admits one match-commitment, one match-receipt and one match-payout per
    match, one seat-seed per match, seat and seed, one draw-commitment, one draw-key and one
    event-payout per event, one deal-record per deal. Written with its
    entry by
    ``games.services.fairness_log.append``; the unique constraint refuses a second one even
    from a racing writer."""

    SUBJECT_LENGTH = 160

    entry = models.OneToOneField(
        LogEntry, on_delete=models.DO_NOTHING, primary_key=True, related_name="key"
    )
    kind = models.CharField(max_length=32)
    subject = models.CharField(max_length=SUBJECT_LENGTH)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "subject"], name="games_logkey_one"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.subject}"


class LogTreeNode(TransparencyLogRow):
    """The hash of one perfect subtree of the log's Merkle tree (``games.fairness.merkle``,
    RFC 9162): the ``2**level`` entries from index ``number * 2**level``, stored when its last
    entry is appended (by ``games.services.fairness_log.append``, in the entry's transaction),
    so a root or a proof reads ``O(log n)`` rows. ``position`` is ``number * 64 + level``;
    ``hash`` is 64 hex digits. Level 0 holds each entry's leaf hash."""

    position = models.PositiveBigIntegerField(primary_key=True, help_text="number * 64 + level")
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"log tree node {self.position % 64}/{self.position // 64}"


class LogCosignature(models.Model):
    """A witness's cosignature of one of the log's checkpoints (C2SP tlog-cosignature,
    ``games.fairness.witness``), as the witness submitted it and the site checked it
    (``games.services.witnesses``): ``note`` is the site's signed checkpoint it cosigned (its
    text and the site's signature line), ``line`` the witness's signature line. The latest
    of each witness and size is kept."""

    witness = models.CharField(max_length=200, help_text="the witness's key name")
    size = models.PositiveBigIntegerField(help_text="the tree size of the checkpoint")
    note = models.TextField()
    line = models.TextField()
    cosigned_at = models.PositiveBigIntegerField(help_text="the cosignature's POSIX time")
    received_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["witness", "size"], name="games_cosignature_once"),
        ]
        indexes = [models.Index(fields=["size"], name="games_cosignature_size")]

    def __str__(self) -> str:
        return f"cosignature of size {self.size} by {self.witness}"
