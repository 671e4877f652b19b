"""Every change of a tournament: plain functions with keyword-only arguments, each one
database transaction, each idempotent where a task calls it.

Who acts is checked in every service (``by``: staff for the admin's actions, the player for
their own registration). Errors are :class:`~tournaments.errors.TournamentError`
subclasses with a clear message; a service that raises one has written nothing (the wallet's
postings are savepoints inside our transaction, so a refusal rolls them back too).

The tournament row is locked (``SELECT ... FOR UPDATE``) by every write, so changes of one
tournament happen one at a time; a round opens once (the lock, and the unique
``(tournament, number)`` and ``(round, index)`` constraints behind it). Tasks are sent after
the transaction commits. Money moves only through ``wallet.services`` with idempotency keys
named after the tournament (``tournament:<id>:...``). Rules: ``docs/tournaments.md``.

Lifecycle: ``registration`` (or ``draft``) -> ``closed`` (registration closed, entrant list
published) -> ``running`` <-> ``paused`` -> ``review`` (final places and prizes computed,
prizes not paid) -> ``finished`` (prizes paid); or ``cancelled`` (every fee refunded).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.selectors import display_name
from games import options_text, sealing, shuffles
from games.engine import InvalidOptions, Options
from games.errors import TableError
from games.models import ACTION_TYPES, ActionStatus, Seat, Table, TableAction, TableStatus
from games.services import fairness_log
from tournaments import dispatch, progress
from tournaments.errors import BadRequest, Conflict, NotAllowed, NotFound, TournamentError
from tournaments.models import (
    BASIS_POINTS,
    BELOW_MINIMUM,
    AdminAction,
    Entry,
    EntryStatus,
    Format,
    Round,
    RoundStatus,
    RoundTable,
    Status,
    Team,
    TeamStatus,
    Tournament,
)
from wallet import gates
from wallet import services as wallet
from wallet.errors import EscrowClosed, InsufficientFunds, LedgerError, UnknownAccount
from wallet.selectors import escrow_balance, format_money, is_escrow_closed, wallet_balance
from wallet.settlement import house_fee_for

#: The bot that fills a seat the entrants do not fill, and takes over a disqualified seat.
FILL_BOT = "rules"
#: Statuses in which the event has begun (the entrant list is final).
STARTED = (Status.RUNNING, Status.PAUSED, Status.REVIEW, Status.FINISHED)
#: Statuses of an entry that takes part (a disqualified entrant keeps their place: last).
TAKING_PART = (EntryStatus.REGISTERED, EntryStatus.DISQUALIFIED)


# -- helpers ---------------------------------------------------------------------------------


def _lock(tournament_id: int) -> Tournament:
    """The tournament row, locked until the transaction ends. Raises :class:`NotFound`."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("no tournament %(id)s") % {"id": tournament_id}) from None


def _require_staff(by: Any, what: str) -> None:
    if by is None or not getattr(by, "is_authenticated", False) or not by.is_staff:
        raise NotAllowed(_("only staff may %(what)s") % {"what": what})


def _named(t: Tournament) -> dict[str, str]:
    """A message's ``name`` and ``status`` (the status's label, in the active language)."""
    return {"name": t.name, "status": t.get_status_display()}


def _require_player(by: Any) -> None:
    if by is None or not getattr(by, "is_authenticated", False):
        raise NotAllowed(_("log in to take part in a tournament"), "not_authenticated")
    if not by.is_active:
        raise NotAllowed(_("your account is suspended: it cannot enter tournaments"), "suspended")


def _gate(check: Any, **facts: Any) -> None:
    """Ask a ``wallet.gates`` check; its refusal becomes :class:`NotAllowed` with the rule's
    code (``suspended``, ``self_excluded``...) and the player's message."""
    try:
        check(**facts)
    except gates.Refused as exc:
        raise NotAllowed(str(exc), exc.code) from None


def _reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise BadRequest(_("give a reason: it is shown on the tournament page"))
    if len(reason) > 500:
        raise BadRequest(_("the reason must be at most 500 characters"))
    return reason.strip()


def _record(t: Tournament, by: Any, action: str, reason: str = "", **details: Any) -> None:
    AdminAction.objects.create(tournament=t, by=by, action=action, reason=reason, details=details)


def _save(t: Tournament, *fields: str) -> None:
    """Save ``fields`` and bump the tournament's version (the live page's)."""
    t.version += 1
    t.save(update_fields=[*fields, "version"])


def _pause_for_tests(times: int = 1) -> None:
    if settings.TRIX_TOURNAMENT_TEST_PAUSE:
        time.sleep(settings.TRIX_TOURNAMENT_TEST_PAUSE * times)


def _fee_key(t: Tournament, entry: Entry, what: str) -> str:
    return f"{t.ref}:user:{entry.user_id}:{what}:{entry.attempt}"


def _unit_count(t: Tournament) -> int:
    """Entrants (solo) or teams, pending or complete, holding a place (for the capacity)."""
    if t.team_mode:
        return t.teams.filter(status__in=(TeamStatus.PENDING, TeamStatus.COMPLETE)).count()
    return t.entries.filter(status=EntryStatus.REGISTERED).count()


def _check_window(t: Tournament, now: datetime) -> None:
    if t.status == Status.DRAFT:
        raise Conflict(
            _("%(name)s is not open for registration yet") % {"name": t.name},
            "registration_closed",
        )
    if t.status != Status.REGISTRATION or now >= t.registration_closes_at:
        closed = t.registration_closed_at or min(
            x for x in (t.registration_closes_at, t.started_at, t.cancelled_at) if x
        )
        raise Conflict(
            _("registration for %(name)s closed at %(when)s UTC")
            % {"name": t.name, "when": f"{closed:%Y-%m-%d %H:%M}"},
            "registration_closed",
        )
    if now < t.registration_opens_at:
        raise Conflict(
            _("registration for %(name)s opens at %(when)s UTC")
            % {"name": t.name, "when": f"{t.registration_opens_at:%Y-%m-%d %H:%M}"},
            "registration_closed",
        )


#: Statuses of an event whose play has not ended (its entrants are still "in" it).
NOT_OVER = (Status.DRAFT, Status.REGISTRATION, Status.CLOSED, Status.RUNNING, Status.PAUSED)


def _check_overlap(t: Tournament, user: Any, now: datetime) -> None:
    """Refuse ``user`` an entry in ``t`` while they are entered (``registered``) in another
    event whose play overlaps ``t``'s: an event's play is taken to last
    ``TRIX_TOURNAMENT_SPAN`` seconds from its start (from now while it runs past that), and
    two overlap when either one's play holds the other's start. Waived when either event
    allows it (``Tournament.allow_overlap``, set by the admin). Raises :class:`Conflict`
    ``overlap`` naming the other event. Rule: ``docs/tournaments.md``."""
    if t.allow_overlap:
        return
    span = timedelta(seconds=settings.TRIX_TOURNAMENT_SPAN)
    others = (
        Tournament.objects.filter(
            entries__user=user,
            entries__status=EntryStatus.REGISTERED,
            status__in=NOT_OVER,
            allow_overlap=False,
        )
        .exclude(pk=t.pk)
        .order_by("starts_at", "id")
    )
    for other in others:
        running = other.status in (Status.RUNNING, Status.PAUSED)
        ends = max(other.starts_at, now) + span if running else other.starts_at + span
        if other.starts_at < t.starts_at + span and t.starts_at < ends:
            raise Conflict(
                _(
                    "You are already entered in %(other)s, which starts at %(when)s UTC: its "
                    "play would overlap %(name)s, and a player takes part in one event at a "
                    "time. Unregister from %(other)s first, or choose another event."
                )
                % {
                    "other": other.name,
                    "when": f"{other.starts_at:%Y-%m-%d %H:%M}",
                    "name": t.name,
                },
                "overlap",
            )


def _require_own_seed(t: Tournament, client_seed: Any) -> None:
    """A tournament with an entry fee takes no entrant without the client seed they chose
    (issue 12: the server never makes a staked entrant's seed; a free event makes one).
    Raises :class:`BadRequest`."""
    if client_seed is None and t.entry_fee > 0:
        raise BadRequest(
            _(
                "%(name)s has an entry fee: send your client seed (client_seed, 1 to 64 "
                "printable ASCII characters you chose; the tournament page makes one in your "
                "browser), so the server alone never decides the seating or your cards"
            )
            % {"name": t.name}
        )


def _seed(client_seed: Any) -> str:
    try:
        return shuffles.clean_client_seed(client_seed)
    except shuffles.FairnessError as exc:
        raise BadRequest(_("client seed: %(reason)s") % {"reason": exc}) from None


def _pay_fee(t: Tournament, entry: Entry) -> None:
    """Move the entry fee into the escrow (none for a free event). Raises :class:`Conflict`
    with what the player can do about a short wallet."""
    if t.entry_fee <= 0:
        return
    try:
        held = wallet_balance(entry.user_id)
    except (UnknownAccount, LookupError):
        held = 0
    if held < t.entry_fee:
        raise Conflict(
            _(
                "not enough funds: the entry fee of %(name)s is %(fee)s; your wallet holds "
                "%(held)s. Add money in /wallet/."
            )
            % {"name": t.name, "fee": format_money(t.entry_fee), "held": format_money(held)},
            "insufficient_funds",
        )
    try:
        wallet.pay_entry_fee(
            user=entry.user_id,
            tournament_ref=t.ref,
            amount=t.entry_fee,
            key=_fee_key(t, entry, "fee"),
        )
    except gates.Refused as exc:  # a stake limit, a time-out, a self-exclusion
        raise NotAllowed(str(exc), exc.code) from None
    except (InsufficientFunds, UnknownAccount):
        raise Conflict(
            _("not enough funds: the entry fee of %(name)s is %(fee)s")
            % {"name": t.name, "fee": format_money(t.entry_fee)},
            "insufficient_funds",
        ) from None
    except LedgerError as exc:
        raise Conflict(
            _("the entry fee could not be paid: %(reason)s") % {"reason": exc}, "ledger"
        ) from None
    entry.paid = t.entry_fee
    entry.refunded = 0


def _refund_fee(t: Tournament, entry: Entry, amount: int, what: str) -> None:
    """Give ``amount`` of the entry's fee back (nothing to do for 0)."""
    if amount <= 0:
        return
    wallet.refund_entry_fee(
        user=entry.user_id, tournament_ref=t.ref, key=_fee_key(t, entry, what), amount=amount
    )
    entry.refunded += amount


# -- creating --------------------------------------------------------------------------------


def check_parameters(
    *,
    name: str,
    format: str,
    variant: str,
    options: dict[str, Any] | None,
    advance: int,
    rounds: int,
    final_table: bool,
    entry_fee: int,
    house_fee_bps: int,
    capacity: int,
    min_entrants: int,
    registration_opens_at: datetime,
    registration_closes_at: datetime,
    starts_at: datetime,
    prize_bps: Sequence[int],
    refund_bps: int,
    review_seconds: int,
    no_show_without_action: bool = True,
) -> dict[str, Any]:
    """Check a tournament's parameters; returns the model fields (``options`` complete with
    defaults, ``team_mode`` from the variant, ``advance`` 1 for teams).
    ``no_show_without_action`` (True or False) ranks an entrant with no move of their own at
    a table last there (``docs/tournaments.md``, "No-shows"). Raises
    :class:`BadRequest` naming the first bad parameter. Used by :func:`create_tournament`
    and the admin's form."""

    def whole(value: Any, field: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadRequest(
                _("%(field)s must be a whole number from %(low)s to %(high)s")
                % {"field": field, "low": low, "high": high}
            )
        return value

    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        raise BadRequest(_("name must be 1 to 100 characters"))
    if format not in Format.values:
        raise BadRequest(
            _("format must be one of %(formats)s, not %(format)r")
            % {"formats": ", ".join(Format.values), "format": format}
        )
    if options is not None and not isinstance(options, dict):
        raise BadRequest(_("table options must be an object of option names and values"))
    try:
        parsed = Options.for_variant(variant, options)
    except InvalidOptions as exc:
        raise BadRequest(options_text.options_problem(exc)) from None
    for timer in ("choose_timer", "double_timer", "play_timer"):
        seconds = getattr(parsed, timer)
        if seconds > settings.TRIX_MAX_TIMER:
            raise BadRequest(options_text.timer_too_long(timer))
        if seconds == 0:
            raise BadRequest(options_text.timer_required(timer))
    team_mode = parsed.partnership
    if format == Format.KNOCKOUT:
        advance = 1 if team_mode else whole(advance, _("advance (top k of each table)"), 1, 2)
        rounds, final_table = 0, False
    else:
        rounds = whole(rounds, _("rounds"), 1, settings.TRIX_TOURNAMENT_MAX_ROUNDS)
        final_table = bool(final_table)
        advance = 1 if team_mode else 2
    if isinstance(entry_fee, bool) or not isinstance(entry_fee, int) or entry_fee < 0:
        raise BadRequest(_("The entry fee must be 0 (free) or a whole number of cents."))
    if entry_fee > settings.TRIX_MAX_STAKE:
        raise BadRequest(
            _("The entry fee can be at most %(amount)s.")
            % {"amount": format_money(settings.TRIX_MAX_STAKE)}
        )
    house_fee_bps = whole(house_fee_bps, _("house fee (basis points)"), 0, BASIS_POINTS)
    refund_bps = whole(refund_bps, _("refund on unregistering (basis points)"), 0, BASIS_POINTS)
    unit = _("teams") if team_mode else _("entrants")
    least = 4 if final_table and not team_mode else 2
    most = settings.TRIX_TOURNAMENT_MAX_ENTRANTS
    capacity_label = _("capacity (%(unit)s)") % {"unit": unit}
    capacity = whole(capacity, capacity_label, 2, most)
    min_entrants = whole(min_entrants, _("minimum (%(unit)s)") % {"unit": unit}, least, most)
    if capacity < min_entrants:
        raise BadRequest(
            _(
                "%(field)s is %(capacity)s, below the minimum to start (%(minimum)s): raise "
                "the capacity or lower the minimum"
            )
            % {"field": capacity_label, "capacity": capacity, "minimum": min_entrants}
        )
    review_seconds = whole(review_seconds, _("review window (seconds)"), 0, 7 * 24 * 3600)
    if not (
        isinstance(prize_bps, (list, tuple))
        and prize_bps
        and all(isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in prize_bps)
        and sum(prize_bps) == BASIS_POINTS
    ):
        raise BadRequest(
            _(
                "prize table must be a list of basis points by final place (whole numbers >= 0) "
                "summing to %(total)s (100 %%)"
            )
            % {"total": BASIS_POINTS}
        )
    if len(prize_bps) > capacity:
        raise BadRequest(
            _("prize table pays %(places)s places; the event takes %(capacity)s %(unit)s")
            % {"places": len(prize_bps), "capacity": capacity, "unit": unit}
        )
    for when, field in (
        (registration_opens_at, pgettext("tournament field", "registration opens")),
        (registration_closes_at, pgettext("tournament field", "registration closes")),
        (starts_at, pgettext("tournament field", "start")),
    ):
        if not isinstance(when, datetime) or timezone.is_naive(when):
            raise BadRequest(
                _("%(field)s must be a date and time with its time zone") % {"field": field}
            )
    if not isinstance(no_show_without_action, bool):
        raise BadRequest(_("no_show_without_action must be true or false"))
    if not registration_opens_at < registration_closes_at <= starts_at:
        raise BadRequest(_("registration must open before it closes, and close by the start"))
    if registration_closes_at <= timezone.now():
        raise BadRequest(
            _(
                "registration must close in the future (a tournament created with its window "
                "over would be cancelled at once)"
            )
        )
    return {
        "name": name.strip(),
        "format": format,
        "team_mode": team_mode,
        "advance": advance,
        "rounds": rounds,
        "final_table": final_table,
        "variant": variant,
        "options": parsed.to_dict(),
        "entry_fee": entry_fee,
        "house_fee_bps": house_fee_bps,
        "capacity": capacity,
        "min_entrants": min_entrants,
        "registration_opens_at": registration_opens_at,
        "registration_closes_at": registration_closes_at,
        "starts_at": starts_at,
        "prize_bps": list(prize_bps),
        "refund_bps": refund_bps,
        "review_seconds": review_seconds,
        "no_show_without_action": no_show_without_action,
    }


def _draw_context(t: Tournament) -> str:
    return f"draw:{t.ref}"


def seal_draw_secret(t: Tournament, secret: bytes) -> str:
    """The draw secret (32 bytes) of saved tournament ``t`` sealed for the database
    (:mod:`games.sealing`; associated data ``draw:tournament:<id>``)."""
    return sealing.seal(secret, context=_draw_context(t))


def open_draw_secret(t: Tournament) -> bytes:
    """The draw secret of ``t`` (32 bytes), server only: revealed at the start. Raises
    :class:`games.sealing.SealError` when it does not open."""
    return sealing.unseal(t.draw_secret, context=_draw_context(t))


def reseal_draw_secrets(**_signal) -> int:
    """Seal every draw secret not sealed under the current ``TRIX_SEED_KEY`` anew (a key
    rotation; ``manage.py reseal_secrets`` sends ``games.signals.reseal_requested``);
    returns how many. Raises :class:`games.sealing.SealError` when one does not open."""
    count = 0
    for pk in Tournament.objects.values_list("pk", flat=True).iterator():
        with transaction.atomic():
            t = Tournament.objects.select_for_update().get(pk=pk)
            if not sealing.needs_resealing(t.draw_secret):
                continue
            t.draw_secret = seal_draw_secret(t, open_draw_secret(t))
            t.save(update_fields=["draw_secret"])
            count += 1
    return count


def create_tournament(
    *,
    by: Any,
    name: str,
    format: str,
    variant: str,
    capacity: int,
    min_entrants: int,
    registration_opens_at: datetime,
    registration_closes_at: datetime,
    starts_at: datetime,
    prize_bps: Sequence[int],
    options: dict[str, Any] | None = None,
    advance: int = 2,
    rounds: int = 0,
    final_table: bool = False,
    entry_fee: int = 0,
    house_fee_bps: int = 0,
    refund_bps: int = BASIS_POINTS,
    review_seconds: int | None = None,
    no_show_without_action: bool = True,
    draft: bool = False,
    description: str = "",
    allow_overlap: bool = False,
    draw_secret: bytes | None = None,
) -> Tournament:
    """Create a tournament (staff only); its draw commitment is public from now on.

    ``format`` ``knockout`` (``advance`` k = 1 or 2, solo) or ``swiss`` (``rounds`` R,
    ``final_table``); a ``*_partner`` variant makes a partnership event (teams of two).
    Money in minor units; ``house_fee_bps`` / ``refund_bps`` / ``prize_bps`` in basis points;
    ``capacity`` and ``min_entrants`` count entrants (solo) or teams. ``review_seconds``
    defaults to ``TRIX_TOURNAMENT_REVIEW_SECONDS``. ``draft`` keeps registration shut until
    an admin opens it. ``no_show_without_action`` (default on): an entrant with no move of
    their own at a table ranks last there. ``description``: text shown on the tournament page
    (at most 2,000 characters, ``tournaments.edits.check_description``). ``allow_overlap``
    lets players enter while in another event whose play overlaps this one's
    (:func:`register`). ``draw_secret`` (32 bytes) is for tests only. Raises
    :class:`NotAllowed`, :class:`BadRequest`."""
    from games.fairness import draw

    _require_staff(by, _("create tournaments"))
    fields = check_parameters(
        name=name,
        format=format,
        variant=variant,
        options=options,
        advance=advance,
        rounds=rounds,
        final_table=final_table,
        entry_fee=entry_fee,
        house_fee_bps=house_fee_bps,
        capacity=capacity,
        min_entrants=min_entrants,
        registration_opens_at=registration_opens_at,
        registration_closes_at=registration_closes_at,
        starts_at=starts_at,
        prize_bps=prize_bps,
        refund_bps=refund_bps,
        review_seconds=(
            settings.TRIX_TOURNAMENT_REVIEW_SECONDS if review_seconds is None else review_seconds
        ),
        no_show_without_action=no_show_without_action,
    )
    from tournaments.edits import check_description

    fields["description"] = check_description(description)
    secret = draw.new_secret() if draw_secret is None else bytes(draw_secret)
    with transaction.atomic():
        t = Tournament.objects.create(
            **fields,
            status=Status.DRAFT if draft else Status.REGISTRATION,
            allow_overlap=bool(allow_overlap),
            draw_commitment=draw.commitment(secret),
            created_by=by,
        )
        # Sealed for this tournament: its id (the associated data) is known after the INSERT.
        t.draw_secret = seal_draw_secret(t, secret)
        t.save(update_fields=["draw_secret"])
        fairness_log.append(
            [fairness_log.draw_commitment(event=t.ref, commitment=t.draw_commitment)]
        )
        _record(t, by, "create", "", name=t.name)
    return t


def open_registration(*, tournament_id: int, by: Any) -> Tournament:
    """A draft tournament opens for registration (staff). Raises :class:`Conflict`."""
    _require_staff(by, _("open registration"))
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Status.DRAFT:
            raise Conflict(
                _("%(name)s is not a draft (it is %(status)s)") % _named(t), "wrong_status"
            )
        t.status = Status.REGISTRATION
        _save(t, "status")
        _record(t, by, "open_registration")
    return t


# -- registration ----------------------------------------------------------------------------


def register(*, tournament_id: int, by: Any, client_seed: str | None = None) -> Entry:
    """Enter ``by`` in the tournament and move the entry fee into its escrow.

    ``client_seed`` (1..64 printable ASCII) is mixed into the seating draw and the player's
    tables; required when the tournament has an entry fee (a free one makes a fresh one if
    None). In a partnership event the player starts a team of one and invites a partner with
    :func:`invite_partner`. Refused (nothing written): already registered, account
    suspended, outside the registration window, full, not enough funds, and whatever
    ``wallet.gates`` refuses (``check_register``: a suspension, a time-out, a self-exclusion;
    the fee's ``check_stake``: identity not verified, a stake limit: :class:`NotAllowed` with
    the refusal's code and message), entered in another event whose play overlaps this one
    (``overlap``, unless either allows it: :func:`_check_overlap`). Raises
    :class:`Conflict`, :class:`NotAllowed`, :class:`NotFound`, :class:`BadRequest`."""
    _require_player(by)
    seed = _seed(client_seed)
    with transaction.atomic():
        t = _lock(tournament_id)
        _check_window(t, timezone.now())
        _gate(gates.check_register, user_id=by.pk, now=timezone.now())
        entry = Entry.objects.filter(tournament=t, user=by).first()
        if entry is not None and entry.status in TAKING_PART:
            raise Conflict(
                _("you are already registered in %(name)s") % {"name": t.name},
                "already_registered",
            )
        if _unit_count(t) >= t.capacity:
            full = (
                _("%(name)s is full (%(capacity)s teams)")
                if t.team_mode
                else _("%(name)s is full (%(capacity)s entrants)")
            )
            raise Conflict(full % {"name": t.name, "capacity": t.capacity}, "full")
        _check_overlap(t, by, timezone.now())
        _require_own_seed(t, client_seed)
        if entry is None:
            entry = Entry(tournament=t, user=by, attempt=1)
        else:  # registering again after unregistering: a new fee, a new key
            entry.attempt += 1
            entry.status = EntryStatus.REGISTERED
        entry.client_seed = seed
        entry.place = entry.prize = None
        _pay_fee(t, entry)
        if t.team_mode:
            entry.team = Team.objects.create(tournament=t)
        entry.save()
        _save(t)
    return entry


def _player_by_name(name: Any):
    if not isinstance(name, str) or not name.strip():
        raise BadRequest(_("give the display name of the player to invite"))
    name = name.strip()
    users = list(
        get_user_model()
        .objects.filter(
            Q(profile__display_name__iexact=name)
            | Q(profile__isnull=True, username__iexact=name)
            | Q(profile__display_name="", username__iexact=name)
        )
        .distinct()[:3]
    )
    if not users:
        raise NotFound(_("no player is called “%(name)s”") % {"name": name})
    if len(users) > 1:
        raise BadRequest(
            _("more than one player is called “%(name)s”: ask them for a unique name")
            % {"name": name}
        )
    return users[0]


def invite_partner(*, tournament_id: int, by: Any, display_name: str) -> Team:
    """Invite a partner (by display name) to ``by``'s team; pending until they accept.

    A new invitation replaces an unanswered one. Raises :class:`Conflict` (not a
    partnership event, not registered, team complete, the player already entered, outside
    the window), :class:`NotFound` (no such player), :class:`BadRequest`."""
    _require_player(by)
    with transaction.atomic():
        t = _lock(tournament_id)
        if not t.team_mode:
            raise Conflict(
                _("%(name)s is a solo event: there are no teams") % {"name": t.name},
                "not_partnership",
            )
        _check_window(t, timezone.now())
        entry = Entry.objects.filter(tournament=t, user=by, status=EntryStatus.REGISTERED).first()
        if entry is None or entry.team_id is None:
            raise Conflict(
                _("register in %(name)s before inviting a partner") % {"name": t.name},
                "not_registered",
            )
        team = Team.objects.select_for_update().get(pk=entry.team_id)
        if team.members.count() >= 2:
            raise Conflict(_("your team is already complete"), "team_complete")
        invitee = _player_by_name(display_name)
        if invitee.pk == by.pk:
            raise BadRequest(_("you cannot invite yourself"))
        if not invitee.is_active:
            raise Conflict(
                _("“%(name)s” cannot enter tournaments") % {"name": display_name}, "suspended"
            )
        if Entry.objects.filter(tournament=t, user=invitee, status__in=TAKING_PART).exists():
            raise Conflict(
                _("“%(player)s” is already registered in %(name)s")
                % {"player": display_name, "name": t.name},
                "already_registered",
            )
        team.invited = invitee
        team.save(update_fields=["invited"])
        _save(t)
    return team


def _team_for_answer(t: Tournament, team_id: int, by: Any) -> Team:
    team = Team.objects.select_for_update().filter(pk=team_id, tournament=t).first()
    if team is None or team.invited_id != by.pk:
        raise NotAllowed(_("you have no invitation from this team"), "not_invited")
    return team


def _tournament_of_team(team_id: int) -> int:
    tid = Team.objects.filter(pk=team_id).values_list("tournament_id", flat=True).first()
    if tid is None:
        raise NotFound(_("no team %(id)s") % {"id": team_id})
    return tid


def accept_invite(*, team_id: int, by: Any, client_seed: str | None = None) -> Entry:
    """The invited player joins the team, paying their own entry fee: the team is complete.

    Raises :class:`NotAllowed` (no invitation; what ``wallet.gates`` refuses: a suspension,
    a time-out...),
    :class:`Conflict` (already registered, outside the window, not enough funds, ``overlap``
    as :func:`register`),
    :class:`BadRequest`."""
    _require_player(by)
    seed = _seed(client_seed)
    with transaction.atomic():
        t = _lock(_tournament_of_team(team_id))
        team = _team_for_answer(t, team_id, by)
        _check_window(t, timezone.now())
        _gate(gates.check_register, user_id=by.pk, now=timezone.now())
        if Entry.objects.filter(tournament=t, user=by, status__in=TAKING_PART).exists():
            raise Conflict(
                _("you are already registered in %(name)s: unregister first") % {"name": t.name},
                "already_registered",
            )
        if team.members.count() != 1:
            raise Conflict(_("this team has no place for you any more"), "team_complete")
        _check_overlap(t, by, timezone.now())
        _require_own_seed(t, client_seed)
        entry = Entry.objects.filter(tournament=t, user=by).first()
        if entry is None:
            entry = Entry(tournament=t, user=by, attempt=1)
        else:
            entry.attempt += 1
            entry.status = EntryStatus.REGISTERED
        entry.client_seed = seed
        entry.team = team
        entry.place = entry.prize = None
        _pay_fee(t, entry)
        entry.save()
        team.invited = None
        team.status = TeamStatus.COMPLETE
        team.save(update_fields=["invited", "status"])
        _save(t)
    return entry


def decline_invite(*, team_id: int, by: Any) -> Team:
    """The invited player declines; the team may invite someone else. Raises
    :class:`NotAllowed` (no invitation)."""
    _require_player(by)
    with transaction.atomic():
        t = _lock(_tournament_of_team(team_id))
        team = _team_for_answer(t, team_id, by)
        team.invited = None
        team.save(update_fields=["invited"])
        _save(t)
    return team


def unregister(*, tournament_id: int, by: Any) -> Entry:
    """``by`` leaves before registration closes; the fee is refunded by the tournament's rule
    (``refund_bps`` of it; all by default). A team member who leaves leaves the partner's
    team incomplete (they may invite another). Raises :class:`Conflict` (not registered,
    registration closed)."""
    _require_player(by)
    with transaction.atomic():
        t = _lock(tournament_id)
        entry = Entry.objects.filter(tournament=t, user=by, status=EntryStatus.REGISTERED).first()
        if entry is None:
            raise Conflict(
                _("you are not registered in %(name)s") % {"name": t.name}, "not_registered"
            )
        if t.status not in (Status.DRAFT, Status.REGISTRATION):
            raise Conflict(
                _("registration for %(name)s is closed: the entrant list is final")
                % {"name": t.name},
                "registration_closed",
            )
        _refund_fee(t, entry, entry.paid * t.refund_bps // BASIS_POINTS, "unregister")
        entry.status = EntryStatus.WITHDRAWN
        team = entry.team
        entry.team = None
        entry.save()
        if team is not None:
            left = team.members.exclude(pk=entry.pk).count()
            team.status = TeamStatus.PENDING if left else TeamStatus.WITHDRAWN
            if not left:
                team.invited = None
            team.save(update_fields=["status", "invited"])
        _save(t)
    return entry


# -- closing and starting --------------------------------------------------------------------


def _close_locked(t: Tournament) -> None:
    """Close registration of a locked tournament: refund incomplete teams, publish the list."""
    if t.team_mode:
        for team in Team.objects.select_for_update().filter(
            tournament=t, status=TeamStatus.PENDING
        ):
            for entry in Entry.objects.filter(team=team, status=EntryStatus.REGISTERED):
                _refund_fee(t, entry, entry.paid - entry.refunded, "incomplete-team")
                entry.status = EntryStatus.REFUNDED
                entry.save(update_fields=["status", "refunded"])
            team.status = TeamStatus.REFUNDED
            team.invited = None
            team.save(update_fields=["status", "invited"])
    entries = list(
        Entry.objects.filter(tournament=t, status=EntryStatus.REGISTERED)
        .select_related("user__profile")
        .order_by("id")
    )
    t.entrants = [
        {
            "entrant": e.entrant,
            "name": display_name(e.user),
            "client_seed": e.client_seed,
            "team": e.team.unit if e.team_id else None,
        }
        for e in entries
    ]
    t.status = Status.CLOSED
    t.registration_closed_at = min(timezone.now(), t.registration_closes_at)
    _save(t, "entrants", "status", "registration_closed_at")


def close_registration(*, tournament_id: int, by: Any = None) -> Tournament:
    """Close registration (at ``registration_closes_at`` by the beat, or early by staff):
    an incomplete team's members get their whole fee back; the sorted entrant list (entrant
    id, display name, client seed, team) is published. Idempotent (a closed or later
    tournament is returned as is)."""
    if by is not None:
        _require_staff(by, _("close registration"))
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status in (Status.DRAFT, Status.REGISTRATION):
            _close_locked(t)
            if by is not None:
                _record(t, by, "close_registration")
    return t


def _units(t: Tournament) -> list[str]:
    """The units taking part: entrant ids (solo) or complete team ids, in id order."""
    if t.team_mode:
        teams = Team.objects.filter(tournament=t, status=TeamStatus.COMPLETE).order_by("id")
        return [team.unit for team in teams]
    return [e.entrant for e in t.entries.filter(status__in=TAKING_PART).order_by("id")]


def start(*, tournament_id: int, by: Any = None, reason: str = "") -> Tournament:
    """Start the tournament: by the beat at ``starts_at`` (``by`` None) or early by staff.

    Registration closes first if still open. Below ``min_entrants`` the tournament is
    cancelled and every entry fee refunded; otherwise the prize table is snapshotted, the
    draw's secret revealed and round 1 opened by a task. Idempotent for the beat (a
    started tournament, or one not yet due, is returned as is); staff starting a started
    one gets :class:`Conflict`."""
    if by is not None:
        _require_staff(by, _("start tournaments"))
    from games.fairness import draw

    with transaction.atomic():
        t = _lock(tournament_id)
        now = timezone.now()
        if t.status not in (Status.DRAFT, Status.REGISTRATION, Status.CLOSED):
            if by is not None:
                if t.status in (Status.CANCELLED, Status.FINISHED):
                    raise Conflict(_("%(name)s is already %(status)s") % _named(t), "wrong_status")
                raise Conflict(
                    _("%(name)s has already started (it is %(status)s)") % _named(t), "wrong_status"
                )
            return t
        if by is None and (now < t.starts_at or t.status == Status.DRAFT):
            return t
        if t.status != Status.CLOSED:
            _close_locked(t)
        units = _units(t)
        if by is not None:
            _record(t, by, "start", reason)
        if len(units) < t.min_entrants:
            unit = "teams" if t.team_mode else "entrants"
            _cancel_locked(
                t,
                f"{len(units)} {unit} at the start, below the minimum of {t.min_entrants}",
                {BELOW_MINIMUM: {"units": len(units), "minimum": t.min_entrants}},
            )
            return t
        secret = open_draw_secret(t)
        entrants = [e["entrant"] for e in t.entrants]
        seeds = {e["entrant"]: e["client_seed"] for e in t.entrants}
        t.draw_seed = secret.hex()
        t.draw_key = draw.draw_key(
            secret=secret, event=t.ref, entrants=entrants, client_seeds=seeds
        ).hex()
        t.prize_bps_at_start = list(t.prize_bps)
        t.status = Status.RUNNING
        t.started_at = now
        _save(t, "draw_seed", "draw_key", "prize_bps_at_start", "status", "started_at")
        fairness_log.append(
            [
                fairness_log.draw_key(
                    event=t.ref,
                    commitment=t.draw_commitment,
                    server_seed=t.draw_seed,
                    # The draw record's "entrants" list (games.fairness.seating.build_record).
                    entrants=[
                        {"entrant": e, "client_seed": seeds[e]}
                        for e in draw.sorted_entrants(list(seeds))
                    ],
                )
            ]
        )
        dispatch.send_on_commit("advance", t.pk)
    return t


# -- rounds ----------------------------------------------------------------------------------


def _seats_for(
    t: Tournament, units: list[str | None], members: dict[str, list[Entry]], out: set[str]
):
    """The four seats of a table (``create_seated_table``'s ``seats``) and the unit per seat.
    A bot plays the seats of a disqualified unit (``out``): it stays in the published
    seating and ranks last there."""
    per_seat = [units[0], units[1], units[0], units[1]] if t.team_mode else list(units)
    seats = []
    for seat, unit in enumerate(per_seat):
        if unit is None or unit in out:
            seats.append({"bot": FILL_BOT})
        else:
            entry = members[unit][seat // 2 if t.team_mode else 0]
            seats.append({"user": entry.user, "client_seed": entry.client_seed})
    return seats, per_seat


def _members(t: Tournament) -> dict[str, list[Entry]]:
    """unit -> its entries (a team's two in id order)."""
    out: dict[str, list[Entry]] = {}
    for e in (
        Entry.objects.filter(tournament=t, status__in=TAKING_PART)
        .select_related("user", "team")
        .order_by("id")
    ):
        unit = e.team.unit if t.team_mode and e.team_id else e.entrant
        out.setdefault(unit, []).append(e)
    return out


def _open_round_locked(t: Tournament, number: int, plan: Any) -> Round:
    """Create round ``number`` and every table of ``plan`` (a ``seating.PlannedRound``), the
    tables in one call of ``games.services.create_seated_tables``."""
    from games.services import create_seated_tables

    now = timezone.now()
    seating = plan.seating
    rnd = Round.objects.create(
        tournament=t,
        number=number,
        kind=plan.kind,
        status=RoundStatus.OPENING,
        seating={
            "order": list(plan.order),
            "tables": [list(x) for x in seating.tables],
            "byes": list(seating.byes),
        },
        show_up_deadline=now + timedelta(seconds=settings.TRIX_TOURNAMENT_SHOW_UP),
    )
    members = _members(t)
    out = _disqualified_units(t)
    items, units = [], []
    for index, table_units in enumerate(seating.tables):
        seats, per_seat = _seats_for(t, list(table_units), members, out)
        items.append(
            {
                "seats": seats,
                "origin": f"{t.ref}/round:{number}/table:{index}",
                "bot_seed": hashlib.sha256(f"{t.draw_key}:{number}:{index}".encode()).hexdigest(),
            }
        )
        units.append(per_seat)
    tables = create_seated_tables(
        created_by=t.created_by, variant=t.variant, options=t.options, tables=items
    )
    RoundTable.objects.bulk_create(
        RoundTable(round=rnd, index=index, table=table, units=per_seat)
        for index, (table, per_seat) in enumerate(zip(tables, units, strict=True))
    )
    _pause_for_tests(len(tables))
    rnd.status = RoundStatus.RUNNING
    rnd.save(update_fields=["status"])
    return rnd


def _rounds_with_tables(t: Tournament) -> list[tuple[Round, list[RoundTable]]]:
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    tables: dict[int, list[RoundTable]] = {}
    for rt in RoundTable.objects.filter(round__tournament=t).order_by("round_id", "index"):
        tables.setdefault(rt.round_id, []).append(rt)
    return [(r, tables.get(r.pk, [])) for r in rounds]


def _disqualified_units(t: Tournament) -> set[str]:
    out = set()
    for e in Entry.objects.filter(tournament=t, status=EntryStatus.DISQUALIFIED).select_related(
        "team"
    ):
        out.add(e.team.unit if t.team_mode and e.team_id else e.entrant)
    return out


def _advance_locked(t: Tournament) -> None:
    if t.status != Status.RUNNING:
        return
    done = _rounds_with_tables(t)
    if done:
        last, tables = done[-1]
        if last.status != RoundStatus.FINISHED:
            if any(rt.recorded_at is None for rt in tables):
                return
            last.status = RoundStatus.FINISHED
            last.finished_at = timezone.now()
            last.save(update_fields=["status", "finished_at"])
    plan = progress.next_round(tournament=t, rounds=done)
    if plan is None:
        _finish_locked(t)
        return
    _open_round_locked(t, len(done) + 1, plan)
    _save(t)


def advance(*, tournament_id: int) -> Tournament:
    """Move a running tournament on: when every table of the current round is recorded,
    finish that round and open the next (or the final table), or finish the tournament.
    Nothing while paused or before the round is complete. Idempotent (a task run twice, or
    after a killed worker, opens each round once)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _advance_locked(t)
    return t


def open_round(*, tournament_id: int, number: int) -> Round:
    """Round ``number`` of the tournament, opened now if it is the next one and due
    (:func:`advance`); the existing round if it is already open. Raises :class:`Conflict`
    if it cannot open yet (an earlier round still playing, paused, not running)."""
    existing = Round.objects.filter(tournament_id=tournament_id, number=number).first()
    if existing is not None:
        return existing
    advance(tournament_id=tournament_id)
    existing = Round.objects.filter(tournament_id=tournament_id, number=number).first()
    if existing is None:
        raise Conflict(_("round %(number)s cannot open now") % {"number": number}, "not_due")
    return existing


def _no_shows(t: Tournament, rt: RoundTable, rnd: Round, table: Table) -> set[int]:
    """The seats of entrants who are no-shows at ``table`` (``docs/tournaments.md``,
    "No-shows"): a player who never looked at the table by the round's show-up deadline and
    never acted; and, where ``t.no_show_without_action`` (the default), a player with no move
    of their own in the match (no ``contract``/``select``/``double``/``play``/``pass`` they
    sent that was applied: every turn played by the timer, ``games.services.clock``). A
    bot's seat (from the start, or since a disqualification) is never one."""
    out = set()
    sent = TableAction.objects.filter(table=table, source="user")
    acted = set(sent.values_list("seat", flat=True))
    moved = set(
        sent.filter(status=ActionStatus.APPLIED, action__type__in=ACTION_TYPES).values_list(
            "seat", flat=True
        )
    )
    for seat in Seat.objects.filter(table=table):
        if rt.units[seat.seat] is None or seat.user_id is None:
            continue
        if t.no_show_without_action and seat.seat not in moved:
            out.add(seat.seat)
            continue
        seen = seat.checked_in_at
        if seat.seat not in acted and (seen is None or seen > rnd.show_up_deadline):
            out.add(seat.seat)
    return out


def record_table_result(*, table_id: int) -> RoundTable | None:
    """Record a finished (or cancelled) tournament table's result: places per unit from
    ``Table.result``, no-shows and disqualified entrants last at that table. None if the
    table is not a tournament's; the stored row as is if already recorded or still playing.
    Idempotent."""
    tid = (
        RoundTable.objects.filter(table_id=table_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tid is None:
        return None
    with transaction.atomic():
        t = _lock(tid)
        rt = RoundTable.objects.select_for_update().select_related("round").get(table_id=table_id)
        if rt.recorded_at is not None or t.status == Status.CANCELLED:
            return rt  # a cancelled tournament's tables were ended by the cancellation
        table = Table.objects.get(pk=table_id)
        if table.status not in (TableStatus.FINISHED, TableStatus.CANCELLED):
            return rt
        no_show_seats = _no_shows(t, rt, rt.round, table)
        members = _members(t)
        no_shows = sorted(
            members[rt.units[s]][s // 2 if t.team_mode else 0].pk for s in no_show_seats
        )
        rt.result = progress.table_result(
            units=rt.units,
            result=table.result if table.status == TableStatus.FINISHED else None,
            team_mode=t.team_mode,
            no_show_seats=no_show_seats,
            disqualified=_disqualified_units(t),
        )
        rt.no_shows = no_shows
        rt.recorded_at = timezone.now()
        rt.save(update_fields=["result", "no_shows", "recorded_at"])
        _save(t)
    return rt


def table_deal_ended(*, table_id: int) -> Tournament | None:
    """A deal ended at a tournament table still playing: bump the tournament's live version,
    so the live page shows the table's running scores (``selectors.bracket``). None if the
    table is not a tournament's; nothing changes once the table is recorded or the event is
    not running or paused. Idempotent in effect (a repeated bump shows the same page)."""
    tid = (
        RoundTable.objects.filter(table_id=table_id, recorded_at__isnull=True)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tid is None:
        return None
    with transaction.atomic():
        t = _lock(tid)
        if t.status in (Status.RUNNING, Status.PAUSED):
            _save(t)
    return t


# -- the end ---------------------------------------------------------------------------------


def _absent_units(t: Tournament) -> set[str]:
    """Units that were no-shows at every table they were seated at (they never played):
    ``docs/tournaments.md`` [Final places] places them with the disqualified, below everyone
    who played, and gives them no prize (found by a fresh reviewer: a player who never opened
    a table took first prize on the points its timeouts shared)."""
    seen: dict[str, bool] = {}
    for rt in RoundTable.objects.filter(round__tournament=t, recorded_at__isnull=False):
        absent = set((rt.result or {}).get("no_show", []))
        for unit in {u for u in rt.units if u is not None}:
            seen[unit] = seen.get(unit, True) and unit in absent
    return {unit for unit, never in seen.items() if never}


def _compute_final(t: Tournament) -> None:
    """Final places and prizes of every entry of a locked tournament (review or paying).
    Disqualified units and units that never played (:func:`_absent_units`) share the last
    places and take no prize."""
    out = _disqualified_units(t) | _absent_units(t)
    places = progress.final_places(tournament=t, rounds=_rounds_with_tables(t), disqualified=out)
    pool = 0 if is_escrow_closed(t.ref) else escrow_balance(t.ref)
    house = house_fee_for(pool, t.house_fee_bps)
    members = _members(t)
    prizes = progress.prizes(
        pool=pool - house,
        table_bps=t.prize_bps_at_start or t.prize_bps,
        places=places,
        members={unit: [e.pk for e in entries] for unit, entries in members.items()},
        disqualified=out,
    )
    for unit, entries in members.items():
        for e in entries:
            e.place = places.get(unit)
            e.prize = prizes.get(e.pk, 0)
            e.save(update_fields=["place", "prize"])
    t.pool, t.house_fee = pool, house


def _finish_locked(t: Tournament) -> None:
    _compute_final(t)
    now = timezone.now()
    t.status = Status.REVIEW
    t.finished_at = now
    t.review_ends_at = now + timedelta(seconds=t.review_seconds)
    _save(t, "status", "finished_at", "review_ends_at", "pool", "house_fee")
    dispatch.send_on_commit("pay_prizes", t.pk, countdown=t.review_seconds + 0.5)


def pay_prizes(*, tournament_id: int) -> Tournament:
    """After the review window: pay every prize and the house fee out of the escrow, exactly
    once (one idempotency key per tournament, ``tournament:<id>:prizes``), places and prizes
    recomputed first (a disqualification during the review counts). Before the window ends,
    or when not in review, returns the tournament as is."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Status.REVIEW or timezone.now() < t.review_ends_at:
            return t
        _compute_final(t)
        payouts = {e.user_id: e.prize for e in Entry.objects.filter(tournament=t, prize__gt=0)}
        if t.pool and payouts:
            wallet.award_prizes(
                tournament_ref=t.ref,
                prizes=payouts,
                key=f"{t.ref}:prizes",
                house_fee=t.house_fee,
                memo=t.name[:100],
            )
        elif t.pool:  # every unit disqualified: nobody may win, so every fee goes back
            wallet.refund_all(escrow_ref=t.ref, key=f"{t.ref}:prizes", memo="no unit may be paid")
            t.pool = t.house_fee = 0
        _pause_for_tests()
        t.status = Status.FINISHED
        t.prizes_paid_at = timezone.now()
        _save(t, "status", "prizes_paid_at", "pool", "house_fee")
    return t


# -- the admin's actions ---------------------------------------------------------------------


def pause(*, tournament_id: int, by: Any, reason: str) -> Tournament:
    """No new round opens until :func:`resume` (tables playing go on). Staff; reason shown."""
    _require_staff(by, _("pause tournaments"))
    reason = _reason(reason)
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Status.RUNNING:
            raise Conflict(
                _("only a running tournament can be paused (%(name)s is %(status)s)") % _named(t),
                "wrong_status",
            )
        t.status = Status.PAUSED
        _save(t, "status")
        _record(t, by, "pause", reason)
    return t


def resume(*, tournament_id: int, by: Any, reason: str) -> Tournament:
    """A paused tournament runs again; a round that became due while paused opens now."""
    _require_staff(by, _("resume tournaments"))
    reason = _reason(reason)
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Status.PAUSED:
            raise Conflict(
                _("%(name)s is not paused (it is %(status)s)") % _named(t), "wrong_status"
            )
        t.status = Status.RUNNING
        _save(t, "status")
        _record(t, by, "resume", reason)
        dispatch.send_on_commit("advance", t.pk)
    return t


def _cancel_locked(t: Tournament, reason: str, details: dict | None = None) -> None:
    for rt in RoundTable.objects.filter(
        round__tournament=t, table__status__in=(TableStatus.OPEN, TableStatus.PLAYING)
    ):
        from games.services import cancel_table

        cancel_table(table_id=rt.table_id, reason=f"tournament cancelled: {reason}")
    if not is_escrow_closed(t.ref) and escrow_balance(t.ref) > 0:
        try:
            wallet.refund_all(escrow_ref=t.ref, key=f"{t.ref}:cancel", memo=reason[:100])
        except EscrowClosed:
            pass
    for e in Entry.objects.filter(tournament=t, status__in=TAKING_PART):
        e.refunded = e.paid
        if e.status == EntryStatus.REGISTERED:
            e.status = EntryStatus.REFUNDED
        e.place = e.prize = None
        e.save(update_fields=["status", "refunded", "place", "prize"])
    t.status = Status.CANCELLED
    t.cancelled_at = timezone.now()
    _save(t, "status", "cancelled_at")
    if not AdminAction.objects.filter(tournament=t, action="cancel").exists():
        AdminAction.objects.create(
            tournament=t, by=None, action="cancel", reason=reason, details=details or {}
        )


def cancel(*, tournament_id: int, by: Any, reason: str) -> Tournament:
    """Call the tournament off (staff): tables still playing are cancelled, every entry fee
    is refunded (the whole escrow, ``refund_all``). Not once the prizes are paid. Raises
    :class:`Conflict`."""
    _require_staff(by, _("cancel tournaments"))
    reason = _reason(reason)
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status in (Status.FINISHED, Status.CANCELLED):
            raise Conflict(_("%(name)s is already %(status)s") % _named(t), "wrong_status")
        AdminAction.objects.create(tournament=t, by=by, action="cancel", reason=reason)
        _cancel_locked(t, reason)
    return t


def disqualify(*, tournament_id: int, by: Any, user_id: int, reason: str) -> Entry:
    """Disqualify an entrant (staff): they rank last at the table where they sit (a bot
    takes their seat if it is still playing), never advance, and get no prize; in a
    partnership event their team does. During the review window the final places and
    prizes are recomputed at once. Raises :class:`Conflict`, :class:`NotFound`."""
    from games.services import replace_with_bot

    _require_staff(by, _("disqualify players"))
    reason = _reason(reason)
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status not in (Status.RUNNING, Status.PAUSED, Status.REVIEW):
            raise Conflict(
                _(
                    "players can be disqualified while %(name)s runs or is in review "
                    "(it is %(status)s)"
                )
                % _named(t),
                "wrong_status",
            )
        entry = Entry.objects.filter(tournament=t, user_id=user_id).first()
        if entry is None or entry.status not in TAKING_PART:
            raise NotFound(
                _("user %(user)s has no entry in %(name)s") % {"user": user_id, "name": t.name}
            )
        if entry.status == EntryStatus.DISQUALIFIED:
            raise Conflict(_("this entrant is already disqualified"), "already_disqualified")
        entry.status = EntryStatus.DISQUALIFIED
        entry.save(update_fields=["status"])
        replaced = []
        for rt in RoundTable.objects.filter(
            round__tournament=t, recorded_at__isnull=True, table__status=TableStatus.PLAYING
        ):
            for seat in Seat.objects.filter(table_id=rt.table_id, user_id=user_id):
                try:
                    replace_with_bot(
                        table_id=rt.table_id, seat=seat.seat, reason=reason, bot=FILL_BOT
                    )
                except TableError:  # the match ended meanwhile: ranked last when recorded
                    continue
                replaced.append({"table": rt.table_id, "seat": seat.seat})
        if t.status == Status.REVIEW:
            _compute_final(t)
        _save(t, "pool", "house_fee")
        _record(t, by, "disqualify", reason, user_id=user_id, seats=replaced)
    return entry


# -- the beat --------------------------------------------------------------------------------


def sweep() -> dict[str, int]:
    """Beat: the safety net, so a killed worker loses nothing. Sends tasks for registration
    due to close, tournaments due to start, finished tables not recorded, running
    tournaments whose round is complete or that have no round yet, and prizes due.
    Returns counts."""
    now = timezone.now()
    late = now - timedelta(seconds=settings.TRIX_SWEEP_LATE)
    counts = {"close": 0, "start": 0, "record": 0, "advance": 0, "pay": 0}
    for tid in Tournament.objects.filter(
        status=Status.REGISTRATION, registration_closes_at__lte=now
    ).values_list("pk", flat=True):
        dispatch.send("close_registration", tid)
        counts["close"] += 1
    counts["start"] = start_due()
    for table_id in RoundTable.objects.filter(
        recorded_at__isnull=True,
        table__status__in=(TableStatus.FINISHED, TableStatus.CANCELLED),
        round__tournament__status__in=(Status.RUNNING, Status.PAUSED),
    ).values_list("table_id", flat=True):
        dispatch.send("table_finished", table_id)
        counts["record"] += 1
    for t in Tournament.objects.filter(status=Status.RUNNING, started_at__lt=late):
        last = Round.objects.filter(tournament=t).order_by("-number").first()
        if last is None or not last.tables.filter(recorded_at__isnull=True).exists():
            dispatch.send("advance", t.pk)  # no round yet, or every table of the last one recorded
            counts["advance"] += 1
    for tid in Tournament.objects.filter(status=Status.REVIEW, review_ends_at__lte=now).values_list(
        "pk", flat=True
    ):
        dispatch.send("pay_prizes", tid)
        counts["pay"] += 1
    return counts


def start_due() -> int:
    """Beat: send a start task for every tournament whose start time has come."""
    due = Tournament.objects.filter(
        status__in=(Status.REGISTRATION, Status.CLOSED), starts_at__lte=timezone.now()
    ).values_list("pk", flat=True)
    for tid in due:
        dispatch.send("start", tid)
    return len(due)


__all__ = [
    "TournamentError",
    "accept_invite",
    "advance",
    "cancel",
    "check_parameters",
    "close_registration",
    "create_tournament",
    "decline_invite",
    "disqualify",
    "invite_partner",
    "open_registration",
    "open_round",
    "pause",
    "pay_prizes",
    "record_table_result",
    "register",
    "resume",
    "start",
    "start_due",
    "sweep",
    "table_deal_ended",
    "unregister",
]
