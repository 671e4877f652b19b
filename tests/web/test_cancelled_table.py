"""A cancelled table's page says why it was cancelled, in the reader's language: the site's
own reasons (the open tables' expiry) translated, a staff member's words as written."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.models import Table

pytestmark = pytest.mark.django_db


def _reason(client, table_id: int, language: str) -> str:
    html = client.get(f"/tables/{table_id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'data-testid="cancel-reason"' in html, html[:500]
    return html.split('data-testid="cancel-reason">')[1].split("</p>")[0]


def test_an_expired_tables_page_says_nobody_filled_it_in_each_language(client, settings):
    settings.TRIX_OPEN_TABLE_EXPIRY = 1800
    rana = get_user_model().objects.create_user("rana", password="pw-Rana-12345")
    table = services.create_table(user=rana, variant="trix")
    services.seat_bot(user=rana, table_id=table.pk, seat=1, bot="rules")
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert services.expire_open_tables() == [table.pk]
    english = _reason(client, table.pk, "en")
    assert english == "This table was cancelled: nobody filled the table within 30 minutes."
    arabic = _reason(client, table.pk, "ar")
    assert "30" in arabic and "nobody" not in arabic and "minutes" not in arabic, arabic


def test_a_staff_members_reason_is_shown_as_written(client):
    rana = get_user_model().objects.create_user("rana", password="pw-Rana-12345")
    table = services.create_table(user=rana, variant="trix")
    services.cancel_table(table_id=table.pk, reason="Server maintenance.", by=rana)
    assert _reason(client, table.pk, "en") == "This table was cancelled: Server maintenance."


def test_a_table_not_cancelled_says_nothing_of_the_kind(client):
    rana = get_user_model().objects.create_user("rana", password="pw-Rana-12345")
    table = services.create_table(user=rana, variant="trix")
    assert 'data-testid="cancel-reason"' not in client.get(f"/tables/{table.pk}/").content.decode()
