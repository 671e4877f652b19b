"""The table page's rendering of real engine views, in Chromium.

The state API is answered from matches the engine itself drove to each phase (see
``engine_states``), so each phase is rendered exactly as a seat sees it; the full flow
against the real tables API and workers is in ``test_play_flow.py``.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from tests.web.conftest import log_in, no_stream
from tests.web.engine_states import match_at, state_answer, table_json

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table_id(django_user_model):
    """A real table row (the page 404s without one); its state answers are the engine's."""
    from games.services import create_table

    owner = django_user_model.objects.create_user("owner")
    return create_table(user=owner, variant="complex_partner", stake=0).pk


def answer(table_id: int, state, variant: str, seat: int | None, **table) -> dict:
    return state_answer(state, table_json(table_id, variant, me=seat, **table), seat)


def serve_state(page, answer: dict) -> list[dict]:
    """Answer the page's state polls with ``answer``; return the list the posted actions go to."""
    table_id = answer["table"]["id"]
    posted: list[dict] = []

    def on_state(route):
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    def on_action(route):
        posted.append(json.loads(route.request.post_data))
        route.fulfill(
            status=202,
            content_type="application/json",
            body=json.dumps({"accepted": True, "id": posted[-1]["id"], "version": 6}),
        )

    page.route(f"**/api/tables/{table_id}/state/**", on_state)
    no_stream(page, table_id)  # these answers come from the long poll (its fallback)
    page.route(f"**/api/tables/{table_id}/actions/", on_action)
    return posted


@pytest.fixture
def player(live_server, client, new_page):
    user = get_user_model().objects.create_user("ana", "ana@example.com", "pw-Ana-12345")

    def open_as(width: int = 1280):
        page = new_page(width=width)
        log_in(page, live_server.url, client, user)
        return page

    return open_as


def test_owner_chooses_a_contract_named_in_english_and_arabic(table_id, player):
    state = match_at(stop="choose")
    page = player()
    posted = serve_state(page, answer(table_id, state, "complex_partner", state.owner))
    page.goto(f"/tables/{table_id}/")
    choice = page.locator(".contract-choice[data-contract=complex]")
    choice.wait_for()
    assert "Complex · كمبلكس" in choice.inner_text()
    assert page.locator("#hand .card").count() == 13
    choice.click()
    page.wait_for_function("() => true")
    page.wait_for_timeout(200)
    assert posted[0]["action"] == {"type": "contract", "contract": "complex"}
    assert posted[0]["version"] == 5 and len(posted[0]["id"]) == 36


def test_other_seats_see_their_hand_face_down_while_the_owner_chooses(table_id, player):
    state = match_at(stop="choose")
    other = (state.owner + 1) % 4
    page = player()
    serve_state(page, answer(table_id, state, "complex_partner", other))
    page.goto(f"/tables/{table_id}/")
    page.locator("#hand .card.back").first.wait_for()
    assert page.locator("#hand .card.back").count() == 13
    assert page.locator("#hand .card[data-card]").count() == 0
    assert page.locator(".contract-choice").count() == 0
    assert "choosing a contract" in page.locator("#status").inner_text()


def test_doubling_select_a_card_then_ready(table_id, player):
    # Find a deal where some seat holds the K♥ or a queen in Complex.
    state = match_at(stop="double", contract="complex")
    seat = state.to_act()[0]
    page = player()
    posted = serve_state(page, answer(table_id, state, "complex_partner", seat))
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=ready]").wait_for()
    doublable = page.locator("#hand .card.doublable")
    assert doublable.count() >= 1
    code = doublable.first.get_attribute("data-card")
    doublable.first.click()
    assert page.locator("#hand .card.selected").count() == 1
    page.locator("[data-testid=ready]").click()
    page.wait_for_timeout(200)
    assert {"type": "select", "cards": [code]} in [p["action"] for p in posted]
    assert posted[-1]["action"] == {"type": "double", "cards": [code]}


def test_play_marks_legal_cards_and_posts_the_clicked_one(table_id, player, artifacts):
    state = match_at(contract="complex", plays=5)
    seat = state.to_act()[0]
    page = player()
    timed = answer(table_id, state, "complex_partner", seat)
    timed["server_time"] = "2030-01-01T00:00:00+00:00"  # the page uses the server's clock
    timed["deadline"] = "2030-01-01T00:00:09+00:00"
    posted = serve_state(page, timed)
    page.goto(f"/tables/{table_id}/")
    playable = page.locator("#hand .card.playable")
    playable.first.wait_for()
    legal = {a["card"] for a in state_answer(state, {}, seat)["view"]["legal"]}
    marked = {playable.nth(i).get_attribute("data-card") for i in range(playable.count())}
    assert marked == legal
    # Not-playable cards are not buttons.
    hand = state_answer(state, {}, seat)["view"]["hand"]
    assert page.locator("#hand span.card").count() == len(hand) - len(legal)
    assert page.locator("[data-testid=trick] .card").count() == 1  # 5 plays: one card of trick 2
    assert page.locator(".last-trick .card").count() == 4
    clock = int(page.locator("#my-clock").inner_text().split()[0])  # "9 s left"
    assert 7 <= clock <= 9
    page.screenshot(path=str(artifacts / "table-render-play.png"), full_page=True)
    card = playable.first.get_attribute("data-card")
    playable.first.click()
    page.wait_for_timeout(200)
    assert posted[-1]["action"] == {"type": "play", "card": card}


def test_trix_layout_and_shown_twos_on_a_phone_with_arabic_names(table_id, player, artifacts):
    state = match_at(variant="trix_partner", contract="trix", plays=12, seed=11)
    seat = state.to_act()[0]
    names = ["أبو فهد", "Bot 2", "سارة الحربي", "Bot 4"]
    page = player(width=390)
    serve_state(page, answer(table_id, state, "trix_partner", seat, names=names))
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=layout]").wait_for()
    view = state_answer(state, {}, seat)["view"]
    opened = [s for s, row in view["layout"].items() if row]
    assert page.locator("[data-testid=layout] .row .card").count() >= len(opened)
    for holder, cards in view["shown"].items():
        box = page.locator(f".seat-box[data-seat='{holder}'] .shown .card")
        assert box.count() == len(cards)
    assert page.get_by_text("أبو فهد").first.is_visible()
    # Nothing overflows the phone's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    page.screenshot(path=str(artifacts / "table-render-trix-phone.png"), full_page=True)


def test_spectator_sees_no_hand(table_id, new_page):
    state = match_at(contract="complex", plays=3)
    page = new_page()
    serve_state(page, answer(table_id, state, "complex_partner", None))
    page.goto(f"/tables/{table_id}/")
    page.locator("[data-testid=spectating]").wait_for()
    assert page.locator("#hand").is_hidden()
    assert page.locator("#hand .card").count() == 0
