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

The package by concern: :mod:`~tournaments.services.create` (create, open a draft,
the draw secret), :mod:`~tournaments.services.parameters` (the parameters' checks),
:mod:`~tournaments.services.registration` and :mod:`~tournaments.services.teams` (entering,
leaving, a partnership's teams), :mod:`~tournaments.services.lifecycle` (close, start),
:mod:`~tournaments.services.rounds` (rounds and table results),
:mod:`~tournaments.services.finish` (places, prizes), :mod:`~tournaments.services.staff`
(pause, resume, cancel, disqualify), :mod:`~tournaments.services.beat` (the sweep); under
them :mod:`~tournaments.services.common`, :mod:`~tournaments.services.fees` and
:mod:`~tournaments.services.units`. This module re-exports the public services: patch a
function where it is defined, not here.
"""

from tournaments.errors import TournamentError
from tournaments.services.beat import start_due, sweep
from tournaments.services.create import (
    create_tournament,
    open_draw_secret,
    open_registration,
    reseal_draw_secrets,
    seal_draw_secret,
)
from tournaments.services.finish import pay_prizes
from tournaments.services.lifecycle import close_registration, start
from tournaments.services.parameters import Parameters
from tournaments.services.registration import register, unregister
from tournaments.services.rounds import advance, open_round, record_table_result, table_deal_ended
from tournaments.services.staff import cancel, disqualify, pause, resume
from tournaments.services.teams import accept_invite, decline_invite, invite_partner

__all__ = [
    "Parameters",
    "TournamentError",
    "accept_invite",
    "advance",
    "cancel",
    "close_registration",
    "create_tournament",
    "decline_invite",
    "disqualify",
    "invite_partner",
    "open_draw_secret",
    "open_registration",
    "open_round",
    "pause",
    "pay_prizes",
    "record_table_result",
    "register",
    "reseal_draw_secrets",
    "resume",
    "seal_draw_secret",
    "start",
    "start_due",
    "sweep",
    "table_deal_ended",
    "unregister",
]
