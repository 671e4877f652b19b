"""The documentation holds together: every relative link of the README, CONTRIBUTING.md and
``docs/`` names a file (or folder) of the repository, and a link's ``#anchor`` into a Markdown
page names one of its headings (GitHub's slugs); the README stays one or two screens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
README_MAX_LINES = 150

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _links(page: Path) -> list[str]:
    """The link targets of ``page``, code blocks left out."""
    return _LINK.findall(_FENCE.sub("", page.read_text()))


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped (``-`` and
    ``_`` kept), spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of ``page``'s headings (code blocks left out)."""
    text = _FENCE.sub("", page.read_text())
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def test_slug_follows_github():
    assert slug("The site (`benchmarks/site.py`)") == "the-site-benchmarkssitepy"
    assert slug("Keys and `DEBUG`") == "keys-and-debug"
    assert slug("The tables' workers") == "the-tables-workers"
    assert slug("Tournament seating draw: `trix-draw/1`") == "tournament-seating-draw-trix-draw1"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in _links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(f"{target}: no {resolved.relative_to(ROOT)}")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {resolved.relative_to(ROOT)}")
    assert not broken, broken


def test_the_readme_is_one_or_two_screens():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_the_readme_shows_the_two_commands_first():
    text = (ROOT / "README.md").read_text()
    first = text.index("./dev run")
    assert first < text.index("## The map of the code")
    assert "./dev test" in text[: first + 200]
