"""Finished (and unfinished) matches made straight in the database for the history tests: a
table, its four seats and, at a staked table, the real ledger's stakes and settlement
(``wallet.services``), so the payout column reads what a played match would have left."""

from __future__ import annotations

import datetime
import itertools

from django.utils import timezone

from accounts.models import Profile
from games.engine import Options
from games.models import Seat, Table, TableStatus
from wallet import services as ledger
from wallet.payments import DemoProvider

_keys = itertools.count()


def player(django_user_model, username: str, name: str | None = None):
    """A user (no password: no slow hashing) with display name ``name``."""
    user = django_user_model.objects.create_user(username=username)
    Profile.objects.create(user=user, display_name=name or username.title())
    return user


def fund(user, amount: int) -> None:
    ledger.deposit(
        user=user, amount=amount, key=f"test-fund:{next(_keys)}", provider=DemoProvider()
    )


def make_match(
    players,
    *,
    variant: str = "trix",
    stake: int = 0,
    status: str = TableStatus.FINISHED,
    scores: dict[int, int] | None = None,
    placements: dict[int, int] | None = None,
    forfeit: int | None = None,
    started: datetime.datetime | None = None,
    kind: str | None = None,
) -> Table:
    """A table with ``players`` in seats 0..3 (a user, or None for a ``rules`` bot).

    Finished: ``placements`` (default 1, 2, 3, 4 by seat; in partnership seats 0 and 2 win)
    and ``scores``; a partnership draw when every placement is 1. ``kind``: a
    ``games.policy.TableKind`` (the model's default if None). Staked (``stake`` minor
    units per human seat): each human is funded, stakes, and at the end the pot is settled by
    ``wallet.services.settle_match`` (refunded if cancelled; left in escrow if unfinished)."""
    partnership = Options(variant=variant).partnership
    started = started or timezone.now()
    humans = [u for u in players if u is not None]
    table = Table.objects.create(
        variant=variant,
        options={"variant": variant},
        stake=stake,
        status=status,
        created_by=humans[0],
        commitment="c" * 64,
        bot_seed="b" * 16,
        seat_kinds=["human" if u else "rules" for u in players],
        **({"kind": kind} if kind else {}),
        started_at=None if status == TableStatus.OPEN else started,
        finished_at=started + datetime.timedelta(minutes=30)
        if status == TableStatus.FINISHED
        else None,
    )
    for seat, user in enumerate(players):
        Seat.objects.create(
            table=table,
            seat=seat,
            user=user,
            bot="" if user else "rules",
            staked=stake if user else 0,
            joined_at=started,
        )
        if user and stake:
            fund(user, stake)
            ledger.stake(
                user=user, table_ref=table.ref, amount=stake, key=f"test-stake:{table.pk}:{seat}"
            )
    if status == TableStatus.FINISHED:
        if placements is None:
            placements = {0: 1, 1: 3, 2: 1, 3: 3} if partnership else {0: 1, 1: 2, 2: 3, 3: 4}
        scores = scores or {s: 100 - 10 * placements[s] for s in range(4)}
        result = {
            "scores": {str(s): scores[s] for s in range(4)},
            "forfeit": forfeit,
            "deals_played": 8,
            "placements": {str(s): placements[s] for s in range(4)},
        }
        if partnership:
            draw = len(set(placements.values())) == 1
            result["teams"] = {"0+2": scores[0] + scores[2], "1+3": scores[1] + scores[3]}
            result["winner"] = None if draw else ("0+2" if placements[0] == 1 else "1+3")
            result["draw"] = draw
        table.result = result
        table.settled = bool(stake)
        table.save(update_fields=["result", "settled"])
        if stake:
            seat_users = {s: u.pk for s, u in enumerate(players) if u is not None}
            ledger.settle_match(
                table_ref=table.ref,
                seat_users=seat_users,
                result=result,
                team_mode=partnership,
                key=f"test-settle:{table.pk}",
            )
    elif status == TableStatus.CANCELLED and stake:
        ledger.refund_all(escrow_ref=table.ref, key=f"test-refund:{table.pk}")
    return table
