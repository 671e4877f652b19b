"""The limits page and API: set, lower, raise (pending 24 hours), time-out and self-exclusion
behind a confirmation, the reality-check interval; the wallet page's links and first-deposit
prompt; staff lower a player's limit in the admin, never raise it."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from rest_framework.test import APIClient

from responsible import selectors, services
from responsible.models import Exclusion, Limit, LimitChange, PlaySettings
from wallet import services as wallet

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def row(rows, kind, period):
    return next(r for r in rows if r["kind"] == kind and r["period"] == period)


def test_the_page_sets_lowers_and_raises_a_limit(client, make_user):
    me = make_user()
    client.force_login(me)
    with time_machine.travel(T0, tick=False) as clock:
        r = client.post(
            "/account/limits/limit/", {"kind": "stake", "period": "week", "amount": "٥٠"}
        )
        assert r.status_code == 302
        r = client.post(
            "/account/limits/limit/", {"kind": "stake", "period": "week", "amount": "80"}
        )
        page = client.get("/account/limits/").content.decode()
        assert '80.00 USD from <span class="when">2026-12-02 12:00 UTC</span>' in page
        assert row(selectors.limits(me, T0), "stake", "week")["amount"] == 5000
        clock.move_to(T0 + timedelta(hours=24))
        assert row(selectors.limits(me, T0 + timedelta(hours=24)), "stake", "week")["amount"] == (
            8000
        )
        r = client.post(
            "/account/limits/limit/", {"kind": "stake", "period": "week", "amount": "x"}
        )
        assert r.status_code == 400
        stored = Limit.objects.get(user=me, kind="stake", period="week").state()
        assert stored.effective(T0 + timedelta(hours=24)) == 8000  # the raise, applied


def test_a_time_out_needs_a_confirmation(client, make_user):
    me = make_user()
    client.force_login(me)
    with time_machine.travel(T0, tick=False):
        r = client.post("/account/limits/time-out/", {"days": "7"})
        assert r.status_code == 200 and 'data-testid="time-out-confirm"' in r.content.decode()
        assert 'Until <span class="when">2026-12-08 12:00 UTC</span>' in r.content.decode()
        assert not Exclusion.objects.exists()
        r = client.post("/account/limits/time-out/", {"days": "7", "confirm": "1"})
        assert r.status_code == 302
        exclusion = Exclusion.objects.get(user=me)
        assert exclusion.ends_at == T0 + timedelta(days=7) and exclusion.by == me
        r = client.post("/account/limits/time-out/", {"days": "99", "confirm": "1"})
        assert r.status_code == 400


def test_a_permanent_self_exclusion_through_the_page(client, make_user):
    me = make_user()
    client.force_login(me)
    r = client.post("/account/limits/self-exclusion/", {"months": "permanent"})
    assert "You cannot undo this." in r.content.decode()
    client.post("/account/limits/self-exclusion/", {"months": "permanent", "confirm": "1"})
    assert Exclusion.objects.get(user=me).ends_at is None


def test_the_reality_check_interval(client, make_user):
    me = make_user()
    client.force_login(me)
    assert selectors.reality_check_minutes(me) == 60
    assert client.post("/account/limits/reality-check/", {"minutes": "30"}).status_code == 302
    assert selectors.reality_check_minutes(me) == 30
    assert client.post("/account/limits/reality-check/", {"minutes": "7"}).status_code == 400
    r = api_for(me).put("/api/responsible/reality-check/", {"minutes": 90}, format="json")
    assert r.status_code == 200 and r.json()["interval_minutes"] == 90
    r = api_for(me).put("/api/responsible/reality-check/", {"minutes": 7}, format="json")
    assert r.status_code == 400


def test_the_api(make_user):
    me = make_user()
    api = api_for(me)
    with time_machine.travel(T0, tick=False):
        r = api.post(
            "/api/responsible/limits/",
            {"kind": "deposit", "period": "day", "amount": 10_000},
            format="json",
        )
        assert r.status_code == 200
        r = api.post(
            "/api/responsible/limits/",
            {"kind": "deposit", "period": "day", "amount": None},
            format="json",
        )
        limit = row(r.json()["limits"], "deposit", "day")
        assert limit["amount"] == 10_000 and limit["pending_amount"] is None
        assert limit["pending_from"] == "2026-12-02T12:00:00Z"
        for bad in (
            {"kind": "deposit", "period": "year", "amount": 1},
            {"kind": "deposit", "period": "day", "amount": 0},
            {"kind": "deposit", "period": "day", "amount": "ten"},
        ):
            assert api.post("/api/responsible/limits/", bad, format="json").status_code == 400
        r = api.post("/api/responsible/time-out/", {"days": 2, "confirm": False}, format="json")
        assert r.status_code == 400 and r.json()["code"] == "confirm"
        r = api.post("/api/responsible/time-out/", {"days": 43, "confirm": True}, format="json")
        assert r.status_code == 400
        r = api.post(
            "/api/responsible/self-exclusion/", {"months": 3, "confirm": True}, format="json"
        )
        assert r.status_code == 400
        r = api.post("/api/responsible/time-out/", {"days": 2, "confirm": True}, format="json")
        assert r.status_code == 201 and r.json()["ends_at"] == "2026-12-03T12:00:00Z"
        assert api.get("/api/responsible/").json()["exclusion"]["kind"] == "time_out"
        # A shorter one, or the same again, changes nothing: the answer is the one in force.
        for days in (1, 2):
            r = api.post(
                "/api/responsible/time-out/", {"days": days, "confirm": True}, format="json"
            )
            assert r.status_code == 200 and r.json()["ends_at"] == "2026-12-03T12:00:00Z"
        assert Exclusion.objects.filter(user=me).count() == 1
        r = api.post("/api/responsible/time-out/", {"days": 3, "confirm": True}, format="json")
        assert r.status_code == 201 and r.json()["ends_at"] == "2026-12-04T12:00:00Z"
    assert APIClient().get("/api/responsible/").status_code in (401, 403)


def test_the_api_takes_numbers_as_json_numbers_only_as_the_tables_api_does(make_user):
    """The tables API refuses ``"5"``, ``5.0`` and ``true`` where it wants a whole number
    (``games.api.serializers.WholeNumberField``), and fields it does not know: the
    responsible-play API follows the same rule, and a refusal changes nothing."""
    me = make_user()
    api = api_for(me)
    for path, body in [
        ("/api/tables/", {"variant": "complex", "stake": "5"}),
        ("/api/responsible/limits/", {"kind": "deposit", "period": "day", "amount": "5"}),
        ("/api/responsible/limits/", {"kind": "deposit", "period": "day", "amount": 5.0}),
        ("/api/responsible/limits/", {"kind": "deposit", "period": "day", "amount": True}),
        ("/api/responsible/limits/", {"kind": "deposit", "period": "day", "amount": 5, "x": 1}),
        ("/api/responsible/time-out/", {"days": "2", "confirm": True}),
        ("/api/responsible/self-exclusion/", {"months": "6", "confirm": True}),
    ]:
        r = api.post(path, body, format="json")
        assert r.status_code == 400 and r.json()["code"] == "invalid", (path, body, r.content)
    r = api.put("/api/responsible/reality-check/", {"minutes": "30"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert not Limit.objects.filter(user=me).exists()
    assert not Exclusion.objects.filter(user=me).exists()
    assert not PlaySettings.objects.filter(user=me).exists()
    # the same values as numbers are taken
    r = api.post(
        "/api/responsible/limits/",
        {"kind": "deposit", "period": "day", "amount": 5},
        format="json",
    )
    assert r.status_code == 200
    r = api.put("/api/responsible/reality-check/", {"minutes": 30}, format="json")
    assert r.status_code == 200 and r.json()["interval_minutes"] == 30


def test_the_wallet_page_links_to_the_limits_and_prompts_before_the_first_deposit(
    client, make_user, settings
):
    settings.TRIX_DEMO_PAYMENTS = True
    me = make_user()
    client.force_login(me)
    page = client.get("/wallet/").content.decode()
    assert 'data-testid="limits-link"' in page and 'data-testid="deposit-limits-link"' in page
    assert 'data-testid="limits-prompt"' in page
    services.set_limit(user=me, kind="deposit", period="month", amount=100, by=me)
    assert 'data-testid="limits-prompt"' not in client.get("/wallet/").content.decode()
    other = make_user()
    wallet.deposit(user=other, amount=100, key="d")
    client.force_login(other)
    assert 'data-testid="limits-prompt"' not in client.get("/wallet/").content.decode()


def test_a_deposit_over_the_limit_on_the_deposit_form(client, make_user, settings):
    settings.TRIX_DEMO_PAYMENTS = True
    me = make_user()
    client.force_login(me)
    services.set_limit(user=me, kind="deposit", period="day", amount=1000, by=me)
    r = client.post("/wallet/deposit/", {"deposit-amount": "10.01", "deposit-key": "c" * 32})
    assert r.status_code == 400
    assert "10.01 USD is more than your 24-hour deposit limit of 10.00 USD." in r.content.decode()


def test_staff_lower_a_limit_in_the_admin_never_raise_it(client, make_user):
    staff = make_user(is_staff=True, is_superuser=True)
    player = make_user()
    services.set_limit(user=player, kind="stake", period="day", amount=5000, by=player)
    limit = Limit.objects.get(user=player)
    client.force_login(staff)
    url = f"/admin/responsible/limit/{limit.pk}/change/"
    assert client.get(url).status_code == 200
    r = client.post(url, {"amount": "6000"})
    assert r.status_code == 200 and "only lower" in r.content.decode()
    assert Limit.objects.get(pk=limit.pk).amount == 5000
    r = client.post(url, {"amount": "1000"})
    assert r.status_code == 302
    assert Limit.objects.get(pk=limit.pk).amount == 1000
    change = LimitChange.objects.filter(user=player).first()
    assert change.by == staff and change.by_staff and change.new_amount == 1000
    # a new limit for a player who had none
    r = client.post(
        "/admin/responsible/limit/add/",
        {"user": player.pk, "kind": "deposit", "period": "week", "amount": "700"},
    )
    assert r.status_code == 302
    assert Limit.objects.get(user=player, kind="deposit").amount == 700
    # staff cannot raise through the service either, and the lists show the rest
    with pytest.raises(services.NotAllowed):
        services.set_limit(user=player, kind="stake", period="day", amount=None, by=staff)
    services.take_time_out(user=player, days=3, by=player)
    for path in ("exclusion", "limitchange", "limit"):
        assert client.get(f"/admin/responsible/{path}/").status_code == 200
