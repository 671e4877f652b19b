"""What a player downloads of their own account: the match history as CSV and all
their data as one JSON document. Built for the signed-in owner only: every function takes
the user whose data it writes, and the views pass ``request.user`` and nothing else.

Money is integer minor units of the currency named beside it (``settings.TRIX_CURRENCY``,
``TRIX_CURRENCY_DECIMALS`` digits after the point): a spreadsheet reads ``1500`` with
``currency`` ``USD`` and 2 decimals as 15.00 USD. The CSV's money columns say so in their
names (``stake_minor``, ``payout_minor``, ``net_minor``); no formatted amount is written, so
a column sums without parsing.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.history import HistoryFilters, MatchRow, history_rows, match_history
from accounts.selectors import display_name
from wallet.selectors import wallet_history

#: The JSON document's format name (bumped if a field changes meaning).
DATA_FORMAT = "trix-account-data/1"

#: The history CSV's columns, in order (the header row).
CSV_COLUMNS = (
    "table_id",
    "played_at",
    "finished_at",
    "status",
    "variant",
    "kind",
    "seat",
    "seats",
    "result",
    "placement",
    "score",
    "team_score",
    "forfeit",
    "currency",
    "stake_minor",
    "payout_minor",
    "net_minor",
    "table_url",
    "verify_url",
)

#: A cell a spreadsheet would run as a formula starts with one of these (OWASP's "CSV
#: injection"): such a text cell (a display name) is written after a ``'``.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    return f"'{value}" if value.startswith(_FORMULA_START) else value


def _seats_text(row: MatchRow) -> str:
    """``0:Layla; 1:Bot 2; 2:Omar; 3:`` -- who sat where."""
    return "; ".join(f"{s.seat}:{s.name}" for s in row.seats)


def _iso(value) -> str:
    return value.isoformat() if value else ""


def history_csv(*, user: Any, filters: HistoryFilters | None = None) -> str:
    """The ``user``'s match history (:func:`accounts.history.match_history` with
    ``filters``, newest first, every match: no pages) as CSV text: a header row of
    :data:`CSV_COLUMNS`, then one row per match. Times are ISO 8601 in UTC; money integer
    minor units; ``seats`` reads ``seat:name`` for the four seats; URLs are site paths."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for chunk in _chunks(match_history(user=user, filters=filters)):
        for row in history_rows(seats=chunk):
            writer.writerow(
                [
                    row.table_id,
                    _iso(row.played_at),
                    _iso(row.finished_at),
                    row.status,
                    row.variant,
                    row.kind,
                    row.seat,
                    _text(_seats_text(row)),
                    row.outcome,
                    "" if row.placement is None else row.placement,
                    "" if row.score is None else row.score,
                    "" if row.team_score is None else row.team_score,
                    int(row.forfeit),
                    settings.TRIX_CURRENCY,
                    row.stake,
                    row.payout,
                    row.net,
                    row.table_url,
                    row.verify_url or "",
                ]
            )
    return out.getvalue()


def _chunks(seats, size: int = 500):
    """The query's seats a slice at a time (the prefetch of seats runs once per slice)."""
    start = 0
    while True:
        chunk = list(seats[start : start + size])
        if not chunk:
            return
        yield chunk
        start += size


def match_json(row: MatchRow) -> dict[str, Any]:
    """One match as the API (``/api/me/matches/``) and the data download write it."""
    return {
        "table_id": row.table_id,
        "variant": row.variant,
        "partnership": row.partnership,
        "kind": row.kind,
        "status": row.status,
        "played_at": _iso(row.played_at),
        "finished_at": _iso(row.finished_at) or None,
        "stake": row.stake,
        "seat": row.seat,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "player_id": s.player_id,
                "is_me": s.is_me,
            }
            for s in row.seats
        ],
        "result": row.outcome,
        "placement": row.placement,
        "score": row.score,
        "team_score": row.team_score,
        "forfeit": row.forfeit,
        "payout": row.payout,
        "net": row.net,
        "table_url": row.table_url,
        "verify_url": row.verify_url,
    }


def _ledger(user: Any) -> list[dict[str, Any]]:
    return [
        {
            "id": entry.pk,
            "transaction_id": entry.transaction_id,
            "kind": entry.transaction.kind,
            "reference": entry.transaction.reference,
            "amount": entry.amount,
            "balance_after": entry.balance_after,
            "memo": entry.transaction.memo,
            "created_at": _iso(entry.transaction.created_at),
        }
        for entry in wallet_history(user).order_by("id")
    ]


def more_sections(*, user: Any) -> dict[str, Any]:
    """Further sections of :func:`account_data`, by name, each the owner's own records as
    JSON-ready values: ``ratings`` (:func:`ratings.selectors.ratings_of`), ``limits`` (each
    kind and period in effect now and pending, :func:`responsible.selectors.limits`),
    ``limit_changes`` (every change asked, by the player or by staff), ``exclusions``
    (time-outs and self-exclusions), ``reality_check_minutes``, ``verification`` (the
    identity check's status and dates; never the provider's reference or documents) and
    ``suspensions`` (when, why, when lifted). Nothing secret: no hashes of addresses."""
    from accounts.models import Suspension, Verification
    from ratings.selectors import ratings_of
    from responsible import selectors as play
    from responsible.models import Exclusion, LimitChange

    now = timezone.now()
    check = Verification.objects.filter(user=user).first()
    return {
        "ratings": ratings_of(user),
        "limits": [
            {**row, "pending_from": _iso(row["pending_from"])} for row in play.limits(user, now)
        ],
        "limit_changes": [
            {
                "kind": c.kind,
                "period": c.period,
                "old_amount": c.old_amount,
                "new_amount": c.new_amount,
                "asked_at": _iso(c.asked_at),
                "effective_at": _iso(c.effective_at),
                "by_staff": c.by_staff,
            }
            for c in LimitChange.objects.filter(user=user).order_by("id")
        ],
        "exclusions": [
            {"kind": e.kind, "starts_at": _iso(e.starts_at), "ends_at": _iso(e.ends_at)}
            for e in Exclusion.objects.filter(user=user).order_by("id")
        ],
        "reality_check_minutes": play.reality_check_minutes(user),
        "verification": {
            "status": check.status if check else "unverified",
            "provider": check.provider if check else "",
            "started_at": _iso(check.started_at) if check else "",
            "checked_at": _iso(check.checked_at) if check else "",
        },
        "suspensions": [
            {
                "suspended_at": _iso(s.suspended_at),
                "reason": s.reason,
                "lifted_at": _iso(s.lifted_at),
            }
            for s in Suspension.objects.filter(user=user).order_by("id")
        ],
    }


def account_data(*, user: Any) -> dict[str, Any]:
    """Everything the site keeps about ``user`` that is theirs to take, as one JSON-ready
    dict (format :data:`DATA_FORMAT`): ``profile`` (id, username, email, display name, when
    the account was made and last used), ``matches`` (every match, :func:`match_json`,
    oldest first), ``ledger`` (every entry of their wallet, oldest first, money in minor
    units) and the sections of :func:`more_sections`. Never another user's data, but the
    names of who sat at their tables (shown to everyone at those tables)."""
    matches = [
        match_json(row)
        for chunk in _chunks(match_history(user=user))
        for row in history_rows(seats=chunk)
    ]
    matches.reverse()
    return {
        "format": DATA_FORMAT,
        "generated_at": timezone.now().isoformat(),
        "currency": settings.TRIX_CURRENCY,
        "currency_decimals": settings.TRIX_CURRENCY_DECIMALS,
        "profile": {
            "id": user.pk,
            "username": user.get_username(),
            "email": user.email,
            "display_name": display_name(user),
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login) or None,
        },
        "matches": matches,
        "ledger": _ledger(user),
        **more_sections(user=user),
    }
