"""Writes of accounts: setting a player's display name."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import DISPLAY_NAME_MAX, Profile
from accounts.names import has_visible_character, looks_like_a_bot, name_key

TAKEN = gettext_lazy("That display name is taken; choose another.")
LOOKS_LIKE_NAME = gettext_lazy(
    "That display name looks like another player's (%(name)s); choose another."
)
LOOKS_LIKE_USERNAME = gettext_lazy(
    "That display name looks like another player's username; choose another."
)
LOOKS_LIKE_BOT = gettext_lazy(
    "Names like “Bot 2” are kept for bots, so nobody takes a player for one; choose another."
)


def clean_display_name(name: object) -> str:
    """The name trimmed and checked: 1..40 characters, printable, no line breaks, at least
    one visible character (not only marks or characters that render blank:
    :func:`accounts.names.has_visible_character`), not a name bots are shown by
    (:func:`accounts.names.looks_like_a_bot`: ``Bot 2`` and its look-alikes).

    Raises ``ValidationError`` with a message saying what is wrong.
    """
    if not isinstance(name, str):
        raise ValidationError(_("Display name must be text."))
    name = " ".join(name.split())
    if not name:
        raise ValidationError(_("Display name cannot be empty."))
    if len(name) > DISPLAY_NAME_MAX:
        raise ValidationError(
            _("Display name must be at most %(count)d characters.") % {"count": DISPLAY_NAME_MAX}
        )
    if not name.isprintable():
        raise ValidationError(_("Display name contains characters that cannot be shown."))
    if not has_visible_character(name):
        raise ValidationError(
            _(
                "Display name must have a visible character: a letter, a digit or a symbol, "
                "not only spaces, combining marks or characters that show as blank."
            )
        )
    if looks_like_a_bot(name):
        raise ValidationError(LOOKS_LIKE_BOT)
    return name


def check_display_name_free(name: str, user: Any = None) -> None:
    """Raise ``ValidationError`` if ``name`` could pass for another player (not ``user``): the
    same as their display name or username without regard to case, or alike by the
    confusable key (:func:`accounts.names.name_key`: a Cyrillic look-alike, a fullwidth or
    mathematical letter, ``0`` for ``O``). The message says which kind it matched (the other
    player's display name is public and named; a username is not)."""
    key = name_key(name)
    pk = getattr(user, "pk", None)
    profiles = Profile.objects.exclude(user_id=pk) if pk is not None else Profile.objects.all()
    users = get_user_model().objects.all()
    users = users.exclude(pk=pk) if pk is not None else users
    if profiles.filter(display_name__iexact=name).exists():
        raise ValidationError(str(TAKEN))
    alike = profiles.filter(name_key=key).values_list("display_name", flat=True).first()
    if alike is not None:
        raise ValidationError(str(LOOKS_LIKE_NAME) % {"name": alike})
    if (
        users.filter(username__iexact=name).exists()
        or profiles.filter(username_key=key).exists()
        # accounts made without a profile (createsuperuser, the admin): a few, keyed here
        or any(
            name_key(u) == key
            for u in users.filter(profile__isnull=True).values_list("username", flat=True)
        )
    ):
        raise ValidationError(str(LOOKS_LIKE_USERNAME))


def set_display_name(user: Any, name: str) -> Profile:
    """Create or update ``user``'s profile with the cleaned ``name``; return the profile.

    Raises ``ValidationError`` for a bad name or one that could pass for another player
    (:func:`check_display_name_free`)."""
    name = clean_display_name(name)
    check_display_name_free(name, user)
    profile, _ = Profile.objects.update_or_create(
        user=user,
        defaults={
            "display_name": name,
            "name_key": name_key(name),
            "username_key": name_key(user.get_username()),
        },
    )
    return profile
