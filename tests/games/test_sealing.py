"""Secrets sealed at rest (issue 12): the shuffle chain secret and the tournament draw secret
are stored sealed under ``TRIX_SEED_KEY`` (``games.sealing``); the database alone shows no
secret, and the sites refuses to start without the keys when DEBUG is off."""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings

from games import sealing, services, shuffles
from games.engine import Options
from games.models import Deal, MatchRecord, Table
from tests.factories import TournamentFactory

ROOT = Path(__file__).resolve().parents[2]
SECRET = bytes(range(32))
OTHER_KEY = "a7" * 32


def _chain_seeds(secret: bytes, deals: int) -> dict[int, bytes]:
    """Deal number -> its server seed (``seed_length = secret``, ``seed_(i-1) = H(seed_i)``)."""
    seeds, seed = {}, secret
    for number in range(deals, 0, -1):
        seeds[number] = seed
        seed = hashlib.sha256(seed).digest()
    return seeds


def _spellings(secret: bytes) -> list[str]:
    """Every way a secret could be written in a text column."""
    return [
        secret.hex(),
        secret.hex().upper(),
        base64.b64encode(secret).decode(),
        base64.urlsafe_b64encode(secret).decode().rstrip("="),
        secret.decode("latin-1"),
    ]


def _raw_text() -> str:
    """Every row of the games tables as PostgreSQL's text of the row (no Django decoding)."""
    parts = []
    with connection.cursor() as cursor:
        for table in (
            "games_matchrecord",
            "games_table",
            "games_tableevent",
            "games_deal",
            "games_tableaction",
        ):
            cursor.execute(f"SELECT t::text FROM {table} t")  # noqa: S608 (fixed names)
            parts.extend(row[0] for row in cursor.fetchall())
    return "\n".join(parts)


# -- the module -------------------------------------------------------------------------------


def test_a_sealed_secret_opens_only_for_its_context():
    sealed = sealing.seal(SECRET, context="match:table-1")
    assert sealing.is_sealed(sealed) and SECRET.hex() not in sealed
    assert sealing.unseal(sealed, context="match:table-1") == SECRET
    assert sealing.seal(SECRET, context="match:table-1") != sealed  # a fresh nonce each time
    with pytest.raises(sealing.SealError, match="does not open"):
        sealing.unseal(sealed, context="match:table-2")
    tampered = sealed[:-2] + ("00" if sealed[-2:] != "00" else "01")
    with pytest.raises(sealing.SealError, match="does not open"):
        sealing.unseal(tampered, context="match:table-1")
    with pytest.raises(sealing.SealError, match="not a trix-seal/1"):
        sealing.unseal(SECRET.hex(), context="match:table-1")


def test_a_rotated_key_still_opens_older_secrets_and_reseals():
    sealed = sealing.seal(SECRET, context="c")
    old = sealing.key_id(sealing.current_key())
    with override_settings(TRIX_SEED_KEY=OTHER_KEY):
        with pytest.raises(sealing.SealError, match=f"sealed with key {old}"):
            sealing.unseal(sealed, context="c")
    from django.conf import settings

    with override_settings(TRIX_SEED_KEY=OTHER_KEY, TRIX_SEED_OLD_KEYS=[settings.TRIX_SEED_KEY]):
        assert sealing.needs_resealing(sealed)
        assert sealing.unseal(sealed, context="c") == SECRET
        resealed = sealing.seal(sealing.unseal(sealed, context="c"), context="c")
        assert sealing.sealed_key_id(resealed) == sealing.key_id(bytes.fromhex(OTHER_KEY))


def test_the_stored_shuffle_state_holds_no_secret():
    private, commitment = shuffles.create("m-1", 4, SECRET)
    text = str(private)
    assert not any(s in text for seed in _chain_seeds(SECRET, 4).values() for s in _spellings(seed))
    assert private["chain"]["commitment"] == commitment
    assert shuffles.hands(shuffles.lock_client_seeds(private, ["a", "b", "c", "d"]), 1)
    # The sealed secret of one match does not open in another match's state.
    other, _ = shuffles.create("m-2", 4)
    moved = {**other, "chain": {**other["chain"], "sealed": private["chain"]["sealed"]}}
    with pytest.raises(sealing.SealError, match="match:m-2 does not open"):
        shuffles.public(moved)


# -- a whole match ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_database_shows_no_secret_while_the_match_runs(django_user_model, tasks_applied_here):
    """The raw columns (read with SQL) hold neither the chain secret nor any unrevealed seed,
    in hex or as bytes, at every step of a match; the match plays to its end and verifies."""
    from games import fairness_selectors

    alice = django_user_model.objects.create_user(username="alice", password="pw")
    table = services.create_seated_table(
        created_by=alice,
        variant="complex",
        options={"choose_timer": 30, "double_timer": 30, "play_timer": 30},
        seats=[{"bot": "rules"}] * 4,
        shuffle_secret=SECRET,
    )
    deals = Options.from_dict(table.options).deals_per_match
    seeds = _chain_seeds(SECRET, deals)
    steps = 0
    while True:
        table = Table.objects.get(pk=table.pk)
        ended = Deal.objects.filter(table=table).count()
        raw = _raw_text()
        secret_spellings = [s for n, seed in seeds.items() if n > ended for s in _spellings(seed)]
        assert not [s for s in secret_spellings if s in raw], f"a secret at step {steps}"
        assert "secret" not in str(MatchRecord.objects.get(table=table).shuffle["chain"])
        if table.status != "playing":
            break
        services.wake(table_id=table.pk, version=table.version)
        steps += 1
        assert steps < 2000
    assert table.status == "finished"
    check = fairness_selectors.match_verification(table.pk)
    assert len(check["deals"]) == deals and check["verified"], check["mismatches"]
    revealed = check["match"]["revealed_seeds"]
    assert revealed == {str(n): seed.hex() for n, seed in seeds.items()}


@pytest.mark.django_db
def test_the_migration_seals_plain_secrets():
    """A state stored as before (the chain's secret in hex) is sealed by the data migration's
    function and then deals the same hands."""
    from importlib import import_module

    from django.apps import apps

    plain = shuffles.MatchShuffle.from_secret("table-x", 3, SECRET).to_dict()
    assert plain["chain"]["secret"] == SECRET.hex()
    sealed = shuffles.seal_plain(plain)
    assert "secret" not in sealed["chain"] and sealing.is_sealed(sealed["chain"]["sealed"])
    assert shuffles.seal_plain(sealed) is sealed
    seeds = ["a", "b", "c", "d"]
    want = shuffles.MatchShuffle.from_dict(plain)
    want.lock_client_seeds(seeds)
    assert shuffles.hands(shuffles.lock_client_seeds(sealed, seeds), 1) == {
        str(s): list(h) for s, h in enumerate(want.deal(1))
    }
    # The migration itself, on a stored row.
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="u", password="pw")
    table = services.create_table(user=user, variant="complex")
    MatchRecord.objects.filter(table=table).update(shuffle=plain)
    migration = import_module("games.migrations.0006_sealed_shuffle_secrets")
    migration.seal_secrets(apps, None)
    stored = MatchRecord.objects.get(table=table).shuffle
    assert SECRET.hex() not in str(stored)
    assert shuffles.public(stored)["commitment"] == plain["chain"]["commitment"]


# -- the settings ----------------------------------------------------------------------------


def _start(env: dict[str, str], var: Path) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_DEBUG", "TRIX_SEED_KEY", "TRIX_SIGNING_KEY"}
    }
    base.update(
        DJANGO_SETTINGS_MODULE="trix_site.settings",
        TRIX_VAR_DIR=str(var),
        DJANGO_SECRET_KEY="x",
        **env,
    )
    code = (
        "from django.conf import settings; print(settings.TRIX_SEED_KEY, settings.TRIX_SIGNING_KEY)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip


def test_production_refuses_to_start_without_the_keys(tmp_path):
    done = _start({"DJANGO_DEBUG": "0", "TRIX_SIGNING_KEY": "51" * 32}, tmp_path)
    assert done.returncode != 0
    assert "ImproperlyConfigured: TRIX_SEED_KEY must be set when DJANGO_DEBUG is off" in done.stderr
    done = _start({"DJANGO_DEBUG": "0", "TRIX_SEED_KEY": "5e" * 32}, tmp_path)
    assert "TRIX_SIGNING_KEY must be set when DJANGO_DEBUG is off" in done.stderr
    done = _start(
        {"DJANGO_DEBUG": "0", "TRIX_SEED_KEY": "5e" * 32, "TRIX_SIGNING_KEY": "51" * 32}, tmp_path
    )
    assert done.returncode == 0 and done.stdout.split() == ["5e" * 32, "51" * 32]
    assert not list(tmp_path.glob("*_key"))


def test_the_embedded_default_makes_its_keys_once_in_the_data_dir(tmp_path):
    first = _start({"DJANGO_DEBUG": "1"}, tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    seed_key, signing_key = first.stdout.split()
    assert len(seed_key) == 64 and len(signing_key) == 64 and seed_key != signing_key
    for name, value in (("seed_key", seed_key), ("signing_key", signing_key)):
        path = tmp_path / name
        assert path.read_text().strip() == value
        assert path.stat().st_mode & 0o777 == 0o600
    again = _start({"DJANGO_DEBUG": "1"}, tmp_path)
    assert again.stdout.split() == [seed_key, signing_key]


@pytest.mark.django_db
def test_reseal_secrets_moves_every_secret_to_the_new_key(django_user_model):
    """A rotation: with the new key current and the old one retired, the command seals every
    match and draw secret anew; then the old key can go and everything still opens."""

    from django.conf import settings
    from django.core.management import call_command

    from tournaments import services as tournaments

    user = django_user_model.objects.create_user(username="u", is_staff=True)
    table = services.create_table(user=user, variant="complex", shuffle_secret=SECRET)
    cup = TournamentFactory(
        by=user, name="Cup", entry_fee=0, house_fee_bps=0, prize_bps=[10000], draw_secret=None
    )
    draw = tournaments.open_draw_secret(cup)
    old = settings.TRIX_SEED_KEY
    with override_settings(TRIX_SEED_KEY=OTHER_KEY, TRIX_SEED_OLD_KEYS=[old]):
        from io import StringIO

        out = StringIO()
        call_command("reseal_secrets", stdout=out)
        assert "2 secret(s) sealed anew" in out.getvalue()
    with override_settings(TRIX_SEED_KEY=OTHER_KEY, TRIX_SEED_OLD_KEYS=[]):
        stored = MatchRecord.objects.get(table=table).shuffle
        assert shuffles.public(stored)["commitment"] == table.commitment
        cup.refresh_from_db()
        assert tournaments.open_draw_secret(cup) == draw
    with pytest.raises(sealing.SealError):  # the old key alone no longer opens them
        shuffles.public(MatchRecord.objects.get(table=table).shuffle)


def test_malformed_keys_stop_the_site_with_their_name(tmp_path):
    done = _start({"DJANGO_DEBUG": "0", "TRIX_SEED_KEY": "xyz", "TRIX_SIGNING_KEY": "51" * 32},
                  tmp_path)  # fmt: skip
    assert done.returncode != 0 and "TRIX_SEED_KEY must be 64 hex digits" in done.stderr
    done = _start({"DJANGO_DEBUG": "0", "TRIX_SEED_KEY": "5e" * 32, "TRIX_SIGNING_KEY": "nope"},
                  tmp_path)  # fmt: skip
    assert "TRIX_SIGNING_KEY must be 64 hex digits or a PEM" in done.stderr


def test_a_pem_signing_key_that_does_not_load_fails_the_system_check(settings):
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    settings.TRIX_SIGNING_KEY = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
    with pytest.raises(SystemCheckError, match="games.E001.*TRIX_SIGNING_KEY"):
        call_command("check")


@pytest.mark.django_db
def test_the_migration_seals_plain_draw_secrets(django_user_model):
    from importlib import import_module

    from django.apps import apps

    from tournaments import services as tournaments
    from tournaments.models import Tournament

    user = django_user_model.objects.create_user(username="u", is_staff=True)
    cup = TournamentFactory(
        by=user, name="Cup", entry_fee=0, house_fee_bps=0, prize_bps=[10000], draw_secret=SECRET
    )
    Tournament.objects.filter(pk=cup.pk).update(draw_secret=SECRET.hex())  # as stored before
    import_module("tournaments.migrations.0002_sealed_draw_secret").seal_secrets(apps, None)
    cup.refresh_from_db()
    assert sealing.is_sealed(cup.draw_secret) and SECRET.hex() not in cup.draw_secret
    assert tournaments.open_draw_secret(cup) == SECRET
