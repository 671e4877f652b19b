"""Ratings in the admin: read only (ratings change by matches and ``recompute_ratings``)."""

from django.contrib import admin

from ratings.models import Rating, RatingChange


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "family", "display", "mu", "sigma", "matches", "updated_at")
    list_filter = ("family",)
    search_fields = ("user__username", "user__profile__display_name")
    ordering = ("family", "-display")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = (
        "table", "user", "family", "seat", "place", "display_before", "display_after",
        "finished_at",
    )  # fmt: skip
    list_filter = ("family",)
    search_fields = ("user__username", "=table__id")
    raw_id_fields = ("table", "user")
    ordering = ("-finished_at",)
