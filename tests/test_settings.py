"""Every ``TRIX_*`` setting the code reads is declared in ``trix_site/settings.py`` (with its
default and meaning), read plainly (no hidden ``getattr`` default), and the tests' worker runs
on the tests' settings (issue 10)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from trix_site import settings as site_settings
from trix_site import settings_test

ROOT = Path(__file__).resolve().parents[1]
APPS = ("accounts", "games", "wallet", "web", "tournaments", "trix_site")


def _sources():
    for app in APPS:
        yield from (ROOT / app).rglob("*.py")


def test_every_trix_setting_read_is_declared_with_a_default():
    read = set()
    for path in _sources():
        read |= set(re.findall(r"settings\.(TRIX_[A-Z0-9_]+)", path.read_text()))
    assert read, "no TRIX_ setting found: the pattern is wrong"
    missing = sorted(name for name in read if not hasattr(site_settings, name))
    assert not missing, f"read but not declared in trix_site/settings.py: {missing}"


def test_no_setting_is_read_with_a_hidden_default():
    hidden = [
        f"{path.relative_to(ROOT)}: {m}"
        for path in _sources()
        for m in re.findall(r"getattr\(\s*settings\s*,\s*\"[A-Z_]+\"\s*,[^)]*\)", path.read_text())
    ]
    assert not hidden, hidden


def _debug_with(env: dict[str, str]) -> str:
    """``settings.DEBUG`` of the site's settings in a fresh interpreter with ``env``."""
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
    base.update(DJANGO_SETTINGS_MODULE="trix_site.settings", **env)
    done = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.DEBUG)"],
        cwd=ROOT, env=base, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_debug_is_off_unless_the_environment_turns_it_on():
    assert _debug_with({}) == "False"
    assert _debug_with({"DJANGO_DEBUG": "1"}) == "True"
    # ./dev run turns it on unless the caller set DJANGO_DEBUG.
    assert 'export DJANGO_DEBUG="${DJANGO_DEBUG:-1}"' in (ROOT / "dev").read_text()


def test_the_tests_run_on_the_fast_timers(settings):
    assert settings.SETTINGS_MODULE == "trix_site.settings_test"
    assert settings.TRIX_TIMER_SCALE == settings_test.TRIX_TIMER_SCALE < 1
    assert settings.TRIX_BOT_DELAY == 0.0


def test_a_plain_pip_install_ships_every_app_of_the_site():
    """``pip install .`` (production) packages every local app in INSTALLED_APPS (web and
    accounts were left out once, so the installed site could not start)."""
    import fnmatch
    import tomllib

    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
    local = [app.split(".")[0] for app in site_settings.INSTALLED_APPS if (ROOT / app).is_dir()]
    assert local, "no local app found"
    missing = [app for app in local if not any(fnmatch.fnmatch(app, p) for p in include)]
    assert not missing, f"not packaged by pip install .: {missing}"
