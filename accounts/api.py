"""REST API of players (mounted under ``/api/``): the public part of a player's page and the
signed-in player's own match history.

``GET /api/players/{player_id}/``: ``{"id", "display_name", "member_since",
"matches_played", "ratings"}`` for anyone (the id is the public user id; the username is never
shown).
``GET /api/me/matches/?page=N&page_size=M&variant=&stakes=&since=&until=&result=``: the
signed-in player's matches, newest first, paginated like the wallet's history, filtered as
the page is (:class:`accounts.forms.HistoryFilterForm`; a bad filter is a 400 ``invalid``
with the field's message). Money is integer minor units (``stake``, ``payout``, ``net``),
with ``*_display`` written as the site writes money.
"""

from dataclasses import asdict

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import history
from accounts.exports import match_json
from accounts.forms import HistoryFilterForm
from games.api.answers import ErrorSerializer
from games.engine.options import VARIANTS
from ratings.api import FamilyRatingSerializer
from ratings.selectors import ratings_of
from wallet.selectors import format_money


class FamilyRatingsSerializer(serializers.Serializer):
    solo = FamilyRatingSerializer()
    partnership = FamilyRatingSerializer()


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the player's public id")
    display_name = serializers.CharField()
    member_since = serializers.DateTimeField()
    matches_played = serializers.IntegerField(help_text="finished matches")
    ratings = FamilyRatingsSerializer(help_text="the player's rating per variant family")


class SeatLineSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    kind = serializers.CharField(allow_null=True, help_text="human, bot or null (empty)")
    name = serializers.CharField(allow_blank=True, help_text="display name, 'Bot 3' or ''")
    player_id = serializers.IntegerField(allow_null=True, help_text="a player's public id")
    is_me = serializers.BooleanField()


class MatchSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    variant = serializers.ChoiceField(VARIANTS)
    partnership = serializers.BooleanField()
    kind = serializers.CharField(help_text="casual, tournament, ... (games.policy.TableKind)")
    status = serializers.CharField(help_text="open, playing, finished or cancelled")
    played_at = serializers.DateTimeField(help_text="when it started (created, if not yet)")
    finished_at = serializers.DateTimeField(allow_null=True)
    stake = serializers.IntegerField(help_text="minor units staked by this seat (0: free)")
    stake_display = serializers.CharField()
    seat = serializers.IntegerField(min_value=0, max_value=3, help_text="your seat")
    seats = SeatLineSerializer(many=True)
    result = serializers.ChoiceField(history.OUTCOMES)
    placement = serializers.IntegerField(
        allow_null=True,
        help_text="solo 1..4 (ties share), partnership the team's 1 or 2; null until the end",
    )
    score = serializers.IntegerField(allow_null=True, help_text="your seat's total at the end")
    team_score = serializers.IntegerField(allow_null=True, help_text="partnership: your team's")
    forfeit = serializers.BooleanField(help_text="your seat left the staked match: ranked last")
    payout = serializers.IntegerField(help_text="minor units paid back to your wallet")
    payout_display = serializers.CharField()
    net = serializers.IntegerField(help_text="minor units: payout minus stake (ledger)")
    net_display = serializers.CharField()
    table_url = serializers.CharField()
    verify_url = serializers.CharField(allow_null=True, help_text="finished matches only")


class MatchesPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: PlayerSerializer, 404: ErrorSerializer})
    def get(self, request, player_id: int):
        from rest_framework.exceptions import NotFound

        try:
            summary = history.player_summary(player_id=player_id)
        except history.PlayerNotFound as exc:
            raise NotFound(str(exc)) from None
        ratings = ratings_of(summary.id)
        return Response(PlayerSerializer({**asdict(summary), "ratings": ratings}).data)


_FILTERS = [
    OpenApiParameter("variant", str, enum=list(VARIANTS)),
    OpenApiParameter("stakes", str, enum=list(history.STAKES)),
    OpenApiParameter("since", OpenApiTypes.DATE, description="first day (inclusive)"),
    OpenApiParameter("until", OpenApiTypes.DATE, description="last day (inclusive)"),
    OpenApiParameter("result", str, enum=list(history.OUTCOMES)),
]


class MyMatchesView(generics.ListAPIView):
    """The signed-in player's matches (only ever their own: the user is the request's)."""

    permission_classes = [IsAuthenticated]
    pagination_class = MatchesPagination
    serializer_class = MatchSerializer

    def get_queryset(self):
        form = HistoryFilterForm.from_query(self.request.query_params)
        if not form.is_valid():
            # The dates' order is the form's own error (no field): answered as "dates".
            errors = {("dates" if k == "__all__" else k): v for k, v in form.errors.items()}
            raise serializers.ValidationError(errors)
        return history.match_history(user=self.request.user, filters=form.filters())

    @extend_schema(
        parameters=_FILTERS,
        responses={
            200: MatchSerializer(many=True),
            **dict.fromkeys((400, 401, 404), ErrorSerializer),
        },
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        rows = []
        for row in history.history_rows(seats=page):
            data = match_json(row)
            data["stake_display"] = format_money(row.stake)
            data["payout_display"] = format_money(row.payout)
            data["net_display"] = format_money(row.net)
            rows.append(data)
        return self.get_paginated_response(self.get_serializer(rows, many=True).data)


app_name = "players-api"
urlpatterns = [
    path("players/<int:player_id>/", PlayerView.as_view(), name="player"),
    path("me/matches/", MyMatchesView.as_view(), name="my-matches"),
]
