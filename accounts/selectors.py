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

    user_model = get_user_model()
    rows = user_model.objects.filter(pk__in=user_ids).values_list(
        "pk", user_model.USERNAME_FIELD, "profile__display_name"
    )  # (no models: a tournament's live page names every entrant at each change)
    return {pk: shown or username for pk, username, shown in rows}


def sessions_alive(sessions: dict[str, tuple[int, str]]) -> set[str]:
    """Which of ``sessions`` (session key -> the user id it logged in and that user's
    ``get_session_auth_hash()`` then) still log their user in, as Django would at the next
    request: the session exists (no logout, flush or expiry), the user is active, and their
    password is unchanged (Django's session verification; a password change or reset ends
    every other session). Added for the live streams (:mod:`games.live.hub`), which cut a stream
    whose viewer's session is gone. Two queries with the site's database sessions; with a
    cookie session engine (no server-side record) only the user's checks."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore as DatabaseStore
    from django.contrib.sessions.backends.signed_cookies import SessionStore as CookieStore
    from django.utils import timezone

    if not sessions:
        return set()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    keys = set(sessions)
    if issubclass(store, DatabaseStore):
        model = store.get_model_class()
        keys = set(
            model.objects.filter(session_key__in=keys, expire_date__gt=timezone.now()).values_list(
                "session_key", flat=True
            )
        )
    elif not issubclass(store, CookieStore):
        keys = {key for key in keys if store().exists(key)}
    users = get_user_model().objects.filter(
        pk__in={uid for uid, _ in sessions.values()}, is_active=True
    )
    hashes = {u.pk: u.get_session_auth_hash() for u in users.only("pk", "password")}
    return {key for key in keys if hashes.get(sessions[key][0]) == sessions[key][1]}
