"""The rules of responsible play, as pure functions (no Django, no database): limits on
deposits and stakes, time-outs, self-exclusion and the reality check's session.

Money is integer minor units; times are aware ``datetime``s.

Windows are **rolling**: a "day" is the last 24 hours, a "week" the last 7 days, a "month"
the last 30 days, ending now. A rolling window has no midnight at which a player who reached
a limit at 23:59 may spend it again at 00:01, it needs no time zone (the site's is UTC, its
players are in many), and when it lets a refused amount through is exact: the moment enough
of the counted money made earlier is older than the window (:func:`check_amount` says when).
Something done exactly ``period`` ago no longer counts.

What counts: for a deposit limit, deposits; for a stake limit, stakes at tables and
tournament entry fees, each net of what was refunded of it later (a seat left before the
start, a cancelled table, an unregistered entry), counted at the time it was staked. The
sums come from the ledger (``wallet.selectors.deposits_since`` / ``stakes_since``).

A limit takes effect at once when it is new or lowered; a raise (or removing a limit) waits
:data:`RAISE_DELAY` after it was asked. The lowest applicable limit applies: every limit of
the kind is checked, and the refusal names the one that lets the amount through last.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

DEPOSIT = "deposit"
STAKE = "stake"
KINDS = (DEPOSIT, STAKE)

DAY = "day"
WEEK = "week"
MONTH = "month"
#: Each period's rolling window.
PERIODS = {DAY: timedelta(hours=24), WEEK: timedelta(days=7), MONTH: timedelta(days=30)}
#: The longest window: how far back the ledger is read.
LOOKBACK = max(PERIODS.values())

#: A raise (or a removal) of a limit takes effect this long after it was asked.
RAISE_DELAY = timedelta(hours=24)

#: A time-out lasts from 1 day (24 hours) to 42 days (6 weeks).
TIME_OUT_DAYS = (1, 42)
#: A self-exclusion lasts this many months, or is permanent (None).
SELF_EXCLUSION_MONTHS = (6, 12, 24, 60)

#: The reality check's intervals a player may choose (minutes), and the default.
REALITY_CHECK_MINUTES = (15, 30, 45, 60, 90, 120)
REALITY_CHECK_DEFAULT = 60
#: Continuous play: stakes at tables with no pause longer than this between one table's end
#: and the next table's stake.
SESSION_GAP = timedelta(minutes=15)


class RuleError(ValueError):
    """An input the rules refuse (an unknown period, a time-out of 50 days...)."""


@dataclass(frozen=True)
class LimitState:
    """One limit of a player: ``amount`` in effect (None: none), and a pending change
    (``pending_from`` not None) to ``pending_amount`` (None: the limit is removed) that takes
    effect at ``pending_from``."""

    kind: str
    period: str
    amount: int | None
    pending_amount: int | None = None
    pending_from: datetime | None = None

    def effective(self, now: datetime) -> int | None:
        """The amount in effect at ``now`` (a pending raise applies once its time has come)."""
        if self.pending_from is not None and now >= self.pending_from:
            return self.pending_amount
        return self.amount

    def settled(self, now: datetime) -> LimitState:
        """The same limit with a pending change whose time has come applied."""
        if self.pending_from is not None and now >= self.pending_from:
            return replace(self, amount=self.pending_amount, pending_amount=None, pending_from=None)
        return self


def validate(kind: str, period: str, amount: int | None) -> None:
    """Raises :class:`RuleError` for an unknown kind or period, or an amount not a positive
    int (None: no limit)."""
    if kind not in KINDS:
        raise RuleError(f"unknown limit kind {kind!r}")
    if period not in PERIODS:
        raise RuleError(f"unknown period {period!r}")
    if amount is not None and (
        not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0
    ):
        raise RuleError(f"a limit is a positive amount of minor units, got {amount!r}")


def change_limit(
    current: LimitState | None, kind: str, period: str, amount: int | None, now: datetime
) -> tuple[LimitState, bool]:
    """The limit after the player asks for ``amount`` (None: no limit) at ``now``, and whether
    it applies at once. New, lowered or unchanged: at once (a pending raise is dropped). Raised
    or removed: the amount in effect stays and the change is pending until ``now +
    RAISE_DELAY`` (asking again restarts the wait). Raises :class:`RuleError`."""
    validate(kind, period, amount)
    in_effect = current.settled(now).amount if current is not None else None
    if amount is not None and (in_effect is None or amount <= in_effect):
        return LimitState(kind, period, amount), True
    if in_effect is None:  # removing a limit there is none of: nothing to wait for
        return LimitState(kind, period, None), True
    return LimitState(kind, period, in_effect, amount, now + RAISE_DELAY), False


def is_lowering(current: LimitState | None, amount: int | None, now: datetime) -> bool:
    """True when ``amount`` is at most the limit in effect (or the first limit): what staff may
    set for a player (down, never up)."""
    in_effect = current.effective(now) if current is not None else None
    return amount is not None and (in_effect is None or amount <= in_effect)


@dataclass(frozen=True)
class Breach:
    """Why an amount is refused: the limit (``kind``, ``period``, ``limit``), what was already
    counted in its window (``used``), and when the amount would pass (``resets_at``; None when
    the amount alone is above the limit)."""

    kind: str
    period: str
    limit: int
    used: int
    amount: int
    resets_at: datetime | None


def check_amount(
    kind: str,
    limits: Iterable[LimitState],
    events: Sequence[tuple[datetime, int]],
    amount: int,
    now: datetime,
) -> Breach | None:
    """May ``amount`` of ``kind`` pass at ``now``? ``events`` are the counted ``(time,
    amount)`` of that kind (at least :data:`LOOKBACK` back). Exactly at the limit passes.
    None if it passes, else the :class:`Breach` that lets it through last (never, then the
    lowest limit)."""
    breaches = []
    for lim in limits:
        cap = lim.effective(now)
        if lim.kind != kind or cap is None:
            continue
        window = PERIODS[lim.period]
        counted = sorted((t, a) for t, a in events if now - window < t <= now)
        used = sum(a for _, a in counted)
        if used + amount <= cap:
            continue
        resets_at = None
        if amount <= cap:
            left = used
            for t, a in counted:
                left -= a
                if left + amount <= cap:
                    resets_at = t + window
                    break
        breaches.append(Breach(kind, lim.period, cap, used, amount, resets_at))
    if not breaches:
        return None
    never = [b for b in breaches if b.resets_at is None]
    if never:
        return min(never, key=lambda b: b.limit)
    return max(breaches, key=lambda b: (b.resets_at, -b.limit))


def add_months(when: datetime, months: int) -> datetime:
    """``when`` plus ``months`` calendar months (the 31st of a shorter month: its last day)."""
    index = when.month - 1 + months
    year, month = when.year + index // 12, index % 12 + 1
    day = min(when.day, calendar.monthrange(year, month)[1])
    return when.replace(year=year, month=month, day=day)


def time_out_end(start: datetime, days: int) -> datetime:
    """When a time-out of ``days`` (1 to 42) asked at ``start`` ends. Raises RuleError."""
    low, high = TIME_OUT_DAYS
    if not isinstance(days, int) or isinstance(days, bool) or not low <= days <= high:
        raise RuleError(f"a time-out lasts {low} to {high} days, got {days!r}")
    return start + timedelta(days=days)


def self_exclusion_end(start: datetime, months: int | None) -> datetime | None:
    """When a self-exclusion of ``months`` (one of :data:`SELF_EXCLUSION_MONTHS`; None:
    permanent, never ends) asked at ``start`` ends. Raises RuleError."""
    if months is None:
        return None
    if months not in SELF_EXCLUSION_MONTHS or isinstance(months, bool):
        raise RuleError(f"a self-exclusion lasts {SELF_EXCLUSION_MONTHS} months, got {months!r}")
    return add_months(start, months)


@dataclass(frozen=True)
class Play:
    """The player's money at one staked table: staked at ``started_at``, over at ``ended_at``
    (None: still open), ``staked`` (minor units put in) and ``returned`` (paid back: refunds
    and payouts)."""

    started_at: datetime
    ended_at: datetime | None
    staked: int
    returned: int


@dataclass(frozen=True)
class Session:
    """Continuous play: since ``started_at``, ``staked`` and ``returned`` in total."""

    started_at: datetime
    staked: int
    returned: int

    @property
    def net(self) -> int:
        return self.returned - self.staked


def current_session(
    plays: Iterable[Play], now: datetime, gap: timedelta = SESSION_GAP
) -> Session | None:
    """The continuous play going on at ``now``: the tables played one after the other with no
    pause longer than ``gap`` between one's end and the next one's stake, the last of them
    still open (the player is at a staked table). None when no table is open."""
    ordered = sorted(plays, key=lambda p: p.started_at)
    if not ordered or all(p.ended_at is not None for p in ordered):
        return None
    session: list[Play] = []
    end: datetime | None = None
    for play in ordered:
        if session and play.started_at - end > gap:
            session = []
        session.append(play)
        play_end = now if play.ended_at is None else play.ended_at
        end = play_end if end is None or not session[:-1] else max(end, play_end)
    if not any(p.ended_at is None for p in session):
        return None
    return Session(
        started_at=session[0].started_at,
        staked=sum(p.staked for p in session),
        returned=sum(p.returned for p in session),
    )


def reality_checks_due(session: Session | None, now: datetime, interval_minutes: int) -> int:
    """How many reality-check notices are due in ``session`` at ``now``: one per full
    ``interval_minutes`` played (0 without a session)."""
    if session is None:
        return 0
    return int((now - session.started_at) // timedelta(minutes=interval_minutes))
