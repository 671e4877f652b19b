"""Django admin of tournaments: create one (through ``services.create_tournament``), edit it
(through ``edits.edit_tournament``: the name, description, times before the start, the prize
table before the first registration, the capacity, with a reason; every other field is
read-only once created) and act on it (open a draft, start, pause, resume, cancel, with a
reason, through the services). Nothing here edits a money field or the draw, and the draw's
secret is never shown."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm

from tournaments import edits, selectors, services
from tournaments.errors import TournamentError
from tournaments.models import (
    BASIS_POINTS,
    AdminAction,
    Entry,
    EntryStatus,
    Round,
    Status,
    Tournament,
    TournamentEdit,
)
from trix_site.admin import StrictLookupsAdmin

#: Fields the add form takes (the rest are set by the services).
CREATE_FIELDS = (
    "name",
    "format",
    "variant",
    "options",
    "advance",
    "rounds",
    "final_table",
    "entry_fee",
    "house_fee_bps",
    "capacity",
    "min_entrants",
    "registration_opens_at",
    "registration_closes_at",
    "starts_at",
    "refund_bps",
    "review_seconds",
    "no_show_without_action",
)


def percent_to_bps(text: str) -> list[int]:
    """``"50, 30, 20"`` (percent of the pool by place) -> ``[5000, 3000, 2000]``. Raises
    ``ValueError`` with a message for the form."""
    out = []
    for part in (p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        try:
            value = Decimal(part.rstrip("%")) * 100
        except InvalidOperation:
            raise ValueError(f"{part!r} is not a percentage") from None
        if value != value.to_integral_value() or value < 0:
            raise ValueError(f"{part!r}: at most two decimals, not negative")
        out.append(int(value))
    if sum(out) != BASIS_POINTS:
        raise ValueError(f"the percentages add up to {Decimal(sum(out)) / 100}, not 100")
    return out


#: Fields the edit form takes besides the prize table (``edits.EDITABLE``).
EDIT_FIELDS = (
    "name",
    "description",
    "registration_opens_at",
    "registration_closes_at",
    "starts_at",
    "capacity",
)
TIMES_HELP = "UTC (the site's time zone)."


class TournamentEditForm(forms.ModelForm):
    """A created tournament's editable fields, the prize table in percent and the reason; the
    changed fields are checked by ``edits.check_edit`` here (a refusal is shown on the form)
    and written by ``edits.edit_tournament`` in :meth:`TournamentAdmin.save_model`."""

    prizes_percent = forms.CharField(
        label="Prize table (% of the pool by place)",
        help_text="Only before the first registration; adds up to 100.",
    )
    edit_reason = forms.CharField(
        label="Reason for the change",
        max_length=500,
        help_text="Recorded with who and when, shown on the tournament page.",
    )

    class Meta:
        model = Tournament
        fields = EDIT_FIELDS
        help_texts = {f: TIMES_HELP for f in edits.TIMES}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["prizes_percent"].initial = ", ".join(
            str(Decimal(b) / 100).removesuffix(".00") for b in self.instance.prize_bps
        )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            prize_bps = percent_to_bps(data.get("prizes_percent", ""))
        except ValueError as exc:
            self.add_error("prizes_percent", str(exc))
            return data
        changes = {f: data[f] for f in EDIT_FIELDS if f in self.changed_data}
        if prize_bps != self.instance.prize_bps:
            changes["prize_bps"] = prize_bps
        try:
            edits.check_edit(self.instance, changes)
        except TournamentError as exc:
            raise forms.ValidationError(exc.message) from None
        self.changes = changes
        return data


class TournamentCreateForm(forms.ModelForm):
    prizes_percent = forms.CharField(
        label="Prize table (% of the pool by place)",
        initial="50, 30, 20",
        help_text="Percent of the pool (after the house fee) by place 1, 2, 3...; adds up to 100.",
    )
    draft = forms.BooleanField(
        required=False, help_text="Keep registration shut until opened from the list."
    )
    allow_overlap = forms.BooleanField(
        required=False,
        help_text="Players may enter while in another event whose play overlaps this one's "
        "(each event's play is taken to last TRIX_TOURNAMENT_SPAN from its start).",
    )

    class Meta:
        model = Tournament
        fields = (*CREATE_FIELDS, "description")
        help_texts = {f: TIMES_HELP for f in edits.TIMES}

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            data["prize_bps"] = percent_to_bps(data.get("prizes_percent", ""))
        except ValueError as exc:
            self.add_error("prizes_percent", str(exc))
            return data
        try:
            services.Parameters(
                **{f: data.get(f) for f in CREATE_FIELDS}, prize_bps=data["prize_bps"]
            ).checked()
        except TournamentError as exc:
            raise forms.ValidationError(exc.message) from None
        return data


class ReasonActionForm(ActionForm):
    reason = forms.CharField(
        required=False, max_length=500, help_text="Why (shown on the tournament page)."
    )


class AdminActionInline(admin.TabularInline):
    model = AdminAction
    extra = 0
    can_delete = False
    fields = ("at", "action", "by", "reason", "details")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


def _seed(entry: Entry) -> str:
    """An entrant's client seed, shown (as on the public pages) once registration closed."""
    if entry.tournament.status in (Status.DRAFT, Status.REGISTRATION):
        return "(published when registration closes)"
    return entry.client_seed


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ("user", "team", "status", "paid", "refunded", "place", "prize", "shown_seed")
    readonly_fields = fields
    shown_seed = admin.display(description="client seed")(lambda self, obj: _seed(obj))

    def has_add_permission(self, request, obj=None):
        return False


class TournamentEditInline(admin.TabularInline):
    model = TournamentEdit
    extra = 0
    can_delete = False
    verbose_name_plural = "changes since creation"
    fields = ("at", "field", "old", "new", "by", "reason")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    fields = ("number", "kind", "status", "opened_at", "finished_at", "seating")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


def _run(modeladmin, request, queryset, label: str, service, with_reason: bool = True) -> None:
    """Call ``service(tournament_id=..., by=..., reason=...)`` for each selected tournament;
    a refusal is shown as an error message and changes nothing."""
    reason = request.POST.get("reason", "")
    for t in queryset:
        extra = {"reason": reason} if with_reason else {}
        try:
            service(tournament_id=t.pk, by=request.user, **extra)
        except TournamentError as exc:
            modeladmin.message_user(request, f"{t.name}: {exc.message}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{t.name}: {label}")


@admin.register(Tournament)
class TournamentAdmin(StrictLookupsAdmin):
    list_display = ("id", "name", "format", "variant", "status", "entry_fee", "starts_at")
    list_filter = ("status", "format")
    search_fields = ("name",)
    action_form = ReasonActionForm
    actions = ["open_registration", "start", "pause", "resume", "cancel"]
    inlines = [TournamentEditInline, AdminActionInline, EntryInline, RoundInline]
    # Shown read-only once created; the draw's secret is not among them (never shown).
    readonly = (
        *(f for f in CREATE_FIELDS if f not in EDIT_FIELDS),
        "allow_overlap",
        "team_mode",
        "prize_bps",
        "prize_bps_at_start",
        "status",
        "draw_commitment",
        "draw_seed",
        "entrants",
        "pool",
        "house_fee",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
        "review_ends_at",
        "prizes_paid_at",
        "cancelled_at",
        "version",
    )

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = TournamentCreateForm if obj is None else TournamentEditForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return (*CREATE_FIELDS, "description", "prizes_percent", "draft", "allow_overlap")
        return (*EDIT_FIELDS, "prizes_percent", "edit_reason", *self.readonly)

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        if change:  # only the edit's fields, through the service (its rules, its record)
            try:
                edits.edit_tournament(
                    tournament_id=obj.pk,
                    by=request.user,
                    reason=form.cleaned_data["edit_reason"],
                    **form.changes,
                )
            except TournamentError as exc:  # the state changed since the form's check
                self.message_user(request, exc.message, messages.ERROR)
            obj.refresh_from_db()
            return
        data = form.cleaned_data
        created = services.create_tournament(
            by=request.user,
            **{f: data[f] for f in CREATE_FIELDS},
            prize_bps=data["prize_bps"],
            draft=data.get("draft", False),
            description=data.get("description", ""),
            allow_overlap=data.get("allow_overlap", False),
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        return

    def construct_change_message(self, request, form, formsets, add=False):
        """The admin log's message of the form alone: the inlines are read-only, never
        saved."""
        return super().construct_change_message(request, form, [], add)

    @admin.action(description="Open registration (drafts)")
    def open_registration(self, request, queryset):
        _run(self, request, queryset, "registration open", services.open_registration, False)

    @admin.action(description="Start now (reason)")
    def start(self, request, queryset):
        _run(self, request, queryset, "started", services.start)

    @admin.action(description="Pause (reason)")
    def pause(self, request, queryset):
        _run(self, request, queryset, "paused", services.pause)

    @admin.action(description="Resume (reason)")
    def resume(self, request, queryset):
        _run(self, request, queryset, "resumed", services.resume)

    @admin.action(description="Cancel and refund every entry fee (reason)")
    def cancel(self, request, queryset):
        _run(self, request, queryset, "cancelled, every entry fee refunded", services.cancel)


@admin.register(Entry)
class EntryAdmin(StrictLookupsAdmin):
    """Entries, read-only; the action disqualifies through the service (with a reason)."""

    list_display = ("id", "tournament", "user", "team", "status", "paid", "place", "prize")
    list_filter = ("status",)
    search_fields = ("tournament__name", "user__username")
    action_form = ReasonActionForm
    actions = ["disqualify"]
    fields = ("tournament", "user", "team", "status", "disqualified_by", "attempt", "paid",
              "refunded", "place", "prize", "shown_seed", "registered_at")  # fmt: skip
    readonly_fields = fields
    shown_seed = admin.display(description="client seed")(lambda self, obj: _seed(obj))

    @admin.display(description="disqualified by")
    def disqualified_by(self, obj: Entry) -> str:
        """Who disqualified the entrant, when and why (``-`` if not disqualified)."""
        if obj.status != EntryStatus.DISQUALIFIED:
            return "-"
        ruled = selectors.disqualifications(obj.tournament).get(obj.user_id)
        if ruled is None:
            return "-"
        return f"{ruled['by'] or 'the site'}, {ruled['at']:%Y-%m-%d %H:%M} UTC: {ruled['reason']}"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Disqualify (reason): last where they sit, no prize")
    def disqualify(self, request, queryset):
        reason = request.POST.get("reason", "")
        for entry in queryset:
            try:
                services.disqualify(
                    tournament_id=entry.tournament_id,
                    by=request.user,
                    user_id=entry.user_id,
                    reason=reason,
                )
            except TournamentError as exc:
                self.message_user(request, f"{entry}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{entry}: disqualified")
