"""Reads of accounts: the name a player is shown by (:func:`display_name`, the one place
that says it, wherever a page, an answer of the API or a record shows a person)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

#: What a closed account's profile stores as its display name (``%(id)s``: the user's id,
#: so it is unique; ``accounts.closure``). A marker, not the name shown: :func:`display_name`
#: shows it in the reader's language (:func:`closed_name`), and nobody may choose a name
#: like it (``accounts.names.looks_like_a_closed_account``).
CLOSED_MARK = gettext_noop("Closed account %(id)s")


def closed_name(user_id: int) -> str:
    """A closed account's public name in the active language: ``Closed account 12``, in
    Arabic ``حساب مغلق 12``."""
    return gettext(CLOSED_MARK) % {"id": user_id}


def _shown(user_id: int, username: str, stored: str) -> str:
    if stored == CLOSED_MARK % {"id": user_id}:
        return closed_name(user_id)
    return stored or username


def display_name(user: Any) -> str:
    """The name ``user`` is shown by, in the active language: their profile's display name,
    their username if they have none, and a closed account's :func:`closed_name`."""
    # A missing profile raises RelatedObjectDoesNotExist, an AttributeError.
    profile = getattr(user, "profile", None)
    return _shown(user.pk, user.get_username(), profile.display_name if profile else "")


def display_names(user_ids: list[int]) -> dict[int, str]:
    """user id -> :func:`display_name`, in one query (for lists of tables and seats)."""
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    rows = user_model.objects.filter(pk__in=user_ids).values_list(
        "pk", user_model.USERNAME_FIELD, "profile__display_name"
    )  # (no models: a tournament's live page names every entrant at each change)
    return {pk: _shown(pk, username, stored or "") for pk, username, stored in rows}


def account_closed(user: Any) -> bool:
    """Whether ``user``'s account is closed (its profile holds :data:`CLOSED_MARK`): for
    answers read in several languages (a table's live stream), which say so beside the name
    so that each page names the account in its own language."""
    profile = getattr(user, "profile", None)
    return profile is not None and profile.display_name == CLOSED_MARK % {"id": user.pk}


def person(user: Any) -> dict[str, Any]:
    """A person as the API's answers name one: ``{"id", "name"`` (:func:`display_name`),
    ``"account_closed"`` (:func:`account_closed`)``}``."""
    return {"id": user.pk, "name": display_name(user), "account_closed": account_closed(user)}


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
