"""The leaderboard pages: ``/ratings/solo/`` and ``/ratings/partnership/``, a page of
players at a time (``?page=N``); ``/ratings/`` opens the solo one."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render

from ratings import selectors
from ratings.api import PAGE_SIZE
from ratings.rating import FAMILIES, INITIAL, SOLO
from ratings.selectors import FAMILY_TITLES


def index(request):
    return redirect("ratings:leaderboard", family=SOLO)


def leaderboard(request, family: str):
    """A family's leaderboard: rank, player, rating, matches; the viewer's own row marked."""
    if selectors.family_or_none(family) is None:
        raise Http404(f"no rating family {family!r}")
    page = Paginator(selectors.leaderboard(family), PAGE_SIZE).get_page(request.GET.get("page"))
    start = page.start_index()
    mine = selectors.ratings_of(request.user)[family] if request.user.is_authenticated else None
    context = {
        "family": family,
        "families": [(f, FAMILY_TITLES[f]) for f in FAMILIES],
        "title": FAMILY_TITLES[family],
        "rows": selectors.rank_rows(list(page.object_list), start),
        "page": page,
        "mine": mine,
        "initial": INITIAL.display,
    }
    return render(request, "ratings/leaderboard.html", context)
