"""The lobby's create form in Arabic on a phone offers the three house-rule options
(docs/rules.md, "House rules") with Arabic labels, and a table created with them has them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_create_form_offers_the_house_rules_in_arabic(new_page, live_server, client, artifacts):
    ana = get_user_model().objects.create_user("ana", password="pw-x-12345")
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    log_in(page, live_server.url, client, ana)
    page.goto("/")
    page.locator("#create-details > summary").click()  # folded on a phone
    assert page.locator('label[for="opt_double_scoring"]').inner_text() == "حساب الدبل"
    assert page.locator('label[for="opt_double_asked"]').inner_text() == "من يُسأل عن الدبل"
    assert page.locator('label[for="opt_twos_complex_only"]').inner_text() == (
        "ورقات الـ2 في الكمبلكس شراكة فقط"
    )
    page.select_option("#opt_double_scoring", "team")
    page.select_option("#opt_double_asked", "holders")
    page.check("#opt_twos_complex_only")
    page.locator("#opt_double_asked").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "lobby-house-rules-ar-390.png"))
    page.click('[data-testid="create-table"]')
    page.wait_for_url("**/tables/*/**")
    options = Table.objects.get(created_by=ana).options
    assert (options["double_scoring"], options["double_asked"], options["twos_complex_only"]) == (
        "team",
        "holders",
        True,
    )
