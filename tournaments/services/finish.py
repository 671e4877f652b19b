"""The end of a tournament: final places and prizes, the review window, the prizes paid
out of the escrow exactly once, and logged (:func:`log_payout`)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.fairness.errors import FairnessError
from games.services import fairness_log
from tournaments import dispatch, progress
from tournaments.models import Entry, RoundTable, Status, Tournament
from tournaments.services import table_keys
from tournaments.services.common import _lock, _save
from tournaments.services.units import _members, _rounds_with_tables
from wallet import payouts
from wallet import services as wallet
from wallet.selectors import escrow_balance, is_escrow_closed
from wallet.settlement import house_fee_for


def _absent_units(t: Tournament) -> set[str]:
    """Units that were no-shows at every table they were seated at (they never played):
    ``docs/tournaments.md`` [Final places] places them with the disqualified, below everyone
    who played, and gives them no prize (else a player who never opened a table could win
    on the points its timeouts shared)."""
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
    out = t.disqualified_units() | _absent_units(t)
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
    table_keys.reveal(t)  # every table of the event has ended
    _save(t, "status", "finished_at", "review_ends_at", "pool", "house_fee", "tables_key")
    dispatch.send_on_commit("pay_prizes", t.pk, countdown=t.review_seconds + 0.5)


def log_payout(t: Tournament, transaction_id: int, reason: str) -> None:
    """Append the ``event-payout`` entry of ledger transaction ``transaction_id``, which just
    paid the escrow of the locked ``t`` out, in the caller's database transaction
    (docs/fairness.md, "Payouts"): ``reason`` ``"result"`` (the prizes) or ``"refund"``
    (every fee back); per entrant id (``E<entry id>``, as the draw record names entrants,
    never a person) the fee it had in the escrow and what it was paid, and the house fee,
    read back from the ledger transaction (``wallet.payouts``). Raises FairnessError when the
    ledger paid someone with no entry or moved money the entry cannot say (nothing is then
    committed, the payout neither)."""
    entrant = {
        user_id: f"E{pk}"
        for user_id, pk in Entry.objects.filter(tournament=t).values_list("user_id", "pk")
    }
    try:
        stakes, paid, house_fee = payouts.keyed(
            transaction_id, entrant, f"with no entry in {t.ref}"
        )
    except payouts.UndescribedPayout as exc:
        raise FairnessError(str(exc)) from exc
    fairness_log.append(
        [
            fairness_log.event_payout(
                event=t.ref,
                reason=reason,
                transaction=transaction_id,
                stakes=stakes,
                payouts=paid,
                house_fee=house_fee,
            )
        ]
    )


def pay_prizes(*, tournament_id: int) -> Tournament:
    """After the review window: pay every prize and the house fee out of the escrow, exactly
    once (one idempotency key per tournament, ``tournament:<id>:prizes``), places and prizes
    recomputed first (a disqualification during the review counts), and log the payout
    (:func:`log_payout`) in the same database transaction. Before the window ends, or when
    not in review, returns the tournament as is."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status != Status.REVIEW or timezone.now() < t.review_ends_at:
            return t
        _compute_final(t)
        prizes = {e.user_id: e.prize for e in Entry.objects.filter(tournament=t, prize__gt=0)}
        if t.pool and prizes:
            paid = wallet.award_prizes(
                tournament_ref=t.ref,
                prizes=prizes,
                key=f"{t.ref}:prizes",
                house_fee=t.house_fee,
                memo=t.name[:100],
            )
            log_payout(t, paid.pk, "result")
        elif t.pool:  # every unit disqualified: nobody may win, so every fee goes back
            paid = wallet.refund_all(
                escrow_ref=t.ref, key=f"{t.ref}:prizes", memo="no unit may be paid"
            )
            log_payout(t, paid.pk, "refund")
            t.pool = t.house_fee = 0
        t.status = Status.FINISHED
        t.prizes_paid_at = timezone.now()
        _save(t, "status", "prizes_paid_at", "pool", "house_fee")
    return t
