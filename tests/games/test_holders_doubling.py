"""Doubling asked of the holders only (``double_asked: holders``, docs/rules.md "House
rules") at a real table: a holder's timeout and answer are the holder's own news, and a
timed-out holder has missed no turn (a public "away" would tell the table who holds a doublable
card)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.models import Table, TableEvent

pytestmark = pytest.mark.django_db(transaction=True)

OPTIONS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30, "double_asked": "holders"}


@pytest.fixture
def alice(tasks_applied_here, make_user):
    """Alice at seat 0 of a free holders-only table, against three bots (match started),
    with a fixed shuffle: its deals ask her to double in one window and not in another, so
    both tests below reach what they look at whatever the machine's random secret."""
    user = make_user("alice")
    table = services.create_table(
        user=user,
        variant="complex_partner",
        stake=0,
        options=OPTIONS,
        shuffle_secret=bytes(range(32)),
        shuffle_match_id="holders-doubling",
        bot_seed="fixed",
    )
    services.take_seat(user=user, table_id=table.pk, seat=0, client_seed="alice-seed")
    for seat in (1, 2, 3):
        services.seat_bot(user=user, table_id=table.pk, seat=seat, bot="rules")
    user.table_id = table.pk
    return user


def to_her_doubling(user) -> Table:
    """Let the bots and deals move until alice alone is still to answer a doubling window
    (the bots asked with her have answered: the server's own state says so, no view does)."""
    for _ in range(600):
        t = Table.objects.get(pk=user.table_id)
        view = selectors.table_state(t.pk, user, None)["view"]
        if view and view["phase"] == "double" and view["to_act"] == [0]:
            if selectors.rebuild_from_events(t.pk).to_act() == [0]:
                return t
        services.wake(table_id=t.pk, version=t.version)
    raise AssertionError("alice was never asked to double")


def test_a_holders_timeout_is_its_own_news_and_no_missed_turn(alice):
    t = to_her_doubling(alice)
    missed = list(t.missed or [0, 0, 0, 0])
    # Nobody else is told who is asked: a spectator's view names nobody.
    spectator = selectors.table_state(t.pk, None, None)["view"]
    assert spectator["to_act"] == [] and spectator["doubling"]["waiting"] == []
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=t.pk).update(deadline=past, wake_at=past)
    services.wake(table_id=t.pk, version=t.version)
    after = Table.objects.get(pk=t.pk)
    assert after.version > t.version
    new = TableEvent.objects.filter(table_id=t.pk, version__gt=t.version)
    timeout = new.get(type="timeout")
    assert timeout.payload == {"seat": 0} and timeout.visible_to == [0]
    assert new.get(type="double_ready").visible_to == [0]
    assert not new.filter(type="seat_away").exists()
    assert list(after.missed or [0, 0, 0, 0]) == missed  # no missed turn counted
    # What a spectator is sent of that change names no seat's doubling.
    public = [e.type for e in new if e.visible_to is None]
    assert "timeout" not in public and "double_ready" not in public


def to_doubling_without_her(user) -> Table:
    """Let the bots and deals move (timing alice out when she must answer) until a doubling
    window is open in which alice holds nothing to double."""
    for _ in range(600):
        t = Table.objects.get(pk=user.table_id)
        view = selectors.table_state(t.pk, user, None)["view"]
        if view and view["phase"] == "double" and not view["doubling"]["doublable"]:
            return t
        if view and view["to_act"] == [0]:  # her turn (or a bot's first): move on
            past = timezone.now() - timedelta(seconds=1)
            Table.objects.filter(pk=t.pk).update(deadline=past, wake_at=past)
        services.wake(table_id=t.pk, version=t.version)
    raise AssertionError("no doubling window without alice")


@pytest.mark.browser
def test_a_seat_not_asked_is_told_so_and_nobody_is_named(
    alice, new_page, live_server, client, artifacts
):
    from tests.web.conftest import log_in

    t = to_doubling_without_her(alice)
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, alice)
    page.goto(f"/tables/{t.pk}/")
    status = page.locator('[data-testid="status"]')
    status.filter(has_text="حاملو شايب الهاص والبنات يقرّرون").wait_for()
    assert page.get_by_text("ليس معك ما تدبّله.").count() == 1
    assert page.locator('[data-testid="ready"]').count() == 0
    assert page.locator(".seat-box.to-act").count() == 0  # no seat shown as deciding
    page.screenshot(path=str(artifacts / "table-holders-doubling-ar-390.png"), full_page=True)
