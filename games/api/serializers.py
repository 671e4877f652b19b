"""Request validation for the tables API. Shapes: docs/api.md and ``/api/schema/``."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.validators import RegexValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.settings import api_settings

from games.engine import VARIANTS
from games.engine.bots import BOTS
from games.models import ACTION_TYPES, TableStatus
from games.shuffles import CLIENT_SEED_LABEL


class WholeNumberField(serializers.IntegerField):
    """A whole number as a JSON body sends it: ``2``. ``2.0``, ``"2"``, ``1e2`` and ``true``
    are refused (money is integer minor units, never a float: a stake of ``2.0`` would
    otherwise make a table of 0.02)."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


def json_kind(value: object) -> str:
    """What a parsed JSON value is, in JSON's words, in the active language: ``"an array"``,
    ``"a string"``, ``"a number"``, ``"a boolean"``, ``"null"`` or ``"an object"``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return _("a boolean")
    if isinstance(value, int | float):
        return _("a number")
    if isinstance(value, str):
        return _("a string")
    if isinstance(value, Mapping):
        return _("an object")
    return _("an array")


class TextField(serializers.CharField):
    """A :class:`~rest_framework.serializers.CharField` that takes a JSON string only: DRF's
    turns ``5`` into ``"5"`` (a client seed sent as the number 5 would be stored as
    ``"5"``). Anything else: 400 naming the field."""

    default_error_messages = {"not_text": gettext_lazy("must be a string, not {kind}")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_text", kind=json_kind(data))
        return super().to_internal_value(data)


class BodySerializer(serializers.Serializer):
    """A request body that takes only its declared fields: any other is refused by name (a
    ``seat`` beside an action is never silently dropped), and that is a JSON object (or form
    fields): an array, a string, a number, ``true`` or ``null`` is refused saying what it is
    (so that no endpoint, ``leave/`` included, ignores a body it cannot read). A body with
    no fields, or none sent, is ``{}``: use this class itself for an endpoint that takes no
    field (``leave/``, a tournament's ``unregister/``)."""

    def is_valid(self, *, raise_exception: bool = False) -> bool:
        """DRF's, with the refusal carrying the fields' labels (``labels``, translated: the
        error's sentence names "Stake", not ``stake``; ``games.api.errors``)."""
        valid = super().is_valid()
        if not valid and raise_exception:
            refused = serializers.ValidationError(self.errors)
            refused.labels = {name: str(f.label) for name, f in self.fields.items() if f.label}
            raise refused
        return valid

    def run_validation(self, data=empty):
        if data is not empty and not isinstance(data, Mapping):
            message = _("the body must be a JSON object ({...}), not %(kind)s") % {
                "kind": json_kind(data)
            }
            raise serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [message]})
        return super().run_validation(data)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            extra = set(data) - set(self.fields)
            if extra:
                fields = ", ".join(sorted(map(str, extra)))
                message = _("unexpected field(s): %(fields)s") % {"fields": fields}
                raise serializers.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [message]})
        return super().to_internal_value(data)


#: The labels a refusal's sentence names the fields by (``BodySerializer.is_valid``).
STAKE = gettext_lazy("Stake")
SEAT = gettext_lazy("Seat")
CLIENT_SEED = CLIENT_SEED_LABEL


class CreateTableSerializer(BodySerializer):
    variant = serializers.ChoiceField(
        choices=VARIANTS, default="complex_partner", label=gettext_lazy("Variant")
    )
    stake = WholeNumberField(min_value=0, default=0, label=STAKE, help_text="minor units per seat")
    options = serializers.DictField(
        required=False,
        default=dict,
        label=gettext_lazy("Table options"),
        help_text="any games.engine.Options fields",
    )


class TakeSeatSerializer(BodySerializer):
    seat = WholeNumberField(min_value=0, max_value=3, label=SEAT)
    client_seed = TextField(
        required=False,
        label=CLIENT_SEED,
        max_length=64,
        trim_whitespace=False,
        help_text="a string of 1 to 64 printable ASCII characters you chose; required at a "
        "staked table (400 without it); at a casual table omit it and the server makes one",
    )
    commitment = TextField(
        required=False,
        trim_whitespace=False,
        validators=[
            RegexValidator(r"\A[0-9a-f]{64}\Z", gettext_lazy("must be 64 lower-case hex digits"))
        ],
        label=gettext_lazy("Commitment"),
        help_text="the table's commitment as you saw and kept it before sending your seed "
        "(64 lower-case hex digits); another table commitment: 409 commitment_changed",
    )


class QuickPlayBodySerializer(BodySerializer):
    stake = WholeNumberField(
        min_value=0, default=0, label=STAKE, help_text="minor units per seat; 0: free"
    )
    client_seed = TextField(
        required=False,
        label=CLIENT_SEED,
        max_length=64,
        trim_whitespace=False,
        help_text="1 to 64 printable ASCII characters; required at a staked table",
    )
    sit = serializers.BooleanField(
        default=True,
        help_text="false: choose the seat without taking it (the page then sits there, "
        "after keeping the match's commitment)",
    )


class TableInviteBodySerializer(BodySerializer):
    private = serializers.BooleanField(
        default=True, help_text="true: not listed in the lobby (only the link finds it)"
    )


class SeatBotSerializer(BodySerializer):
    seat = WholeNumberField(min_value=0, max_value=3, label=SEAT)
    bot = serializers.ChoiceField(choices=sorted(BOTS), default="rules")


#: An action's type and the field it needs, in the words of a refusal's sentence (a plain
#: sentence in the player's language, never the JSON names: ``docs/i18n.md``, Messages).
MOVES = {
    "contract": gettext_lazy("choosing a contract"),
    "select": gettext_lazy("choosing cards"),
    "double": gettext_lazy("doubling"),
    "play": gettext_lazy("playing a card"),
    "pass": gettext_lazy("a pass"),
}
NEEDS = {"contract": "contract", "select": "cards", "double": "cards", "play": "card"}
NEEDED = {
    "contract": gettext_lazy("the contract"),
    "cards": gettext_lazy("the cards"),
    "card": gettext_lazy("the card"),
}


class ActionBodySerializer(serializers.Serializer):
    """The engine's JSON action without ``seat``: ``type`` and the one field it needs
    (:data:`NEEDS`); anything else is refused (400 ``invalid``)."""

    type = serializers.ChoiceField(choices=list(ACTION_TYPES))
    contract = TextField(required=False, max_length=16)
    cards = serializers.ListField(child=TextField(max_length=3), required=False, max_length=13)
    card = TextField(required=False, max_length=3)

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError(_("action must be a JSON object"))
        data_ = super().to_internal_value(data)
        kind = data_["type"]
        needs = NEEDS.get(kind)
        if needs and needs not in data_:
            raise serializers.ValidationError(
                _("%(move)s needs %(what)s.") % {"move": MOVES[kind], "what": NEEDED[needs]}
            )
        extra = set(data) - {"type", needs}
        if extra:
            raise serializers.ValidationError(
                _("nothing else is sent with %(move)s.") % {"move": MOVES[kind]}
            )
        return {k: v for k, v in data_.items() if k in ("type", needs)}


class SubmitActionSerializer(BodySerializer):
    id = serializers.UUIDField(help_text="chosen by the client; a retry reuses it")
    version = WholeNumberField(min_value=0, help_text="the version it was made against")
    action = ActionBodySerializer(label=gettext_lazy("Your move"))


class StateQuerySerializer(serializers.Serializer):
    since = serializers.IntegerField(min_value=0, required=False)
    wait = serializers.FloatField(min_value=0, max_value=30, required=False, default=3.0)


class ListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=TableStatus.values, required=False)
    page = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="page number, from 1 (TRIX_TABLES_PAGE_SIZE tables a page, newest first)",
    )
