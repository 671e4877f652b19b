"""Models of the tournaments app: a tournament, its entries and teams, its rounds and their
tables, and the admin actions taken on it.

Money is integer minor units (``settings.TRIX_CURRENCY``); the entry fees sit in the
tournament's escrow ``tournament:<id>`` in the ledger (``wallet``), never in these rows:
``Entry.paid`` / ``Entry.prize`` only record what the ledger moved. Rules:
``docs/tournaments.md``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: Basis points in one whole (100 %).
BASIS_POINTS = 10_000


class Format(models.TextChoices):
    KNOCKOUT = "knockout", _("knockout (shoot-out)")
    SWISS = "swiss", _("Swiss pods")


class Status(models.TextChoices):
    DRAFT = "draft", _("draft (not yet open)")
    REGISTRATION = "registration", _("registration")
    CLOSED = "closed", _("registration closed")
    RUNNING = "running", _("running")
    PAUSED = "paused", _("paused")
    REVIEW = "review", _("review (prizes not yet paid)")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


class Tournament(models.Model):
    """An admin-run event over four-seat tables.

    ``options`` are the engine options of every table (``games.engine.Options``, timers
    included, variant filled in). ``prize_bps`` is the prize table: basis points of the pool
    (less the house fee) by final place 1..n, summing to 10,000; ``prize_bps_at_start`` is its
    copy made at the start, the one that pays. ``refund_bps`` is the share of the entry fee
    refunded to a player who unregisters before registration closes (10,000 = all).
    ``allow_overlap`` lets a player enter it while in another event whose play overlaps it
    (``services.register``; ``TRIX_TOURNAMENT_SPAN``).

    The seating draw (``games.fairness.draw``, trix-draw/1): ``draw_secret`` (32 bytes,
    sealed at rest by ``games.sealing`` under ``TRIX_SEED_KEY``: ``services.draw_secret``
    opens it) is server-only and never shown before the reveal; ``draw_commitment`` is public
    from creation; ``draw_seed`` is the secret revealed at the start and ``draw_key`` the key
    mixed from it, the entrant list and the client seeds. ``entrants`` is the sorted entrant
    list published when registration closes.

    ``no_show_without_action`` (on by default): an entrant who makes no move of their own
    at a table (every turn played by the timer) is a no-show there, ranked last at that
    table (``docs/tournaments.md``, "No-shows"). ``registration_closed_at`` is when
    registration actually closed (an early start closes it before ``registration_closes_at``).

    ``version`` grows with every change of the tournament's rows, a table's recorded result
    included, and with every deal that ends at one of its tables (running scores): the live
    page's one number (``selectors.live_version``)."""

    name = models.CharField(max_length=100)
    description = models.TextField(
        blank=True, default="", max_length=2000, help_text="shown on the tournament page"
    )
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.SWISS)
    team_mode = models.BooleanField(default=False, help_text="partnership: teams of two")
    advance = models.PositiveSmallIntegerField(
        default=2, help_text="knockout, solo: the top k of each table advance (1 or 2)"
    )
    rounds = models.PositiveSmallIntegerField(default=0, help_text="Swiss: number of rounds R")
    final_table = models.BooleanField(
        default=False, help_text="Swiss: a final table of the top 4 (solo) or top 2 teams"
    )
    variant = models.CharField(max_length=32)
    options = models.JSONField(
        default=dict, blank=True, help_text="engine options of every table, timers included"
    )
    entry_fee = models.PositiveBigIntegerField(default=0, help_text="minor units")
    house_fee_bps = models.PositiveIntegerField(default=0, help_text="basis points of the pool")
    capacity = models.PositiveIntegerField(help_text="most entrants (solo) or teams")
    min_entrants = models.PositiveIntegerField(help_text="fewest entrants (solo) or teams")
    registration_opens_at = models.DateTimeField()
    registration_closes_at = models.DateTimeField()
    starts_at = models.DateTimeField(db_index=True)
    prize_bps = models.JSONField(help_text="basis points of the pool by final place 1..n")
    prize_bps_at_start = models.JSONField(null=True, blank=True, editable=False)
    allow_overlap = models.BooleanField(
        default=False,
        help_text="its entrants may also be in another event whose play overlaps this one's",
    )
    refund_bps = models.PositiveIntegerField(
        default=BASIS_POINTS, help_text="share of the fee refunded on unregistering"
    )
    review_seconds = models.PositiveIntegerField(
        default=600, help_text="seconds between the end and the payment of the prizes"
    )
    no_show_without_action = models.BooleanField(
        default=True,
        help_text="an entrant with no action of their own at a table (every turn played by "
        "the timer) is a no-show there: last at that table",
    )
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.REGISTRATION, db_index=True
    )
    draw_secret = models.CharField(
        max_length=200,
        editable=False,
        help_text="server-only, sealed (games.sealing, context draw:tournament:<id>)",
    )
    draw_commitment = models.CharField(max_length=128, editable=False)
    draw_seed = models.CharField(max_length=64, blank=True, default="", editable=False)
    draw_key = models.CharField(max_length=64, blank=True, default="", editable=False)
    tables_secret = models.CharField(
        max_length=200,
        blank=True,
        default="",
        editable=False,
        help_text="server-only, sealed (games.sealing, context tables:tournament:<id>): the "
        "key of the tables' secrets (games.fairness.event_tables); empty for events made "
        "before it",
    )
    tables_key = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        help_text="that key, revealed when the event ended (hex)",
    )
    entrants = models.JSONField(default=list, blank=True, editable=False)
    pool = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    house_fee = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    registration_closed_at = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="when registration actually closed"
    )
    started_at = models.DateTimeField(null=True, blank=True, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True, editable=False)
    review_ends_at = models.DateTimeField(null=True, blank=True, editable=False, db_index=True)
    prizes_paid_at = models.DateTimeField(null=True, blank=True, editable=False)
    cancelled_at = models.DateTimeField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-starts_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_format_display()}, {self.status})"

    @property
    def ref(self) -> str:
        """The tournament's escrow in the ledger: ``tournament:<id>``."""
        return f"tournament:{self.pk}"

    def disqualified_units(self) -> set[str]:
        """The units with a disqualified entry: entrant ids (solo), or team ids in partnership
        (a member disqualified: the team). ``docs/tournaments.md``, "Disqualification"."""
        ruled = Entry.objects.filter(tournament=self, status=EntryStatus.DISQUALIFIED)
        return {
            e.team.unit if self.team_mode and e.team_id else e.entrant
            for e in ruled.select_related("team")
        }


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("registered")
    WITHDRAWN = "withdrawn", _("withdrawn (unregistered before the start)")
    REFUNDED = "refunded", _("refunded (team incomplete or event cancelled)")
    DISQUALIFIED = "disqualified", _("disqualified")


class TeamStatus(models.TextChoices):
    PENDING = "pending", _("pending (waiting for a partner)")
    COMPLETE = "complete", _("complete")
    REFUNDED = "refunded", _("refunded (incomplete when registration closed)")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Team(models.Model):
    """A partnership team of two entries. ``invited`` is the player invited and not yet
    answered (None: no invitation pending)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_invitations",
    )
    status = models.CharField(max_length=16, choices=TeamStatus.choices, default=TeamStatus.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "id"]

    def __str__(self) -> str:
        return f"team {self.pk} of tournament {self.tournament_id}"

    @property
    def unit(self) -> str:
        """The team's unit id in seatings and standings."""
        return f"T{self.pk}"


class Entry(models.Model):
    """A player's entry: solo, or one member of a team. ``paid`` is the entry fee moved into
    the escrow, ``refunded`` what went back; ``attempt`` numbers registrations of the same
    player (a player who unregistered may register again: a new idempotency key).
    ``place`` and ``prize`` (minor units) are set at the end."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    team = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="members"
    )
    client_seed = models.CharField(max_length=64)
    status = models.CharField(
        max_length=16, choices=EntryStatus.choices, default=EntryStatus.REGISTERED
    )
    attempt = models.PositiveSmallIntegerField(default=1)
    paid = models.PositiveBigIntegerField(default=0)
    refunded = models.PositiveBigIntegerField(default=0)
    place = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveBigIntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_entry_once"),
        ]

    def __str__(self) -> str:
        return f"entry {self.pk} of tournament {self.tournament_id}"

    @property
    def entrant(self) -> str:
        """The entrant id in the draw and the published entrant list."""
        return f"E{self.pk}"


class RoundKind(models.TextChoices):
    KNOCKOUT = "knockout", _("knockout")
    SWISS = "swiss", _("Swiss")
    FINAL = "final", _("final table")


class RoundStatus(models.TextChoices):
    OPENING = "opening", _("opening")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class Round(models.Model):
    """One round: its seating as published (``{"tables": [[unit|None, ...], ...], "byes":
    [...]}``, the ``games.fairness.seating.RoundSeating``), opened once (unique number)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=RoundKind.choices)
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.OPENING
    )
    seating = models.JSONField()
    opened_at = models.DateTimeField(auto_now_add=True)
    show_up_deadline = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_once"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"


class RoundTable(models.Model):
    """One table of a round. ``units`` is the unit id per seat 0..3 (None: a bot; a team sits
    at seats 0+2 or 1+3). ``result`` once recorded: ``{"units": {unit: {"place", "score",
    "points", "no_show", "disqualified"}}, "advanced": [unit, ...]}``; ``no_shows`` are the
    entry ids that never showed up."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    index = models.PositiveSmallIntegerField()
    table = models.OneToOneField(
        "games.Table", on_delete=models.PROTECT, related_name="tournament_table"
    )
    units = models.JSONField()
    result = models.JSONField(null=True, blank=True)
    no_shows = models.JSONField(default=list, blank=True)
    recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["round", "index"], name="tournament_table_once"),
        ]

    def __str__(self) -> str:
        return f"table {self.index} of {self.round}"


class AdminAction(models.Model):
    """What an admin did to a tournament, who, why and when (shown on the tournament page)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="admin_actions"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        help_text="None: the site itself (e.g. cancelled below the minimum at the start)",
    )
    action = models.CharField(max_length=32)
    reason = models.TextField(blank=True, default="")
    details = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} on tournament {self.tournament_id}"


class TournamentEdit(models.Model):
    """One field of a tournament changed after its creation (``tournaments.edits``): who,
    when, why, and the value before and after (JSON: text, an ISO 8601 time, a whole number,
    or the prize table's list of basis points). Shown on the tournament page and the admin;
    never changed or deleted."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="edits")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_edits"
    )
    at = models.DateTimeField(auto_now_add=True)
    field = models.CharField(max_length=32)
    old = models.JSONField()
    new = models.JSONField()
    reason = models.TextField()

    class Meta:
        ordering = ["tournament_id", "at", "id"]

    def __str__(self) -> str:
        return f"{self.field} of tournament {self.tournament_id}"


BELOW_MINIMUM = "below_minimum"
"""An :class:`AdminAction`'s ``details`` key: the site cancelled at the start with too few
units, ``{"units": n, "minimum": m}``; the pages say it in the reader's language
(``tournaments.selectors.admin_actions``), ``reason`` keeps the record's English."""
