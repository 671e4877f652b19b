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
