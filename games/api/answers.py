"""What the tables API answers: the shape of every response (output serializers, which
``/api/schema/`` describes) and the HTTP answer to an action id.

The views answer the selectors' dicts as they are (a state poll is the hot path: no second
pass over its fields); ``tests/test_schema.py`` checks real answers against these shapes,
field for field, so the schema cannot drift from what the API sends. Amounts are integer
minor units; times are ISO 8601 in UTC; per-seat maps are keyed ``"0"`` .. ``"3"``.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.engine import VARIANTS
from games.models import ActionStatus, TableAction, TableStatus
from games.policy import TableKind

# -- errors ----------------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer):
    """Every error of the API (``games.api.errors``)."""

    error = serializers.CharField(help_text="a clear message")
    code = serializers.CharField(help_text="a short machine name: invalid, not_found, ...")
    fields = serializers.DictField(
        required=False, help_text="invalid input: the message(s) of each field"
    )
    id = serializers.UUIDField(required=False, help_text="a rejected action's id")


# -- tables ----------------------------------------------------------------------------------


class PersonSerializer(serializers.Serializer):
    """A person (``accounts.selectors.person``)."""

    id = serializers.IntegerField()
    name = serializers.CharField(
        help_text="display name, in the answer's language; a closed account's is "
        "'Closed account <id>' (in Arabic 'حساب مغلق <id>')"
    )
    account_closed = serializers.BooleanField(
        help_text="the account is closed: a page shown in another language than the answer's "
        "names it 'Closed account <id>' in its own"
    )


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    kind = serializers.ChoiceField(
        choices=["human", "bot"], allow_null=True, help_text="null: empty"
    )
    name = serializers.CharField(allow_null=True, help_text="display name or bot kind")
    user_id = serializers.IntegerField(allow_null=True)
    account_closed = serializers.BooleanField(
        help_text="the person's account is closed (name: 'Closed account <user_id>' in the "
        "answer's language); false for a bot or an empty seat"
    )
    bot = serializers.CharField(allow_null=True, help_text="the bot's kind")
    staked = serializers.IntegerField(help_text="minor units this seat has staked")
    is_me = serializers.BooleanField(help_text="the caller's seat")
    away = serializers.BooleanField(
        help_text="missed two turns in a row: plays its default action at once until its "
        "player acts again (games.services.presence)"
    )
    rating = serializers.IntegerField(
        allow_null=True,
        help_text="the seat's displayed rating in the table's variant family (a person's "
        "current one, a bot's fixed one; docs/ratings.md); null: an empty seat",
    )
    held_for = PersonSerializer(
        allow_null=True,
        help_text="a rematch: the player of the last match this empty seat is held for "
        "until the table's holds_until (nobody else may take it); null: not held",
    )


class MatchResultSerializer(serializers.Serializer):
    """The engine's match result (``games.engine.results.match_result``)."""

    scores = serializers.DictField(child=serializers.IntegerField(), help_text="per seat")
    placements = serializers.DictField(
        child=serializers.IntegerField(), help_text="per seat, 1..4, ties share a place"
    )
    forfeit = serializers.IntegerField(allow_null=True, help_text="the seat that left, if any")
    deals_played = serializers.IntegerField()
    teams = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text='partnership: "0+2", "1+3"'
    )
    winner = serializers.CharField(
        allow_null=True, required=False, help_text="partnership: the winning team or null"
    )
    draw = serializers.BooleanField(required=False, help_text="partnership: no winner")


class TableSerializer(serializers.Serializer):
    """A table as the API shows it (``games.selectors.table_data``)."""

    id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=VARIANTS)
    partnership = serializers.BooleanField(help_text="seats 0+2 play against 1+3")
    options = serializers.DictField(help_text="the full option set (games.engine.Options)")
    kind = serializers.ChoiceField(
        choices=TableKind.values, help_text="what the table does (games.policy)"
    )
    origin = serializers.CharField(
        allow_blank=True,
        help_text="who made it: '' for a player, e.g. 'tournament:12/round:3/table:2'",
    )
    stake = serializers.IntegerField(help_text="minor units per seat; 0 for a free table")
    status = serializers.ChoiceField(choices=TableStatus.values)
    created_by = PersonSerializer()
    created_at = serializers.DateTimeField()
    version = serializers.IntegerField(help_text="one more for every event")
    seats = SeatSerializer(many=True)
    commitment = serializers.CharField(help_text="the match's shuffle commitment (hex)")
    receipt = serializers.DictField(
        allow_null=True,
        help_text="the match-start receipt trix-receipt/1 (docs/fairness.md), issued when the "
        "client seeds lock; null before",
    )
    receipt_signature = serializers.CharField(
        allow_null=True,
        help_text="the site's Ed25519 signature of the receipt (128 hex; the key at "
        "/fairness/public-key.json); null before",
    )
    result = MatchResultSerializer(allow_null=True, help_text="null until the match ends")
    private = serializers.BooleanField(
        help_text="not listed in the lobby: its creator shares an invite link"
    )
    rematch_of = serializers.IntegerField(
        allow_null=True, help_text="the finished table this one is the rematch of, or null"
    )
    holds_until = serializers.DateTimeField(
        allow_null=True,
        help_text="a rematch: its seats are held for the last match's players until then",
    )


class QuickPlayAnswerSerializer(serializers.Serializer):
    """Quick play's answer: where you sit (``games.services.lobby.quick_play``)."""

    table = TableSerializer(
        allow_null=True,
        help_text="null: ``sit: false`` at a stake where no table waits; none is made before "
        "you sit (create it, ``POST /api/tables/``, then sit at seat 0)",
    )
    seat = serializers.IntegerField(min_value=0, max_value=3)
    url = serializers.CharField(allow_null=True, help_text="the table page; null with ``table``")
    waiting_for = serializers.IntegerField(
        min_value=0,
        max_value=3,
        help_text="how many more players the table waits for, your seat counted (0: the "
        "match started, or starts when you sit)",
    )
    notice = serializers.CharField(
        allow_blank=True,
        help_text="what happens before the match starts, to show before you sit (at a "
        "staked table: no bots, when your stake comes back); empty when it starts at once",
    )


class TableInviteSerializer(serializers.Serializer):
    """A table's invite link (its creator only)."""

    table_id = serializers.IntegerField()
    private = serializers.BooleanField()
    invite_url = serializers.CharField(help_text="/invite/<secret token>/: opens a free seat")


class RematchSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    player = PersonSerializer(allow_null=True, help_text="the person it is held for")
    bot = serializers.CharField(allow_null=True, help_text="the bot re-seated there")
    answer = serializers.ChoiceField(
        choices=["bot", "accepted", "waiting", "declined", "lapsed", "open"],
        help_text="accepted: sits; waiting: held until holds_until; lapsed: the hold ran out",
    )
    is_me = serializers.BooleanField(help_text="held for the caller")


class RematchTableSerializer(serializers.Serializer):
    table_id = serializers.IntegerField(help_text="the rematch table")
    url = serializers.CharField(help_text="its table page")
    invite_url = serializers.CharField(
        allow_null=True, help_text="/invite/<secret token>/ (to the match's players; else null)"
    )
    status = serializers.ChoiceField(choices=TableStatus.values)
    proposed_by = PersonSerializer()
    holds_until = serializers.DateTimeField(allow_null=True)
    seats = RematchSeatSerializer(many=True)


class RematchSerializer(serializers.Serializer):
    """A finished table's rematch (``games.selectors.rematch_data``)."""

    table_id = serializers.IntegerField(help_text="the finished table")
    can_propose = serializers.BooleanField(
        help_text="the caller may propose the rematch now (a player, none made yet)"
    )
    open_until = serializers.DateTimeField(
        allow_null=True, help_text="when can_propose: until when (TRIX_REMATCH_WINDOW)"
    )
    rematch = RematchTableSerializer(allow_null=True, help_text="null: none proposed yet")


class TablePageSerializer(serializers.Serializer):
    """One page of the table list (``games.api.pages.TablePagination``)."""

    count = serializers.IntegerField(help_text="tables on every page together")
    next = serializers.URLField(allow_null=True, help_text="the next (older) page, or null")
    previous = serializers.URLField(allow_null=True, help_text="the previous page, or null")
    results = TableSerializer(many=True, help_text="this page's tables, newest first")


class TableEventSerializer(serializers.Serializer):
    """One event of the table's log; its other fields depend on ``type`` (docs/api.md)."""

    version = serializers.IntegerField()
    type = serializers.CharField()


class TableStateSerializer(serializers.Serializer):
    """The caller's view of a table (``games.selectors.table_state``)."""

    version = serializers.IntegerField()
    table = TableSerializer()
    view = serializers.DictField(
        allow_null=True,
        help_text="the caller's seat's view of the match, or the spectator view "
        "(games.engine views, docs/engine.md); null before the match starts",
    )
    events = TableEventSerializer(many=True, help_text="after since, those the caller may see")
    my_seat = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True, help_text="the seat to act's timeout")
    server_time = serializers.DateTimeField()
    returned_from_away = serializers.BooleanField(
        help_text="this answer's events (after since) clear the caller's seat's away mark "
        "(seat_back): tell the player they are back"
    )


# -- actions ---------------------------------------------------------------------------------


class ActionAcceptedSerializer(serializers.Serializer):
    """202: the action was applied (a retry of its id answers the same); ``pending`` only for
    an action an older release queued, until a worker applies it."""

    accepted = serializers.BooleanField()
    id = serializers.UUIDField()
    version = serializers.IntegerField(help_text="the version it was made against")
    status = serializers.ChoiceField(choices=[ActionStatus.PENDING, ActionStatus.APPLIED])
    applied_version = serializers.IntegerField(
        required=False, help_text="once applied: the table's version after it"
    )


def action_answer(action: TableAction) -> tuple[int, dict[str, Any]]:
    """``(http_status, body)`` for an action id: 202 (:class:`ActionAcceptedSerializer`)
    once applied, or while an older release's queued action is pending; a rejected action's
    status (409 stale, else 400) with :class:`ErrorSerializer` and its ``id``."""
    if action.status == ActionStatus.REJECTED:
        code = "stale_version" if action.http_status == 409 else "illegal_action"
        return action.http_status or 400, {
            "error": action.error,
            "code": code,
            "id": str(action.pk),
        }
    body: dict[str, Any] = {
        "accepted": True,
        "id": str(action.pk),
        "version": action.version,
        "status": action.status,
    }
    if action.applied_version is not None:
        body["applied_version"] = action.applied_version
    return 202, body


# -- verification ----------------------------------------------------------------------------


class DealCheckSerializer(serializers.Serializer):
    """The public check of one ended deal (``games.fairness.deal_verification``)."""

    algorithm = serializers.CharField(allow_null=True, help_text="trix-shuffle/1")
    match_id = serializers.CharField(allow_null=True)
    deal_number = serializers.IntegerField(allow_null=True)
    commitment = serializers.CharField(allow_null=True, help_text="hex")
    server_seed = serializers.CharField(allow_null=True, help_text="revealed, hex")
    client_seeds = serializers.DictField(
        child=serializers.CharField(allow_null=True), allow_null=True, help_text="per seat"
    )
    commitment_matches = serializers.BooleanField(
        allow_null=True, help_text="SHA-256^deal_number(server_seed) == commitment"
    )
    deck = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="52 codes, dealt first first"
    )
    hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text="per seat, 13 codes in dealt order",
    )
    result = serializers.DictField(allow_null=True, help_text="the engine's replay: scores, ...")
    verified = serializers.BooleanField()
    mismatches = serializers.ListField(child=serializers.CharField())


class DealVerificationSerializer(DealCheckSerializer):
    deal_id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="the deal's number in its match, from 1")


class MatchDealCheckSerializer(DealCheckSerializer):
    deal_id = serializers.IntegerField()


class MatchShuffleSerializer(serializers.Serializer):
    """What anyone may see of a match's shuffle at any time (``MatchShuffle.public``)."""

    algorithm = serializers.CharField()
    match_id = serializers.CharField()
    deals = serializers.IntegerField(help_text="deals the commitment covers")
    commitment = serializers.CharField(help_text="hex")
    client_seeds = serializers.DictField(
        child=serializers.CharField(), allow_null=True, help_text="per seat; null until locked"
    )
    ended_through = serializers.IntegerField(help_text="the last ended deal's number")
    revealed_seeds = serializers.DictField(
        child=serializers.CharField(), help_text="deal number -> server seed (hex)"
    )


class UnrecordedDealSerializer(serializers.Serializer):
    deal_number = serializers.IntegerField()
    server_seed = serializers.CharField(help_text="hex")


class EndedEarlySerializer(serializers.Serializer):
    by = serializers.ChoiceField(
        choices=["forfeit", "cancelled"], allow_null=True, help_text="null: not known"
    )
    records = serializers.IntegerField(help_text="how many deals have a record (deals 1..records)")
    deals = serializers.IntegerField(help_text="the receipt's deal count")


class MatchVerificationSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    match = MatchShuffleSerializer(allow_null=True)
    deals = MatchDealCheckSerializer(many=True, help_text="every ended deal, in order")
    verified = serializers.BooleanField()
    mismatches = serializers.ListField(child=serializers.CharField())
    receipt = serializers.JSONField(
        allow_null=True, help_text="the signed match-start receipt (trix-receipt/1); null before"
    )
    receipt_signature = serializers.CharField(allow_null=True, help_text="Ed25519, 128 hex")
    unrecorded = UnrecordedDealSerializer(
        many=True, help_text="seeds revealed without a record (a deal ended by a forfeit)"
    )
    partial = serializers.BooleanField(
        help_text="still running with fewer records than deals (more will come): the "
        "verify commands take --partial"
    )
    ended_early = EndedEarlySerializer(
        allow_null=True,
        help_text="a match that ended before its last deal; null otherwise. Nothing in the "
        "records or the log marks the end: the verifiers report the later deals missing "
        "unless the player adds --partial",
    )


class DealRecordSerializer(serializers.Serializer):
    """A ``trix-deal/1`` record (docs/engine.md) with its shuffle (docs/fairness.md)."""

    format = serializers.CharField(help_text="trix-deal/1")
    variant = serializers.ChoiceField(choices=VARIANTS)
    options = serializers.DictField(help_text="the options that differ from the defaults")
    contract = serializers.CharField()
    owner = serializers.IntegerField(help_text="the seat whose kingdom it is")
    hands = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), help_text="per seat"
    )
    doubles = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), help_text="per seat"
    )
    plays = serializers.ListField(
        child=serializers.CharField(), help_text='every card played, and "pass" in trix'
    )
    shuffle = serializers.DictField(help_text="commitment, revealed seed, client seeds")
    match = serializers.IntegerField(help_text="the table's id")
    deal_number = serializers.IntegerField()
