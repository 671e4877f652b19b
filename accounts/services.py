"""Writes of accounts: setting a player's display name."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from accounts.models import DISPLAY_NAME_MAX, Profile


def clean_display_name(name: object) -> str:
    """The name trimmed and checked: 1..40 characters, printable, no line breaks.

    Raises ``ValidationError`` with a message saying what is wrong.
    """
    if not isinstance(name, str):
        raise ValidationError("Display name must be text.")
    name = " ".join(name.split())
    if not name:
        raise ValidationError("Display name cannot be empty.")
    if len(name) > DISPLAY_NAME_MAX:
        raise ValidationError(f"Display name must be at most {DISPLAY_NAME_MAX} characters.")
    if not name.isprintable():
        raise ValidationError("Display name contains characters that cannot be shown.")
    return name


def set_display_name(user: Any, name: str) -> Profile:
    """Create or update ``user``'s profile with the cleaned ``name``; return the profile."""
    name = clean_display_name(name)
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"display_name": name})
    return profile
