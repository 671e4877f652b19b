"""Thin API views: validate with a serializer, call a service or selector, answer JSON.

Every answer's shape is a serializer of :mod:`games.api.answers` (so ``/api/schema/`` describes
it); the views send the selectors' dicts as they are."""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games import fairness_selectors, selectors, services, waits
from games.api import answers as a
from games.api import serializers as s
from games.api import throttles
from games.api.pages import TablePagination
from games.live import streams
from games.live.sources import TABLES
from games.services import lobby, rematch


def _errors(*codes: int) -> dict:
    """The error answers an operation may give, for the schema (``{"error", "code"}``)."""
    return {code: a.ErrorSerializer for code in codes}


def _table(table_id: int, request) -> dict:
    return selectors.table_data(selectors.get_table(table_id), request.user)


class TableListView(APIView):
    """List tables (``?status=open``), newest first, a page at a time (``?page=N``,
    ``TRIX_TABLES_PAGE_SIZE`` a page), or create one (you are its creator; at most
    ``TRIX_TABLE_CREATE_RATE`` a user, 429 above it; at most ``TRIX_MAX_OPEN_TABLES`` open
    tables a creator, 409 ``too_many_open_tables`` above it)."""

    permission_classes = [AllowAny]
    throttle_classes = [throttles.TableCreateThrottle]

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    def get_throttles(self):
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(
        operation_id="tables_list",
        parameters=[s.ListQuerySerializer],
        responses={200: a.TablePageSerializer, **_errors(400, 404)},
    )
    def get(self, request):
        query = s.ListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        pages = TablePagination()
        rows = pages.paginate_queryset(
            selectors.listed_tables(request.user, query.validated_data.get("status")),
            request,
            view=self,
        )
        rows = selectors.with_seat_ratings(list(rows))
        return pages.get_paginated_response([selectors.table_data(t, request.user) for t in rows])

    @extend_schema(
        request=s.CreateTableSerializer,
        responses={201: a.TableSerializer, **_errors(400, 401, 403, 409, 429)},
    )
    def post(self, request):
        body = s.CreateTableSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table = services.create_table(user=request.user, **body.validated_data)
        return Response(_table(table.pk, request), status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    """One table: options, seats, status, commitment, result."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: a.TableSerializer, **_errors(404)})
    def get(self, request, table_id: int):
        return Response(_table(table_id, request))


class SeatsView(APIView):
    """Take a seat with your client seed (and the table's ``commitment`` you kept before
    sending it: another one is 409 ``commitment_changed``); the seed enters the fairness log
    after the commitment; the stake moves through the wallet. A staked seat
    needs a verified identity and an account not suspended (403 ``kyc_required``,
    ``suspended``); at a staked table one IP address holds one seat (409 ``same_address``,
    unless ``TRIX_SAME_ADDRESS_SEATS``). Taking and leaving seats: at most
    ``TRIX_SEAT_RATE`` a user together (429 above it)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [throttles.SeatThrottle]

    @extend_schema(
        request=s.TakeSeatSerializer,
        responses={200: a.TableSerializer, **_errors(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request, table_id: int):
        body = s.TakeSeatSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.take_seat(
            user=request.user,
            table_id=table_id,
            seat=body.validated_data["seat"],
            client_seed=body.validated_data.get("client_seed"),
            commitment=body.validated_data.get("commitment"),
            address=throttles.client_address(request),
        )
        return Response(_table(table_id, request))


class LeaveView(APIView):
    """Leave your seat: refund before the start, forfeit at a paid table during a match.
    Counted with taking seats (``TRIX_SEAT_RATE``, 429 above it)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [throttles.SeatThrottle]

    @extend_schema(
        request=None,
        responses={200: a.TableSerializer, **_errors(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request, table_id: int):
        s.BodySerializer(data=request.data).is_valid(raise_exception=True)  # takes no field
        services.leave(user=request.user, table_id=table_id)
        return Response(_table(table_id, request))


class QuickPlayView(APIView):
    """Sit at the first open table of the default variant at your stake with a free seat, or
    a new one: free, filled with bots; staked, waiting for players (bots never stake;
    ``games.services.lobby.quick_play``). The answer says how many players the table waits
    for and what that means (``waiting_for``, ``notice``). A staked table needs your
    ``client_seed``; ``sit: false`` only chooses the seat (the lobby page: the table page
    then sits there), and at a stake where no table waits makes none (``table`` and ``url``
    null: the page creates it when the player sits). A ``client_seed`` is taken only at a
    table made before the call: where a new one would be made for it, 409
    ``commitment_first`` and nothing is made (the commitment is logged before any seed).
    Counted with taking seats (``TRIX_SEAT_RATE``)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [throttles.SeatThrottle]

    @extend_schema(
        request=s.QuickPlayBodySerializer,
        responses={200: a.QuickPlayAnswerSerializer, **_errors(400, 401, 403, 409, 429)},
    )
    def post(self, request):
        body = s.QuickPlayBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table, seat = lobby.quick_play(
            user=request.user, **body.validated_data, address=throttles.client_address(request)
        )
        stake = body.validated_data.get("stake", 0)
        return Response(
            {
                "table": _table(table.pk, request) if table else None,
                "seat": seat,
                "url": f"/tables/{table.pk}/" if table else None,
                "waiting_for": lobby.waiting_for(table, seat),
                "notice": lobby.waiting_notice(table, seat, stake=stake),
            }
        )


class InviteView(APIView):
    """Your table's invite link (creator only, before the match starts); ``private``
    (default true) keeps it out of the lobby's list."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.TableInviteBodySerializer,
        responses={200: a.TableInviteSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, table_id: int):
        body = s.TableInviteBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table = lobby.invite(user=request.user, table_id=table_id, **body.validated_data)
        return Response(
            {
                "table_id": table.pk,
                "private": table.private,
                "invite_url": f"/invite/{table.invite_token}/",
            }
        )


class RematchView(APIView):
    """A finished table's rematch (``games.services.rematch``): read it, or propose it (a
    player of the match, within ``TRIX_REMATCH_WINDOW`` of its end): one new table with the
    same options, stake and bots, each player's seat held for them until ``holds_until``
    (``TRIX_REMATCH_HOLD``); each accepts by taking that seat (``seats/``, their own client
    seed). 201 when this call made it, 200 when it was already made (one rematch a table)."""

    permission_classes = [AllowAny]
    throttle_classes = [throttles.TableCreateThrottle]

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    def get_throttles(self):
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(
        operation_id="tables_rematch_read", responses={200: a.RematchSerializer, **_errors(404)}
    )
    def get(self, request, table_id: int):
        return Response(selectors.rematch_data(table_id, request.user))

    @extend_schema(
        operation_id="tables_rematch_propose",
        request=None,
        responses={
            200: a.RematchSerializer,
            201: a.RematchSerializer,
            **_errors(400, 401, 403, 404, 409, 429),
        },
    )
    def post(self, request, table_id: int):
        s.BodySerializer(data=request.data).is_valid(raise_exception=True)  # takes no field
        _, created = rematch.propose(user=request.user, table_id=table_id)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(selectors.rematch_data(table_id, request.user), status=code)


class RematchDeclineView(APIView):
    """Decline the rematch of a finished table: the seat held for you is freed (you leave it
    first, refunded, if you sat); when every player declined and nobody sits it is
    cancelled."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: a.RematchSerializer, **_errors(400, 401, 403, 404, 409)}
    )
    def post(self, request, table_id: int):
        s.BodySerializer(data=request.data).is_valid(raise_exception=True)  # takes no field
        rematch.decline(user=request.user, table_id=table_id)
        return Response(selectors.rematch_data(table_id, request.user))


class BackView(APIView):
    """Say you are back at your seat without acting: its away mark is cleared
    (``seat_back``) and its turns get the full timer again; nothing changes when it is not
    away. Counted with the actions (``TRIX_ACTION_RATE``)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [throttles.ActionThrottle]

    @extend_schema(
        request=None,
        responses={200: a.TableSerializer, **_errors(400, 401, 403, 404, 429)},
    )
    def post(self, request, table_id: int):
        services.come_back(user=request.user, table_id=table_id)
        return Response(_table(table_id, request))


class BotsView(APIView):
    """Seat a bot (the table's creator only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.SeatBotSerializer,
        responses={200: a.TableSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request, table_id: int):
        body = s.SeatBotSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.seat_bot(
            user=request.user,
            table_id=table_id,
            seat=body.validated_data["seat"],
            bot=body.validated_data["bot"],
        )
        return Response(_table(table_id, request))


class StateView(APIView):
    """Your seat's view (or the spectator view) and the events after ``since``; waits up to
    ``wait`` seconds (default 3, capped at ``TRIX_STATE_WAIT_MAX``) when nothing is newer
    than ``since``, unless the caller already holds ``TRIX_WAITS_PER_CLIENT`` waits (then
    it answers at once, with ``Retry-After``: when to come back)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, description="last version you saw"),
            OpenApiParameter("wait", float, description="seconds to hold for a newer version"),
        ],
        responses={200: a.TableStateSerializer, **_errors(400, 404)},
    )
    def get(self, request, table_id: int):
        query = s.StateQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        since = query.validated_data.get("since")
        wait = query.validated_data["wait"] if since is not None else 0.0
        with waits.held(request, wait) as held:  # 0 above TRIX_WAITS_PER_CLIENT
            answer = selectors.table_state(table_id, request.user, since, held)
        if answer["my_seat"] is not None:
            services.check_in(user=request.user, table_id=table_id)
        response = Response(answer)
        waits.say_when(response, wait, held)  # above the cap: when to come back
        return response


@streams.get_only
async def table_stream(request, table_id: int):
    """``GET /api/tables/{id}/stream/?since=V`` (or the ``Last-Event-ID`` header, which
    wins): the table's live stream, Server-Sent Events whose each message is what the state
    poll answers the caller after their previous version (:mod:`games.live.streams`). An async
    view: served by an ASGI server (``trix_site.asgi``), it holds no thread while it waits."""
    user = await request.auser()

    def on_seat(seat: int) -> None:  # a seated user reading their table is present
        services.check_in(user=user, table_id=table_id)

    return await streams.response(
        request,
        table_id,
        TABLES,
        viewer=user,
        missing=_("There is no table %(id)s.") % {"id": table_id},
        on_seat=on_seat,
    )


class ActionsView(APIView):
    """Submit your seat's action: checked and applied at once. 202 with the version it made,
    or the first result of its id.
    At most ``TRIX_ACTION_RATE`` a user (429 ``throttled`` above it)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [throttles.ActionThrottle]

    @extend_schema(
        request=s.SubmitActionSerializer,
        responses={202: a.ActionAcceptedSerializer, **_errors(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request, table_id: int):
        body = s.SubmitActionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        row = services.submit_action(
            user=request.user,
            table_id=table_id,
            action_id=data["id"],
            version=data["version"],
            action=data["action"],
        )
        code, answer = a.action_answer(row)
        return Response(answer, status=code)


class DealVerificationView(APIView):
    """The public check of a finished deal: commitment, revealed seed, client seeds,
    algorithm, recomputed hands, verified or the mismatches (``docs/fairness.md``). No login
    needed."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: a.DealVerificationSerializer, **_errors(404)})
    def get(self, request, deal_id: int):
        return Response(fairness_selectors.deal_verification(deal_id))


class MatchVerificationView(APIView):
    """The public check of a table's match: every finished deal so far."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: a.MatchVerificationSerializer, **_errors(404)})
    def get(self, request, table_id: int):
        return Response(fairness_selectors.match_verification(table_id))


class DealRecordView(APIView):
    """The ``trix-deal/1`` record of a finished deal, as a download (``trix verify`` it)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: a.DealRecordSerializer, **_errors(404)})
    def get(self, request, deal_id: int):
        row = fairness_selectors.deal(deal_id)
        response = JsonResponse(row.record, json_dumps_params={"indent": 2})
        name = f"table-{row.table_id}-deal-{row.number}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
