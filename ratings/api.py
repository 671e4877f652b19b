"""The ratings API (under ``/api/ratings/``), read only and public:

- ``GET /api/ratings/{family}/?page=N``: the family's leaderboard (``solo``, ``partnership``),
  :data:`PAGE_SIZE` a page, best first;
- ``GET /api/ratings/players/{user_id}/``: a player's rating in every family;
- ``GET /api/ratings/tables/{table_id}/``: what a finished match did to its players' ratings
  (empty until it is rated; the table page's result panel shows it).

Ratings are displayed numbers (``ratings.rating.display``); ``mu`` and ``sigma`` are the
model's (docs/ratings.md). An unknown family, player or table: 404 ``not_found``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors as tables
from games.api.answers import ErrorSerializer
from ratings import selectors
from ratings.rating import FAMILIES

#: Players on a page of a leaderboard (the page and the API).
PAGE_SIZE = 50


class LeaderRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="place on the leaderboard, 1 best")
    user_id = serializers.IntegerField()
    name = serializers.CharField(help_text="display name")
    rating = serializers.IntegerField(help_text="the displayed rating")
    mu = serializers.FloatField(help_text="the model's mean skill")
    sigma = serializers.FloatField(help_text="the model's uncertainty")
    matches = serializers.IntegerField(help_text="matches rated in this family")


class LeaderboardSerializer(serializers.Serializer):
    family = serializers.ChoiceField(choices=FAMILIES)
    count = serializers.IntegerField(help_text="rated players on every page together")
    next = serializers.URLField(allow_null=True, help_text="the next page, or null")
    previous = serializers.URLField(allow_null=True, help_text="the previous page, or null")
    results = LeaderRowSerializer(many=True, help_text="this page's players, best first")


class FamilyRatingSerializer(serializers.Serializer):
    rating = serializers.IntegerField(help_text="the displayed rating (initial if unplayed)")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField(help_text="matches rated in this family")
    rank = serializers.IntegerField(allow_null=True, help_text="leaderboard place; null: unrated")


class PlayerRatingsSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    name = serializers.CharField(help_text="display name")
    solo = FamilyRatingSerializer()
    partnership = FamilyRatingSerializer()


class ChangeSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    user_id = serializers.IntegerField()
    name = serializers.CharField(allow_null=True, help_text="display name")
    family = serializers.ChoiceField(choices=FAMILIES)
    place = serializers.IntegerField(help_text="1..4, ties share")
    before = serializers.IntegerField(help_text="displayed rating before the match")
    after = serializers.IntegerField(help_text="displayed rating after it")
    delta = serializers.IntegerField(help_text="after - before")


class MatchChangesSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    rated = serializers.BooleanField(help_text="the match's rating changes exist")
    changes = ChangeSerializer(many=True, help_text="one per person seated, seat order")


class Pages(PageNumberPagination):
    page_size = PAGE_SIZE


class LeaderboardView(APIView):
    """A family's leaderboard, a page at a time."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_leaderboard",
        responses={200: LeaderboardSerializer, 404: ErrorSerializer},
    )
    def get(self, request, family: str):
        if selectors.family_or_none(family) is None:
            raise NotFound(
                _("no rating family %(family)s (choose from %(families)s)")
                % {"family": repr(family), "families": ", ".join(FAMILIES)}
            )
        pages = Pages()
        rows = pages.paginate_queryset(selectors.leaderboard(family), request, view=self)
        start = pages.page.start_index()
        data = {
            "family": family,
            "count": pages.page.paginator.count,
            "next": pages.get_next_link(),
            "previous": pages.get_previous_link(),
            "results": selectors.rank_rows(rows, start),
        }
        return Response(LeaderboardSerializer(data).data)


class PlayerView(APIView):
    """A player's rating in every family."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_player",
        responses={200: PlayerRatingsSerializer, 404: ErrorSerializer},
    )
    def get(self, request, user_id: int):
        from accounts.selectors import display_name

        user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
        if user is None:
            raise NotFound(_("no player %(id)s") % {"id": user_id})
        data = {"user_id": user.pk, "name": display_name(user), **selectors.ratings_of(user)}
        return Response(PlayerRatingsSerializer(data).data)


class TableChangesView(APIView):
    """What a finished match did to its players' ratings."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ratings_table",
        responses={200: MatchChangesSerializer, 404: ErrorSerializer},
    )
    def get(self, request, table_id: int):
        tables.get_table(table_id)  # games.errors.NotFound: the API's 404 not_found
        changes = selectors.match_changes(table_id)
        data = {"table_id": table_id, "rated": bool(changes), "changes": changes}
        return Response(MatchChangesSerializer(data).data)


app_name = "ratings-api"
urlpatterns = [
    path("players/<int:user_id>/", PlayerView.as_view(), name="player"),
    path("tables/<int:table_id>/", TableChangesView.as_view(), name="table"),
    path("<str:family>/", LeaderboardView.as_view(), name="leaderboard"),
]
