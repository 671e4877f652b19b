"""Creating a tournament: its parameters checked, its draw commitment published, its
draw secret sealed at rest; a draft opened for registration."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import sealing
from games.services import fairness_log
from tournaments.errors import Conflict
from tournaments.models import BASIS_POINTS, Status, Tournament
from tournaments.services import table_keys
from tournaments.services.common import _move_status, _record, _require_staff
from tournaments.services.parameters import Parameters


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
    """Seal every draw secret and table key not sealed under the current ``TRIX_SEED_KEY``
    anew (a key rotation; ``manage.py reseal_secrets`` sends
    ``games.signals.reseal_requested``); returns how many tournaments. Raises
    :class:`games.sealing.SealError` when one does not open."""
    count = 0
    for pk in Tournament.objects.values_list("pk", flat=True).iterator():
        with transaction.atomic():
            t = Tournament.objects.select_for_update().get(pk=pk)
            tables = table_keys.reseal(t)
            if not sealing.needs_resealing(t.draw_secret) and not tables:
                continue
            if sealing.needs_resealing(t.draw_secret):
                t.draw_secret = seal_draw_secret(t, open_draw_secret(t))
            t.save(update_fields=["draw_secret", "tables_secret"])
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

    The event's parameters are :class:`~tournaments.services.parameters.Parameters`'
    (what each means, and its checks); ``review_seconds`` defaults to
    ``TRIX_TOURNAMENT_REVIEW_SECONDS``. ``draft`` keeps registration shut until an admin
    opens it. ``description``: text shown on the tournament page (at most 2,000 characters,
    ``tournaments.edits.check_description``). ``allow_overlap`` lets players enter while in
    another event whose play overlaps this one's (:func:`register`). ``draw_secret`` (32
    bytes) is for tests only. Over 60 lines only by its signature, one line a parameter.
    Raises :class:`NotAllowed`, :class:`BadRequest`."""
    _require_staff(by, _("create tournaments"))
    if review_seconds is None:
        review_seconds = settings.TRIX_TOURNAMENT_REVIEW_SECONDS
    parameters = Parameters(
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
        review_seconds=review_seconds,
        no_show_without_action=no_show_without_action,
    ).checked()
    return _insert(
        by=by,
        parameters=parameters,
        description=description,
        status=Status.DRAFT if draft else Status.REGISTRATION,
        allow_overlap=bool(allow_overlap),
        draw_secret=draw_secret,
    )


def _insert(
    *,
    by: Any,
    parameters: Parameters,
    description: str,
    status: str,
    allow_overlap: bool,
    draw_secret: bytes | None,
) -> Tournament:
    """Insert a tournament of checked ``parameters`` with a new draw secret (or the test's
    ``draw_secret``) and table key (:mod:`~tournaments.services.table_keys`): both sealed
    for its id, their commitments appended to the public fairness log before anyone can
    register, the creation recorded. Raises :class:`BadRequest` (the description)."""
    from games.fairness import draw
    from tournaments.edits import check_description

    description = check_description(description)
    secret = draw.new_secret() if draw_secret is None else bytes(draw_secret)
    with transaction.atomic():
        t = Tournament.objects.create(
            **parameters.fields(),
            description=description,
            status=status,
            allow_overlap=allow_overlap,
            draw_commitment=draw.commitment(secret),
            created_by=by,
        )
        # Sealed for this tournament: its id (the associated data) is known after the INSERT.
        t.draw_secret = seal_draw_secret(t, secret)
        tables = table_keys.commit(t)
        t.save(update_fields=["draw_secret", "tables_secret"])
        fairness_log.append(
            [fairness_log.draw_commitment(event=t.ref, commitment=t.draw_commitment), tables]
        )
        _record(t, by, "create", "", name=t.name)
    return t


def _check_dates_ahead(t: Tournament) -> None:
    """Refuse to open draft ``t`` when its registration close time has passed (the start,
    never before it, may have too): registration would be shut at once and the event
    cancelled for too few entrants (``docs/tournaments.md``, "Creating"). Raises
    :class:`Conflict` (code ``dates_passed``)."""
    if timezone.now() >= t.registration_closes_at:
        raise Conflict(
            _(
                "%(name)s cannot open: its registration close time (%(when)s UTC) has passed;"
                " edit the dates first"
            )
            % {"name": t.name, "when": f"{t.registration_closes_at:%Y-%m-%d %H:%M}"},
            "dates_passed",
        )


def open_registration(*, tournament_id: int, by: Any) -> Tournament:
    """A draft tournament opens for registration (staff). Raises :class:`Conflict` (code
    ``wrong_status``; ``dates_passed`` when its registration close time has passed)."""
    _require_staff(by, _("open registration"))
    with transaction.atomic():
        t = _move_status(
            tournament_id,
            by,
            source=Status.DRAFT,
            target=Status.REGISTRATION,
            action="open_registration",
            refusal=_("%(name)s is not a draft (it is %(status)s)"),
            check=_check_dates_ahead,
        )
    return t
