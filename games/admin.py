"""Django admin: tables, seats, events, actions and deals, all read-only (the state changes
only through the services, applied by workers).

Staff see no hidden information of a live match (tested by scanning every admin page of
one, ``tests/games/test_admin.py``): no hand (private events show no payload, the
match log and the stored state are never shown), no pending action or pick, no shuffle
secret (sealed in the database anyway: ``games.sealing``) and no bot seed."""

from django.contrib import admin, messages

from games import services
from games.errors import TableError
from games.models import (
    Deal,
    LogEntry,
    MatchRecord,
    Seat,
    Table,
    TableAction,
    TableEvent,
    TableStatus,
)
from trix_site.admin import ReadOnlyAdmin


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("seat", "user", "bot", "staked", "client_seed", "joined_at")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    """Tables and their seats. The bot seed (it decides the bots' choices) is never shown;
    the commitment and the client seeds are public."""

    exclude = ("bot_seed",)
    list_display = (
        "id",
        "variant",
        "kind",
        "stake",
        "status",
        "version",
        "origin",
        "created_by",
        "created_at",
    )
    list_filter = ("status", "kind", "variant")
    search_fields = ("id", "created_by__username", "origin")
    inlines = [SeatInline]
    actions = ["cancel_tables"]

    @admin.action(description="Cancel the selected tables (every stake refunded)")
    def cancel_tables(self, request, queryset):
        """``games.services.cancel_table`` for each open or playing table selected; the
        reason names the staff member. Tables a tournament created are cancelled from their
        tournament instead."""
        done = 0
        for table in queryset:
            if table.origin:
                self.message_user(
                    request,
                    f"table {table.pk} belongs to {table.origin}: cancel it there",
                    messages.WARNING,
                )
                continue
            try:
                services.cancel_table(
                    table_id=table.pk,
                    reason=f"cancelled by staff ({request.user})",
                    by=request.user,
                )
                done += 1
            except TableError as exc:
                self.message_user(request, f"table {table.pk}: {exc.message}", messages.ERROR)
        if done:
            self.message_user(request, f"{done} table(s) cancelled, every stake refunded")


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    """The event log without what only some seats may see: an event visible to some seats
    (a hand, a private pick) shows no payload, and the match log's increments (every hand of
    a deal) are never shown, so no staff page shows a live hand."""

    list_display = ("table", "version", "type", "visible_to", "created_at")
    list_filter = ("type",)
    search_fields = ("table__id",)
    fields = ("table", "version", "type", "public_payload", "visible_to", "created_at")
    readonly_fields = fields

    @admin.display(description="payload")
    def public_payload(self, obj):
        if obj.visible_to is not None:
            return f"(private to seat(s) {', '.join(str(s) for s in obj.visible_to)})"
        return obj.payload


#: Table statuses whose match is still live: its actions (a pending card, a private pick,
#: an error naming a card) are not shown.
_LIVE = (TableStatus.OPEN, TableStatus.PLAYING)


@admin.register(TableAction)
class TableActionAdmin(ReadOnlyAdmin):
    """Seat actions: what each was (and its error) is shown only once its table's match is
    over, so no staff page shows a card not yet played or a simultaneous-doubling pick."""

    list_display = ("id", "table", "seat", "source", "version", "status", "http_status")
    list_filter = ("status", "source")
    fields = (
        *("id", "table", "seat", "user", "source", "version", "shown_action", "status"),
        *("applied_version", "shown_error", "http_status", "submitted_at", "applied_at"),
    )
    readonly_fields = fields

    @admin.display(description="action")
    def shown_action(self, obj):
        return "(hidden until the match is over)" if obj.table.status in _LIVE else obj.action

    @admin.display(description="error")
    def shown_error(self, obj):
        return "(hidden until the match is over)" if obj.table.status in _LIVE else obj.error


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "number", "contract", "ended_at")


@admin.register(MatchRecord)
class MatchRecordAdmin(ReadOnlyAdmin):
    """Which table version the stored state is at. Neither the state (its log holds the
    hands of the deal in play) nor the private shuffle state is shown."""

    list_display = ("table", "state_version")
    fields = ("table", "state_version")
    readonly_fields = fields


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnlyAdmin):
    """The public transparency log (everything in it is public; it is served at
    ``/fairness/log.jsonl``), read-only: it is append-only."""

    list_display = ("index", "kind", "logged_at", "hash")
    list_filter = ("kind",)
