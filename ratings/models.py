"""Models of the ratings app: a player's :class:`Rating` per variant family and the
:class:`RatingChange` each rated match made to it (the history the ratings are recomputed
from). The rating logic is :mod:`ratings.rating`; writes are :mod:`ratings.services`."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ratings.rating import FAMILIES, INITIAL


class Family(models.TextChoices):
    SOLO = FAMILIES[0], "solo"
    PARTNERSHIP = FAMILIES[1], "partnership"


class Rating(models.Model):
    """A player's current rating in one family: the model's ``mu`` and ``sigma``, the
    ``display`` number (``ratings.rating.display``) and how many matches were rated."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ratings"
    )
    family = models.CharField(max_length=16, choices=Family.choices)
    mu = models.FloatField(default=INITIAL.mu)
    sigma = models.FloatField(default=INITIAL.sigma)
    display = models.IntegerField(default=INITIAL.display)
    matches = models.PositiveIntegerField(default=0, help_text="matches rated")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["family", "-display", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "family"], name="ratings_one_per_family"),
        ]
        indexes = [models.Index(fields=["family", "-display", "user"], name="ratings_board")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.family} {self.display}"


class RatingChange(models.Model):
    """What one finished match (``table``) did to one player's rating: before and after.
    One per (table, user): a resent signal or a retried task changes nothing."""

    table = models.ForeignKey("games.Table", on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rating_changes"
    )
    family = models.CharField(max_length=16, choices=Family.choices)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(help_text="1..4, ties share (the engine's)")
    finished_at = models.DateTimeField(help_text="the table's end: the order matches are rated")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    display_before = models.IntegerField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["finished_at", "table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="ratings_change_once"),
        ]
        indexes = [models.Index(fields=["user", "-finished_at"], name="ratings_change_user")]

    def __str__(self) -> str:
        before, after = self.display_before, self.display_after
        return f"table {self.table_id} user {self.user_id}: {before} -> {after}"

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before
