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


def check_display_name_free(name: str, user: Any = None) -> None:
    """Raise ``ValidationError`` if another player (not ``user``) already uses ``name``,
    compared without regard to case, so that nobody can pass for someone else at a table."""
    taken = Profile.objects.filter(display_name__iexact=name)
    if user is not None and getattr(user, "pk", None) is not None:
        taken = taken.exclude(user=user)
    if taken.exists():
        raise ValidationError("That display name is taken; choose another.")


def set_display_name(user: Any, name: str) -> Profile:
    """Create or update ``user``'s profile with the cleaned ``name``; return the profile.

    Raises ``ValidationError`` for a bad name or one another player uses."""
    name = clean_display_name(name)
    check_display_name_free(name, user)
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"display_name": name})
    return profile
