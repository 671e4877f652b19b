"""A production ``collectstatic`` (DEBUG off: ``trix_site.storage.StaticStorage``) hashes the
table page's ES modules and rewrites their imports to the hashed names (issue 10: the table
page as ES modules, no build step). It fails on an import cycle between the modules."""

from __future__ import annotations

import re

from django.core.management import call_command

MODULES = "web/table"


def test_collectstatic_hashes_the_table_modules_and_their_imports(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "trix_site.storage.StaticStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    folder = tmp_path / MODULES
    hashed = sorted(p.name for p in folder.glob("*.*.js"))
    assert any(name.startswith("main.") for name in hashed), hashed
    for path in folder.glob("*.*.js"):
        for target in re.findall(r'from "([^"]+)"', path.read_text()):
            # a sibling module, or the site's translations (../i18n.js), live stream
            # (../live.js) or sharing (../share.js), by its hashed name
            hashed_name = r"(\./\w+|\.\./i18n|\.\./live|\.\./share)\.[0-9a-f]{12}\.js"
            assert re.fullmatch(hashed_name, target), (path.name, target)
            assert (folder / target).resolve().exists(), (path.name, target)
