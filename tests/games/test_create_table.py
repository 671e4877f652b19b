"""Creating a table: a stake beyond the site's limit is refused clearly (found by a new user:
a stake of 10**30 answered 500, one of 10**12 made a table nobody could ever join); so are
timers beyond the site's limit, and a staked table without timers (found by a new user: a
timer of 10**12 s froze the match before its first deal, and the other player's only way out
was to forfeit the stake to the creator)."""

import pytest
from django.test import override_settings

from games.models import Table
from tests.games.helpers import new_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("stake", [10**30, 2**63, 10**12])
def test_a_stake_above_the_limit_is_refused_with_a_clear_error(api, stake):
    alice = api("alice")
    response = alice.post(
        "/api/tables/", {"variant": "complex_partner", "stake": stake}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "stake" in response.json()["error"]
    assert not Table.objects.exists()


@override_settings(TRIX_MAX_STAKE=500)
def test_the_limit_is_a_setting_and_inclusive(api):
    alice = api("alice", funds=500)
    ok = alice.post("/api/tables/", {"variant": "trix", "stake": 500}, format="json")
    assert ok.status_code == 201, ok.content
    refused = alice.post("/api/tables/", {"variant": "trix", "stake": 501}, format="json")
    assert refused.status_code == 400
    assert "at most 5.00 USD" in refused.json()["error"]


TIMERS = ("choose_timer", "double_timer", "play_timer")
LABELS = {"choose_timer": "Choose timer (s)", "double_timer": "Double timer (s)",
          "play_timer": "Play timer (s)"}  # fmt: skip


@pytest.mark.parametrize("timer", TIMERS)
@pytest.mark.parametrize("seconds", [10**12, 3601])
def test_a_timer_above_the_limit_is_refused_with_a_clear_error(api, timer, seconds):
    alice = api("alice")
    response = alice.post(
        "/api/tables/", {"variant": "trix", "options": {timer: seconds}}, format="json"
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert f"“{LABELS[timer]}”" in error and "3600" in error and timer not in error
    assert not Table.objects.exists()


@pytest.mark.parametrize("timer", TIMERS)
def test_a_staked_table_needs_every_timer(api, timer):
    alice = api("alice")
    response = alice.post(
        "/api/tables/", {"variant": "trix", "stake": 100, "options": {timer: 0}}, format="json"
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert f"“{LABELS[timer]}”" in error and "stakes" in error and timer not in error
    assert not Table.objects.exists()


@override_settings(TRIX_MAX_TIMER=60)
def test_the_timer_limit_is_a_setting_and_inclusive_and_free_tables_may_have_none(api):
    alice = api("alice", funds=100)
    options = {"choose_timer": 60, "double_timer": 60, "play_timer": 60}
    ok = alice.post(
        "/api/tables/", {"variant": "trix", "stake": 100, "options": options}, format="json"
    )
    assert ok.status_code == 201, ok.content
    none = {"choose_timer": 0, "double_timer": 0, "play_timer": 0}
    free = alice.post("/api/tables/", {"variant": "trix", "options": none}, format="json")
    assert free.status_code == 201, free.content
    refused = alice.post(
        "/api/tables/", {"variant": "trix", "options": {"play_timer": 61}}, format="json"
    )
    assert refused.status_code == 400


@pytest.mark.parametrize("stake", [2.0, "200", 1e2, True])
def test_a_stake_that_is_not_a_whole_number_is_refused(api, stake):
    """Found by a new user: ``"stake": 2.0`` (meaning 2 USD) made a table of 0.02 USD."""
    alice = api("alice")
    response = alice.post("/api/tables/", {"variant": "trix", "stake": stake}, format="json")
    assert response.status_code == 400, response.content
    assert "stake" in response.json()["fields"]
    assert response.json()["error"].startswith("Stake: ")  # its label, not its name
    assert not Table.objects.exists()


def test_the_house_rule_options_are_table_options(api):
    """``double_scoring``, ``twos_complex_only`` and ``double_asked`` (docs/rules.md, "House
    rules") are taken, stored and shown like every other option; holders-only doubling with
    sequential doubling is refused, and nothing is created."""
    alice = api("alice")
    house = {"double_scoring": "team", "twos_complex_only": True, "double_asked": "holders"}
    r = alice.post("/api/tables/", {"variant": "complex_partner", "options": house}, format="json")
    assert r.status_code == 201, r.content
    assert {k: r.json()["options"][k] for k in house} == house
    assert Table.objects.get(pk=r.json()["id"]).options["double_asked"] == "holders"
    default = alice.post("/api/tables/", {"variant": "trix"}, format="json").json()["options"]
    assert (default["double_scoring"], default["twos_complex_only"], default["double_asked"]) == (
        "seat",
        False,
        "everyone",
    )
    bad = {"double_asked": "holders", "doubling": "sequential"}
    r = alice.post("/api/tables/", {"variant": "trix", "options": bad}, format="json")
    assert r.status_code == 400
    assert (
        "“Who is asked to double”: holders only needs simultaneous doubling" in (r.json()["error"])
    )
    assert Table.objects.count() == 2


@pytest.mark.parametrize(
    "options, english, arabic",
    [
        ({"play_timer": 5000}, "“Play timer (s)” can be at most 3600 seconds.", "«مؤقت اللعب (ث)»"),
        ({"show_twos": "yes"}, "“Show 2s in partnership Trix” is either on or off.", "إما"),
        ({"doubling": "never"}, "“Doubling” does not take that value", "«الدبل»"),
        ({"choose_timer": -1}, "“Choose timer (s)” is a whole number of seconds", "«مؤقت"),
        ({"turbo": True}, "There is no table option “turbo”.", "«turbo»"),
    ],
)
def test_a_bad_option_is_named_as_the_lobby_labels_it_in_the_players_language(
    api, options, english, arabic
):
    """The refusal names the option by the form's label, never its field name
    (``play_timer``), in the request's language."""
    alice = api("alice")
    response = alice.post("/api/tables/", {"variant": "trix", "options": options}, format="json")
    assert response.status_code == 400 and english in response.json()["error"]
    arabic_answer = alice.post(
        "/api/tables/",
        {"variant": "trix", "options": options},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ar",
    ).json()["error"]
    assert arabic in arabic_answer
    assert not any(name in arabic_answer for name in ("_timer", "show_twos", "doubling"))
    assert not Table.objects.exists()


def test_a_staked_tables_missing_timer_is_refused_in_arabic(api):
    alice = api("alice")
    response = alice.post(
        "/api/tables/",
        {"variant": "trix", "stake": 100, "options": {"play_timer": 0}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ar",
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert "«مؤقت اللعب (ث)»" in error and "play_timer" not in error and "minor" not in error


def _written() -> tuple[int, int, int]:
    """Tables, ledger transactions and ledger entries in the database."""
    from wallet.models import Entry, Transaction

    return Table.objects.count(), Transaction.objects.count(), Entry.objects.count()


def test_a_stake_above_the_balance_is_refused_as_the_seat_would_be(api):
    """A new player's trial: a table at a stake above the creator's balance was made (the
    balance asked only at the Sit), and the empty table waited in the lobby. Creating it is
    refused with the Sit's own error, and nothing is written."""
    host, poor = api("host", funds=1_000), api("poor", funds=300)
    waiting = new_table(host, stake=500)
    sit = poor.post(
        f"/api/tables/{waiting['id']}/seats/", {"seat": 0, "client_seed": "s-1"}, format="json"
    )
    assert sit.status_code == 400 and sit.json()["code"] == "insufficient_funds", sit.content
    before = _written()
    made = poor.post("/api/tables/", {"variant": "complex_partner", "stake": 500}, format="json")
    assert (made.status_code, made.json()) == (sit.status_code, sit.json())
    assert "Add money in /wallet/." in made.json()["error"]
    assert _written() == before
    # Exactly the balance is enough; a free table needs none.
    ok = poor.post("/api/tables/", {"variant": "complex_partner", "stake": 300}, format="json")
    assert ok.status_code == 201, ok.content


def test_a_creator_who_never_deposited_is_told_to_add_money_in_arabic(api):
    """No wallet yet: the same refusal as a short one (not "no account"), in Arabic too."""
    ivy = api("ivy")
    before = _written()
    body = {"variant": "trix", "stake": 100}
    made = ivy.post("/api/tables/", body, format="json")
    assert made.status_code == 400 and made.json()["code"] == "insufficient_funds", made.content
    arabic = ivy.post("/api/tables/", body, format="json", HTTP_ACCEPT_LANGUAGE="ar").json()
    assert arabic["code"] == "insufficient_funds" and "/wallet/" in arabic["error"]
    assert arabic["error"] != made.json()["error"]  # translated
    assert _written() == before
    free = ivy.post("/api/tables/", {"variant": "trix", "stake": 0}, format="json")
    assert free.status_code == 201, free.content


def test_the_service_refuses_a_stake_above_the_balance_and_makes_nothing(make_user):
    from games.errors import BadRequest
    from games.services import tables

    poor = make_user("poor", funds=99)
    before = _written()
    with pytest.raises(BadRequest) as refused:
        tables.create_table(user=poor, variant="trix", stake=100)
    assert refused.value.code == "insufficient_funds" and refused.value.status == 400
    assert _written() == before
