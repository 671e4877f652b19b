"""The table page checks every deal itself (issue 12), in Chromium against the real tables
API and a real Celery worker: the commitment is shown before Sit, the client seed is made in
the browser (and refused with a message when it breaks the rule), the browser keeps both with
the hands it is dealt, and after each deal it says "your deal N was verified", or, when what
it saved disagrees with the public record, the mismatch; without Web Crypto it says it cannot
check here.

The deals go by quickly: the test settings scale the timers by 0.01, so the seated player's
turns time out (the engine's default action) in a tenth of a second while the bots act at
once; the page sees its hands from its seat's ``hand`` events all the same."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from games.fairness import merkle
from games.models import Deal, Seat
from games.services import create_table, fairness_log
from tests.games.fairness_helpers import rewrite_the_log
from tests.web.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMERS = {"choose_timer": 10, "double_timer": 10, "play_timer": 10}  # x0.01: 0.1 s each
PREFIX = "trix.fairness/1:"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NO_WEB_CRYPTO = "Object.defineProperty(window.crypto, 'subtle', {value: undefined})"


@pytest.fixture
def player(live_server, client, new_page):
    """Open a page logged in as one player (each call: another browser context)."""
    user = get_user_model().objects.create_user("nour", "nour@example.com", "pw-Nour-12345")

    def open_page(**size):
        page = new_page(**(size or DESKTOP))
        log_in(page, live_server.url, client, user)
        return page

    open_page.user = user
    return open_page


@pytest.fixture
def seated(player):
    """A logged-in page at a new Complex table (8 deals) of the player's, not yet seated."""
    table = create_table(user=player.user, variant="complex", options=TIMERS)
    page = player()
    page.goto(f"/tables/{table.pk}/")
    page.locator("[data-testid=sit-0]").wait_for()
    return page, table


def kept(page) -> dict:
    """The browser's saved entries (localStorage) of the fairness check, by key."""
    return page.evaluate(
        "(prefix) => Object.fromEntries(Object.keys(localStorage)"
        ".filter((k) => k.startsWith(prefix))"
        ".map((k) => [k, JSON.parse(localStorage.getItem(k))]))",
        PREFIX,
    )


def seat_bots(page) -> None:
    for seat in (1, 2, 3):
        page.click(f"[data-testid=bot-{seat}]")
        page.locator(f"[data-testid=bot-{seat}]").wait_for(state="hidden")


def wait_over(page, timeout: float = 180_000) -> None:
    """The match is over and the browser has checked all 8 deals (a still page)."""
    page.wait_for_function(
        "() => document.getElementById('table-app').dataset.phase === 'over'"
        " && document.querySelectorAll('.deal-check:not(.checking)').length === 8",
        timeout=timeout,
    )


def test_the_lobby_sit_opens_the_table_page_at_that_seat(seated):
    """No seat is taken from the lobby: its Sit opens the table, which shows the commitment."""
    page, table = seated
    page.goto("/")
    page.click(f"[data-testid=sit-{table.pk}-2]")
    page.wait_for_url(f"**/tables/{table.pk}/#seat-2")
    page.locator("[data-testid=sit-2]:focus").wait_for()
    assert page.locator("[data-testid=commitment]").inner_text() == table.commitment
    assert page.locator("#client-seed").input_value()
    assert Seat.objects.get(table=table, seat=2).user_id is None


def test_the_browser_keeps_the_newest_200_matches(seated):
    page, table = seated
    page.evaluate(
        """(prefix) => { for (let i = 0; i < 205; i++) localStorage.setItem(prefix + "old-" + i
            + ":" + "ab".repeat(32), JSON.stringify({saved_at: "2026-01-01T00:00:00." + (100 + i)
            + "Z"})); }""",
        PREFIX,
    )
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    entries = kept(page)
    assert len(entries) == 200
    assert f"{PREFIX}table-{table.pk}:{table.commitment}" in entries
    assert not any(f"{PREFIX}old-{i}:" in key for i in range(6) for key in entries)


def test_a_second_sit_before_the_first_answer_keeps_the_first_seats_seed(seated, player):
    """A review's finding: Sit on seat 0, then on seat 1 before the first answer came. The
    second overwrote the seed the browser saved and, refused (one seat per player), forgot
    it: the seat taken had no saved seed left to check its deals against."""
    page, table = seated
    posts = []
    page.on(
        "request",
        lambda r: posts.append(r.post_data) if r.method == "POST" and "/seats/" in r.url else None,
    )
    page.evaluate(
        "() => { document.querySelector('[data-testid=sit-0]').click();"
        " document.querySelector('[data-testid=sit-1]').click(); }"
    )
    page.locator("[data-testid=leave]").wait_for()
    page.wait_for_timeout(500)
    assert len(posts) == 1, posts
    assert json.loads(posts[0])["seat"] == 0
    assert Seat.objects.get(table=table, seat=0).user_id == player.user.pk
    entry = kept(page)[f"{PREFIX}table-{table.pk}:{table.commitment}"]
    assert entry["seat"] == 0
    assert entry["client_seed"] == page.locator("#client-seed").input_value()
    assert page.locator("#notice").inner_text().strip() == ""


@pytest.mark.slow
def test_commitment_before_sit_then_every_deal_verified_in_the_browser(
    seated, player, worker, artifacts
):
    page, table = seated
    # Before Sit: the commitment, the deal count, the algorithm and the match id, by the buttons.
    box = page.locator("[data-testid=commitment-box]")
    assert page.locator("[data-testid=commitment]").inner_text() == table.commitment
    meta = page.locator("[data-testid=commitment-meta]").inner_text()
    assert meta == f"8 deals · trix-shuffle/1 · match table-{table.pk}"
    assert "fixed before anyone sits" in box.inner_text()
    seed_box = page.locator("#client-seed")
    assert len(seed_box.input_value()) == 32  # 16 random bytes as hex, made in the browser
    page.screenshot(path=str(artifacts / "table-commitment-before-sit.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "table-commitment-before-sit-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)

    # A seed the server would refuse is refused here, with the rule; nothing sent or kept.
    for bad, message in [
        ("café", 'only printable ASCII (letters, digits, space and ! to ~): "é"'),
        ("", "Your client seed is empty"),
        ("x" * 65, "has 65 characters: at most 64"),
    ]:
        seed_box.fill(bad)
        page.click("[data-testid=sit-0]")
        assert message in page.locator("[data-testid=seed-error]").inner_text()
    assert kept(page) == {}
    assert Seat.objects.get(table=table, seat=0).user_id is None

    seed = "  my own seed, 42 ~ "
    seed_box.fill(seed)
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    assert page.locator("[data-testid=seed-error]").is_hidden()
    assert page.locator("[data-testid=seed-used]").inner_text() == seed.strip()
    assert Seat.objects.get(table=table, seat=0).client_seed == seed.strip()
    saved = kept(page)
    key = f"{PREFIX}table-{table.pk}:{table.commitment}"
    assert list(saved) == [key]
    assert saved[key]["commitment"] == table.commitment
    assert saved[key]["client_seed"] == seed.strip()
    assert (saved[key]["seat"], saved[key]["deals"], saved[key]["hands"]) == (0, 8, {})
    assert "saved this commitment" in page.locator("[data-testid=commitment-status]").inner_text()

    seat_bots(page)
    first = page.locator("[data-testid=deal-check-1]")
    first.locator("a").wait_for(timeout=60_000)
    page.wait_for_selector("[data-testid=deal-check-1].verified", timeout=30_000)
    assert first.inner_text().startswith("✓ Your deal 1 was verified.")
    deal = Deal.objects.get(table=table, number=1)
    assert first.locator("a").get_attribute("href") == f"/verify/deals/{deal.pk}/"
    assert page.locator("[data-testid=deal-mark-1]").inner_text().strip() == "✓"

    wait_over(page)
    hands = kept(page)[key]["hands"]
    for number in range(1, 9):  # every check is done (wait_over): each says what it found
        check = page.locator(f"[data-testid=deal-check-{number}]")
        text = check.inner_text()
        assert "verified" in check.get_attribute("class").split(), (number, text, sorted(hands))
        assert f"Your deal {number} was verified" in text
    assert sorted(hands) == [str(n) for n in range(1, 9)]
    for number, cards in hands.items():  # the hands it kept are the ones dealt to seat 0
        record = Deal.objects.get(table=table, number=int(number)).record
        assert sorted(cards) == sorted(record["hands"]["0"])
    assert page.locator(".deal-check.mismatch").count() == 0
    # The log now extends the checkpoint kept at the Sit and holds every record checked.
    logged = page.locator("[data-testid=checks-logged]")
    assert logged.inner_text().startswith("The site's public log still begins with everything")
    page.locator("[data-testid=deal-check-8]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "table-deals-verified.png"))
    page.set_viewport_size(PHONE)
    page.locator("[data-testid=deal-check-8]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "table-deals-verified-phone.png"))

    # The same player in another browser: it kept nothing, so it checks nothing, and says so.
    elsewhere = player()
    elsewhere.goto(f"/tables/{table.pk}/")
    note = elsewhere.locator("[data-testid=browser-checks] .notice")
    note.wait_for()
    assert "did not save this match's commitment before you sat" in note.inner_text()
    assert elsewhere.locator(".deal-check").count() == 0


@pytest.mark.slow
def test_a_tampered_saved_commitment_shows_the_mismatch_and_no_web_crypto_says_so(
    seated, worker, artifacts
):
    page, table = seated
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    # What the browser kept is changed (as if the site had shown another commitment).
    other = "0f" * 32
    page.evaluate(
        """([prefix, other]) => {
            const key = Object.keys(localStorage).find((k) => k.startsWith(prefix));
            const entry = JSON.parse(localStorage.getItem(key));
            entry.commitment = other;
            localStorage.setItem(key, JSON.stringify(entry));
        }""",
        [PREFIX, other],
    )
    seat_bots(page)
    page.wait_for_selector("[data-testid=deal-check-1].mismatch", timeout=60_000)
    text = page.locator("[data-testid=deal-check-1]").inner_text()
    assert "Deal 1 does NOT match what your browser saved" in text
    assert f"the record's commitment is {table.commitment}; before sitting you saw {other}" in text
    assert f"the revealed seed of deal 1 hashes to {table.commitment}" in text
    assert page.locator("[data-testid=deal-mark-1]").inner_text().strip() == "✗"
    assert "your deal" not in text.lower()
    wait_over(page)  # a still page for the screenshots (the panel is redrawn at each check)
    page.locator("[data-testid=deal-check-1]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "table-deal-mismatch.png"))
    page.set_viewport_size(PHONE)
    page.locator("[data-testid=deal-check-1]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "table-deal-mismatch-phone.png"))
    page.set_viewport_size(DESKTOP)

    # Plain http at a non-localhost address has no crypto.subtle: the page says it cannot check.
    page.context.add_init_script(NO_WEB_CRYPTO)
    page.reload()
    page.wait_for_selector("[data-testid=deal-check-1].unavailable", timeout=30_000)
    assert "cannot be checked here" in page.locator("[data-testid=deal-check-1]").inner_text()
    assert json.dumps(kept(page)).count(other) == 1  # the page wrote nothing over it


# The first deal's record.json is answered only once the browser has kept its hand of deal 2.
HOLD_FIRST_RECORD = """([prefix]) => {
  const fetched = window.fetch;
  let first = true;
  const dealt2 = () => Object.keys(localStorage).some((k) => k.startsWith(prefix)
    && (JSON.parse(localStorage.getItem(k)).hands || {})["2"]);
  window.fetch = async (url, init) => {
    if (first && String(url).includes("/record.json")) {
      first = false;
      while (!dealt2()) await new Promise((r) => setTimeout(r, 20));
    }
    return fetched(url, init);
  };
}"""


@pytest.mark.slow
def test_a_hand_kept_while_the_first_record_is_fetched_is_not_lost(seated, worker):
    """The first deal checked keeps the match's receipt in the saved entry; it used to write
    back the entry as it read it before fetching the record, dropping the hand of the next
    deal kept meanwhile (deal 2 then said "did not see your cards")."""
    page, table = seated
    page.evaluate(HOLD_FIRST_RECORD, [PREFIX])
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    seat_bots(page)
    page.wait_for_selector("[data-testid=deal-check-2]:not(.checking)", timeout=120_000)
    entry = kept(page)[f"{PREFIX}table-{table.pk}:{table.commitment}"]
    assert entry["receipt"]  # kept from the first deal's record
    assert {"1", "2"} <= set(entry["hands"])
    check = page.locator("[data-testid=deal-check-2]")
    assert "verified" in check.get_attribute("class").split(), check.inner_text()


def _entry_has(page, *fields: str) -> None:
    """Wait until the browser's saved entry of the match has ``fields`` (kept in the
    background: the checkpoint and key at the Sit, the receipt at the start)."""
    page.wait_for_function(
        "([prefix, fields]) => Object.keys(localStorage).some((k) => k.startsWith(prefix)"
        " && fields.every((f) => JSON.parse(localStorage.getItem(k))[f] !== undefined))",
        arg=[PREFIX, list(fields)],
        timeout=60_000,
    )


def test_the_verify_page_fills_its_commands_with_what_the_browser_saved(
    seated, worker, artifacts, live_server
):
    """At the Sit the browser sends the commitment it kept with the seed, and keeps the log's
    checkpoint and the site's key; at the start, the receipt the table served. The match
    check page then fills its commands with those (never with what it shows now) and offers
    the saved checkpoint and receipt as files; a saved commitment that is not the page's is
    called out. In Arabic on a phone, and on a desktop."""
    page, table = seated
    posts = []
    page.on(
        "request",
        lambda r: (
            posts.append(json.loads(r.post_data))
            if r.method == "POST" and "/seats/" in r.url
            else None
        ),
    )
    page.locator("#client-seed").fill("it's my seed")
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    assert posts == [{"seat": 0, "client_seed": "it's my seed", "commitment": table.commitment}]
    _entry_has(page, "checkpoint", "public_key")
    seat_bots(page)
    _entry_has(page, "receipt", "signature")
    page.wait_for_selector("[data-testid=deal-check-1].verified", timeout=60_000)
    # The browser checked the receipt's signature under the key it kept, and all four hands.
    page.locator("[data-testid=checks-signed]").wait_for()
    table.refresh_from_db()
    (entry,) = kept(page).values()
    assert (entry["receipt"], entry["signature"]) == (table.receipt, table.receipt_signature)
    # The checkpoint kept at the Sit covers the table's commitment (logged when it was made).
    body, _ = merkle.parse_signed_note(entry["checkpoint"])
    made = fairness_log.entry_index("match-commitment", f"table-{table.pk}")
    assert merkle.parse_checkpoint(body).size > made

    check = page.context.new_page()  # the same browser: it sees what the table page kept
    check.context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    check.set_viewport_size(PHONE)
    check.goto(f"/verify/matches/{table.pk}/")
    check.locator("[data-testid=saved-found]").wait_for()
    assert check.locator("[data-testid=saved-mismatch]").is_hidden()
    commands = check.locator("code[data-command]").all_inner_texts()
    assert len(commands) == 2 and all("SAVED-" not in c and "YOUR-SEED" not in c for c in commands)
    standalone, trix_command = commands
    assert f"--receipt saved-receipt-{table.pk}.json" in standalone
    assert f"--public-key {entry['public_key']}" in standalone
    assert f"--commitment {table.commitment} --client-seed '0=it'\\''s my seed'" in trix_command
    assert f"--checkpoint saved-checkpoint-{table.pk}.txt" in trix_command
    link = check.locator("[data-saved=checkpoint]")
    assert link.get_attribute("download") == f"saved-checkpoint-{table.pk}.txt"
    downloaded = check.evaluate(
        "(url) => fetch(url).then((r) => r.text())", link.get_attribute("href")
    )
    assert downloaded == entry["checkpoint"]
    receipt = check.evaluate(
        "(url) => fetch(url).then((r) => r.json())",
        check.locator("[data-saved=receipt]").get_attribute("href"),
    )
    assert receipt == {"receipt": table.receipt, "signature": table.receipt_signature}
    check.locator("[data-testid=saved-values]").scroll_into_view_if_needed()
    check.screenshot(path=str(artifacts / "verify-saved-values-ar-phone.png"), full_page=True)

    # What the browser saved is changed, as if the site had shown another commitment then:
    # the page says so, and its command carries the saved one (which the records refuse).
    # The table page is closed first: it rewrites the saved entry as it keeps each deal's
    # hand, and a write of its copy read before this edit would undo the edit.
    page.close()
    other = "0f" * 32
    check.evaluate(
        """([prefix, other]) => {
            const key = Object.keys(localStorage).find((k) => k.startsWith(prefix));
            const entry = JSON.parse(localStorage.getItem(key));
            entry.commitment = other;
            localStorage.setItem(key, JSON.stringify(entry));
        }""",
        [PREFIX, other],
    )
    check.context.clear_cookies()
    check.set_viewport_size(DESKTOP)
    check.reload()
    check.locator("[data-testid=saved-mismatch]").wait_for()
    assert f"--commitment {other}" in check.locator("code[data-command]").all_inner_texts()[1]
    check.locator("[data-testid=saved-values]").scroll_into_view_if_needed()
    check.screenshot(path=str(artifacts / "verify-saved-mismatch.png"))


def test_what_the_browser_could_not_keep_is_named_and_a_fresh_browser_is_told(
    seated, player, worker, artifacts
):
    """The trial's case: the log's checkpoint could not be fetched as the Sit went (nor
    later): the key is kept all the same, and the verify page names what stays in capitals
    instead of saying everything was kept. A browser that kept nothing is told so, and how
    to go on."""
    page, table = seated
    page.route("**/fairness/checkpoint", lambda route: route.abort())
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    _entry_has(page, "public_key")
    seat_bots(page)
    _entry_has(page, "receipt")
    # Without the checkpoint no deal is verified: the log could not be checked.
    page.wait_for_selector("[data-testid=deal-check-1].log-failed", timeout=60_000)
    (entry,) = kept(page).values()
    assert "checkpoint" not in entry
    check = page.context.new_page()
    check.goto(f"/verify/matches/{table.pk}/")
    check.locator("[data-testid=saved-found]").wait_for()
    missing = check.locator("[data-testid=saved-missing]")
    assert missing.is_visible() and missing.locator("code").inner_text() == "SAVED-CHECKPOINT.txt"
    assert check.locator("[data-saved=checkpoint]").is_hidden()
    assert check.locator("[data-testid=saved-none]").is_hidden()
    assert (
        f"--public-key {entry['public_key']}"
        in check.locator("code[data-command]").first.inner_text()
    )

    fresh = player()  # another browser: it kept nothing of this match
    fresh.set_viewport_size(PHONE)
    fresh.goto(f"/verify/matches/{table.pk}/")
    assert "kept nothing for this match" in fresh.locator("[data-testid=saved-none]").inner_text()
    assert fresh.locator("#saved").is_hidden()
    assert "SAVED-COMMITMENT" in fresh.locator("code[data-command]").last.inner_text()
    fresh.locator("[data-testid=saved-none]").scroll_into_view_if_needed()
    fresh.screenshot(path=str(artifacts / "verify-nothing-saved-phone.png"))


def test_the_signed_sentence_goes_once_a_later_deal_fails(seated, worker, artifacts):
    """The second trial's finding: after deal 1 verified with a valid signature, later
    deals whose records had other hands still showed "The receipt is signed ... and every
    seat's hand is the one the shuffle dealt". Deal 2's record is served here with two
    seats' hands swapped: its check names them, and the sentence is no longer said."""

    def swap_from_deal_two(route):
        response = route.fetch()
        record = response.json()
        if record["shuffle"]["deal_number"] >= 2:
            record["hands"]["0"], record["hands"]["1"] = record["hands"]["1"], record["hands"]["0"]
        route.fulfill(response=response, json=record)

    page, table = seated
    page.route("**/api/deals/*/record.json", swap_from_deal_two)
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    _entry_has(page, "public_key")
    seat_bots(page)
    page.wait_for_selector("[data-testid=deal-check-1].verified", timeout=60_000)
    page.wait_for_selector("[data-testid=deal-check-2].mismatch", timeout=60_000)
    text = page.locator("[data-testid=deal-check-2]").inner_text()
    assert "the record's hand of Seat 1 is not the one the shuffle dealt it" in text
    assert "the record's hand of Seat 2 is not the one the shuffle dealt it" in text
    assert page.locator("[data-testid=checks-signed]").count() == 0
    page.screenshot(path=str(artifacts / "table-check-later-deal-fails.png"), full_page=True)


def sit_keeping_the_log(page, table) -> str:
    """Sit at seat 0 and wait until the browser kept the log's checkpoint and the site's key
    (fetched as the Sit is sent); returns the key of its saved entry."""
    page.fill("#client-seed", "seed of a careful player")
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    key = f"{PREFIX}table-{table.pk}:{table.commitment}"
    page.wait_for_function(
        "(key) => { const e = JSON.parse(localStorage.getItem(key) || '{}');"
        " return Boolean(e.checkpoint && e.public_key); }",
        arg=key,
    )
    return key


def test_the_browser_catches_a_log_rewritten_after_the_sit(seated, worker, artifacts):
    """The operator rewrites what was logged before the player sat and rebuilds the chain,
    the tree and a freshly signed checkpoint: every verifier given only the new log accepts
    it, but the consistency proof from the checkpoint this browser saved at the Sit cannot
    hold, and each deal's check says so."""
    page, table = seated
    key = sit_keeping_the_log(page, table)
    saved = merkle.parse_checkpoint(merkle.parse_signed_note(kept(page)[key]["checkpoint"])[0])
    assert saved.size >= 1
    rewrite_the_log(0)
    seat_bots(page)
    first = page.locator("[data-testid=deal-check-1]")
    page.wait_for_selector("[data-testid=deal-check-1].mismatch", timeout=60_000)
    text = first.inner_text()
    assert text.startswith("✗ Deal 1 does NOT match what your browser saved:"), text
    assert (
        "the site's log was rewritten: it no longer begins with the log your browser's "
        f"checkpoint saved when you sat (size {saved.size})"
    ) in text
    assert "does not hold" not in text and "another record" not in text  # only the past changed
    wait_over(page)  # every deal's check says it, and the log's sentence never shows
    assert page.locator(".deal-check.mismatch").count() == 8
    for number in range(2, 9):
        check = page.locator(f"[data-testid=deal-check-{number}]")
        assert "log was rewritten" in check.inner_text()
    assert page.locator("[data-testid=checks-logged]").count() == 0
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "table-log-rewritten.png"))
    page.set_viewport_size(PHONE)
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "table-log-rewritten-phone.png"))


def test_a_log_the_site_will_not_prove_is_never_shown_as_verified(seated, worker, artifacts):
    """An operator who rewrote the log could simply fail the proofs for this browser: then
    no deal says "verified"; each says the log could not be checked."""
    page, table = seated
    sit_keeping_the_log(page, table)
    page.route("**/fairness/proof/**", lambda route: route.fulfill(status=503, body="busy"))
    seat_bots(page)
    wait_over(page)
    assert page.locator(".deal-check.verified").count() == 0
    assert page.locator(".deal-check.log-failed").count() == 8
    first = page.locator("[data-testid=deal-check-1]").inner_text()
    assert first.startswith("! Deal 1: your cards match, but your browser could not check")
    assert "(HTTP 503)" in first
    assert page.locator("[data-testid=deal-mark-1]").inner_text().strip() == "!"
    assert page.locator("[data-testid=checks-signed]").count() == 0
    assert (
        page.locator("[data-testid=summary-check]")
        .inner_text()
        .startswith("Your browser could not check the site's log for this deal")
    )
    assert page.locator("[data-testid=checks-logged]").count() == 0
    page.locator("[data-testid=deal-check-1]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "table-log-unreachable.png"))


def test_a_browser_that_kept_no_checkpoint_says_it_cannot_check_the_log(seated, worker):
    page, table = seated
    page.route("**/fairness/checkpoint", lambda route: route.fulfill(status=503, body="busy"))
    page.fill("#client-seed", "seed of a careful player")
    page.click("[data-testid=sit-0]")
    page.locator("[data-testid=leave]").wait_for()
    seat_bots(page)
    page.wait_for_selector("[data-testid=deal-check-1]:not(.checking)", timeout=60_000)
    note = page.locator("[data-testid=log-not-kept]")
    assert note.inner_text().startswith("Your browser could not keep the site's log checkpoint")
    assert page.locator("[data-testid=checks-logged]").count() == 0
    # A site could withhold the checkpoint from chosen players: no deal of theirs is verified.
    first = page.locator("[data-testid=deal-check-1]")
    assert "log-failed" in first.get_attribute("class").split()
    assert first.inner_text().startswith(
        "! Deal 1: your cards match, but your browser kept no checkpoint of the site's log"
    )
    summary = page.locator("[data-testid=summary-check]")
    if summary.count():  # the deal's summary, while it shows: in words, not a status name
        assert "log-failed" not in summary.inner_text()
