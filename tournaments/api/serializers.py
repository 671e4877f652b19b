"""Shapes of the tournaments API: input bodies (only their declared fields; money in integer
minor units, shares in basis points) and typed answers, so ``/api/schema/`` describes every
field. The answers render the dicts of ``tournaments.selectors`` as they are."""

from __future__ import annotations

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.settings import api_settings

from games.api.answers import ErrorSerializer  # noqa: F401 (the API's one error shape)
from games.api.serializers import CLIENT_SEED, BodySerializer, TextField, WholeNumberField
from games.engine import VARIANTS
from games.fairness import table_results
from tournaments.models import BASIS_POINTS, Format
from tournaments.selectors import LIST_GROUPS

# -- input ------------------------------------------------------------------------------------


class ListQuerySerializer(serializers.Serializer):
    group = serializers.ChoiceField(choices=list(LIST_GROUPS), required=False)


class LiveQuerySerializer(serializers.Serializer):
    since = serializers.IntegerField(min_value=0, required=False)
    wait = serializers.FloatField(min_value=0, max_value=30, required=False, default=3.0)


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO 8601 date and time WITH its offset from UTC (``2026-12-06T18:00:00+03:00`` or
    ``...Z``); a naive one is refused (400 naming the field), never read in the server's
    zone."""

    default_error_messages = {
        "naive": _(
            "give the time with its offset from UTC, like 2026-12-06T18:00:00+03:00 or "
            "2026-12-06T15:00:00Z"
        ),
    }

    def to_internal_value(self, value):
        if isinstance(value, str):
            parsed = parse_datetime(value.strip())
            if parsed is not None and timezone.is_naive(parsed):
                self.fail("naive")
        return super().to_internal_value(value)


class CreateTournamentSerializer(BodySerializer):
    """Every parameter of a tournament (``tournaments.services.create_tournament``)."""

    name = TextField(max_length=100)
    format = serializers.ChoiceField(choices=Format.values, default=Format.SWISS)
    variant = serializers.ChoiceField(
        choices=VARIANTS, default="complex", help_text="a *_partner variant: teams of two"
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="games.engine.Options fields, timers included"
    )
    advance = WholeNumberField(default=2, help_text="knockout, solo: top k of a table (1 or 2)")
    rounds = WholeNumberField(default=0, help_text="Swiss: the number of rounds R")
    final_table = serializers.BooleanField(default=False, help_text="Swiss: a final table")
    entry_fee = WholeNumberField(min_value=0, default=0, help_text="minor units (0: free)")
    house_fee_bps = WholeNumberField(min_value=0, max_value=BASIS_POINTS, default=0)
    capacity = WholeNumberField(help_text="most entrants (solo) or teams")
    min_entrants = WholeNumberField(help_text="fewest entrants (solo) or teams")
    registration_opens_at = AwareDateTimeField()
    registration_closes_at = AwareDateTimeField()
    starts_at = AwareDateTimeField()
    prize_bps = serializers.ListField(
        child=WholeNumberField(min_value=0, max_value=BASIS_POINTS),
        min_length=1,
        max_length=1000,
        help_text="basis points of the pool by final place 1..n, summing to 10000",
    )
    refund_bps = WholeNumberField(min_value=0, max_value=BASIS_POINTS, default=BASIS_POINTS)
    review_seconds = WholeNumberField(min_value=0, required=False)
    no_show_without_action = serializers.BooleanField(
        default=True,
        help_text="an entrant with no move of their own at a table ranks last there (a no-show)",
    )
    draft = serializers.BooleanField(default=False, help_text="keep registration shut")
    description = TextField(
        max_length=2000, required=False, allow_blank=True, help_text="shown on the page"
    )

    allow_overlap = serializers.BooleanField(
        default=False,
        help_text="players may enter while in another event whose play overlaps this one's",
    )


class EditTournamentSerializer(BodySerializer):
    """An edit (``tournaments.edits.edit_tournament``): the fields to change, each optional,
    and why. Any other field of the tournament is refused (400 naming it)."""

    name = TextField(max_length=100, required=False)
    description = TextField(max_length=2000, required=False, allow_blank=True)
    registration_opens_at = AwareDateTimeField(required=False)
    registration_closes_at = AwareDateTimeField(required=False)
    starts_at = AwareDateTimeField(required=False)
    prize_bps = serializers.ListField(
        child=WholeNumberField(min_value=0, max_value=BASIS_POINTS),
        min_length=1,
        max_length=1000,
        required=False,
        help_text="before the first registration: basis points by final place, summing to 10000",
    )
    capacity = WholeNumberField(
        min_value=2, required=False, help_text="up; down too before the first registration"
    )
    reason = TextField(max_length=500, help_text="shown with the edit on the tournament page")

    def to_internal_value(self, data):
        from tournaments.edits import fixed_message

        if isinstance(data, dict):
            extra = set(data) - set(self.fields)
            if extra:
                raise serializers.ValidationError(
                    {api_settings.NON_FIELD_ERRORS_KEY: [fixed_message(sorted(extra))]}
                )
        return super().to_internal_value(data)


class RegisterSerializer(BodySerializer):
    client_seed = TextField(
        required=False,
        label=CLIENT_SEED,
        max_length=64,
        trim_whitespace=False,
        help_text="a string of 1 to 64 printable ASCII characters mixed into the seating "
        "draw; omit it and the server makes one",
    )


class InviteSerializer(BodySerializer):
    display_name = TextField(
        max_length=150, label=_("Display name"), help_text="the partner's display name"
    )


class ReasonSerializer(BodySerializer):
    reason = TextField(max_length=500, help_text="shown on the tournament page")


class DisqualifySerializer(ReasonSerializer):
    user_id = WholeNumberField(min_value=1, help_text="the entrant's user id")


# -- answers ----------------------------------------------------------------------------------


class SummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Format.values)
    format_name = serializers.CharField()
    format_name_ar = serializers.CharField()
    team_mode = serializers.BooleanField(help_text="partnership: teams of two")
    advance = serializers.IntegerField(help_text="knockout: top k of each table advance")
    rounds = serializers.IntegerField(help_text="Swiss: rounds R")
    final_table = serializers.BooleanField()
    variant = serializers.CharField()
    options = serializers.DictField(help_text="engine options of every table, timers included")
    entry_fee = serializers.IntegerField(help_text="minor units")
    entry_fee_text = serializers.CharField()
    house_fee_bps = serializers.IntegerField()
    capacity = serializers.IntegerField()
    min_entrants = serializers.IntegerField()
    registered = serializers.IntegerField(help_text="entrants (solo) or teams holding a place")
    registration_opens_at = AwareDateTimeField()
    registration_closes_at = AwareDateTimeField()
    starts_at = AwareDateTimeField()
    refund_bps = serializers.IntegerField()
    review_seconds = serializers.IntegerField()
    no_show_without_action = serializers.BooleanField(
        help_text="an entrant with no move of their own at a table is a no-show there"
    )
    allow_overlap = serializers.BooleanField(
        help_text="players may be in another event whose play overlaps this one's"
    )
    registration_closed_at = serializers.DateTimeField(
        allow_null=True, help_text="when registration actually closed (null: still open)"
    )
    started_at = serializers.DateTimeField(allow_null=True, help_text="the actual start")
    status = serializers.CharField()
    status_name = serializers.CharField()
    version = serializers.IntegerField(help_text="the live version (see live/)")


class ListSerializer(serializers.Serializer):
    upcoming = SummarySerializer(many=True)
    running = SummarySerializer(many=True)
    finished = SummarySerializer(many=True)


class PrizeSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    bps = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="minor units")
    text = serializers.CharField()


class DisqualifiedSerializer(serializers.Serializer):
    by = serializers.CharField(allow_null=True, help_text="the staff member's display name")
    reason = serializers.CharField()
    at = serializers.DateTimeField()


class EntrantSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    entrant = serializers.CharField()
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    team = serializers.CharField(allow_null=True)
    team_name = serializers.CharField(
        allow_null=True, help_text="the team's members' names joined by ' & ' (null: no team)"
    )
    status = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(allow_null=True)
    prize_text = serializers.CharField(allow_null=True)
    client_seed = serializers.CharField(
        allow_null=True, help_text="published when registration closes (null before)"
    )
    disqualified = DisqualifiedSerializer(
        allow_null=True, help_text="who disqualified the entrant and why (null: not)"
    )


class TeamSerializer(serializers.Serializer):
    team = serializers.CharField()
    id = serializers.IntegerField()
    status = serializers.CharField()
    members = serializers.ListField(child=serializers.IntegerField())
    names = serializers.ListField(child=serializers.CharField())
    invited = serializers.IntegerField(allow_null=True)
    invited_name = serializers.CharField(allow_null=True)


class AdminActionSerializer(serializers.Serializer):
    action = serializers.CharField()
    by = serializers.CharField(allow_null=True, help_text="None: the site itself")
    reason = serializers.CharField(allow_blank=True)
    at = serializers.DateTimeField()
    details = serializers.DictField()


class EditSerializer(serializers.Serializer):
    field = serializers.CharField()
    field_name = serializers.CharField(help_text="the field's name in the request's language")
    old = serializers.JSONField(help_text="text, ISO 8601 time, whole number or basis points")
    new = serializers.JSONField()
    old_text = serializers.CharField()
    new_text = serializers.CharField()
    by = serializers.CharField(help_text="the staff member's display name")
    reason = serializers.CharField()
    at = serializers.DateTimeField()


class PublishedEntrantSerializer(serializers.Serializer):
    entrant = serializers.CharField()
    name = serializers.CharField()
    client_seed = serializers.CharField()
    team = serializers.CharField(allow_null=True)


class InvitationSerializer(serializers.Serializer):
    team_id = serializers.IntegerField()
    # "from" is a Python keyword: declared below.


InvitationSerializer._declared_fields["from"] = serializers.CharField(
    help_text="the inviting player's display name"
)


class MeSerializer(serializers.Serializer):
    entry_status = serializers.CharField(allow_null=True)
    paid = serializers.IntegerField()
    refunded = serializers.IntegerField()
    team = serializers.CharField(allow_null=True)
    team_id = serializers.IntegerField(allow_null=True)
    team_status = serializers.CharField(allow_null=True)
    partner = serializers.CharField(allow_null=True)
    invited = serializers.CharField(allow_null=True)
    invitations = InvitationSerializer(many=True)
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(allow_null=True)
    prize_text = serializers.CharField(allow_null=True)


class DetailSerializer(SummarySerializer):
    prize_table = PrizeSerializer(many=True)
    entrants = EntrantSerializer(many=True)
    teams = TeamSerializer(many=True)
    admin_actions = AdminActionSerializer(many=True)
    description = serializers.CharField(allow_blank=True)
    edits = EditSerializer(many=True, help_text="changes after the creation: who, why, old, new")
    draw_commitment = serializers.CharField()
    draw_seed = serializers.CharField(allow_null=True, help_text="revealed at the start")
    draw_key = serializers.CharField(allow_null=True)
    published_entrants = PublishedEntrantSerializer(many=True)
    pool = serializers.IntegerField(allow_null=True)
    house_fee = serializers.IntegerField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    review_ends_at = serializers.DateTimeField(allow_null=True)
    prizes_paid_at = serializers.DateTimeField(allow_null=True)
    cancelled_at = serializers.DateTimeField(allow_null=True)
    me = MeSerializer(help_text="the caller's entry, team and invitations")
    draw_url = serializers.CharField(help_text="the trix-draw/1 record (after the start)")
    live_url = serializers.CharField()


class MineSerializer(SummarySerializer):
    entry_status = serializers.CharField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(allow_null=True)
    prize_text = serializers.CharField(allow_null=True)
    team = serializers.CharField(allow_null=True)
    invitation = serializers.IntegerField(allow_null=True, help_text="a team id inviting you")
    current_table = serializers.IntegerField(
        allow_null=True, help_text="the table you play at now: /tables/<current_table>/"
    )


class BracketSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    unit = serializers.CharField(allow_null=True, help_text="None: a bot")
    name = serializers.CharField()


class UnitResultSerializer(serializers.Serializer):
    unit = serializers.CharField(allow_null=True)
    place = serializers.IntegerField()
    score = serializers.IntegerField()


class BracketTableSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    table_id = serializers.IntegerField(help_text="watch it at /tables/<table_id>/")
    table_status = serializers.CharField()
    table_version = serializers.IntegerField()
    seats = BracketSeatSerializer(many=True)
    scores = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="seat -> match score: while playing, after the last finished deal (null "
        "before the first ends); then the result's",
    )
    deals_played = serializers.IntegerField(allow_null=True, help_text="the deals the scores count")
    result = UnitResultSerializer(many=True, allow_null=True)
    no_show = serializers.ListField(child=serializers.CharField())
    disqualified = serializers.ListField(
        child=serializers.CharField(),
        help_text="the result's; before it, the units seated here that are disqualified now",
    )
    advanced = serializers.ListField(child=serializers.CharField())


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    opened_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    show_up_deadline = serializers.DateTimeField()
    byes = serializers.ListField(child=serializers.CharField())
    bye_names = serializers.ListField(
        child=serializers.CharField(), help_text="the byes' names (a team's: its members')"
    )
    tables = BracketTableSerializer(many=True)


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    unit = serializers.CharField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    score = serializers.IntegerField()
    opponents_points = serializers.IntegerField()
    draw_rank = serializers.IntegerField()


class FinalPlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    unit = serializers.CharField()
    name = serializers.CharField()
    prize = serializers.IntegerField(help_text="minor units")
    prize_text = serializers.CharField()
    disqualified = DisqualifiedSerializer(
        allow_null=True,
        help_text="who disqualified the entrant (a team: a member) and why (null: not)",
    )


class DrawSerializer(serializers.Serializer):
    commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True)
    record_available = serializers.BooleanField()


class LiveSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField(help_text="send it back as since")
    status = serializers.CharField()
    status_name = serializers.CharField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Format.values)
    team_mode = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True, help_text="the actual start")
    review_ends_at = serializers.DateTimeField(
        allow_null=True, help_text="in review: when the prizes are paid"
    )
    prizes_paid_at = serializers.DateTimeField(allow_null=True)
    no_show_without_action = serializers.BooleanField()
    registered = serializers.IntegerField()
    entrants = EntrantSerializer(many=True)
    teams = TeamSerializer(many=True)
    prize_table = PrizeSerializer(many=True)
    rounds = RoundSerializer(many=True)
    standings = StandingSerializer(many=True)
    final = FinalPlaceSerializer(many=True)
    admin_actions = AdminActionSerializer(many=True)
    draw = DrawSerializer()


class DrawEntrantSerializer(serializers.Serializer):
    entrant = serializers.CharField()
    client_seed = serializers.CharField()


class DrawMatchSerializer(serializers.Serializer):
    match_id = serializers.CharField()
    records = serializers.ListField(
        child=serializers.CharField(), help_text="SHA-256 of each deal record, deal 1 first"
    )
    end = serializers.ChoiceField(choices=table_results.ENDS)
    forfeit = serializers.IntegerField(allow_null=True, help_text="the seat 0..3 that left")
    no_show = serializers.ListField(child=serializers.CharField())
    disqualified = serializers.ListField(child=serializers.CharField())


class DrawRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    kind = serializers.CharField()
    order = serializers.ListField(child=serializers.CharField())
    tables = serializers.ListField(child=serializers.ListField(allow_null=True))
    byes = serializers.ListField(child=serializers.CharField())
    results = serializers.ListField(allow_null=True)
    matches = DrawMatchSerializer(
        many=True,
        required=False,
        help_text="with results: per table, the match it played (docs/fairness.md, "
        "'Results bound to their matches')",
    )


class DrawRecordSerializer(serializers.Serializer):
    """The ``trix-draw/1`` record (``docs/fairness.md``); ``trix verify`` checks it."""

    format = serializers.CharField(help_text="trix-draw/1")
    event = serializers.CharField()
    tournament = serializers.DictField()
    commitment = serializers.CharField()
    server_seed = serializers.CharField()
    entrants = DrawEntrantSerializer(many=True)
    teams = serializers.DictField(required=False)
    rounds = DrawRoundSerializer(many=True)
