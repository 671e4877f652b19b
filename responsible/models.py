"""Storage of responsible play: each player's limits (with the pending raise), the log of
every change (who asked, when it takes effect), time-outs and self-exclusions, and the
reality-check interval. The rules are in ``responsible.rules``; writes in
``responsible.services``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from responsible import rules


class LimitKind(models.TextChoices):
    DEPOSIT = rules.DEPOSIT, _("Deposit")
    STAKE = rules.STAKE, _("Stake")


class Period(models.TextChoices):
    DAY = rules.DAY, _("24 hours")
    WEEK = rules.WEEK, _("7 days")
    MONTH = rules.MONTH, _("30 days")


class Limit(models.Model):
    """One limit of a player (one row per kind and period). ``amount`` in effect (minor units;
    null: none); a raise or removal waits in ``pending_amount`` (null: remove) until
    ``pending_from`` (null: nothing pending)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="play_limits"
    )
    kind = models.CharField(max_length=10, choices=LimitKind.choices)
    period = models.CharField(max_length=10, choices=Period.choices)
    amount = models.BigIntegerField(null=True, blank=True, help_text="minor units; empty: none")
    pending_amount = models.BigIntegerField(null=True, blank=True)
    pending_from = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "period"], name="one_limit_per_period"),
            models.CheckConstraint(
                condition=Q(amount__isnull=True) | Q(amount__gt=0), name="limit_amount_positive"
            ),
            models.CheckConstraint(
                condition=Q(pending_amount__isnull=True) | Q(pending_amount__gt=0),
                name="limit_pending_positive",
            ),
        ]
        ordering = ["user_id", "kind", "period"]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}/{self.period}: {self.amount}"

    def state(self) -> rules.LimitState:
        return rules.LimitState(
            self.kind, self.period, self.amount, self.pending_amount, self.pending_from
        )


class LimitChange(models.Model):
    """Every change asked to a limit (never edited): from ``old_amount`` to ``new_amount``
    (null: none), asked at ``asked_at`` by ``by`` (the player or staff), in effect from
    ``effective_at``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="play_limit_changes"
    )
    kind = models.CharField(max_length=10, choices=LimitKind.choices)
    period = models.CharField(max_length=10, choices=Period.choices)
    old_amount = models.BigIntegerField(null=True, blank=True)
    new_amount = models.BigIntegerField(null=True, blank=True)
    asked_at = models.DateTimeField()
    effective_at = models.DateTimeField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    by_staff = models.BooleanField(default=False)

    class Meta:
        ordering = ["-asked_at", "-id"]


class ExclusionKind(models.TextChoices):
    TIME_OUT = "time_out", _("Time-out")
    SELF_EXCLUSION = "self_exclusion", _("Self-exclusion")


class Exclusion(models.Model):
    """A time-out or self-exclusion: from ``starts_at`` until ``ends_at`` (null: permanent).
    Never shortened or deleted; a new one may only add to it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="exclusions"
    )
    kind = models.CharField(max_length=20, choices=ExclusionKind.choices)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["user", "ends_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.starts_at:%Y-%m-%d} - {self.ends_at or '∞'}"


class PlaySettings(models.Model):
    """A player's reality-check interval (minutes, one of ``rules.REALITY_CHECK_MINUTES``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="play_settings",
    )
    reality_check_minutes = models.PositiveSmallIntegerField(
        default=rules.REALITY_CHECK_DEFAULT,
        choices=[(m, str(m)) for m in rules.REALITY_CHECK_MINUTES],
    )
