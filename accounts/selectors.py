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


def sessions_alive(session_keys: set[str]) -> set[str]:
    """Which of ``session_keys`` are still sessions: not ended by a logout (which flushes the
    session), an expiry or an admin (added for the live streams: ``games.stream``, which cuts
    a stream whose viewer's session is gone). One query with the database sessions (the
    site's); one lookup per key with another ``SESSION_ENGINE``."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    if not session_keys:
        return set()
    if settings.SESSION_ENGINE == "django.contrib.sessions.backends.db":
        return set(
            Session.objects.filter(
                session_key__in=session_keys, expire_date__gt=timezone.now()
            ).values_list("session_key", flat=True)
        )
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    return {key for key in session_keys if store.exists(key)}
