"""A player's profile: the display name shown at tables (the username is for logging in)."""

from django.conf import settings
from django.db import models

DISPLAY_NAME_MAX = 40


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX,
        help_text="Shown to the other players at a table; any script (Arabic, Latin, ...).",
    )
    # Confusable keys (accounts.names.name_key) of the display name and of the username, set
    # with the name (accounts.services.set_display_name): another player's name may not
    # have the same key as either. For comparing only, never shown.
    name_key = models.CharField(max_length=1000, blank=True, default="", db_index=True)
    username_key = models.CharField(max_length=1000, blank=True, default="", db_index=True)

    def __str__(self) -> str:
        return self.display_name


class VerificationStatus(models.TextChoices):
    """Where a player's identity check stands (``accounts.kyc``)."""

    UNVERIFIED = "unverified", "unverified"
    PENDING = "pending", "pending"
    VERIFIED = "verified", "verified"
    REJECTED = "rejected", "rejected"


class Verification(models.Model):
    """A player's identity check (KYC) as their provider last reported it. The documents stay
    with the provider: the site keeps the outcome, the provider's name and its reference
    only. No row: unverified."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="verification"
    )
    status = models.CharField(
        max_length=16, choices=VerificationStatus.choices, default=VerificationStatus.UNVERIFIED
    )
    provider = models.CharField(max_length=40, blank=True, default="")
    reference = models.CharField(
        max_length=200, blank=True, default="", help_text="the provider's id of the check"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    checked_at = models.DateTimeField(
        null=True, blank=True, help_text="when the provider last reported the outcome"
    )

    def __str__(self) -> str:
        return f"{self.user} {self.status}"


class Suspension(models.Model):
    """A suspension by staff (who, when, why) and, once lifted, its lifting (who, when, why).
    Rows are kept: the account's record. At most one is in force (not lifted) per user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="suspensions"
    )
    reason = models.TextField(max_length=1000)
    suspended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    suspended_at = models.DateTimeField()
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lift_reason = models.TextField(max_length=1000, blank=True, default="")

    class Meta:
        ordering = ["-suspended_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(lifted_at__isnull=True),
                name="accounts_one_suspension_in_force",
            ),
        ]

    def __str__(self) -> str:
        if self.suspended_at is None:
            return f"suspension of user {self.user_id}"
        state = "lifted" if self.lifted_at else "in force"
        return f"{self.user} suspended {self.suspended_at:%Y-%m-%d} ({state})"


class Closure(models.Model):
    """A player's closing of their account: login is off (``user.is_active`` False), the
    ledger's entries stay. ``display_name`` was replaced (``accounts.closure``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="closure"
    )
    closed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user} closed {self.closed_at:%Y-%m-%d}"
