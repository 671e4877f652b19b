"""Admin of responsible play: staff see a player's limits (with pending raises), the log of
every change (who asked), exclusions and the reality-check interval; staff may set a
player's limit DOWN (never up or off), through ``responsible.services.set_limit`` with
``by=`` the staff user (logged in ``LimitChange``). Exclusions are never changed or deleted."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.utils import timezone

from responsible import rules, services
from responsible.errors import ResponsibleError
from responsible.models import Exclusion, Limit, LimitChange, PlaySettings
from trix_site.admin import ReadOnlyAdmin, StrictLookupsAdmin


class StaffLimitForm(forms.ModelForm):
    """A limit staff set for a player: only lower than the one in effect (or a new one)."""

    amount = forms.IntegerField(min_value=1, help_text="minor units; only lower than now")

    class Meta:
        model = Limit
        fields = ["user", "kind", "period", "amount"]

    def clean(self):
        data = super().clean()
        known = self.instance.pk is not None  # changing: the player, kind and period stay
        user = self.instance.user if known else data.get("user")
        kind = self.instance.kind if known else data.get("kind")
        period = self.instance.period if known else data.get("period")
        if user is None or kind is None or period is None or data.get("amount") is None:
            return data
        row = Limit.objects.filter(user=user, kind=kind, period=period).first()
        current = row.state() if row is not None else None
        if not rules.is_lowering(current, data["amount"], timezone.now()):
            raise forms.ValidationError("Staff can only lower a player's limit, never raise it.")
        return data

    def validate_unique(self):
        """The service updates the player's row for this kind and period in place."""


@admin.register(Limit)
class LimitAdmin(StrictLookupsAdmin):
    form = StaffLimitForm
    list_display = ["user", "kind", "period", "amount", "pending_amount", "pending_from"]
    list_filter = ["kind", "period"]
    search_fields = ["user__username", "user__email"]
    raw_id_fields = ["user"]
    readonly_fields = ["pending_amount", "pending_from", "updated_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:  # change the amount only; the player, kind and period stay
            return [*self.readonly_fields, "user", "kind", "period"]
        return self.readonly_fields

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        try:
            row = services.set_limit(
                user=obj.user,
                kind=obj.kind,
                period=obj.period,
                amount=form.cleaned_data["amount"],
                by=request.user,
            )
        except ResponsibleError as exc:  # checked by the form; raced by another change
            raise forms.ValidationError(exc.message) from None
        obj.pk = row.pk


@admin.register(LimitChange)
class LimitChangeAdmin(ReadOnlyAdmin):
    list_display = [
        "user",
        "kind",
        "period",
        "old_amount",
        "new_amount",
        "asked_at",
        "effective_at",
        "by",
        "by_staff",
    ]
    list_filter = ["kind", "period", "by_staff"]
    search_fields = ["user__username"]


@admin.register(Exclusion)
class ExclusionAdmin(ReadOnlyAdmin):
    list_display = ["user", "kind", "starts_at", "ends_at", "by"]
    list_filter = ["kind"]
    search_fields = ["user__username", "user__email"]


@admin.register(PlaySettings)
class PlaySettingsAdmin(ReadOnlyAdmin):
    list_display = ["user", "reality_check_minutes"]
    search_fields = ["user__username"]
