"""The Django admin of tournaments: created through the service, acted on with a reason
through the services, never shows the draw's secret; non-staff are kept out."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.tournaments.conftest import snapshot
from tournaments import services
from tournaments.models import AdminAction, Status, Tournament, TournamentEdit

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(client):
    user = get_user_model().objects.create_user(
        username="boss", password="pw", is_staff=True, is_superuser=True
    )
    client.force_login(user)
    client.user = user
    return client


def _form(**overrides):
    now = timezone.now()
    data = {
        "name": "Friday cup",
        "format": "knockout",
        "variant": "complex",
        "options": '{"play_timer": 20}',
        "advance": "2",
        "rounds": "0",
        "entry_fee": "500",
        "house_fee_bps": "500",
        "capacity": "16",
        "min_entrants": "4",
        "refund_bps": "10000",
        "review_seconds": "600",
        "prizes_percent": "60, 30, 10",
    }
    for field, hours in (("registration_opens_at", 0), ("registration_closes_at", 1),
                         ("starts_at", 2)):  # fmt: skip
        when = timezone.localtime(now + timezone.timedelta(hours=hours))
        data[f"{field}_0"] = when.strftime("%Y-%m-%d")
        data[f"{field}_1"] = when.strftime("%H:%M:%S")
    data.update(overrides)
    return data


def test_create_through_the_service_and_the_secret_is_never_shown(admin_client_):
    r = admin_client_.get("/admin/tournaments/tournament/add/")
    assert r.status_code == 200
    r = admin_client_.post("/admin/tournaments/tournament/add/", _form())
    assert r.status_code == 302, r.content.decode()[:3000]
    t = Tournament.objects.get(name="Friday cup")
    assert t.prize_bps == [6000, 3000, 1000] and t.options["play_timer"] == 20
    assert t.created_by == admin_client_.user and t.status == Status.REGISTRATION
    assert AdminAction.objects.filter(tournament=t, action="create").exists()
    page = admin_client_.get(f"/admin/tournaments/tournament/{t.pk}/change/").content.decode()
    secret = services.open_draw_secret(t).hex()
    assert t.draw_commitment in page and secret not in page and t.draw_secret not in page


def test_bad_form_is_refused_with_the_message(admin_client_):
    r = admin_client_.post("/admin/tournaments/tournament/add/", _form(prizes_percent="60, 30"))
    assert r.status_code == 200 and "add up to 90" in r.content.decode()
    r = admin_client_.post("/admin/tournaments/tournament/add/", _form(advance="3"))
    assert r.status_code == 200 and "advance" in r.content.decode()
    assert not Tournament.objects.exists()


def test_actions_go_through_the_services_with_a_reason(admin_client_, make_tournament):
    t = make_tournament()
    url = "/admin/tournaments/tournament/"
    r = admin_client_.post(
        url, {"action": "pause", "_selected_action": [t.pk], "reason": "maintenance"}, follow=True
    )
    assert "only a running tournament can be paused" in r.content.decode()
    r = admin_client_.post(
        url, {"action": "start", "_selected_action": [t.pk], "reason": "nobody came"}, follow=True
    )
    t.refresh_from_db()
    assert t.status == Status.CANCELLED  # no entrant: below the minimum
    start = AdminAction.objects.get(tournament=t, action="start")
    assert start.by == admin_client_.user and start.reason == "nobody came"
    r = admin_client_.post(
        url, {"action": "cancel", "_selected_action": [t.pk], "reason": ""}, follow=True
    )
    assert "give a reason" in r.content.decode()


def test_non_staff_are_kept_out(client, django_user_model):
    user = django_user_model.objects.create_user(username="joe", password="pw")
    client.force_login(user)
    r = client.get("/admin/tournaments/tournament/add/")
    assert r.status_code == 302 and "/admin/login/" in r["Location"]


def test_entry_admin_disqualifies_through_the_service(admin_client_, make_tournament, player):
    from tournaments import services
    from tournaments.models import Entry

    t = make_tournament()
    entry = services.register(tournament_id=t.pk, by=player(), client_seed="my-seed")
    r = admin_client_.post(
        "/admin/tournaments/entry/",
        {"action": "disqualify", "_selected_action": [entry.pk], "reason": "cheating"},
        follow=True,
    )
    assert "can be disqualified while" in r.content.decode()  # not running yet
    entry.refresh_from_db()
    assert entry.status == "registered"
    assert admin_client_.get(f"/admin/tournaments/entry/{entry.pk}/change/").status_code == 200
    assert Entry.objects.count() == 1


def _change_form(client, t) -> dict:
    """The change page's fields as the browser would post them back unchanged."""
    html = client.get(f"/admin/tournaments/tournament/{t.pk}/change/").content.decode()
    data = {}
    for m in re.finditer(
        r'<input type="(?:text|number|hidden)" name="([^"]+)" value="([^"]*)"', html
    ):
        data[m.group(1)] = unescape(m.group(2))
    data["description"] = t.description
    data.pop("csrfmiddlewaretoken", None)
    return data


def test_a_created_tournament_edits_through_the_service_with_a_reason(admin_client_, player):
    """The change page edits the name, description, times, prizes and capacity through
    ``edits.edit_tournament`` (recorded, shown inline); every other field is read-only."""
    admin_client_.post("/admin/tournaments/tournament/add/", _form())
    t = Tournament.objects.get(name="Friday cup")
    url = f"/admin/tournaments/tournament/{t.pk}/change/"
    page = admin_client_.get(url).content.decode()
    assert 'name="_save"' in page and 'name="edit_reason"' in page
    assert 'name="entry_fee"' not in page and "UTC (the site" in page
    form = _change_form(admin_client_, t)
    assert form["prizes_percent"] == "60, 30, 10"
    before = snapshot()
    r = admin_client_.post(url, {**form, "name": "Renamed"})  # no reason
    assert r.status_code == 200 and "This field is required" in r.content.decode()
    r = admin_client_.post(url, {**form, "edit_reason": "x", "capacity": "3"})
    assert r.status_code == 200
    assert "capacity is 3, below the minimum to start (4)" in r.content.decode()
    assert snapshot() == before
    r = admin_client_.post(url, {**form, "edit_reason": "typo", "entry_fee": "0", "name": "Fri"})
    assert r.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.entry_fee) == ("Fri", 500)  # the fee is not a field of the form
    form = _change_form(admin_client_, t)
    before = snapshot()
    r = admin_client_.post(url, {**form, "edit_reason": "no change"})
    assert r.status_code == 200 and "nothing to change" in r.content.decode()
    assert snapshot() == before
    r = admin_client_.post(
        url,
        {**form, "edit_reason": "sponsor", "prizes_percent": "70, 30", "capacity": "24",
         "description": "At the club."},
    )  # fmt: skip
    assert r.status_code == 302, r.content.decode()[:3000]
    t.refresh_from_db()
    assert (t.prize_bps, t.capacity, t.description) == ([7000, 3000], 24, "At the club.")
    rows = TournamentEdit.objects.filter(tournament=t)
    assert {(e.field, e.by_id, e.reason) for e in rows} == {
        ("name", admin_client_.user.pk, "typo"),
        ("prize_bps", admin_client_.user.pk, "sponsor"),
        ("capacity", admin_client_.user.pk, "sponsor"),
        ("description", admin_client_.user.pk, "sponsor"),
    }
    assert "changes since creation" in admin_client_.get(url).content.decode().lower()
    services.register(tournament_id=t.pk, by=player(), client_seed="seed")
    form = _change_form(admin_client_, t)
    before = snapshot()
    r = admin_client_.post(url, {**form, "edit_reason": "x", "prizes_percent": "100"})
    assert r.status_code == 200
    assert "only before the first registration" in r.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize("options", ["[1]", '"str"', "1"])
def test_table_options_that_are_not_an_object_are_refused(admin_client_, options):
    r = admin_client_.post("/admin/tournaments/tournament/add/", _form(options=options))
    assert r.status_code == 200 and "must be an object" in r.content.decode()
    assert not Tournament.objects.exists()


def test_staff_are_refused_in_their_language(make_tournament, staff):
    """The services' refusals to staff are translated like every other message (an Arabic
    admin page showed them in English: a new user's trial, 2026-12-02), with the status's
    name, not its code."""
    from django.utils import translation

    from tournaments.errors import BadRequest, Conflict

    t = make_tournament()
    with translation.override("ar"):
        with pytest.raises(Conflict) as paused:
            services.pause(tournament_id=t.pk, by=staff, reason="check")
        with pytest.raises(BadRequest) as bad:
            make_tournament(rounds=0)
        status = Status.REGISTRATION.label  # (lazy: read in Arabic here)
        assert f"لا تُوقف مؤقتًا إلا بطولة جارية (حالة {t.name}: " in paused.value.message
        assert str(status) in paused.value.message and "registration" not in paused.value.message
        assert bad.value.message.startswith("عدد الجولات: القيمة «0» ليست عددًا صحيحًا من 1")
