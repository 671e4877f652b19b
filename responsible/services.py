"""Writes of responsible play: limits, time-outs, self-exclusion, the reality-check interval.

Each function is one database transaction; bad input raises ``BadRequest`` and writes
nothing; every one checks who is acting (the player, or staff where said). Nothing here
shortens or removes a time-out or self-exclusion: they cannot be undone early.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from responsible import rules, selectors
from responsible.errors import BadRequest, NotAllowed
from responsible.models import Exclusion, ExclusionKind, Limit, LimitChange, PlaySettings
from wallet.inputs import MAX_AMOUNT
from wallet.selectors import format_money


def _acting(user: Any, by: Any, *, staff_may: bool) -> bool:
    """True when ``by`` acts as staff on another player's account; raises NotAllowed when
    ``by`` is neither the player nor (where ``staff_may``) staff."""
    if by is None or not getattr(by, "is_authenticated", False):
        raise NotAllowed(_("Log in to do that."))
    if by.pk == user.pk:
        return False
    if staff_may and by.is_staff:
        return True
    raise NotAllowed(_("You can only change your own limits."))


def set_limit(
    *, user: Any, kind: str, period: str, amount: int | None, by: Any, now: datetime | None = None
) -> Limit:
    """Set the player's ``kind`` (deposit|stake) limit per ``period`` (day|week|month) to
    ``amount`` minor units (None: no limit). New or lowered: at once; raised or removed: in
    ``rules.RAISE_DELAY`` (24 hours). ``by`` is the player, or staff, who may only lower it
    (never raise or remove). Every change is logged in ``LimitChange``. Raises BadRequest,
    NotAllowed."""
    now = now or timezone.now()
    as_staff = _acting(user, by, staff_may=True)
    if amount is not None and (not isinstance(amount, int) or amount > MAX_AMOUNT):
        raise BadRequest(
            _("Enter a limit of at most %(amount)s.") % {"amount": format_money(MAX_AMOUNT)}
        )
    try:
        rules.validate(kind, period, amount)
    except rules.RuleError as exc:
        raise BadRequest(str(exc)) from None
    with transaction.atomic():
        row = (
            Limit.objects.select_for_update()
            .filter(user_id=user.pk, kind=kind, period=period)
            .first()
        )
        current = row.state() if row is not None else None
        if as_staff and not rules.is_lowering(current, amount, now):
            raise NotAllowed(_("Staff can only lower a player's limit, never raise or remove it."))
        state, at_once = rules.change_limit(current, kind, period, amount, now)
        if row is None:
            row = Limit(user_id=user.pk, kind=kind, period=period)
        old = current.effective(now) if current is not None else None
        row.amount, row.pending_amount, row.pending_from = (
            state.amount,
            state.pending_amount,
            state.pending_from,
        )
        row.updated_at = now
        row.save()
        LimitChange.objects.create(
            user_id=user.pk,
            kind=kind,
            period=period,
            old_amount=old,
            new_amount=amount,
            asked_at=now,
            effective_at=now if at_once else state.pending_from,
            by=by,
            by_staff=as_staff,
        )
    return row


def take_time_out(*, user: Any, days: int, by: Any, now: datetime | None = None) -> Exclusion:
    """A time-out of ``days`` (1 to 42) from now: no deposits, stakes or tournament entries
    until it ends (withdrawals stay possible); it cannot be ended early. Returns the new
    exclusion, or the one in force if it lasts as long or longer. Raises BadRequest,
    NotAllowed (only the player)."""
    now = now or timezone.now()
    _acting(user, by, staff_may=False)
    try:
        ends = rules.time_out_end(now, days)
    except rules.RuleError:
        low, high = rules.TIME_OUT_DAYS
        raise BadRequest(
            _("A time-out lasts from %(low)s to %(high)s days.") % {"low": low, "high": high}
        ) from None
    return _exclude(user=user, kind=ExclusionKind.TIME_OUT, now=now, ends=ends, by=by)


def self_exclude(
    *, user: Any, months: int | None, by: Any, now: datetime | None = None
) -> Exclusion:
    """Self-exclusion for ``months`` (6, 12, 24 or 60) or for good (None): as a time-out,
    and it cannot be ended early. Raises BadRequest, NotAllowed (only the player)."""
    now = now or timezone.now()
    _acting(user, by, staff_may=False)
    try:
        ends = rules.self_exclusion_end(now, months)
    except rules.RuleError:
        raise BadRequest(
            _("A self-exclusion lasts 6, 12, 24 or 60 months, or is permanent.")
        ) from None
    return _exclude(user=user, kind=ExclusionKind.SELF_EXCLUSION, now=now, ends=ends, by=by)


def _exclude(*, user: Any, kind: str, now: datetime, ends: datetime | None, by: Any) -> Exclusion:
    """A new exclusion from ``now`` to ``ends`` (None: for good), unless the one in force
    already lasts as long or longer: then that one, unchanged (asking for a shorter one, or
    the same twice, changes nothing). Under the player's row lock, so two requests at once
    make one row."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        current = selectors.active_exclusion(user, now)
        if current is not None and (
            current.ends_at is None or (ends is not None and current.ends_at >= ends)
        ):
            return current
        return Exclusion.objects.create(
            user_id=user.pk, kind=kind, starts_at=now, ends_at=ends, by=by
        )


def set_reality_check(*, user: Any, minutes: int, by: Any) -> PlaySettings:
    """The player's reality-check interval (one of ``rules.REALITY_CHECK_MINUTES``). Raises
    BadRequest, NotAllowed (only the player)."""
    _acting(user, by, staff_may=False)
    if minutes not in rules.REALITY_CHECK_MINUTES or isinstance(minutes, bool):
        raise BadRequest(
            _("Choose a reality check every %(choices)s minutes.")
            % {"choices": ", ".join(str(m) for m in rules.REALITY_CHECK_MINUTES)}
        )
    row, _created = PlaySettings.objects.update_or_create(
        user_id=user.pk, defaults={"reality_check_minutes": minutes}
    )
    return row
