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

    def __str__(self) -> str:
        return self.display_name
