"""Reads of responsible play: a player's limits, exclusion and reality check. No writes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import F, Q

from responsible import rules
from responsible.models import Exclusion, Limit, PlaySettings
from wallet import selectors as wallet_selectors


def _user_id(user: Any) -> int:
    return getattr(user, "pk", user)


def limit_states(user: Any) -> list[rules.LimitState]:
    """The player's limits as the rules read them (pending changes included)."""
    return [lim.state() for lim in Limit.objects.filter(user_id=_user_id(user))]


def limits(user: Any, now: datetime) -> list[dict[str, Any]]:
    """Every kind and period, for the pages and the API: ``{"kind", "period", "amount" (in
    effect at ``now``; None: none), "pending_amount", "pending_from" (None: nothing pending;
    a pending change to None removes the limit)}``, deposits first, day, week, month."""
    stored = {(s.kind, s.period): s.settled(now) for s in limit_states(user)}
    rows = []
    for kind in rules.KINDS:
        for period in rules.PERIODS:
            state = stored.get((kind, period)) or rules.LimitState(kind, period, None)
            rows.append(
                {
                    "kind": kind,
                    "period": period,
                    "amount": state.amount,
                    "pending_amount": state.pending_amount,
                    "pending_from": state.pending_from,
                }
            )
    return rows


def active_exclusion(user: Any, now: datetime) -> Exclusion | None:
    """The time-out or self-exclusion in force at ``now`` (the one ending last; a permanent
    one first), or None."""
    return (
        Exclusion.objects.filter(
            Q(ends_at__isnull=True) | Q(ends_at__gt=now), user_id=_user_id(user), starts_at__lte=now
        )
        .order_by(F("ends_at").desc(nulls_first=True))
        .first()
    )


def reality_check_minutes(user: Any) -> int:
    """The player's reality-check interval in minutes (default ``rules.REALITY_CHECK_DEFAULT``)."""
    value = (
        PlaySettings.objects.filter(user_id=_user_id(user))
        .values_list("reality_check_minutes", flat=True)
        .first()
    )
    return value or rules.REALITY_CHECK_DEFAULT


def reality_check(user: Any, now: datetime) -> dict[str, Any]:
    """The reality check at ``now``: ``{"interval_minutes", "playing" (at a staked table, in
    continuous play), "started_at", "minutes_played", "staked", "returned", "net" (minor
    units, this session's), "due" (notices due: one per full interval played; the page shows
    each once)}``. Continuous play: ``rules.current_session`` over the ledger's tables."""
    interval = reality_check_minutes(user)
    plays = [
        rules.Play(p["started_at"], p["ended_at"], p["staked"], p["returned"])
        for p in wallet_selectors.table_plays_since(user, now - rules.LOOKBACK)
    ]
    session = rules.current_session(plays, now)
    return {
        "interval_minutes": interval,
        "playing": session is not None,
        "started_at": session.started_at if session else None,
        "minutes_played": int((now - session.started_at).total_seconds() // 60) if session else 0,
        "staked": session.staked if session else 0,
        "returned": session.returned if session else 0,
        "net": session.net if session else 0,
        "due": rules.reality_checks_due(session, now, interval),
    }


def wants_limits_prompt(user: Any) -> bool:
    """True before a player's first deposit when they have set no limit: the deposit form
    then suggests setting limits."""
    uid = _user_id(user)
    has_limit = Limit.objects.filter(user_id=uid).filter(
        Q(amount__isnull=False) | Q(pending_amount__isnull=False)
    )
    if has_limit.exists():
        return False
    return not wallet_selectors.deposits_since(uid, datetime.min.replace(tzinfo=UTC))
