"""The limits page (``/account/limits/``): limits in effect and pending, setting them, the
reality-check interval, a time-out and self-exclusion (each after a confirmation step).
Thin: reads from ``responsible.selectors``, writes through ``responsible.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from responsible import rules, selectors, services
from responsible.errors import ResponsibleError
from responsible.forms import LimitForm, RealityCheckForm, SelfExclusionForm, TimeOutForm
from responsible.gates import LIMIT_NAMES, format_when
from responsible.models import ExclusionKind
from wallet.selectors import format_money


def _when(when):
    """A moment for the page: kept on one line (a date's hyphens are break points)."""
    return format_html('<span class="when">{}</span>', format_when(when))


def _rows(user, now):
    rows = []
    for row in selectors.limits(user, now):
        pending = row["pending_from"] is not None
        rows.append(
            {
                **row,
                "name": LIMIT_NAMES[(row["kind"], row["period"])],
                "amount_text": format_money(row["amount"]) if row["amount"] else None,
                "pending": pending,
                "pending_text": (
                    format_money(row["pending_amount"]) if row["pending_amount"] else None
                ),
                "pending_when": _when(row["pending_from"]) if pending else None,
            }
        )
    return rows


def _render(request, *, status=200, **forms):
    now = timezone.now()
    exclusion = selectors.active_exclusion(request.user, now)
    context = {
        "rows": _rows(request.user, now),
        "exclusion": exclusion,
        "exclusion_end": _when(exclusion.ends_at) if exclusion and exclusion.ends_at else None,
        "is_time_out": exclusion is not None and exclusion.kind == ExclusionKind.TIME_OUT,
        "limit_form": forms.get("limit_form") or LimitForm(),
        "reality_form": forms.get("reality_form")
        or RealityCheckForm(initial={"minutes": selectors.reality_check_minutes(request.user)}),
        "time_out_form": forms.get("time_out_form") or TimeOutForm(),
        "self_exclusion_form": forms.get("self_exclusion_form") or SelfExclusionForm(),
        "confirm": forms.get("confirm"),
        "confirm_end": forms.get("confirm_end"),
        "raise_hours": int(rules.RAISE_DELAY.total_seconds() // 3600),
    }
    return render(request, "responsible/limits.html", context, status=status)


@login_required
def limits_page(request):
    """``GET /account/limits/``: the player's limits, pending raises, exclusion and forms."""
    return _render(request)


@login_required
@require_POST
def set_limit(request):
    """``POST /account/limits/limit/`` (kind, period, amount in currency units; blank: none)."""
    form = LimitForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            row = services.set_limit(
                user=request.user,
                kind=data["kind"],
                period=data["period"],
                amount=data["amount"],
                by=request.user,
            )
        except ResponsibleError as exc:
            form.add_error(None, exc.message)
        else:
            name = LIMIT_NAMES[(row.kind, row.period)]
            if row.pending_from is not None:
                messages.success(
                    request,
                    _("Your %(name)s changes at %(when)s (a raise waits %(hours)s hours).")
                    % {"name": name, "when": format_when(row.pending_from), "hours": 24},
                )
            else:
                messages.success(request, _("Your %(name)s is set.") % {"name": name})
            return redirect("responsible:limits")
    return _render(request, status=400, limit_form=form)


@login_required
@require_POST
def set_reality_check(request):
    """``POST /account/limits/reality-check/`` (minutes)."""
    form = RealityCheckForm(request.POST)
    if form.is_valid():
        services.set_reality_check(
            user=request.user, minutes=form.cleaned_data["minutes"], by=request.user
        )
        messages.success(request, _("Your reality check is set."))
        return redirect("responsible:limits")
    return _render(request, status=400, reality_form=form)


def _exclusion(request, form_class, field, name, ends, apply):
    form = form_class(request.POST)
    if not form.is_valid():
        return _render(request, status=400, **{name: form})
    if not form.cleaned_data["confirm"]:  # the confirmation step
        end = ends(timezone.now(), form.cleaned_data[field])
        return _render(
            request,
            **{name: form, "confirm": name, "confirm_end": _when(end) if end else None},
        )
    try:
        exclusion = apply(form.cleaned_data[field])
    except ResponsibleError as exc:
        form.add_error(None, exc.message)
        return _render(request, status=400, **{name: form})
    if exclusion.ends_at is None:
        messages.success(request, _("You are excluded permanently."))
    elif exclusion.kind == ExclusionKind.TIME_OUT:
        messages.success(
            request,
            _("You are taking a break until %(end)s.") % {"end": format_when(exclusion.ends_at)},
        )
    else:
        messages.success(
            request, _("You are excluded until %(end)s.") % {"end": format_when(exclusion.ends_at)}
        )
    return redirect("responsible:limits")


@login_required
@require_POST
def take_time_out(request):
    """``POST /account/limits/time-out/`` (days): first a confirmation, then (``confirm``) the
    time-out."""
    return _exclusion(
        request,
        TimeOutForm,
        "days",
        "time_out_form",
        rules.time_out_end,
        lambda days: services.take_time_out(user=request.user, days=days, by=request.user),
    )


@login_required
@require_POST
def self_exclude(request):
    """``POST /account/limits/self-exclusion/`` (months or ``permanent``): first a
    confirmation, then (``confirm``) the self-exclusion."""
    return _exclusion(
        request,
        SelfExclusionForm,
        "months",
        "self_exclusion_form",
        rules.self_exclusion_end,
        lambda months: services.self_exclude(user=request.user, months=months, by=request.user),
    )
