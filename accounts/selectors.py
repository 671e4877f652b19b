"""Reads of accounts: the name a player is shown by."""

from __future__ import annotations

from typing import Any


def display_name(user: Any) -> str:
    """The user's display name (their profile's), or their username if they have none."""
    # A missing profile raises RelatedObjectDoesNotExist, an AttributeError.
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile is not None else "") or user.get_username()


def display_names(user_ids: list[int]) -> dict[int, str]:
    """user id -> display name, in one query (for lists of tables and seats)."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(pk__in=user_ids).select_related("profile")
    return {u.pk: display_name(u) for u in users}
