"""The pure rules (responsible.rules): windows, raises, the lowest limit, exclusions, sessions."""

from datetime import UTC, datetime, timedelta

import pytest

from responsible import rules
from responsible.rules import LimitState, Play

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)
D = timedelta(days=1)


def stake_limit(period, amount, **kw):
    return LimitState(rules.STAKE, period, amount, **kw)


def test_exactly_at_the_limit_passes_one_unit_over_is_refused():
    limits = [stake_limit("day", 5000)]
    events = [(NOW - 2 * H, 3000)]
    assert rules.check_amount("stake", limits, events, 2000, NOW) is None
    breach = rules.check_amount("stake", limits, events, 2001, NOW)
    assert (breach.period, breach.limit, breach.used) == ("day", 5000, 3000)
    assert breach.resets_at == NOW - 2 * H + 24 * H


def test_an_event_exactly_a_period_ago_no_longer_counts():
    limits = [stake_limit("day", 100)]
    assert rules.check_amount("stake", limits, [(NOW - 24 * H, 100)], 100, NOW) is None
    later = NOW - 24 * H + timedelta(microseconds=1)
    assert rules.check_amount("stake", limits, [(later, 100)], 1, NOW) is not None


def test_resets_when_enough_of_the_oldest_money_leaves_the_window():
    limits = [stake_limit("week", 1000)]
    events = [(NOW - 6 * D, 400), (NOW - 3 * D, 400), (NOW - H, 200)]
    breach = rules.check_amount("stake", limits, events, 500, NOW)
    # 1000 used; 500 fits once 500 has left: the 400 of 6 days ago is not enough, the next is
    assert breach.resets_at == NOW - 3 * D + 7 * D
    assert rules.check_amount("stake", limits, events, 400, NOW).resets_at == NOW + D


def test_an_amount_above_the_limit_alone_never_passes():
    breach = rules.check_amount("stake", [stake_limit("day", 100)], [], 101, NOW)
    assert breach.resets_at is None and breach.limit == 100


def test_the_lowest_applicable_limit_applies():
    limits = [stake_limit("day", 10_000), stake_limit("week", 5000), stake_limit("month", 20_000)]
    breach = rules.check_amount("stake", limits, [], 6000, NOW)
    assert (breach.period, breach.limit) == ("week", 5000)
    # a deposit limit does not limit stakes
    deposit = [LimitState(rules.DEPOSIT, "day", 1)]
    assert rules.check_amount("stake", deposit, [], 6000, NOW) is None


def test_the_refusal_names_the_limit_that_lets_it_through_last():
    limits = [stake_limit("day", 100), stake_limit("week", 150)]
    events = [(NOW - 3 * D, 100), (NOW - H, 50)]
    breach = rules.check_amount("stake", limits, events, 60, NOW)
    assert breach.period == "week" and breach.resets_at == NOW - 3 * D + 7 * D


def test_a_new_or_lower_limit_applies_at_once_a_raise_after_24_hours():
    first, at_once = rules.change_limit(None, "stake", "day", 5000, NOW)
    assert at_once and first.effective(NOW) == 5000
    lower, at_once = rules.change_limit(first, "stake", "day", 4000, NOW)
    assert at_once and lower.effective(NOW) == 4000
    raised, at_once = rules.change_limit(lower, "stake", "day", 9000, NOW)
    assert not at_once
    assert raised.effective(NOW + 24 * H - timedelta(seconds=1)) == 4000
    assert raised.effective(NOW + 24 * H) == 9000
    removed, at_once = rules.change_limit(lower, "stake", "day", None, NOW)
    assert not at_once and removed.effective(NOW + 23 * H) == 4000
    assert removed.effective(NOW + 24 * H) is None
    # lowering while a raise waits: at once, and the raise is dropped
    again, at_once = rules.change_limit(raised, "stake", "day", 3000, NOW + H)
    assert at_once and again.effective(NOW + 48 * H) == 3000


def test_staff_may_only_lower():
    current = stake_limit("day", 5000)
    assert rules.is_lowering(current, 4999, NOW)
    assert rules.is_lowering(None, 1, NOW)
    assert not rules.is_lowering(current, 5001, NOW)
    assert not rules.is_lowering(current, None, NOW)


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "10"])
def test_a_limit_is_a_positive_int(bad):
    with pytest.raises(rules.RuleError):
        rules.change_limit(None, "stake", "day", bad, NOW)


def test_time_out_and_self_exclusion_lengths():
    assert rules.time_out_end(NOW, 1) == NOW + 24 * H
    assert rules.time_out_end(NOW, 42) == NOW + timedelta(weeks=6)
    for bad in (0, 43):
        with pytest.raises(rules.RuleError):
            rules.time_out_end(NOW, bad)
    assert rules.self_exclusion_end(NOW, 6) == datetime(2027, 6, 1, 12, 0, tzinfo=UTC)
    assert rules.self_exclusion_end(NOW, None) is None
    with pytest.raises(rules.RuleError):
        rules.self_exclusion_end(NOW, 3)
    assert rules.add_months(datetime(2026, 8, 31, tzinfo=UTC), 6) == datetime(
        2027, 2, 28, tzinfo=UTC
    )


def test_continuous_play_joins_tables_with_gaps_up_to_15_minutes():
    m = timedelta(minutes=1)
    plays = [
        Play(NOW - 300 * m, NOW - 200 * m, 100, 0),  # an earlier session (gap of 40 min)
        Play(NOW - 160 * m, NOW - 100 * m, 100, 250),
        Play(NOW - 85 * m, NOW - 50 * m, 100, 0),  # 15 min after: the same session
        Play(NOW - 40 * m, None, 100, 0),  # still open
    ]
    session = rules.current_session(plays, NOW)
    assert session.started_at == NOW - 160 * m
    assert (session.staked, session.returned, session.net) == (300, 250, -50)
    assert rules.reality_checks_due(session, NOW, 60) == 2
    assert rules.reality_checks_due(session, NOW, 90) == 1
    # not at a staked table: no session
    assert rules.current_session(plays[:3], NOW) is None
    assert rules.reality_checks_due(None, NOW, 60) == 0
