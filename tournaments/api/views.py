"""Thin API views of tournaments: validate the body with a serializer, call one service or
selector, answer with a typed serializer. Errors are the API's ``{"error", "code"}``: a
:class:`~tournaments.errors.TournamentError` answers with its own status and code; staff
actions refuse anyone else with 403 ``permission_denied`` before reading the body."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games import waits
from games.api.throttles import SettingRateThrottle
from games.live import streams
from tournaments import edits, live, selectors, services
from tournaments.api import serializers as s
from tournaments.errors import NotFound

ERRORS = {
    400: s.ErrorSerializer,
    401: s.ErrorSerializer,
    403: s.ErrorSerializer,
    404: s.ErrorSerializer,
    409: s.ErrorSerializer,
}


class TournamentThrottle(SettingRateThrottle):
    """Writes of tournaments: at most ``TRIX_ACTION_RATE`` per user (as the tables' actions),
    counted apart from them; 429 ``throttled`` above it."""

    scope = "tournaments"
    rate_setting = "TRIX_ACTION_RATE"
    message = _("Too many tournament requests: try again in %(seconds)s s.")


class StaffThrottle(SettingRateThrottle):
    """Staff writes of tournaments (create, edit, open, start, pause, resume, cancel,
    disqualify): at most ``TRIX_STAFF_ACTION_RATE`` per user, counted apart from the
    players' writes (``TRIX_ACTION_RATE``); 429 ``throttled`` above it."""

    scope = "tournament-staff"
    rate_setting = "TRIX_STAFF_ACTION_RATE"
    message = _("Too many staff actions: try again in %(seconds)s s.")


class IsStaff(BasePermission):
    """Staff only: anonymous 401, anyone else 403 with the view's ``staff_message``."""

    def has_permission(self, request, view) -> bool:
        user = request.user
        if not (user and user.is_authenticated):
            return False
        if not user.is_staff:
            self.message = _("only staff may %(what)s") % {"what": view.staff_message}
            return False
        return True


class TournamentView(APIView):
    """The tournaments API's base (the services' errors are answered in the API's shape by
    the project's handler, ``games.api.errors.api_exception_handler``)."""


class WriteView(TournamentView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [TournamentThrottle]


class StaffView(WriteView):
    permission_classes = [IsStaff]
    throttle_classes = [StaffThrottle]
    staff_message = _("manage tournaments")


def detail_data(tournament_id: int, user) -> dict:
    """The detail answer: the selector's, the caller's own entry and the related URLs; 404
    for a missing id, and for a draft unless ``user`` is staff (:func:`_readable`)."""
    _readable(tournament_id, user)
    data = selectors.tournament_detail(tournament_id)
    if data is None:
        raise NotFound(_("no tournament %(id)s") % {"id": tournament_id})
    data["me"] = selectors.player_status(tournament_id=tournament_id, user=user)
    data["draw_url"] = reverse("tournaments-api:draw", args=[tournament_id])
    data["live_url"] = reverse("tournaments-api:live", args=[tournament_id])
    return s.DetailSerializer(data).data


def _readable(tournament_id: int, user) -> None:
    """404 ``not_found`` unless ``user`` may read the tournament (a draft: staff only,
    ``selectors.tournament_readable``), the same answer as for a missing id."""
    if not selectors.tournament_readable(tournament_id=tournament_id, user=user):
        raise NotFound(_("no tournament %(id)s") % {"id": tournament_id})


class ListView(TournamentView):
    """GET: upcoming, running and finished tournaments (``?group=`` one of them only).
    POST (staff): create a tournament; 201 with its detail."""

    permission_classes = [AllowAny]
    throttle_classes = [StaffThrottle]

    def get_permissions(self):
        return [IsStaff()] if self.request.method == "POST" else [AllowAny()]

    def get_throttles(self):
        return super().get_throttles() if self.request.method == "POST" else []

    staff_message = _("create tournaments")

    @extend_schema(
        operation_id="tournaments_list",
        parameters=[s.ListQuerySerializer],
        responses={200: s.ListSerializer, 400: s.ErrorSerializer},
    )
    def get(self, request):
        query = s.ListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        group = query.validated_data.get("group")
        rows = selectors.tournament_list()
        if group:
            rows = {g: (v if g == group else []) for g, v in rows.items()}
        return Response(s.ListSerializer(rows).data)

    @extend_schema(
        request=s.CreateTournamentSerializer, responses={201: s.DetailSerializer, **ERRORS}
    )
    def post(self, request):
        body = s.CreateTournamentSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        t = services.create_tournament(by=request.user, **body.validated_data)
        return Response(detail_data(t.pk, request.user), status=status.HTTP_201_CREATED)


class DetailView(TournamentView):
    """One tournament: rules and parameters, entrants, teams, the prize table in money, the
    admin actions, the draw commitment (the seed after the start), your own entry."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.DetailSerializer, 404: s.ErrorSerializer})
    def get(self, request, tournament_id: int):
        return Response(detail_data(tournament_id, request.user))


class RegisterView(WriteView):
    """Enter the tournament; the entry fee moves from your wallet into its escrow."""

    @extend_schema(request=s.RegisterSerializer, responses={200: s.DetailSerializer, **ERRORS})
    def post(self, request, tournament_id: int):
        _readable(tournament_id, request.user)  # a draft: as a missing id
        body = s.RegisterSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.register(
            tournament_id=tournament_id,
            by=request.user,
            client_seed=body.validated_data.get("client_seed"),
        )
        return Response(detail_data(tournament_id, request.user))


class UnregisterView(WriteView):
    """Leave before registration closes; the fee comes back by the tournament's refund rule."""

    @extend_schema(request=None, responses={200: s.DetailSerializer, **ERRORS})
    def post(self, request, tournament_id: int):
        _readable(tournament_id, request.user)  # a draft: as a missing id
        s.BodySerializer(data=request.data).is_valid(raise_exception=True)
        services.unregister(tournament_id=tournament_id, by=request.user)
        return Response(detail_data(tournament_id, request.user))


class InviteView(WriteView):
    """Partnership: invite a partner to your team by their display name."""

    @extend_schema(request=s.InviteSerializer, responses={200: s.DetailSerializer, **ERRORS})
    def post(self, request, tournament_id: int):
        _readable(tournament_id, request.user)  # a draft: as a missing id
        body = s.InviteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.invite_partner(
            tournament_id=tournament_id,
            by=request.user,
            display_name=body.validated_data["display_name"],
        )
        return Response(detail_data(tournament_id, request.user))


class AcceptView(WriteView):
    """Accept a team's invitation: you pay your own entry fee and the team is complete."""

    @extend_schema(request=s.RegisterSerializer, responses={200: s.DetailSerializer, **ERRORS})
    def post(self, request, team_id: int):
        body = s.RegisterSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = services.accept_invite(
            team_id=team_id, by=request.user, client_seed=body.validated_data.get("client_seed")
        )
        return Response(detail_data(entry.tournament_id, request.user))


class DeclineView(WriteView):
    """Decline a team's invitation."""

    @extend_schema(request=None, responses={200: s.DetailSerializer, **ERRORS})
    def post(self, request, team_id: int):
        s.BodySerializer(data=request.data).is_valid(raise_exception=True)
        team = services.decline_invite(team_id=team_id, by=request.user)
        return Response(detail_data(team.tournament_id, request.user))


class LiveView(TournamentView):
    """The live bracket and standings, one long poll for the whole tournament: with
    ``since`` equal to the current live version, waits up to ``wait`` seconds (0 to 30,
    default 3, held at most ``TRIX_STATE_WAIT_MAX``) for any change (a registration, a
    round, a table's result, an admin action); otherwise, or when the caller already holds
    ``TRIX_WAITS_PER_CLIENT`` waits (``games.waits``; then with ``Retry-After``: when to
    come back), answers at once."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, description="the live version you have"),
            OpenApiParameter("wait", float, description="seconds to hold for a newer version"),
        ],
        responses={200: s.LiveSerializer, 400: s.ErrorSerializer, 404: s.ErrorSerializer},
    )
    def get(self, request, tournament_id: int):
        query = s.LiveQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        _readable(tournament_id, request.user)
        since = query.validated_data.get("since")
        wait = query.validated_data["wait"] if since is not None else 0.0
        with waits.held(request, wait) as held:
            if since is not None:
                live.wait_for_change(tournament_id=tournament_id, since=since, wait=held)
        response = Response(live_answer(tournament_id))
        waits.say_when(response, wait, held)  # above the cap: when to come back
        return response


def live_answer(tournament_id: int) -> dict:
    """The live page's answer (the long poll's and each message of the stream)."""
    return s.LiveSerializer(selectors.live_page(tournament_id=tournament_id)).data


LIVE_SOURCE = live.TournamentSource(live_answer)


@streams.get_only
async def live_stream(request, tournament_id: int):
    """``GET /api/tournaments/{id}/stream/?since=V`` (or ``Last-Event-ID``, which wins): the
    live page as Server-Sent Events, each message the answer of ``live/`` at a new live
    version (``id:`` the version) in the request's language, the same for every watcher of
    that language; ends after a finished or cancelled tournament's page
    (:mod:`games.live.streams`). With ``?patches=1`` (the page's), a message after the stream's
    first is ``event: patch`` (the RFC 6902 patch of the answer before it,
    :func:`games.live.patch.json_patch`) where that is smaller than the whole answer."""
    viewer = await request.auser()
    missing = _("no tournament %(id)s") % {"id": tournament_id}
    readable = sync_to_async(selectors.tournament_readable)
    if not await readable(tournament_id=tournament_id, user=viewer):  # a draft: staff only
        return JsonResponse({"error": missing, "code": "not_found"}, status=404)
    return await streams.response(
        request, live.tournament_key(tournament_id), LIVE_SOURCE, viewer=viewer, missing=missing
    )


class DrawRecordView(TournamentView):
    """The seating draw's ``trix-draw/1`` record as a download (``trix verify`` it); 409
    ``not_revealed`` before the start (the secret is never shown before)."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: s.DrawRecordSerializer, 404: s.ErrorSerializer, 409: s.ErrorSerializer}
    )
    def get(self, request, tournament_id: int):
        _readable(tournament_id, request.user)
        record = selectors.draw_record(tournament_id)
        if record is None:
            return Response(
                {
                    "error": _(
                        "the draw is revealed when the tournament starts: its commitment is on "
                        "the tournament page until then"
                    ),
                    "code": "not_revealed",
                },
                status=status.HTTP_409_CONFLICT,
            )
        response = JsonResponse(record, json_dumps_params={"indent": 2})
        response["Content-Disposition"] = (
            f'attachment; filename="tournament-{tournament_id}-draw.json"'
        )
        return response


class MineView(TournamentView):
    """Your tournaments, newest first: your entry's status, place and prize, invitations."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.MineSerializer(many=True), 401: s.ErrorSerializer})
    def get(self, request):
        return Response(s.MineSerializer(selectors.my_tournaments(request.user), many=True).data)


class EditView(StaffView):
    """Edit the tournament (staff): the name and description at any time, the times before
    the start, the prize table before the first registration, the capacity up; each change
    recorded with who and why (``edits`` in the detail). 409 ``wrong_status`` or
    ``registered`` when it is too late for a field; a refused edit changes nothing."""

    staff_message = _("edit tournaments")

    @extend_schema(
        request=s.EditTournamentSerializer, responses={200: s.DetailSerializer, **ERRORS}
    )
    def post(self, request, tournament_id: int):
        body = s.EditTournamentSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        edits.edit_tournament(tournament_id=tournament_id, by=request.user, **body.validated_data)
        return Response(detail_data(tournament_id, request.user))


class OpenView(StaffView):
    """Open a draft for registration (staff); 409 ``wrong_status`` if it is not a draft."""

    staff_message = _("open registration")

    @extend_schema(request=None, responses={200: s.DetailSerializer, **ERRORS})
    def post(self, request, tournament_id: int):
        s.BodySerializer(data=request.data).is_valid(raise_exception=True)
        services.open_registration(tournament_id=tournament_id, by=request.user)
        return Response(detail_data(tournament_id, request.user))


def _reason_action(service, message, doc: str):
    class View(StaffView):
        staff_message = message

        @extend_schema(request=s.ReasonSerializer, responses={200: s.DetailSerializer, **ERRORS})
        def post(self, request, tournament_id: int):
            body = s.ReasonSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            service(
                tournament_id=tournament_id, by=request.user, reason=body.validated_data["reason"]
            )
            return Response(detail_data(tournament_id, request.user))

    View.__doc__ = doc
    View.__name__ = View.__qualname__ = f"{service.__name__.capitalize()}View"
    return View


StartView = _reason_action(
    services.start,
    _("start tournaments"),
    "Start now (staff): registration closes, the draw is revealed, round 1 opens; below the "
    "minimum the tournament is cancelled and every fee refunded.",
)
PauseView = _reason_action(
    services.pause, _("pause tournaments"), "Pause (staff): no new round opens; tables go on."
)
ResumeView = _reason_action(
    services.resume, _("resume tournaments"), "Resume (staff): a round that became due opens."
)
CancelView = _reason_action(
    services.cancel,
    _("cancel tournaments"),
    "Cancel (staff): tables still playing end, every entry fee is refunded.",
)


class DisqualifyView(StaffView):
    """Disqualify an entrant (staff): last where they sit, no prize; recorded with why."""

    staff_message = _("disqualify players")

    @extend_schema(request=s.DisqualifySerializer, responses={200: s.DetailSerializer, **ERRORS})
    def post(self, request, tournament_id: int):
        body = s.DisqualifySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.disqualify(
            tournament_id=tournament_id,
            by=request.user,
            user_id=body.validated_data["user_id"],
            reason=body.validated_data["reason"],
        )
        return Response(detail_data(tournament_id, request.user))
