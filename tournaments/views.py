"""The tournament pages: the list, a tournament's page (rules in words, registration,
partner invitations, entrants, the prize table in money, the draw, staff controls), the live
bracket/standings page, "my tournaments" and the staff page that creates a tournament.

Thin: reads come from ``tournaments.selectors``, every change goes through
``tournaments.services`` (the forms here POST to small views that call one service, then
redirect back with its message). The live page updates itself through the one long poll
``GET /api/tournaments/<id>/live/`` (``static/tournaments/live.js``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import describe, edits, selectors, services
from tournaments.errors import TournamentError
from tournaments.forms import CreateTournamentForm, EditTournamentForm
from tournaments.models import Status
from tournaments.selectors import LIST_GROUPS
from tournaments.services.registration import full_message
from web.links import link_paths
from web.money import format_money
from web.names import variant_name

#: The staff controls with a reason (disqualify has its own form): action, label, help, and
#: the statuses in which the services take it.
STAFF_CONTROLS = [
    (
        "start",
        gettext_lazy("Start now"),
        gettext_lazy("Closes registration, reveals the draw and opens round 1."),
        ("draft", "registration", "closed"),
    ),
    (
        "pause",
        gettext_lazy("Pause"),
        gettext_lazy("No new round opens; tables playing go on."),
        ("running",),
    ),
    (
        "resume",
        gettext_lazy("Resume"),
        gettext_lazy("A round that became due while paused opens now."),
        ("paused",),
    ),
    (
        "cancel",
        gettext_lazy("Cancel"),
        gettext_lazy("Tables still playing end; every entry fee is refunded."),
        ("draft", "registration", "closed", "running", "paused", "review"),
    ),
]
#: Statuses in which an entrant can be disqualified.
DISQUALIFY_STATUSES = ("running", "paused", "review")
GROUP_TITLES = {
    "upcoming": gettext_lazy("Upcoming"),
    "running": gettext_lazy("Running"),
    "finished": gettext_lazy("Finished"),
}


def _decorate(t: dict[str, Any]) -> dict[str, Any]:
    return {**t, "names": describe.names(t), "variant_text": variant_name(t["variant"])}


def tournament_list(request):
    """``/tournaments/``: upcoming, running and finished tournaments; staff also see the
    drafts (not yet open), to open or edit them."""
    groups = selectors.tournament_list()
    rows = [(g, GROUP_TITLES[g], [_decorate(t) for t in groups[g]]) for g in LIST_GROUPS]
    if request.user.is_staff:
        drafts = [_decorate(t) for t in selectors.drafts()]
        rows.insert(0, ("drafts", _("Drafts (staff only)"), drafts))
    context = {"groups": rows, "is_staff": request.user.is_staff}
    return render(request, "tournaments/list.html", context)


def _detail_or_404(pk: int, user: Any) -> dict[str, Any]:
    """The tournament's detail, decorated; 404 for a missing id, and for a draft unless
    ``user`` is staff (``selectors.tournament_readable``)."""
    data = selectors.tournament_detail(pk)
    if data is None or not selectors.tournament_readable(tournament_id=pk, user=user):
        raise Http404(f"no tournament {pk}")
    return _decorate(data)


def detail(request, pk: int):
    """``/tournaments/<id>/``: rules and parameters in words, registration, invitations,
    entrants, prize table, the draw commitment and its check; staff controls for staff."""
    t = _detail_or_404(pk, request.user)
    context = {
        "t": t,
        "rules": describe.rules_in_words(t),
        "me": selectors.player_status(tournament_id=pk, user=request.user),
        "draw": selectors.draw_check(tournament_id=pk),
        "is_staff": request.user.is_staff,
        "open": t["status"] == "registration",
        # A full event says so in place of Register (the service refuses it too).
        "full": full_message(name=t["name"], capacity=t["capacity"], team_mode=t["team_mode"])
        if t["registered"] >= t["capacity"]
        else "",
        "prize_rows": [
            {**row, "percent": describe.percent(row["bps"])} for row in t["prize_table"]
        ],
        "pool_text": format_money(t["pool"] or 0),
        "house_fee_text": format_money(t["house_fee"] or 0),
        "refund_text": describe.percent(t["refund_bps"]),
        "staff_actions": [c[:3] for c in STAFF_CONTROLS if t["status"] in c[3]],
        "can_open": t["status"] == Status.DRAFT,
        "can_disqualify": t["status"] in DISQUALIFY_STATUSES,
    }
    return render(request, "tournaments/detail.html", context)


def live(request, pk: int):
    """``/tournaments/<id>/live/``: rounds, tables (linked to their table pages), scores, who
    advanced, standings, final places and prizes, admin actions, the draw's check; updated
    by itself through one long poll for the whole tournament."""
    t = _detail_or_404(pk, request.user)
    context = {
        "t": t,
        "draw": selectors.draw_check(tournament_id=pk),
        "live_url": reverse("tournaments-api:live", args=[pk]),
        "stream_url": reverse("tournaments-api:stream", args=[pk]),
    }
    return render(request, "tournaments/live.html", context)


@login_required
def mine(request):
    """``/tournaments/mine/``: the player's tournaments and invitations."""
    rows = [_decorate(t) for t in selectors.my_tournaments(request.user)]
    return render(request, "tournaments/mine.html", {"rows": rows})


def _staff_only(request, what: str = gettext_lazy("manage tournaments")):
    """A 403 page for anyone but staff (the services refuse them too)."""
    if not request.user.is_staff:
        return render(request, "tournaments/forbidden.html", {"what": what}, status=403)
    return None


@login_required
def new(request):
    """``/tournaments/new/`` (staff): create a tournament with every parameter."""
    refused = _staff_only(request, gettext_lazy("create tournaments"))
    if refused:
        return refused
    form = CreateTournamentForm(request.POST or None)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            t = services.create_tournament(by=request.user, **form.to_parameters())
        except TournamentError as exc:
            error = exc.message
        else:
            if t.status == Status.DRAFT:
                done = _("%(name)s is created as a draft: open registration from its page.")
            else:
                done = _("%(name)s is created; registration is open.")
            messages.success(request, done % {"name": t.name})
            return redirect("tournaments:detail", pk=t.pk)
    status = 400 if request.method == "POST" else 200
    option_fields = [form[name] for name in form.option_fields]
    problems = sum(len(errors) for errors in form.errors.values()) if form.is_bound else 0
    context = {
        "form": form,
        "error": error,
        "option_fields": option_fields,
        "problem_count": problems,
    }
    return render(request, "tournaments/new.html", context, status=status)


@login_required
def edit(request, pk: int):
    """``/tournaments/<id>/edit/`` (staff): change the name, description, times before the
    start, the prize table before the first registration, the capacity, with a reason
    (``tournaments.edits``: the rules, and the record of who and why)."""
    refused = _staff_only(request, gettext_lazy("edit tournaments"))
    if refused:
        return refused
    t = _detail_or_404(pk, request.user)
    form = EditTournamentForm(request.POST or None, tournament=t)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            edits.edit_tournament(tournament_id=pk, by=request.user, **form.to_changes())
        except TournamentError as exc:
            error = exc.message
        else:
            messages.success(request, _("The tournament is edited; the change is recorded."))
            return redirect("tournaments:detail", pk=pk)
    status = 400 if request.method == "POST" else 200
    context = {"t": t, "form": form, "error": error}
    return render(request, "tournaments/edit.html", context, status=status)


def _act(request, pk: int, call, done):
    """Run one service for a page's form; its message (``done``, or ``done(result)`` for a
    callable: the message depends on what happened) or the refusal's on the next page."""
    try:
        result = call()
    except TournamentError as exc:
        messages.error(request, link_paths(exc.message))  # "/wallet/" as a link
    else:
        messages.success(request, done(result) if callable(done) else str(done))
    return redirect("tournaments:detail", pk=pk)


def _started(t) -> str:
    """Staff's start: started, or cancelled below the minimum (the start said "started")."""
    if t.status == Status.CANCELLED:
        return _(
            "Too few entrants at the start: the tournament is cancelled and every entry fee "
            "is refunded."
        )
    return _("The tournament is started.")


def _seed(request) -> str | None:
    return (request.POST.get("client_seed") or "").strip() or None


@login_required
@require_POST
def register(request, pk: int):
    return _act(
        request,
        pk,
        lambda: services.register(tournament_id=pk, by=request.user, client_seed=_seed(request)),
        _("You are registered."),
    )


@login_required
@require_POST
def unregister(request, pk: int):
    return _act(
        request,
        pk,
        lambda: services.unregister(tournament_id=pk, by=request.user),
        _("You are unregistered; the refund is in your wallet."),
    )


@login_required
@require_POST
def invite(request, pk: int):
    name = request.POST.get("display_name", "")
    return _act(
        request,
        pk,
        lambda: services.invite_partner(tournament_id=pk, by=request.user, display_name=name),
        _("%(name)s is invited to your team.") % {"name": name.strip()},
    )


@login_required
@require_POST
def answer(request, pk: int, team_id: int, choice: str):
    if choice not in ("accept", "decline"):
        raise Http404(f"no answer {choice!r}")
    if choice == "accept":
        call = lambda: services.accept_invite(  # noqa: E731
            team_id=team_id, by=request.user, client_seed=_seed(request)
        )
        done = _("You joined the team: it is complete.")
    else:
        call = lambda: services.decline_invite(team_id=team_id, by=request.user)  # noqa: E731
        done = _("You declined the invitation.")
    return _act(request, pk, call, done)


STAFF_ACTIONS = {
    "start": (services.start, _started),
    "pause": (services.pause, gettext_lazy("The tournament is paused.")),
    "resume": (services.resume, gettext_lazy("The tournament is resumed.")),
    "cancel": (
        services.cancel,
        gettext_lazy("The tournament is cancelled; every entry fee is refunded."),
    ),
}


@login_required
@require_POST
def staff_action(request, pk: int, action: str):
    """Staff controls of the tournament page: open a draft, start early, pause, resume,
    cancel and disqualify, each but the opening with a reason (the services check staff and
    record who and why)."""
    if action not in ("disqualify", "open") and action not in STAFF_ACTIONS:
        raise Http404(f"no action {action!r}")
    refused = _staff_only(request, _("open, start, pause, resume, cancel or disqualify"))
    if refused:
        return refused
    if action == "open":
        return _act(
            request,
            pk,
            lambda: services.open_registration(tournament_id=pk, by=request.user),
            _("Registration is open."),
        )
    reason = request.POST.get("reason", "")
    if action == "disqualify":
        try:
            user_id = int(request.POST.get("user_id", ""))
        except ValueError:
            messages.error(request, _("Choose the entrant to disqualify."))
            return redirect("tournaments:detail", pk=pk)
        return _act(
            request,
            pk,
            lambda: services.disqualify(
                tournament_id=pk, by=request.user, user_id=user_id, reason=reason
            ),
            _("The entrant is disqualified."),
        )
    service, done = STAFF_ACTIONS[action]
    if action == "start" and not reason.strip():
        messages.error(request, _("Give a reason: it is shown on the tournament page."))
        return redirect("tournaments:detail", pk=pk)
    return _act(
        request,
        pk,
        lambda: service(tournament_id=pk, by=request.user, reason=reason),
        done,
    )
