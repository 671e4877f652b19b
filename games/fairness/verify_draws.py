"""What ``trix verify`` checks of a ``trix-draw/1`` record (a tournament's seating draw)
beside its own rules: the commitment saved before the start, the log's entries of the draw
and of its tables' matches, and each table's results recomputed from its deal records; and
the notes on what was checked. No Django."""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import Any

from games.fairness import table_results
from games.fairness.draw import ALGORITHM as DRAW_FORMAT
from games.fairness.draw_record import verify_record as verify_draw_record
from games.fairness.errors import FairnessError
from games.fairness.transparency import logged
from games.fairness.verify_log import draw_in_log


def draw_problems(
    record: dict[str, Any],
    commitment: str | None,
    entries: list[dict[str, Any]] | None,
    deals: Sequence[Any] = (),
) -> tuple[list[str], dict[str, Any] | None, int]:
    """A ``trix-draw/1`` record's mismatches (each line prefixed ``trix-draw/1: ``), its
    summary and the tables whose results were recomputed: the record by itself; with
    ``commitment`` (hex, any case, the one the tournament page showed before the start) it
    must carry exactly it; with the log's ``entries``, its commitment and key are the
    logged ones (``verify_log.draw_in_log``) and its tables' matches the logged ones
    (``table_results.check_against_log``); with ``deals`` (deal records given beside it),
    each table whose match's records are all there has the results they give
    (``table_results.check_against_records``)."""
    try:
        summary = verify_draw_record(record)
        stated = record["commitment"].lower()
        if commitment is not None and not hmac.compare_digest(stated, commitment.lower()):
            raise FairnessError(
                f"commitment: the record's {stated} is not the commitment you saved before "
                f"the start, {commitment.lower()}"
            )
    except FairnessError as error:
        return [f"{DRAW_FORMAT}: {error}"], None, 0
    problems: list[str] = []
    if entries is not None:
        index = logged(entries)
        problems += draw_in_log(record, index) + table_results.check_against_log(record, index)
        paid = index.get(("event-payout", summary["event"]))
        if paid is not None and paid["body"]["reason"] == "result" and not summary["over"]:
            problems.append(
                f"its prizes were paid (log entry {paid['index']}), but the record stops after "
                f"round {summary['played']}: the event's rules seat another round"
            )
    found, checked = table_results.check_against_records(record, deals)
    problems += found
    return [f"{DRAW_FORMAT}: {line}" for line in problems], summary, checked


def draw_notes(summary: dict[str, Any], checked: int, logged_too: bool) -> list[str]:
    """What a verified draw record's check covered: its matches in the log, its results
    recomputed from deal records."""
    event, bound = summary["event"], summary["bound"]
    if not summary["played"]:
        return [f"{event}: no round has results yet: no result to bind"]
    if not bound:
        return [
            f"{event}: its results name no matches (a record from before they did): nothing "
            "binds them to the deals played"
        ]
    notes = [
        f"{event}: the matches of its {bound} tables with results are the log's, each with "
        "every deal record the log holds of it"
        if logged_too
        else f"{event}: its tables' matches not checked against the log: give --log"
    ]
    notes.append(
        f"{event}: the results of {checked} of its {bound} tables recomputed from their deal "
        "records"
        + ("" if checked == bound else " (download the others' records to check them too)")
    )
    return notes
