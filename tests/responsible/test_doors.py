"""A self-excluded (or timed-out) player is refused at every door where money moves in or a
tournament is entered, through the API and the pages, with the refusal's message; and can
still withdraw. A stake limit refuses a seat and an entry fee the same way."""

import pytest
from rest_framework.test import APIClient

from games.models import Table
from responsible import services
from tests.factories import TournamentFactory
from tournaments import services as tournaments
from tournaments.models import Entry
from wallet import services as wallet
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def funded(make_user):
    def make(**extra):
        user = make_user(**extra)
        wallet.deposit(user=user, amount=100_000, key=f"fund:{user.pk}")
        return user

    return make


@pytest.fixture
def tournament(make_user):
    staff = make_user(is_staff=True)
    return TournamentFactory(by=staff, name="Cup")


def staked_table(creator, stake=500) -> int:
    r = client_for(creator).post(
        "/api/tables/", {"variant": "complex", "stake": stake, "options": {}}, format="json"
    )
    assert r.status_code == 201, r.content
    return r.json()["id"]


def sit(user, table_id, seat=0):
    return client_for(user).post(
        f"/api/tables/{table_id}/seats/", {"seat": seat, "client_seed": "my-seed"}, format="json"
    )


@pytest.mark.parametrize("how", ["time_out", "self_exclusion"])
def test_an_excluded_player_is_refused_at_every_door_and_can_withdraw(
    funded, make_user, tournament, how, settings
):
    settings.TRIX_DEMO_PAYMENTS = True
    me = funded()
    if how == "time_out":
        services.take_time_out(user=me, days=7, by=me)
        code = "time_out"
    else:
        services.self_exclude(user=me, months=None, by=me)
        code = "self_excluded"
    api = client_for(me)
    page = api  # the test client speaks to the pages as well

    # a seat at a staked table (the table page calls this API)
    table_id = staked_table(funded())
    r = sit(me, table_id)
    assert r.status_code == 403 and r.json()["code"] == code
    assert "You can still withdraw." in r.json()["error"]
    assert Table.objects.get(pk=table_id).seats.get(seat=0).user is None

    # creating a staked table: the same door as sitting at one (nothing made); a free one
    # stays possible
    before = Table.objects.count()
    r = api.post("/api/tables/", {"variant": "complex", "stake": 500}, format="json")
    assert r.status_code == 403 and r.json()["code"] == code
    assert "You can still withdraw." in r.json()["error"]
    assert Table.objects.count() == before
    r = api.post("/api/tables/", {"variant": "complex", "stake": 0}, format="json")
    assert r.status_code == 201

    # tournament registration: the API and the page
    r = api.post(f"/api/tournaments/{tournament.pk}/register/", {}, format="json")
    assert r.status_code == 403 and r.json()["code"] == code
    r = page.post(f"/tournaments/{tournament.pk}/register/", {"client_seed": "s"}, follow=True)
    assert "You can still withdraw." in r.content.decode()
    assert not Entry.objects.filter(user=me).exists()

    # a deposit on the wallet page
    r = page.post("/wallet/deposit/", {"deposit-amount": "10", "deposit-key": "a" * 32})
    assert r.status_code == 400 and "You can still withdraw." in r.content.decode()
    assert wallet_balance(me) == 100_000

    # a withdrawal still goes through
    r = page.post("/wallet/withdraw/", {"withdraw-amount": "10", "withdraw-key": "b" * 32})
    assert r.status_code == 302
    assert wallet_balance(me) == 100_000 - 1000

    # the limits page and the API show it; nothing lifts it
    r = page.get("/account/limits/")
    assert r.status_code == 200 and 'data-testid="exclusion"' in r.content.decode()
    assert api.get("/api/responsible/").json()["exclusion"]["kind"] == how


def test_accepting_a_team_invitation_is_refused_in_a_time_out(funded, make_user):
    staff = make_user(is_staff=True)
    cup = TournamentFactory(by=staff, name="Pairs", variant="complex_partner", prize_bps=[10000])
    host, partner = funded(), funded()
    tournaments.register(tournament_id=cup.pk, by=host, client_seed="h")
    team = tournaments.invite_partner(tournament_id=cup.pk, by=host, display_name=partner.username)
    services.take_time_out(user=partner, days=1, by=partner)
    r = client_for(partner).post(f"/api/tournaments/teams/{team.pk}/accept/", {}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "time_out"


def test_a_stake_limit_refuses_a_seat_and_an_entry_fee_with_its_message(
    funded, tournament, settings
):
    settings.TRIX_MAX_LIVE_SEATS = 2  # a second seat while the first waits: the limit refuses
    me = funded()
    services.set_limit(user=me, kind="stake", period="day", amount=500, by=me)
    first, second = staked_table(funded()), staked_table(funded())
    assert sit(me, first).status_code == 200
    r = sit(me, second)
    assert r.status_code == 403 and r.json()["code"] == "stake_limit"
    assert r.json()["error"].startswith(
        "This stake of 5.00 USD would go over your 24-hour stake limit of 5.00 USD"
    )
    # creating a staked table asks the same limit
    r = client_for(me).post("/api/tables/", {"variant": "complex", "stake": 1}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "stake_limit"
    r = client_for(me).post(
        f"/api/tournaments/{tournament.pk}/register/", {"client_seed": "x"}, format="json"
    )
    assert r.status_code == 403 and r.json()["code"] == "stake_limit"
    assert "24-hour stake limit" in r.json()["error"]


def test_a_limit_above_the_ledgers_bound_is_refused_as_an_amount(make_user):
    """The refusal says the bound as money, never in "minor units"."""
    from responsible.errors import BadRequest
    from wallet.inputs import MAX_AMOUNT

    me = make_user("lina")
    with pytest.raises(BadRequest) as refused:
        services.set_limit(user=me, kind="deposit", period="day", amount=MAX_AMOUNT + 1, by=me)
    assert str(refused.value.message) == "Enter a limit of at most 10,000,000,000.00 USD."
