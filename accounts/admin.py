"""The accounts' admin: players' profiles with their standing (identity check, suspension,
closure), identity checks read-only, and suspensions: staff suspend an account with a
reason (add a suspension) and lift it with a reason (the suspension's change page), both
through ``accounts.services`` (who and when are recorded there). No page here shows a
table or a hand."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

from accounts import services, standing
from accounts.models import Closure, Profile, Suspension, Verification
from trix_site.admin import ReadOnlyAdmin, StrictLookupsAdmin


@admin.register(Profile)
class ProfileAdmin(StrictLookupsAdmin):
    list_display = ("user", "display_name", "verification", "suspended", "closed")
    search_fields = ("user__username", "display_name")
    readonly_fields = ("verification", "suspended", "closed")

    @admin.display(description=_("identity"))
    def verification(self, profile):
        return standing.verification_status(profile.user_id)

    @admin.display(description=_("suspended"), boolean=True)
    def suspended(self, profile):
        return standing.suspension_in_force(profile.user_id) is not None

    @admin.display(description=_("closed"), boolean=True)
    def closed(self, profile):
        return Closure.objects.filter(user_id=profile.user_id).exists()


@admin.register(Verification)
class VerificationAdmin(ReadOnlyAdmin):
    """Identity checks as the provider reported them (the documents stay with it)."""

    list_display = ("user", "status", "provider", "reference", "started_at", "checked_at")
    list_filter = ("status", "provider")
    search_fields = ("user__username",)


@admin.register(Closure)
class ClosureAdmin(ReadOnlyAdmin):
    list_display = ("user", "closed_at")
    search_fields = ("user__username",)


class InForce(admin.SimpleListFilter):
    title = _("in force")
    parameter_name = "in_force"

    def lookups(self, request, model_admin):
        return (("yes", _("in force")), ("no", _("lifted")))

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(lifted_at__isnull=self.value() == "yes")
        return queryset


class SuspendForm(forms.ModelForm):
    class Meta:
        model = Suspension
        fields = ("user", "reason")


class LiftForm(forms.ModelForm):
    lift = forms.CharField(
        label=_("Lift the suspension: reason"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=services.REASON_MAX,
        help_text=_("Recorded with the suspension; leave empty to keep the suspension."),
    )

    class Meta:
        model = Suspension
        fields = ()


@admin.register(Suspension)
class SuspensionAdmin(StrictLookupsAdmin):
    """Suspend: add a suspension (the player and the reason). Lift: open the suspension in
    force and give the reason for lifting it. Rows are never deleted."""

    list_display = ("user", "suspended_at", "suspended_by", "in_force", "lifted_at", "lifted_by")
    list_filter = (InForce,)
    search_fields = ("user__username", "reason")
    raw_id_fields = ("user",)
    readonly_fields = (
        "user",
        "reason",
        "suspended_by",
        "suspended_at",
        "lifted_by",
        "lifted_at",
        "lift_reason",
    )

    @admin.display(description=_("in force"), boolean=True)
    def in_force(self, suspension):
        return suspension.lifted_at is None

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = LiftForm if obj is not None else SuspendForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else ()

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("user", "reason")
        fields = list(self.readonly_fields)
        return fields + ["lift"] if obj.lifted_at is None else fields

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        try:
            if not change:
                saved = services.suspend(
                    user=obj.user, by=request.user, reason=form.cleaned_data["reason"]
                )
                obj.__dict__.update(
                    {f.attname: getattr(saved, f.attname) for f in saved._meta.concrete_fields}
                )
                obj._state.adding = False
            elif form.cleaned_data.get("lift", "").strip():
                services.lift_suspension(
                    user=obj.user, by=request.user, reason=form.cleaned_data["lift"]
                )
        except (ValidationError, PermissionDenied) as exc:
            messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
            raise _Refused from None

    def changeform_view(self, request, *args, **kwargs):
        try:
            return super().changeform_view(request, *args, **kwargs)
        except _Refused:
            return redirect(request.get_full_path())


class _Refused(Exception):
    """The service refused a suspension or its lifting (the message is already shown)."""
