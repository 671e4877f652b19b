"""The felt of an open table says how many players it still waits for: the free seats, not
always four (a trial's finding: «بانتظار أربعة لاعبين» with a seat taken). Screenshot:
``test-artifacts/table-waiting-ar.png``."""

from __future__ import annotations

import pytest

from games import services as tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    "lang, taken, words",
    [
        ("ar", 1, "بانتظار 3 لاعبين."),
        ("ar", 3, "بانتظار لاعب واحد."),
        ("en", 0, "Waiting for 4 players."),
        ("en", 2, "Waiting for 2 players."),
        ("en", 3, "Waiting for 1 player."),
    ],
)
def test_the_felt_counts_the_free_seats(
    make_user, new_page, live_server, artifacts, lang, taken, words
):
    owner = make_user("owner")
    table = tables.create_table(user=owner, variant="trix", stake=0)
    for seat in range(taken):
        user = make_user(f"p{seat}")
        tables.take_seat(user=user, table_id=table.pk, seat=seat, client_seed="s" * 16)
    page = new_page()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"/tables/{table.pk}/")
    waiting = page.locator("#center .waiting")
    waiting.wait_for()
    assert waiting.inner_text() == words
    if lang == "ar" and taken == 1:
        waiting.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "table-waiting-ar.png"))


@pytest.mark.parametrize(
    "lang, width, reason, words",
    [
        ("ar", 390, "Server maintenance", "أُلغيت هذه الطاولة: Server maintenance."),
        ("en", 1280, "Server maintenance", "This table was cancelled: Server maintenance."),
        ("en", 390, None, "This table was cancelled: nobody filled the table within 30 minutes."),
    ],
)
def test_a_cancelled_tables_felt_says_it_was_cancelled_and_why(
    make_user, new_page, live_server, artifacts, settings, lang, width, reason, words
):
    """Not «بانتظار التوزيع» (waiting for the deal): a cancelled table waits for nothing. Its
    reason is the page's (a staff member's words as written, the site's own translated).
    Screenshots: ``test-artifacts/table-cancelled-{lang}-{width}.png``."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Table

    owner = make_user("owner")
    table = tables.create_table(user=owner, variant="trix", stake=0)
    tables.take_seat(user=owner, table_id=table.pk, seat=0, client_seed="s" * 16)
    if reason:
        tables.cancel_table(table_id=table.pk, reason=reason + ".", by=owner)
    else:  # the open tables' expiry
        settings.TRIX_OPEN_TABLE_EXPIRY = 1800
        Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(hours=1))
        assert tables.expire_open_tables() == [table.pk]
    page = new_page(width=width, height=844 if width == 390 else 800)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"/tables/{table.pk}/")
    page.locator("#table-status.status-cancelled").wait_for()  # the table's state is in
    felt = page.locator("#center .waiting")
    assert felt.inner_text() == words
    felt.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"table-cancelled-{lang}-{width}.png"))
