"""Bots are named and bind nothing: the match-start receipt names the seats that were bots
at the start (``bots``), a bot seat's client seed is the constant ``bot``, and `trix verify`
and the standalone verifier refuse a receipt naming a bot whose seed is anything else; a
receipt issued before receipts named their bots verifies with a note saying so; a seat a
bot takes over keeps its person's seed (docs/fairness.md, "The forged match")."""

import contextlib
import copy
import io
import json

import pytest

from games.engine.cli import main as trix
from games.fairness import BOT_CLIENT_SEED
from games.fairness.errors import FairnessError
from games.fairness.receipt import (
    build_receipt,
    check_receipt,
    load_private_key,
    public_key_hex,
    sign,
)
from games.fairness.transparency import entry_hash, log_head, verify_log
from tests.games.fairness_helpers import (
    RFC8032_TEST1_SECRET,
    carrying,
    forged_records,
    load_standalone,
    match_log,
    played_records,
    with_receipt,
)

standalone = load_standalone()
SITE_KEY = load_private_key(RFC8032_TEST1_SECRET)
SITE_PUBLIC = public_key_hex(SITE_KEY)
SECRET = bytes(range(32)).hex()
SEEDS = ["7f3a9c", "bot", "Zm9v", "bot"]  # seats 0 and 2 are people, 1 and 3 bots
MINE = "0=7f3a9c"  # the player of seat 0: the seed they sent


@pytest.fixture(scope="module")
def site_match():
    """(records, receipt, signature) of an 8-deal match as the site issues it: its receipt
    names seats 1 and 3 bots."""
    records = played_records("complex_partner", "table-12", SECRET, SEEDS)
    return with_receipt(records, SITE_KEY)


@pytest.fixture(scope="module")
def rewritten(site_match):
    """Finding 1 of the audit: the operator rewrites the finished match. Seat 1's seed
    ``bot`` becomes ``bot2``; new hands from the last revealed seed, played legally; a new
    receipt signed with the site's key (the real one but for that seed); the log rebuilt
    from the receipt's entry. Returns (records, receipt, signature)."""
    records, receipt, _ = site_match
    seeds = [SEEDS[0], "bot2", *SEEDS[2:]]
    forged = forged_records(records, seeds)
    resigned = {**receipt, "client_seeds": {str(s): seed for s, seed in enumerate(seeds)}}
    return carrying(forged, resigned, sign(resigned, SITE_KEY))


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def _log(tmp_path, records, receipt, signature, name="log.jsonl"):
    """The log as the site serves it (``match_log``), or as a forger rewrote it: written
    without the checks the site's appends make, so a forger's receipt stands in it too."""
    path = tmp_path / name
    fair = {k: v for k, v in receipt.items() if k != "bots"}  # passes the appends' checks
    entries = match_log((records, fair, signature))
    entries[2]["body"]["receipt"] = receipt
    for index in range(1, len(entries)):
        entries[index]["prev"] = entry_hash(entries[index - 1])
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    return str(path), entries


def _head(tmp_path, entries, size):
    """The signed head of the log's first ``size`` entries, saved by a player."""
    payload = log_head(size, verify_log(entries[:size]))
    return _write(tmp_path, f"head-{size}.json", {**payload, "signature": sign(payload, SITE_KEY)})


def trix_verify(tmp_path, records, *options):
    out, err = io.StringIO(), io.StringIO()
    code = trix(["verify", _write(tmp_path, "given.json", records), *options], out, err)
    return code, out.getvalue(), err.getvalue()


def standalone_verify(tmp_path, records, *options):
    out, err = io.StringIO(), io.StringIO()
    argv = [_write(tmp_path, "given.json", records), *options]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = standalone.main(argv)
    return code, out.getvalue(), err.getvalue()


def _all_options(tmp_path, records, receipt, signature):
    """The options of finding 1 but the player's own: the site's key, the log as served
    (rebuilt from the match's receipt on, for a rewritten match), and a signed head saved
    before the match started (the log's first two entries)."""
    log, entries = _log(tmp_path, records, receipt, signature)
    head = _head(tmp_path, entries, 2)
    return ["--public-key", SITE_PUBLIC, "--log", log, "--head", head]


# --- the receipt names the bots ------------------------------------------------------------------


def test_the_bots_client_seed_is_one_documented_constant():
    assert BOT_CLIENT_SEED == "bot" == standalone.BOT_CLIENT_SEED


def test_a_receipt_names_its_bot_seats(site_match):
    _, receipt, _ = site_match
    assert receipt["bots"] == [1, 3]
    assert check_receipt(receipt) is receipt


def _receipt(**changes):
    fields = dict(
        match_id="m-0001",
        algorithm="trix-shuffle/1",
        commitment="07a29785477a02ea35c7f288c9262850b00e871ea8a0ebb228a8dfa5b62266a3",
        deals=20,
        variant="trix",
        options={},
        client_seeds=SEEDS,
        issued_at="2026-12-01T10:00:00Z",
        bots=[1, 3],
    )
    return build_receipt(**{**fields, **changes})


@pytest.mark.parametrize(
    "bots, message",
    [
        ([1, 2], "receipt.client_seeds.2: 'Zm9v' is not the bots' client seed 'bot', and "
         "receipt.bots names seat 2 a bot"),
        ([3, 1], "receipt.bots must be a list of seats 0..3, ascending, each once"),
        ([1, 1], "receipt.bots must be a list of seats 0..3, ascending, each once"),
        ([4], "receipt.bots must be a list of seats 0..3, ascending, each once"),
        ([True], "receipt.bots must be a list of seats 0..3, ascending, each once"),
        ("13", "receipt.bots must be a list of seats 0..3, ascending, each once"),
    ],
)  # fmt: skip
def test_a_receipt_naming_a_bot_whose_seed_is_not_the_constant_is_refused(bots, message):
    with pytest.raises(FairnessError) as refused:
        _receipt(bots=bots)
    assert str(refused.value) == message
    standalone_message = message.replace("receipt.bots must be", "receipt.bots: must be")
    with pytest.raises(standalone.Refused) as refused:
        standalone.check_receipt({**_receipt(), "bots": bots})
    assert str(refused.value) == standalone_message


def test_a_receipt_of_people_only_names_no_bots_and_a_person_may_send_bot():
    """``bots`` names what the seat was, not its seed: a person may send ``bot`` themselves."""
    receipt = _receipt(client_seeds=["a", "bot", "c", "d"], bots=[])
    assert receipt["bots"] == [] and receipt["client_seeds"]["1"] == "bot"


# --- the forged match of finding 1 ------------------------------------------------------------


def test_trix_verify_refuses_the_rewritten_match(tmp_path, rewritten, site_match):
    records, receipt, signature = rewritten
    assert records[0]["hands"] != site_match[0][0]["hands"]  # other hands, legal plays
    options = _all_options(tmp_path, records, receipt, signature)
    options += ["--commitment", receipt["commitment"], "--client-seed", MINE]
    code, out, err = trix_verify(tmp_path, records, *options)
    assert (code, out) == (1, "")
    assert err == (
        "--log: log entry 2: receipt.client_seeds.1: 'bot2' is not the bots' client seed "
        "'bot', and receipt.bots names seat 1 a bot\n"
    )
    code, out, err = trix_verify(tmp_path, records)  # no option at all: refused too
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        "deal 1: shuffle.receipt: receipt.client_seeds.1: 'bot2' is not the bots' client "
        "seed 'bot', and receipt.bots names seat 1 a bot"
    )
    code, out, err = trix_verify(tmp_path, records[4])  # one record alone
    assert code == 1 and "receipt.bots names seat 1 a bot" in err


def test_the_standalone_verifier_refuses_the_rewritten_match(tmp_path, rewritten):
    records, receipt, signature = rewritten
    options = _all_options(tmp_path, records, receipt, signature)
    for given in (options, []):
        code, out, err = standalone_verify(tmp_path, records, *given)
        assert (code, out) == (1, "")
        assert err == (
            "cannot check this record: record 1: shuffle.receipt.client_seeds.1: 'bot2' is not "
            "the bots' client seed 'bot', and shuffle.receipt.bots names seat 1 a bot\n"
        )


def test_the_genuine_match_verifies_in_both_and_the_notes_name_the_seats(tmp_path, site_match):
    records, receipt, signature = site_match
    options = _all_options(tmp_path, records, receipt, signature)
    code, out, err = trix_verify(
        tmp_path, records, *options, "--commitment", receipt["commitment"], "--client-seed", MINE
    )
    assert (code, err) == (0, ""), err
    assert (
        "note: match 'table-12': the receipt names seats 1, 3 bots (client seed 'bot', "
        "required); seats 0, 2 are people, their seeds their players' own: pinned by "
        "--client-seed: seat 0; not pinned: seat 2\n"
    ) in out
    code, out, _ = trix_verify(tmp_path, records, "--client-seed", MINE, "--client-seed", "2=Zm9v")
    assert code == 0
    assert (
        "seats 0, 2 are people, their seeds their players' own: pinned by --client-seed: "
        "seats 0, 2; all four seeds are fixed\n"
    ) in out
    code, out, err = standalone_verify(tmp_path, records, *options)
    assert (code, err) == (0, ""), err
    assert (
        "note: the receipt names seats 1, 3 bots (client seed 'bot', required); seats 0, 2 "
        "are people: each seed must be the one its player sent\n"
    ) in out


# --- what the bots field does not stop: the docs say so ----------------------------------------


def test_a_bot_seat_the_forger_calls_a_persons_passes_unless_pinned(tmp_path, rewritten):
    """The forger may instead name seat 1 a person (its seed then binds nothing): every
    verifier accepts it, the note says seat 1 was a person, and pinning it refuses it."""
    records, receipt, _ = rewritten
    receipt = {**receipt, "bots": [3]}
    records, receipt, signature = carrying(records, receipt, sign(receipt, SITE_KEY))
    options = _all_options(tmp_path, records, receipt, signature)
    code, out, err = trix_verify(
        tmp_path, records, *options, "--commitment", receipt["commitment"], "--client-seed", MINE
    )
    assert (code, err) == (0, "")
    assert "the receipt names seat 3 a bot (client seed 'bot', required); seats 0, 1, 2" in out
    code, out, err = trix_verify(tmp_path, records, *options, "--client-seed", "1=bot")
    assert code == 1
    assert "shuffle.client_seeds.1: 'bot2' is not the client seed you sent, 'bot'" in err
    code, out, err = standalone_verify(tmp_path, records, *options)
    assert code == 0 and "seats 0, 1, 2 are people" in out


def _old(records, receipt):
    """The records as a receipt issued before receipts named their bots has them."""
    old = {k: v for k, v in receipt.items() if k != "bots"}
    return carrying(records, old, sign(old, SITE_KEY))


def test_a_receipt_issued_before_bots_were_named_verifies_with_a_note(tmp_path, site_match):
    records, receipt, signature = _old(*site_match[:2])
    options = _all_options(tmp_path, records, receipt, signature)
    code, out, err = trix_verify(tmp_path, records, *options, "--client-seed", MINE)
    assert (code, err) == (0, ""), err
    assert (
        "note: match 'table-12': the receipt does not name its bots (issued before receipts "
        "named them): which seats were bots is unknown; pinned by --client-seed: seat 0; not "
        "pinned: seats 1, 2, 3 (a bot's seed is 'bot')\n"
    ) in out
    code, out, err = standalone_verify(tmp_path, records, *options)
    assert (code, err) == (0, ""), err
    assert (
        "note: the receipt does not name its bots (issued before receipts named them): which "
        "seats were bots is unknown\n"
    ) in out


def test_an_old_receipt_rewritten_passes_unless_every_seat_is_pinned(tmp_path, rewritten):
    records, receipt, signature = _old(*rewritten[:2])
    options = _all_options(tmp_path, records, receipt, signature)
    code, out, err = trix_verify(tmp_path, records, *options, "--client-seed", MINE)
    assert code == 0 and "which seats were bots is unknown" in out
    pinned = ["--client-seed", MINE, "--client-seed", "1=bot", "--client-seed", "2=Zm9v"]
    code, out, err = trix_verify(tmp_path, records, *options, *pinned, "--client-seed", "3=bot")
    assert code == 1 and "shuffle.client_seeds.1: 'bot2' is not the client seed you sent" in err


def test_a_receipt_naming_other_bots_than_the_log_is_refused(tmp_path, site_match):
    """The bots are signed and logged with the receipt: records carrying a receipt that names
    other seats bots are not the match the log holds."""
    records, receipt, signature = site_match
    log, _ = _log(tmp_path, records, receipt, signature)
    other = {**copy.deepcopy(receipt), "bots": [1]}
    changed, _, _ = carrying(records, other, sign(other, SITE_KEY))
    code, out, err = trix_verify(tmp_path, changed, "--log", log)
    assert code == 1 and "log: the log holds another receipt for match 'table-12'" in err


# --- the site names its bots; a bot taking a seat over keeps its person's seed ---------------


TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


@pytest.mark.django_db(transaction=True)
def test_the_sites_receipts_name_the_bots_at_the_start(make_user, tasks_applied_here):
    from games import services
    from games.models import Table

    alice, bob = make_user("alice"), make_user("bob")
    table = services.create_table(user=alice, variant="complex", options=TIMERS)
    services.take_seat(user=alice, table_id=table.pk, seat=1, client_seed="alice-seed")
    services.seat_bot(user=alice, table_id=table.pk, seat=0, bot="rules")
    services.take_seat(user=bob, table_id=table.pk, seat=2, client_seed="bob-seed")
    services.seat_bot(user=alice, table_id=table.pk, seat=3, bot="random")
    receipt = Table.objects.get(pk=table.pk).receipt
    assert receipt["bots"] == [0, 3]
    assert receipt["client_seeds"] == {"0": "bot", "1": "alice-seed", "2": "bob-seed", "3": "bot"}
    cat, dan, eve, fay, gus = (make_user() for _ in range(5))
    seated = services.create_seated_tables(
        created_by=alice,
        variant="complex",
        options=TIMERS,
        tables=[
            {"seats": [{"bot": "rules"}, {"user": cat, "client_seed": "c"}]
             + [{"bot": "random"}] * 2},
            {"seats": [{"user": user, "client_seed": seed}
                       for user, seed in ((dan, "d"), (eve, "e"), (fay, "bot"), (gus, "g"))]},
        ],
    )  # fmt: skip
    # A person who sends "bot" as their seed is still a person.
    assert [Table.objects.get(pk=t.pk).receipt["bots"] for t in seated] == [[0, 2, 3], []]


@pytest.mark.django_db(transaction=True)
def test_a_seat_a_bot_takes_over_keeps_its_persons_seed(make_user, tasks_applied_here, tmp_path):
    """A person leaving a free table mid-match: a bot plays the seat from then on, but its
    client seed stays the one the person gave, and the receipt issued at the start (naming
    the seat a person's) does not change; the records verify with that seed pinned."""
    from games import services
    from games.models import Deal, Seat, Table
    from games.services import fairness_log

    alice = make_user("alice")
    table = services.create_table(user=alice, variant="complex", options=TIMERS)
    services.take_seat(user=alice, table_id=table.pk, seat=0, client_seed="alice-seed")
    for seat in (1, 2, 3):
        services.seat_bot(user=alice, table_id=table.pk, seat=seat, bot="rules")
    issued = Table.objects.get(pk=table.pk)
    assert issued.receipt["bots"] == [1, 2, 3]
    services.leave(user=alice, table_id=table.pk)
    seat = Seat.objects.get(table_id=table.pk, seat=0)
    assert (seat.user_id, seat.bot, seat.client_seed) == (None, "rules", "alice-seed")
    for _ in range(2000):  # the bots play on until the first deal's record is written
        if Deal.objects.filter(table_id=table.pk).exists():
            break
        services.wake(table_id=table.pk, version=Table.objects.get(pk=table.pk).version)
    table = Table.objects.get(pk=table.pk)
    assert (table.receipt, table.receipt_signature) == (
        issued.receipt,
        issued.receipt_signature,
    )
    record = Deal.objects.get(table_id=table.pk, number=1).record
    assert record["shuffle"]["receipt"] == issued.receipt
    assert record["shuffle"]["client_seeds"]["0"] == "alice-seed"
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in fairness_log.entries()))
    code, out, err = trix_verify(
        tmp_path, [record], "--log", str(log), "--partial", "--client-seed", "0=alice-seed"
    )
    assert (code, err) == (0, ""), err
    assert "the receipt names seats 1, 2, 3 bots" in out
