"""Django admin: tables, seats, events, actions and deals, all read-only (the state changes
only through the services, applied by workers)."""

from django.contrib import admin

from games.models import Deal, MatchRecord, Seat, Table, TableAction, TableEvent
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
    list_display = ("id", "variant", "stake", "status", "version", "created_by", "created_at")
    list_filter = ("status", "variant")
    search_fields = ("id", "created_by__username")
    inlines = [SeatInline]


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "version", "type", "visible_to", "created_at")
    list_filter = ("type",)
    search_fields = ("table__id",)


@admin.register(TableAction)
class TableActionAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "seat", "source", "version", "status", "http_status")
    list_filter = ("status", "source")


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "number", "contract", "ended_at")


@admin.register(MatchRecord)
class MatchRecordAdmin(ReadOnlyAdmin):
    """The stored state (its log); the private shuffle state is not shown."""

    list_display = ("table",)
    fields = ("table", "state")
    readonly_fields = fields
