"""Thin API views: validate with a serializer, call a service or selector, answer JSON."""

from __future__ import annotations

from django.http import JsonResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from games import selectors, services
from games.api import serializers as s


def _table(table_id: int, request) -> dict:
    return selectors.table_data(selectors.get_table(table_id), request.user)


class TableListView(APIView):
    """List tables (``?status=open``) or create one (you are its creator)."""

    permission_classes = [AllowAny]

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(parameters=[s.ListQuerySerializer], responses=OpenApiTypes.OBJECT)
    def get(self, request):
        query = s.ListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = selectors.tables(query.validated_data.get("status"))[:200]
        return Response([selectors.table_data(t, request.user) for t in rows])

    @extend_schema(request=s.CreateTableSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        body = s.CreateTableSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table = services.create_table(request.user, **body.validated_data)
        return Response(_table(table.pk, request), status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    """One table: options, seats, status, commitment, result."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, table_id: int):
        return Response(_table(table_id, request))


class SeatsView(APIView):
    """Take a seat with your client seed; the stake moves through the wallet."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.TakeSeatSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        body = s.TakeSeatSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.take_seat(
            request.user,
            table_id,
            body.validated_data["seat"],
            body.validated_data.get("client_seed"),
        )
        return Response(_table(table_id, request))


class LeaveView(APIView):
    """Leave your seat: refund before the start, forfeit at a paid table during a match."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        services.leave(request.user, table_id)
        return Response(_table(table_id, request))


class BotsView(APIView):
    """Seat a bot (the table's creator only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=s.SeatBotSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, table_id: int):
        body = s.SeatBotSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.seat_bot(
            request.user, table_id, body.validated_data["seat"], body.validated_data["bot"]
        )
        return Response(_table(table_id, request))


class StateView(APIView):
    """Your seat's view (or the spectator view) and the events after ``since``; waits up to
    ``wait`` seconds (default 3, capped at a few) when nothing is newer than ``since``."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, description="last version you saw"),
            OpenApiParameter("wait", float, description="seconds to hold for a newer version"),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request, table_id: int):
        query = s.StateQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        since = query.validated_data.get("since")
        wait = query.validated_data["wait"] if since is not None else 0.0
        answer = selectors.table_state(table_id, request.user, since, wait)
        if answer["my_seat"] is not None:
            services.check_in(user=request.user, table_id=table_id)
        return Response(answer)


class ActionsView(APIView):
    """Submit your seat's action; a worker applies it. 202, or the first result of its id.
    At most ``TRIX_ACTION_RATE`` a user (429 ``throttled`` above it)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "actions"

    @extend_schema(request=s.SubmitActionSerializer, responses={202: OpenApiTypes.OBJECT})
    def post(self, request, table_id: int):
        body = s.SubmitActionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        code, answer = services.submit_action(
            request.user, table_id, data["id"], data["version"], data["action"]
        )
        return Response(answer, status=code)


class DealVerificationView(APIView):
    """The public check of a finished deal: commitment, revealed seed, client seeds,
    algorithm, recomputed hands, verified or the mismatches (issue 3). No login needed."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, deal_id: int):
        return Response(selectors.deal_verification(deal_id))


class MatchVerificationView(APIView):
    """The public check of a table's match: every finished deal so far."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, table_id: int):
        return Response(selectors.match_verification(table_id))


class DealRecordView(APIView):
    """The ``trix-deal/1`` record of a finished deal, as a download (``trix verify`` it)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, deal_id: int):
        row = selectors.deal(deal_id)
        response = JsonResponse(row.record, json_dumps_params={"indent": 2})
        name = f"table-{row.table_id}-deal-{row.number}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
