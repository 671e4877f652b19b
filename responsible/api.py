"""REST API of responsible play (mounted at ``/api/responsible/``; the signed-in player's own).

- ``GET /api/responsible/``: limits (each kind and period: amount in effect, pending change
  and when it applies), the exclusion in force, the reality-check interval;
- ``POST /api/responsible/limits/`` ``{"kind", "period", "amount"}`` (minor units; null: no
  limit): lower at once, raise in 24 hours;
- ``POST /api/responsible/time-out/`` ``{"days": 1..42, "confirm": true}`` and
  ``POST /api/responsible/self-exclusion/`` ``{"months": 6|12|24|60|null, "confirm": true}``
  (null: permanent): cannot be undone early;
- ``GET /api/responsible/reality-check/``: the reality check now (the table page polls it);
  ``PUT`` ``{"minutes"}`` sets the interval.

Amounts are integers in minor units. A body takes its declared fields only and its numbers
as JSON numbers (``"5"``, ``5.0``, ``true``: 400 ``invalid``), as the tables API does.
Errors: ``{"error", "code"}`` with a 4xx status.
"""

from __future__ import annotations

from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import BodySerializer, WholeNumberField
from responsible import rules, selectors, services
from responsible.errors import BadRequest
from responsible.gates import format_when
from responsible.models import ExclusionKind, LimitKind, Period
from wallet.inputs import MAX_AMOUNT
from wallet.selectors import format_money


class WholeChoiceField(serializers.ChoiceField):
    """One of ``choices`` (whole numbers) as a JSON number: ``"30"``, ``30.0`` and ``true`` are
    refused, the rule of :class:`~games.api.serializers.WholeNumberField`."""

    def to_internal_value(self, data):
        if data is not None:
            WholeNumberField().to_internal_value(data)
        return super().to_internal_value(data)


# Request bodies take their declared fields only, numbers as JSON numbers: the tables API's
# rule (games.api.serializers.BodySerializer, WholeNumberField).
class LimitSerializer(BodySerializer):
    kind = serializers.ChoiceField(choices=LimitKind.choices)
    period = serializers.ChoiceField(choices=Period.choices)
    amount = WholeNumberField(
        allow_null=True, min_value=1, max_value=MAX_AMOUNT, help_text="minor units; null: none"
    )
    pending_amount = serializers.IntegerField(allow_null=True, read_only=True)
    pending_from = serializers.DateTimeField(
        allow_null=True, read_only=True, help_text="when the pending change applies"
    )


class ExclusionSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ExclusionKind.choices)
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="null: permanent")


class OverviewSerializer(serializers.Serializer):
    limits = LimitSerializer(many=True)
    exclusion = ExclusionSerializer(allow_null=True)
    reality_check_minutes = serializers.IntegerField()


class TimeOutSerializer(BodySerializer):
    days = WholeNumberField(min_value=rules.TIME_OUT_DAYS[0], max_value=rules.TIME_OUT_DAYS[1])
    confirm = serializers.BooleanField(help_text="must be true: a time-out cannot be undone")


class SelfExclusionSerializer(BodySerializer):
    months = WholeChoiceField(
        choices=rules.SELF_EXCLUSION_MONTHS, allow_null=True, help_text="null: permanent"
    )
    confirm = serializers.BooleanField(help_text="must be true: it cannot be undone")


class RealityCheckSerializer(serializers.Serializer):
    interval_minutes = serializers.IntegerField()
    playing = serializers.BooleanField(help_text="in continuous play at a staked table")
    started_at = serializers.DateTimeField(allow_null=True)
    minutes_played = serializers.IntegerField()
    staked = serializers.IntegerField(help_text="minor units, this session")
    returned = serializers.IntegerField(help_text="minor units paid back, this session")
    net = serializers.IntegerField(help_text="minor units: returned − staked")
    due = serializers.IntegerField(help_text="notices due: one per full interval played")
    message = serializers.CharField(allow_null=True)


class RealityIntervalSerializer(BodySerializer):
    minutes = WholeChoiceField(choices=rules.REALITY_CHECK_MINUTES)


def _overview(user) -> dict:
    now = timezone.now()
    exclusion = selectors.active_exclusion(user, now)
    return {
        "limits": selectors.limits(user, now),
        "exclusion": exclusion,
        "reality_check_minutes": selectors.reality_check_minutes(user),
    }


def _confirmed(data) -> None:
    if not data["confirm"]:
        raise BadRequest(_("Confirm it (confirm: true): it cannot be undone early."), "confirm")


class OverviewView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OverviewSerializer)
    def get(self, request):
        return Response(OverviewSerializer(_overview(request.user)).data)


class LimitsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=LimitSerializer, responses=OverviewSerializer)
    def post(self, request):
        data = LimitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.set_limit(user=request.user, by=request.user, **data.validated_data)
        return Response(OverviewSerializer(_overview(request.user)).data)


def _exclusion_answer(row, before) -> Response:
    """201 with a new exclusion; 200 with the one in force when it already lasts as long."""
    created = before is None or row.pk != before.pk
    code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    return Response(ExclusionSerializer(row).data, status=code)


class TimeOutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TimeOutSerializer, responses={201: ExclusionSerializer, 200: ExclusionSerializer}
    )
    def post(self, request):
        data = TimeOutSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        _confirmed(data.validated_data)
        before = selectors.active_exclusion(request.user, timezone.now())
        row = services.take_time_out(
            user=request.user, days=data.validated_data["days"], by=request.user
        )
        return _exclusion_answer(row, before)


class SelfExclusionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SelfExclusionSerializer,
        responses={201: ExclusionSerializer, 200: ExclusionSerializer},
    )
    def post(self, request):
        data = SelfExclusionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        _confirmed(data.validated_data)
        before = selectors.active_exclusion(request.user, timezone.now())
        row = services.self_exclude(
            user=request.user, months=data.validated_data["months"], by=request.user
        )
        return _exclusion_answer(row, before)


def reality_message(check: dict) -> str | None:
    """The notice's text: time played and net result (None when not playing)."""
    if not check["playing"]:
        return None
    hours, minutes = divmod(check["minutes_played"], 60)
    return _(
        "Reality check: you have been playing for %(hours)s h %(minutes)s min since "
        "%(since)s. Net result: %(net)s (staked %(staked)s, paid back %(returned)s)."
    ) % {
        "hours": hours,
        "minutes": minutes,
        "since": format_when(check["started_at"]),
        "net": format_money(check["net"]),
        "staked": format_money(check["staked"]),
        "returned": format_money(check["returned"]),
    }


class RealityCheckView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=RealityCheckSerializer)
    def get(self, request):
        check = selectors.reality_check(request.user, timezone.now())
        check["message"] = reality_message(check)
        return Response(RealityCheckSerializer(check).data)

    @extend_schema(request=RealityIntervalSerializer, responses=RealityCheckSerializer)
    def put(self, request):
        data = RealityIntervalSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.set_reality_check(
            user=request.user, minutes=data.validated_data["minutes"], by=request.user
        )
        return self.get(request)


urlpatterns = [
    path("", OverviewView.as_view(), name="responsible-api"),
    path("limits/", LimitsView.as_view(), name="responsible-api-limits"),
    path("time-out/", TimeOutView.as_view(), name="responsible-api-time-out"),
    path("self-exclusion/", SelfExclusionView.as_view(), name="responsible-api-self-exclusion"),
    path("reality-check/", RealityCheckView.as_view(), name="responsible-api-reality-check"),
]
