"""Witnesses of the log (issue 31, deliverable 4): a witness cosigns a checkpoint (C2SP
tlog-cosignature v1) only if its tree extends the last one it cosigned, keeping its own
state. Two witnesses run as their own processes (``trix witness``) against the site follow
the log as it grows, and both refuse the history an operator rewrote, leaving their state
as it was."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games.fairness import merkle
from games.fairness.errors import FairnessError
from games.fairness.receipt import load_private_key, public_key_hex
from games.fairness.witness import (
    WitnessState,
    cosign,
    cosignature_time,
    key_id,
    message,
    witness_checkpoint,
)
from games.fairness.witness_command import witness_cli
from tests.games.fairness_helpers import RFC8032_TEST1_SECRET, rewrite_the_log

LOG_KEY = load_private_key(RFC8032_TEST1_SECRET)
WITNESS = load_private_key("42" * 32)
NAME = "witness.example.org/w1"
ORIGIN = "trix.test/log"


def _note(leaves: list[bytes], size: int, key=LOG_KEY, origin: str = ORIGIN) -> str:
    """The log's signed checkpoint of its first ``size`` leaves."""
    checkpoint = merkle.Checkpoint(origin, size, merkle.tree_root(leaves[:size]))
    text = merkle.format_checkpoint(checkpoint)
    raw = bytes.fromhex(public_key_hex(key))
    key_hash = merkle.ed25519_key_hash(origin, raw)
    return text + "\n" + merkle.signature_line(origin, key_hash, key.sign(text.encode()))


def _proofs(leaves: list[bytes]):
    def consistency(first: int, second: int) -> list[bytes]:
        return [merkle.tree_root(leaves[a:b]) for a, b in merkle.consistency_ranges(first, second)]

    return consistency


LEAVES = [merkle.leaf_hash(f"entry {i}".encode()) for i in range(12)]


def test_a_cosignature_is_the_c2sp_format():
    text = merkle.format_checkpoint(merkle.Checkpoint(ORIGIN, 3, merkle.tree_root(LEAVES[:3])))
    line = cosign(text, name=NAME, key=WITNESS, timestamp=1679315147)
    dash, name, encoded = line.rstrip("\n").split(" ")
    raw = base64.b64decode(encoded)
    public = bytes.fromhex(public_key_hex(WITNESS))
    assert (dash, name, len(raw)) == ("\u2014", NAME, 4 + 8 + 64)
    assert raw[:4] == hashlib.sha256(NAME.encode() + b"\n\x04" + public).digest()[:4]
    assert raw[:4] == key_id(NAME, WITNESS)
    assert int.from_bytes(raw[4:12], "big") == 1679315147
    assert message(text, 1679315147) == b"cosignature/v1\ntime 1679315147\n" + text.encode()
    WITNESS.public_key().verify(raw[12:], message(text, 1679315147))
    note = text + "\n" + line
    assert cosignature_time(note, name=NAME, public_key=WITNESS.public_key()) == 1679315147
    other = load_private_key("43" * 32).public_key()
    assert cosignature_time(note, name=NAME, public_key=other) is None
    bent = note.replace("\n3\n", "\n4\n")
    assert cosignature_time(bent, name=NAME, public_key=WITNESS.public_key()) is None


def test_a_witness_follows_a_growing_log_and_refuses_a_fork():
    state = WitnessState(ORIGIN, public_key_hex(LOG_KEY))
    for size in (0, 3, 3, 8, 12):
        state, line = witness_checkpoint(
            state, _note(LEAVES, size), _proofs(LEAVES), name=NAME, key=WITNESS, timestamp=1
        )
        assert (state.size, state.root) == (size, merkle.tree_root(LEAVES[:size]).hex())
        assert line.startswith(f"\u2014 {NAME} ")
    forked = LEAVES[:5] + [merkle.leaf_hash(b"another entry 5")] + LEAVES[6:] + LEAVES[:2]
    cases = [
        (_note(forked, 12), "fork: the log's tree of 12 entries does not extend the tree of 12"),
        (_note(forked, 14), "fork: the log's tree of 14 entries does not extend the tree of 12"),
        (_note(LEAVES, 8), "fork: the log now shows 8 entries; this witness cosigned 12"),
        (_note(LEAVES, 12, key=WITNESS), "not signed by the log's key this witness pinned"),
        (_note(LEAVES, 12, origin="elsewhere/log"), "a checkpoint of 'elsewhere/log'"),
    ]
    for note, refusal in cases:
        with pytest.raises(FairnessError, match=refusal):
            witness_checkpoint(state, note, _proofs(forked), name=NAME, key=WITNESS, timestamp=2)


def _cli(tmp_path, site, fetch=None, **options):
    out, err = io.StringIO(), io.StringIO()
    settings = {
        "site": site,
        "name": NAME,
        "key": str(tmp_path / "w.key"),
        "state": str(tmp_path / "w.state"),
        "log_key": None,
        "new_key": None,
        **options,
    }
    extra = {"fetch": fetch} if fetch else {}
    code = witness_cli(**settings, out=out, err=err, **extra)
    return code, out.getvalue(), err.getvalue()


def test_the_command_refuses_bad_options_and_never_overwrites_a_key(tmp_path):
    code, out, _ = _cli(tmp_path, None, new_key=str(tmp_path / "w.key"))
    assert code == 0 and out.startswith("public key: ")
    assert (tmp_path / "w.key").stat().st_mode & 0o777 == 0o600
    code, _, err = _cli(tmp_path, None, new_key=str(tmp_path / "w.key"))
    assert code == 2 and "never overwritten" in err
    assert _cli(tmp_path, "file:///etc")[0] == 2
    assert _cli(tmp_path, "https://x", name="a name")[0] == 2
    fetch = {"https://x/fairness/checkpoint": _note(LEAVES, 3)}.__getitem__
    code, _, err = _cli(tmp_path, "https://x", fetch=fetch)
    assert code == 1 and "the first run pins the log's public key" in err
    code, out, _ = _cli(tmp_path, "https://x", fetch=fetch, log_key=public_key_hex(LOG_KEY))
    assert code == 0 and out.startswith(_note(LEAVES, 3)) and out.count("\u2014 ") == 2
    state = json.loads((tmp_path / "w.state").read_text())
    assert (state["origin"], state["size"]) == (ORIGIN, 3)


TRIX = str(Path(sys.executable).parent / "trix")  # the installed console script


def _witness(tmp_path, live_server, number: int, log_key: str | None = None, submit=False):
    """``trix witness`` as its own process, its folder its own: (exit code, standard output,
    standard error, its state after)."""
    folder = tmp_path / f"w{number}"
    folder.mkdir(exist_ok=True)
    key = folder / "key"
    if not key.exists():
        key.write_text(f"{number:02d}" * 32)
    argv = [TRIX, "witness", "--site", live_server.url, "--key", str(key)]
    argv += ["--name", f"witness.example.org/w{number}", "--state", str(folder / "state.json")]
    argv += ["--log-key", log_key] if log_key else []
    argv += ["--submit"] if submit else []
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    state = folder / "state.json"
    kept = json.loads(state.read_text()) if state.exists() else None
    return done.returncode, done.stdout, done.stderr, kept


def _public(number: int) -> str:
    return public_key_hex(load_private_key(f"{number:02d}" * 32))


@pytest.mark.django_db(transaction=True)
def test_two_witness_processes_cosign_the_site_and_refuse_its_forked_history(
    live_server, tmp_path, settings
):
    settings.TRIX_LOG_WITNESSES = [f"witness.example.org/w{n}={_public(n)}" for n in (1, 2)]
    from games import signing
    from games.services import fairness_log

    def append(count: int, start: int) -> None:
        fairness_log.append(
            [
                fairness_log.draw_commitment(event=f"event-{start + i}", commitment="ab" * 32)
                for i in range(count)
            ]
        )

    site_key = tmp_path / "public-key.json"  # the site's /fairness/public-key.json, saved
    site_key.write_text(json.dumps({"public_key": signing.current().public_bytes().hex()}))
    append(5, 0)
    saved = tmp_path / "saved-checkpoint.txt"  # what a player kept before the witnesses ran
    saved.write_text(APIClient().get("/fairness/checkpoint").content.decode())
    states = {}
    for number in (1, 2):
        code, out, err, states[number] = _witness(tmp_path, live_server, number, str(site_key))
        assert code == 0, err
        witness_key = load_private_key(f"{number:02d}" * 32).public_key()
        name = f"witness.example.org/w{number}"
        assert cosignature_time(out, name=name, public_key=witness_key) is not None
        assert states[number]["size"] == 5

    append(4, 5)  # the log grows: each witness checks the consistency proof from 5 to 9
    for number in (1, 2):
        code, _, err, states[number] = _witness(tmp_path, live_server, number, submit=True)
        assert code == 0 and states[number]["size"] == 9, err
        assert "note: the site keeps this cosignature of size 9" in err
    # The site publishes the checkpoint both cosigned, with both lines.
    published = APIClient().get("/fairness/checkpoint/cosigned").content.decode()
    assert merkle.parse_checkpoint(merkle.parse_signed_note(published)[0]).size == 9
    for number in (1, 2):
        key = load_private_key(f"{number:02d}" * 32).public_key()
        name = f"witness.example.org/w{number}"
        assert cosignature_time(published, name=name, public_key=key) is not None
    _player_checks_the_witnessed_checkpoint(tmp_path, saved, published)

    rewrite_the_log(2)  # the operator rewrites entry 2 and rebuilds the chain and the tree
    append(1, 9)
    for number in (1, 2):
        code, out, err, kept = _witness(tmp_path, live_server, number)
        assert (code, out) == (1, "")
        assert err.startswith(
            "fork: the log's tree of 10 entries does not extend the tree of 9 this witness cosigned"
        ), err
        assert kept == states[number]  # its state as it was: the fork is never cosigned


@pytest.mark.django_db
def test_the_site_keeps_only_its_witnesses_cosignatures_of_its_own_checkpoints(settings):
    from games.services import fairness_log, log_tree

    settings.TRIX_LOG_WITNESSES = [f"witness.example.org/w1={_public(1)}"]
    client = APIClient()
    assert client.get("/fairness/checkpoint/cosigned").status_code == 404
    fairness_log.append([fairness_log.draw_commitment(event="e", commitment="ab" * 32)])
    note = log_tree.checkpoint()
    text = merkle.parse_signed_note(note)[0]

    def post(body: str):
        return client.post("/fairness/cosignatures", body, content_type="text/plain")

    def line(name: str, secret: str, at: int) -> str:
        return cosign(text, name=name, key=load_private_key(secret * 32), timestamp=at)

    mine = line("witness.example.org/w1", "01", 5)
    answer = post(note + mine)
    assert answer.status_code == 200
    assert answer.json() == {"size": 1, "witnesses": ["witness.example.org/w1"]}
    assert client.get("/fairness/checkpoint/cosigned").content.decode() == note + mine

    stranger = post(note + line("witness.example.org/w9", "09", 5))
    assert (stranger.status_code, stranger.json()["code"]) == (403, "unknown_witness")
    forged = post(note + line("witness.example.org/w1", "09", 6))  # its name, another key
    assert forged.status_code == 403
    other = text.replace("\n1\n", "\n2\n", 1)  # a checkpoint this site never signed
    assert post(other + note[len(text) :] + mine).json()["code"] == "stale_checkpoint"
    assert post("not a checkpoint").status_code == 400
    assert client.get("/fairness/cosignatures").status_code == 405


def _player_checks_the_witnessed_checkpoint(tmp_path, saved, published: str) -> None:
    """trix verify's tree checks: the checkpoint the player saved is the start of the one
    the witnesses cosigned, which carries both cosignatures; a quorum not met is refused."""
    from games.fairness.verify_proofs import tree_checks
    from games.fairness.verify_signers import witness_keys

    cosigned = tmp_path / "cosigned.txt"
    cosigned.write_text(published)
    proof = tmp_path / "consistency.json"
    proof.write_text(
        APIClient().get("/fairness/proof/consistency?first=5&second=9").content.decode()
    )
    given = [f"witness.example.org/w{n}={_public(n)}" for n in (1, 2)]
    tree = {
        "checkpoint": str(saved),
        "new_checkpoint": str(cosigned),
        "consistency": str(proof),
        "inclusions": [],
        "witnesses": witness_keys(given, None),
        "quorum": 2,
    }
    notes, _ = tree_checks(tree, None, None)
    assert (
        "new-checkpoint cosigned by 2 of the 2 witnesses given: witness.example.org/w1, "
        "witness.example.org/w2"
    ) in notes
    cosigned.write_text(published.rsplit("\u2014 witness.example.org/w2 ", 1)[0])
    with pytest.raises(
        FairnessError, match="cosigned by 1 of the 2 witnesses given .*; 2 required"
    ):
        tree_checks(tree, None, None)
    assert tree_checks({**tree, "quorum": 1}, None, None)[0]


@pytest.mark.parametrize(
    "options, message",
    [
        (["--witness", "w1"], "--witness 'w1': give NAME=KEY, each name once"),
        (["--witness", "w1=zz"], "--witness w1: the key is not 64 hex digits or PEM"),
        (["--witness", f"w1={'11' * 32}", "--witnesses", "2"], "--witnesses: 1 to the 1"),
        (["--witnesses", "1"], "--witnesses: 1 to the 0"),
        (["--witness", f"w1={'11' * 32}"], "give --checkpoint too"),
    ],
)
def test_trix_verify_refuses_a_witness_option_it_cannot_use(tmp_path, options, message):
    from games.engine.cli import main

    record = tmp_path / "r.json"
    record.write_text("{}")
    out, err = io.StringIO(), io.StringIO()
    assert main(["verify", str(record), *options], out, err) == 2
    assert message in err.getvalue()


def test_a_witness_re_pins_a_rotated_key_by_hand_and_keeps_its_tree(tmp_path):
    """The docs' re-pinning: the same state file, a new --log-key; the size and root it
    cosigned stay, so a fork is still refused after the rotation."""
    (tmp_path / "w.key").write_text("42" * 32)
    first = {"https://x/fairness/checkpoint": _note(LEAVES, 3)}
    pinned = public_key_hex(LOG_KEY)
    assert _cli(tmp_path, "https://x", fetch=first.__getitem__, log_key=pinned)[0] == 0
    rotated = load_private_key("77" * 32)
    later = {
        "https://x/fairness/checkpoint": _note(LEAVES, 8, key=rotated),
        "https://x/fairness/proof/consistency?first=3&second=8": json.dumps(
            {"proof": [h.hex() for h in _proofs(LEAVES)(3, 8)]}
        ),
    }
    code, _, err = _cli(tmp_path, "https://x", fetch=later.__getitem__)
    assert code == 1 and "not signed by the log's key this witness pinned" in err
    code, _, err = _cli(
        tmp_path, "https://x", fetch=later.__getitem__, log_key=public_key_hex(rotated)
    )
    assert code == 0, err
    assert "note: the log's key pinned again:" in err
    state = json.loads((tmp_path / "w.state").read_text())
    assert (state["size"], state["log_key"]) == (8, public_key_hex(rotated))


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe binary", b'{"format": "trix-witness-state/1", "origin": "o", "log_key": "'
     + ("11" * 32).encode() + b'", "size": -3, "root": "' + ("00" * 32).encode() + b'"}',
     b'{"format": "trix-witness-state/1", "origin": "o", "log_key": "' + ("11" * 32).encode()
     + b'", "size": true, "root": "zz"}'],
)  # fmt: skip
def test_a_broken_state_file_is_one_line(tmp_path, content):
    (tmp_path / "w.key").write_text("42" * 32)
    (tmp_path / "w.state").write_bytes(content)
    fetch = {"https://x/fairness/checkpoint": _note(LEAVES, 3)}.__getitem__
    code, _, err = _cli(tmp_path, "https://x", fetch=fetch)
    assert code == 1 and err.count("\n") == 1 and "witness state" in err, err


def test_a_state_that_cannot_be_written_is_one_line(tmp_path):
    """A first run whose ``--state`` names a folder that does not exist: one line, exit 1,
    and no cosigned checkpoint printed (the witness could not keep what it cosigned)."""
    (tmp_path / "w.key").write_text("42" * 32)
    fetch = {"https://x/fairness/checkpoint": _note(LEAVES, 3)}.__getitem__
    code, out, err = _cli(
        tmp_path, "https://x", fetch=fetch, log_key=public_key_hex(LOG_KEY),
        state=str(tmp_path / "missing" / "w.state"),
    )  # fmt: skip
    assert (code, out) == (1, "") and err.count("\n") == 1 and "--state" in err, err


@pytest.mark.django_db
def test_the_site_answers_a_witness_in_json_whatever_it_sends(settings):
    settings.TRIX_LOG_WITNESSES = [f"witness.example.org/w1={_public(1)}"]
    client = APIClient()
    huge = client.post("/fairness/cosignatures", "x" * (3 * 2**20), content_type="text/plain")
    assert (huge.status_code, huge.json()["code"]) == (413, "too_large")
    # Over the note's 16 KiB and under Django's own limit: the same answer.
    long = client.post("/fairness/cosignatures", "x" * 20_000, content_type="text/plain")
    assert (long.status_code, long.json()) == (413, huge.json())
    settings.TRIX_LOG_WITNESSES = ["w1=nothex"]
    broken = client.get("/fairness/checkpoint/cosigned")
    assert broken.status_code == 503 and "TRIX_LOG_WITNESSES" not in broken.content.decode()


def _logged_and_cosigned(settings) -> tuple[str, str]:
    """Witness 1 listed by the site, one entry logged: the site's checkpoint of it and
    witness 1's line cosigning it."""
    from games.services import fairness_log, log_tree

    settings.TRIX_LOG_WITNESSES = [f"witness.example.org/w1={_public(1)}"]
    fairness_log.append([fairness_log.draw_commitment(event="e", commitment="ab" * 32)])
    note = log_tree.checkpoint()
    text = merkle.parse_signed_note(note)[0]
    line = cosign(text, name="witness.example.org/w1", key=load_private_key("01" * 32), timestamp=5)
    return note, line


@pytest.mark.django_db
def test_a_witness_whose_key_changed_is_not_published_with_its_old_lines(settings):
    note, line = _logged_and_cosigned(settings)
    client = APIClient()
    posted = client.post("/fairness/cosignatures", note + line, content_type="text/plain")
    assert posted.status_code == 200
    settings.TRIX_LOG_WITNESSES = [f"witness.example.org/w1={_public(2)}"]  # a new key
    assert client.get("/fairness/checkpoint/cosigned").status_code == 404


def test_a_malformed_witness_setting_fails_the_system_check(settings):
    from games.checks import check_witnesses

    settings.TRIX_LOG_WITNESSES = ["w1=nothex"]
    (error,) = check_witnesses(None)
    assert error.id == "games.E002" and "w1=nothex" in error.msg
    settings.TRIX_LOG_WITNESSES = [f"witness.example.org/w1={_public(1)}"]
    assert check_witnesses(None) == []


@pytest.mark.django_db
def test_submissions_from_one_address_are_limited(settings):
    """Each submission is parsed and its checkpoint rebuilt for its size: above
    ``TRIX_COSIGNATURE_RATE`` submissions per address, 429 ``throttled`` with Retry-After
    and nothing kept, whatever the body; another address is counted apart."""
    from django.core.cache import cache

    from games.models import LogCosignature

    cache.clear()
    settings.TRIX_COSIGNATURE_RATE = "2/minute"
    note, line = _logged_and_cosigned(settings)
    client = APIClient()

    def post(body: str, address: str = "10.0.0.1", **headers):
        return client.post(
            "/fairness/cosignatures", body, content_type="text/plain", REMOTE_ADDR=address,
            **headers,
        )  # fmt: skip

    codes = [post("not a checkpoint").status_code for _ in range(2)]
    refused = post(note + line, HTTP_ACCEPT_LANGUAGE="ar")
    other = post(note + line, address="10.0.0.2")
    cache.clear()
    assert codes == [400, 400]
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json()["code"] == "throttled" and "توقيع" in refused.json()["error"]
    assert other.status_code == 200
    assert list(LogCosignature.objects.values_list("witness", flat=True)) == [
        "witness.example.org/w1"
    ]
