"""Writes of accounts: setting a player's display name; starting their identity check
(``accounts.kyc``); staff suspending an account and lifting the suspension. Closing an
account: ``accounts.closure``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import kyc
from accounts.models import (
    DISPLAY_NAME_MAX,
    Profile,
    Suspension,
    Verification,
    VerificationStatus,
)
from accounts.names import (
    has_visible_character,
    looks_like_a_bot,
    looks_like_a_closed_account,
    name_key,
)

#: The longest reason staff may give for a suspension or its lifting (characters).
REASON_MAX = 1000

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
LOOKS_LIKE_CLOSED = gettext_lazy(
    "Names like “Closed account 2” are kept for closed accounts; choose another."
)


def clean_display_name(name: object) -> str:
    """The name trimmed and checked: 1..40 characters, printable, no line breaks, at least
    one visible character (not only marks or characters that render blank:
    :func:`accounts.names.has_visible_character`), not a name bots are shown by
    (:func:`accounts.names.looks_like_a_bot`: ``Bot 2`` and its look-alikes), nor the name
    closed accounts are shown by (:func:`accounts.names.looks_like_a_closed_account`).

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
    if looks_like_a_closed_account(name):
        raise ValidationError(LOOKS_LIKE_CLOSED)
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


# -- identity (KYC) ---------------------------------------------------------------------------


def start_verification(*, user: Any, provider: kyc.KycProvider | None = None) -> tuple:
    """Start (or follow up) ``user``'s identity check with the provider
    (``settings.TRIX_KYC_PROVIDER``) and record its answer. Returns ``(verification, url)``:
    the :class:`~accounts.models.Verification` as now recorded, and the provider's page to
    send the player to ("" when there is none, e.g. the demo provider, which verifies at
    once). A verified account stays verified (nothing asked); a pending check is asked for
    its state, not started again; a rejected one may start anew. Raises
    :class:`accounts.kyc.KycError` (nothing recorded)."""
    provider = provider or kyc.get_provider()
    with transaction.atomic():
        Verification.objects.get_or_create(user=user)
        record = Verification.objects.select_for_update().get(user=user)
        if record.status == VerificationStatus.VERIFIED:
            return record, ""
        now = timezone.now()
        if record.status == VerificationStatus.PENDING and record.provider == provider.name:
            check = provider.status(reference=record.reference)
        else:
            check = provider.start(user_id=user.pk, key=f"kyc:{user.pk}:{now.isoformat()}")
            record.started_at = now
        record.status = VerificationStatus(check.status)
        record.provider = provider.name
        record.reference = check.reference
        record.checked_at = now
        record.save()
    return record, check.url


# -- suspension by staff ----------------------------------------------------------------------


def _staff_reason(by: Any, reason: Any) -> str:
    if by is None or not getattr(by, "is_staff", False):
        raise PermissionDenied(_("Only staff may suspend an account or lift a suspension."))
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError(_("Give the reason: it is kept with the account."))
    if len(reason.strip()) > REASON_MAX:
        raise ValidationError(
            _("The reason must be at most %(count)d characters.") % {"count": REASON_MAX}
        )
    return reason.strip()


def suspend(*, user: Any, by: Any, reason: str) -> Suspension:
    """Suspend ``user`` (``by``, a staff member, for ``reason``): until lifted they cannot
    stake or register for tournaments (``accounts.standing``, asked by ``wallet.gates``);
    withdrawals stay possible. Raises ``PermissionDenied`` (``by`` not staff),
    ``ValidationError`` (no reason, too long, already suspended)."""
    reason = _staff_reason(by, reason)
    with transaction.atomic():
        get_user_model().objects.select_for_update().get(pk=user.pk)
        if Suspension.objects.filter(user=user, lifted_at__isnull=True).exists():
            raise ValidationError(_("This account is already suspended."))
        return Suspension.objects.create(
            user=user, reason=reason, suspended_by=by, suspended_at=timezone.now()
        )


def lift_suspension(*, user: Any, by: Any, reason: str) -> Suspension:
    """Lift ``user``'s suspension in force (``by``, a staff member, for ``reason``); the
    suspension's row keeps both. Raises ``PermissionDenied``, ``ValidationError`` (no
    reason, not suspended)."""
    reason = _staff_reason(by, reason)
    with transaction.atomic():
        suspension = (
            Suspension.objects.select_for_update().filter(user=user, lifted_at__isnull=True).first()
        )
        if suspension is None:
            raise ValidationError(_("This account is not suspended."))
        suspension.lifted_by = by
        suspension.lifted_at = timezone.now()
        suspension.lift_reason = reason
        suspension.save(update_fields=["lifted_by", "lifted_at", "lift_reason"])
    return suspension
