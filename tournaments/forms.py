"""The staff page's form to create a tournament: every parameter of a tournament with a
default (docs/tournaments.md).

Money is typed in currency units as on the wallet page (``wallet.forms.parse_amount``; ``0``
for a free event); shares are typed as percentages (``12.5``) and become basis points; the
prize table is percentages by final place (``50, 30, 20``). Times are the site's time zone
(``settings.TIME_ZONE``). The form only converts; ``services.create_tournament`` checks the
parameters (``Parameters.problems``): the form shows every problem at once, each at its
field (and the page lists them all at the top), before the service is called.
"""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine.options import Options
from tournaments.describe import FORMATS
from tournaments.describe import percent as describe_percent
from tournaments.models import BASIS_POINTS, Format
from tournaments.services.parameters import MAX_REVIEW_SECONDS, Parameters
from wallet.forms import ascii_digits, parse_amount
from web.names import VARIANTS, option_specs

_PERCENT = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,2})?", re.ASCII)
#: What separates the places of a typed prize table: spaces, commas and semicolons, the Arabic
#: comma («،») and semicolon («؛») among them.
_PLACE_SEPARATORS = re.compile(r"[\s,;،؛]+")
DATETIME_FORMAT = "%Y-%m-%dT%H:%M"


def parse_percent(text: str, field: str = "") -> int:
    """``"12.5"`` -> ``1250`` basis points (at most 2 decimals, 0 to 100; Arabic-Indic digits
    and ``٫`` read as the amounts' are, ``wallet.forms.ascii_digits``; a trailing ``%`` or
    ``٪``). Raises ``forms.ValidationError`` quoting the text, and naming ``field`` when
    given (a part of a list, "place 2"); a message shown at its own field names no field."""
    typed = (text or "").strip()
    number = ascii_digits(typed).rstrip("%٪").strip()
    if not _PERCENT.fullmatch(number):
        message = _("“%(text)s” is not a percentage like 10 or 12.5.") % {"text": typed}
    elif not 0 <= (bps := int(Decimal(number) * 100)) <= BASIS_POINTS:
        message = _("“%(text)s” is not from 0 to 100 %%.") % {"text": typed}
    else:
        return bps
    if field:
        message = _("%(field)s: %(message)s") % {"field": field, "message": message}
    raise forms.ValidationError(message)


def parse_fee(text: str) -> int:
    """An entry fee in currency units (``0`` allowed) -> minor units."""
    return parse_amount(text, allow_zero=True)


def parse_prizes(text: str) -> list[int]:
    """``"50, 30, 20"`` or ``"٥٠، ٣٠، ٢٠"`` (percent of the pool by final place, separated
    by :data:`_PLACE_SEPARATORS`) -> basis points, summing to 100 %. Raises
    ``forms.ValidationError``."""
    parts = [p for p in _PLACE_SEPARATORS.split(text or "") if p]
    if not parts:
        raise forms.ValidationError(_("Give at least one percentage."))
    out = [
        parse_percent(p, _("place %(place)s") % {"place": i}) for i, p in enumerate(parts, start=1)
    ]
    if sum(out) != BASIS_POINTS:
        total = Decimal(sum(out)) / 100
        raise forms.ValidationError(
            _("The prize table must add up to 100 %%, not %(total)s %%.") % {"total": total}
        )
    return out


def _when(minutes: int) -> str:
    now = timezone.localtime().replace(second=0, microsecond=0)
    return (now + timedelta(minutes=minutes)).strftime(DATETIME_FORMAT)


def _dt(**kw: Any) -> forms.DateTimeField:
    return forms.DateTimeField(
        input_formats=[DATETIME_FORMAT, "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_FORMAT),
        **kw,
    )


#: The create form's field of each parameter of ``Parameters`` (None: the form as a whole:
#: a table option's problem names the option).
PARAMETER_FIELDS: dict[str, str | None] = {
    "name": "name",
    "format": "format",
    "options": None,
    "advance": "advance",
    "rounds": "rounds",
    "entry_fee": "entry_fee",
    "house_fee_bps": "house_fee",
    "refund_bps": "refund",
    "capacity": "capacity",
    "min_entrants": "min_entrants",
    "review_seconds": "review_minutes",
    "prize_bps": "prizes",
    "registration_opens_at": "registration_opens_at",
    "registration_closes_at": "registration_closes_at",
    "starts_at": "starts_at",
    "no_show_without_action": "no_show_without_action",
}


class CreateTournamentForm(forms.Form):
    """Every parameter; ``to_parameters()`` gives ``services.create_tournament``'s keywords."""

    name = forms.CharField(max_length=100, label=gettext_lazy("Name"))
    description = forms.CharField(
        max_length=2000,
        required=False,
        label=gettext_lazy("Description"),
        help_text=gettext_lazy("Optional: shown on the tournament page."),
        widget=forms.Textarea(attrs={"rows": 3, "dir": "auto"}),
    )
    draft = forms.BooleanField(
        required=False,
        label=gettext_lazy("Keep as a draft"),
        help_text=gettext_lazy("Registration stays shut until opened from the tournament page."),
    )
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=[(code, f"{n['en']} · {n['ar']}") for code, n in FORMATS.items()],
        initial=Format.SWISS,
        help_text=gettext_lazy(
            "Swiss pods: everyone plays every round. Knockout: the top k advance."
        ),
    )
    variant = forms.ChoiceField(
        label=gettext_lazy("Variant"),
        choices=[(code, f"{n['en']} · {n['ar']}") for code, n in VARIANTS.items()],
        initial="complex",
        help_text=gettext_lazy(
            "A Partner variant makes a partnership event (شراكة): teams of two."
        ),
    )
    advance = forms.TypedChoiceField(
        choices=[
            (2, gettext_lazy("top 2 of each table")),
            (1, gettext_lazy("top 1 of each table")),
        ],
        coerce=int,
        initial=2,
        label=gettext_lazy("Knockout: who advances (solo)"),
    )
    rounds = forms.IntegerField(min_value=1, initial=3, label=gettext_lazy("Swiss: rounds R"))
    final_table = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Swiss: a final table of the top 4 (solo) or 2 teams"),
    )
    allow_overlap = forms.BooleanField(
        required=False,
        initial=False,
        label=gettext_lazy("Players may also be in another event at the same time"),
    )
    entry_fee = forms.CharField(
        max_length=20,
        initial="0",
        help_text=gettext_lazy("0 for a free event; like 5 or 5.50."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "dir": "ltr"}),
    )
    house_fee = forms.CharField(
        max_length=8,
        initial="0",
        label=gettext_lazy("House fee (percent of the pool)"),
        help_text=gettext_lazy("Like 10 or 2.5."),
    )
    capacity = forms.IntegerField(
        min_value=2, initial=16, label=gettext_lazy("Capacity (entrants or teams)")
    )
    min_entrants = forms.IntegerField(
        min_value=2, initial=4, label=gettext_lazy("Minimum to start (entrants or teams)")
    )
    registration_opens_at = _dt(label=gettext_lazy("Registration opens"))
    registration_closes_at = _dt(label=gettext_lazy("Registration closes"))
    starts_at = _dt(label=pgettext_lazy("tournament", "Start"))
    prizes = forms.CharField(
        max_length=400,
        initial="50, 30, 20",
        label=gettext_lazy("Prize table (percent of the pool by final place)"),
        help_text=gettext_lazy(
            "Percentages for places 1, 2, 3…, summing to 100 (a dot for decimals: 12.5)."
        ),
    )
    refund = forms.CharField(
        max_length=8,
        initial="100",
        label=gettext_lazy("Refund on unregistering (percent of the fee)"),
        help_text=gettext_lazy("Before registration closes. 100 = the whole fee."),
    )
    review_minutes = forms.IntegerField(
        min_value=0,
        max_value=MAX_REVIEW_SECONDS // 60,
        error_messages={
            "max_value": gettext_lazy(
                "The review window is at most %(limit_value)s minutes (a week)."
            ),
        },
        initial=settings.TRIX_TOURNAMENT_REVIEW_SECONDS // 60,
        label=gettext_lazy("Review window (minutes)"),
        help_text=gettext_lazy("Between the end and the payment of the prizes."),
    )

    no_show_without_action = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("No move of their own, a no-show"),
        help_text=gettext_lazy(
            "A player who makes no move themself at a table (the timer plays every turn) "
            "ranks last there, and one who never plays takes no prize."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["registration_opens_at"].initial = _when(0)
        self.fields["registration_closes_at"].initial = _when(60)
        self.fields["starts_at"].initial = _when(60)
        self.fields["entry_fee"].label = _("Entry fee (%(currency)s)") % {
            "currency": settings.TRIX_CURRENCY
        }
        self.option_fields = []
        for spec in option_specs():
            if spec["name"] == "variant":
                continue
            name = f"opt_{spec['name']}"
            if spec["kind"] == "choice":
                field = forms.ChoiceField(choices=spec["values"], initial=spec["default"])
            elif spec["kind"] == "bool":
                field = forms.BooleanField(required=False, initial=spec["default"])
            else:
                field = forms.IntegerField(min_value=1, initial=spec["default"])
            field.label = spec["label"]
            field.help_text = (
                spec["help"]
                if spec["kind"] != "seconds"
                else _("Every tournament table has timers. Default %(seconds)s s.")
                % {"seconds": spec["default"]}
            )
            self.fields[name] = field
            self.option_fields.append(name)

    def clean_entry_fee(self) -> int:
        return parse_fee(self.cleaned_data["entry_fee"])

    def clean_house_fee(self) -> int:
        return parse_percent(self.cleaned_data["house_fee"])

    def clean_refund(self) -> int:
        return parse_percent(self.cleaned_data["refund"])

    def clean_prizes(self) -> list[int]:
        return parse_prizes(self.cleaned_data["prizes"])

    def clean(self) -> dict[str, Any]:
        """Every problem of the parameters (``Parameters.problems``: the service's checks) at
        its field, beside the fields' own, so the admin sees them all in one answer; a field
        that already has an error keeps it alone."""
        cleaned = super().clean()
        params = self.to_parameters()
        for extra in ("draft", "description", "allow_overlap"):
            params.pop(extra)
        for parameter, message in Parameters(**params).problems(named=False).items():
            field = PARAMETER_FIELDS.get(parameter)
            if field is None or field not in self.errors:
                self.add_error(field, message)
        return cleaned

    def to_parameters(self) -> dict[str, Any]:
        """``services.create_tournament``'s keywords (without ``by``); a field the form
        could not read is None."""
        d = self.cleaned_data
        options: dict[str, Any] | None = {}
        for name in self.option_fields:
            if name not in d:
                options = None
                break
            options[name[4:]] = d[name]
        if options is not None:
            defaults = Options()
            for key in ("choose_timer", "double_timer", "play_timer"):
                options.setdefault(key, getattr(defaults, key))
        review = d.get("review_minutes")
        return {
            "name": d.get("name"),
            "description": d.get("description"),
            "draft": d.get("draft"),
            "format": d.get("format"),
            "variant": d.get("variant"),
            "options": options,
            "advance": d.get("advance"),
            "rounds": d.get("rounds"),
            "final_table": d.get("final_table"),
            "entry_fee": d.get("entry_fee"),
            "house_fee_bps": d.get("house_fee"),
            "capacity": d.get("capacity"),
            "min_entrants": d.get("min_entrants"),
            "registration_opens_at": d.get("registration_opens_at"),
            "registration_closes_at": d.get("registration_closes_at"),
            "starts_at": d.get("starts_at"),
            "prize_bps": d.get("prizes"),
            "refund_bps": d.get("refund"),
            "review_seconds": None if review is None else review * 60,
            "no_show_without_action": d.get("no_show_without_action"),
            "allow_overlap": d.get("allow_overlap"),
        }


class EditTournamentForm(forms.Form):
    """The staff page's edit of a tournament (``tournaments.edits``): every editable field
    filled with its current value (times in the site's zone, UTC, to the minute; the prize
    table in percent) and the reason. ``to_changes()`` gives ``edit_tournament``'s keywords
    for the fields whose value the staff member changed; the service checks the rules."""

    name = forms.CharField(max_length=100, label=gettext_lazy("Name"))
    description = forms.CharField(
        max_length=2000,
        required=False,
        label=gettext_lazy("Description"),
        widget=forms.Textarea(attrs={"rows": 3, "dir": "auto"}),
    )
    registration_opens_at = _dt(label=gettext_lazy("Registration opens"))
    registration_closes_at = _dt(label=gettext_lazy("Registration closes"))
    starts_at = _dt(label=pgettext_lazy("tournament", "Start"))
    prizes = forms.CharField(
        max_length=400,
        label=gettext_lazy("Prize table (percent of the pool by final place)"),
        help_text=gettext_lazy("Only before the first registration."),
        widget=forms.TextInput(attrs={"dir": "ltr", "inputmode": "decimal"}),
    )
    capacity = forms.IntegerField(
        min_value=2,
        label=gettext_lazy("Capacity (entrants or teams)"),
        help_text=gettext_lazy("Up; down too before the first registration."),
    )
    reason = forms.CharField(
        max_length=500,
        label=gettext_lazy("Reason"),
        help_text=gettext_lazy("Shown with the change on the tournament page."),
        widget=forms.TextInput(attrs={"dir": "auto"}),
    )

    TIMES = ("registration_opens_at", "registration_closes_at", "starts_at")

    def __init__(self, *args: Any, tournament: dict[str, Any], **kwargs: Any):
        """``tournament``: ``selectors.tournament_detail``'s dict."""
        kwargs.setdefault("label_suffix", "")
        self.current = {
            "name": tournament["name"],
            "description": tournament["description"],
            "capacity": tournament["capacity"],
            "prize_bps": [row["bps"] for row in tournament["prize_table"]],
            **{f: tournament[f] for f in self.TIMES},
        }
        initial = {
            "name": self.current["name"],
            "description": self.current["description"],
            "capacity": self.current["capacity"],
            "prizes": ", ".join(
                describe_percent(b).removesuffix(" %") for b in self.current["prize_bps"]
            ),
            **{
                f: timezone.localtime(self.current[f]).replace(second=0, microsecond=0)
                for f in self.TIMES
            },
        }
        super().__init__(*args, initial=initial, **kwargs)

    def clean_prizes(self) -> list[int]:
        return parse_prizes(self.cleaned_data["prizes"])

    def to_changes(self) -> dict[str, Any]:
        """``edits.edit_tournament``'s keywords (``reason`` and the changed fields)."""
        d = self.cleaned_data
        out: dict[str, Any] = {"reason": d["reason"]}
        for field in ("name", "description", "capacity"):
            if d[field] != self.current[field]:
                out[field] = d[field]
        if d["prizes"] != self.current["prize_bps"]:
            out["prize_bps"] = d["prizes"]
        for field in self.TIMES:
            if field in self.changed_data:
                out[field] = d[field]
        return out
