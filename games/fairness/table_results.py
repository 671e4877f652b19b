"""A tournament table's result from its match, and the check that a ``trix-draw/1`` record's
results are its matches'.

The rule (``docs/tournaments.md``, "Results" and "No-shows"): the engine's places and match
scores (``games.engine.results.outcome``), then the units the site penalised (no-shows and
the disqualified) moved below every other seat. The binding (``docs/fairness.md``,
"trix-draw/1", "Results bound to their matches"): each played table of a record names its
match, the hashes of its deal records, how it ended and whom the site penalised; a verifier
recomputes the table's result from those deal records, and finds exactly those hashes in the
log's ``deal-record`` entries of that match.

Pure Python and the rules engine (no Django).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from games.fairness import event_tables
from games.fairness.canonical import sha256_hex
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_text
from games.fairness.receipt import check_hex
from games.fairness.verify import rules_of

#: The engine's side names in a partnership result, by team position at the table.
SIDES = ("0+2", "1+3")
#: How a table's match ended: played to its last deal, ended by a seat's forfeit, or
#: cancelled (every unit then shares place 1 with score 0).
ENDS = ("played", "forfeit", "cancelled")


def rank(keys: Sequence[tuple]) -> list[int]:
    """Competition ranking of sort keys, smaller first (1, 1, 3, 4)."""
    return [1 + sum(other < mine for other in keys) for mine in keys]


def table_result(
    *,
    units: Sequence[str | None],
    result: Mapping[str, Any] | None,
    team_mode: bool,
    no_show_seats: Collection[int],
    disqualified: Collection[str],
) -> dict[str, Any]:
    """A finished table's result per unit. ``units``: the unit per seat 0..3 (None: a bot);
    ``result``: the match's result (``games.engine.results.outcome``; None for a cancelled
    table: every seat shares place 1, score 0); ``no_show_seats``: seats whose player never
    showed up. A no-show or disqualified unit ranks below every other seat at the table
    (bots included); such units share the last places. Returns ``{"results": [{"unit",
    "place", "score"}, ...], "no_show": [unit, ...], "disqualified": [unit, ...]}``: one row
    per seat (solo) or per team (partnership, seats 0+2 then 1+3)."""
    placements = {s: 1 for s in range(4)}
    scores = {s: 0 for s in range(4)}
    if result is not None:
        placements = {int(s): int(p) for s, p in result["placements"].items()}
        scores = {int(s): int(v) for s, v in result["scores"].items()}
    penal = {
        s
        for s in range(4)
        if units[s] is not None and (s in no_show_seats or units[s] in disqualified)
    }
    if team_mode:
        sides = [(0, 2), (1, 3)]
        keys = [
            (1, 0) if any(s in penal for s in side) else (0, placements[side[0]]) for side in sides
        ]
        places = rank(keys)
        team_scores = (result or {}).get("teams") or {}
        rows = [
            {
                "unit": units[side[0]],
                "place": places[i],
                "score": int(team_scores.get(SIDES[i], scores[side[0]] + scores[side[1]])),
            }
            for i, side in enumerate(sides)
        ]
    else:
        keys = [(1, 0) if s in penal else (0, placements[s]) for s in range(4)]
        places = rank(keys)
        rows = [{"unit": units[s], "place": places[s], "score": scores[s]} for s in range(4)]
    return {
        "results": rows,
        "no_show": sorted({units[s] for s in no_show_seats if units[s] is not None}),
        "disqualified": sorted({u for u in units if u is not None and u in disqualified}),
    }


@dataclass(frozen=True)
class TableMatch:
    """What a draw record says of one played table's match: ``match_id`` (as its receipt
    and deal records name it), ``records`` (the SHA-256 of each of its ``trix-deal/1``
    records, deal 1 first), ``end`` (one of :data:`ENDS`), ``forfeit`` (the leaving seat,
    with ``end == "forfeit"``), ``no_show`` and ``disqualified`` (the units the site ranked
    last at the table)."""

    match_id: str
    records: tuple[str, ...]
    end: str
    forfeit: int | None
    no_show: tuple[str, ...]
    disqualified: tuple[str, ...]

    def json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "records": list(self.records),
            "end": self.end,
            "forfeit": self.forfeit,
            "no_show": list(self.no_show),
            "disqualified": list(self.disqualified),
        }


_FIELDS = frozenset(field.name for field in fields(TableMatch))


def parse_matches(raw: Any, tables: Sequence[Sequence[Any]], label: str) -> list[TableMatch]:
    """A round's ``matches`` (one object per table, in the round's table order); raises
    FairnessError naming the table and field."""
    if not isinstance(raw, list) or len(raw) != len(tables):
        raise FairnessError(f"{label}: matches must hold one object per table ({len(tables)})")
    out = []
    for t, (item, table) in enumerate(zip(raw, tables, strict=True), start=1):
        where = f"{label}, table {t}: match"
        if not isinstance(item, dict) or set(item) != _FIELDS:
            raise FairnessError(f"{where}: must be an object with exactly {sorted(_FIELDS)}")
        records = item["records"]
        if not isinstance(records, list):
            raise FairnessError(f"{where}: records must be a list of hashes")
        end, forfeit = item["end"], item["forfeit"]
        if end not in ENDS:
            raise FairnessError(f"{where}: end must be one of {', '.join(ENDS)}")
        seat_ok = isinstance(forfeit, int) and not isinstance(forfeit, bool) and 0 <= forfeit <= 3
        if (end == "forfeit") != (forfeit is not None) or (forfeit is not None and not seat_ok):
            raise FairnessError(f"{where}: forfeit must be a seat 0..3 exactly when end is forfeit")
        penalised = []
        for field in ("no_show", "disqualified"):
            listed = item[field]
            seated = {u for u in table if u is not None}
            if not isinstance(listed, list) or not set(listed) <= seated:
                raise FairnessError(f"{where}: {field} must list units seated at the table")
            penalised.append(tuple(listed))
        out.append(
            TableMatch(
                match_id=check_text(item["match_id"], f"{where}: match_id"),
                records=tuple(check_hex(h, f"{where}: records") for h in records),
                end=end,
                forfeit=forfeit,
                no_show=penalised[0],
                disqualified=penalised[1],
            )
        )
    return out


def replayed(records: Sequence[dict[str, Any]]) -> tuple[dict[int, int], int | None, Any]:
    """The match totals (seat -> score), the first seat out of the last Trix layout, and the
    rules (``Options``) of a match's deal records in deal order; FairnessError when one does
    not replay."""
    from games.engine.errors import InvalidRecord
    from games.engine.record import replay_record

    totals = {s: 0 for s in range(4)}
    first_out = None
    for record in records:
        try:
            scored = replay_record(record)
        except InvalidRecord as error:
            raise FairnessError(f"deal {record.get('deal_number')}: replay: {error}") from None
        for s in range(4):
            totals[s] += scored["scores"][str(s)]
        if scored["contract"] == "trix":
            first_out = scored["order"][0]
    options = rules_of(records[0].get("variant"), records[0].get("options"))
    if options is None:
        raise FairnessError("deal 1: rules: not a variant and options the engine plays")
    return totals, first_out, options


def expected_rows(
    match: TableMatch,
    units: Sequence[str | None],
    team_mode: bool,
    records: Sequence[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The results a table must record (:func:`table_result`'s rows) given the unit of each
    seat 0..3 and its match's deal records in deal order (none for a cancelled table).
    Raises FairnessError."""
    from games.engine.results import outcome

    result = None
    deals = records[0].get("shuffle", {}).get("deals") if records else None
    if match.end != "played" and deals is not None and len(records) == deals:
        raise FairnessError(ended_early(match.match_id, deals, match.end))
    if match.end != "cancelled":
        if not records:
            raise FairnessError(f"match {match.match_id!r}: a {match.end} match with no deals")
        if match.end == "played" and len(records) != deals:
            raise FairnessError(
                f"match {match.match_id!r}: played to its end, but {len(records)} of its "
                f"{deals} deals have records"
            )
        totals, first_out, options = replayed(records)
        result = outcome(
            totals,
            partnership=options.partnership,
            partner_tie=options.partner_tie,
            last_trix_first_out=first_out,
            forfeit=match.forfeit,
            deals_played=len(records),
        )
    no_show = {s for s, unit in enumerate(units) if unit is not None and unit in match.no_show}
    seated = table_result(
        units=units,
        result=result,
        team_mode=team_mode,
        no_show_seats=no_show,
        disqualified=set(match.disqualified),
    )
    return seated["results"]


def ended_early(match_id: str, deals: int, end: str) -> str:
    """The refusal of a match claimed ended by ``end`` (a forfeit, a cancellation: both end
    a match before its last deal) whose every deal has its record."""
    return (
        f"match {match_id!r} has a record of every one of its {deals} deals: it was played to "
        f"its end, not ended by a {end}"
    )


def _seats(table: Sequence[str | None], team_mode: bool) -> list[str | None]:
    """The unit of each seat 0..3: a partnership table lists its two teams (seats 0+2, 1+3)."""
    if team_mode:
        return [table[0], table[1], table[0], table[1]]
    return list(table)


def _describe(rows: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(f"{r['unit'] or 'bot'} place {r['place']} score {r['score']}" for r in rows)


def check_against_records(record: dict[str, Any], deals: Sequence[Any]) -> tuple[list[str], int]:
    """A verified ``trix-draw/1`` record's results against the deal records given beside
    it (``deals``: parsed JSON, any matches): every played table whose match's records are
    all among them is recomputed (:func:`expected_rows`) and must be recorded so; a table
    with only some of them given is a mismatch. Returns (mismatches, tables checked)."""
    by_hash = {}
    for deal in deals:
        if not isinstance(deal, dict):
            continue
        try:
            by_hash[sha256_hex(deal)] = deal
        except FairnessError:
            continue
    team_mode = record["tournament"]["team_mode"]
    problems, checked = [], 0
    for number, raw in enumerate(record["rounds"], start=1):
        if raw.get("results") is None or "matches" not in raw:
            continue
        label = f"round {number}"
        matches = parse_matches(raw["matches"], raw["tables"], label)
        for t, (table, rows, match) in enumerate(
            zip(raw["tables"], raw["results"], matches, strict=True), start=1
        ):
            where = f"{label}, table {t}"
            found = [by_hash.get(h) for h in match.records]
            if match.records and not any(found):
                continue
            missing = [d for d, deal in enumerate(found, start=1) if deal is None]
            if missing:
                problems.append(
                    f"{where}: deals {missing} of match {match.match_id!r} are not among the "
                    "files given (give all of its records, or none)"
                )
                continue
            other = next(
                (
                    d
                    for d, deal in enumerate(found, start=1)
                    if (deal.get("shuffle") or {}).get("match_id") != match.match_id
                    or (deal.get("shuffle") or {}).get("deal_number") != d
                ),
                None,
            )
            if other is not None:
                problems.append(
                    f"{where}: the record named as deal {other} of match {match.match_id!r} "
                    "is another match's or another deal's"
                )
                continue
            try:
                want = expected_rows(match, _seats(table, team_mode), team_mode, found)
            except FairnessError as error:
                problems.append(f"{where}: {error}")
                continue
            checked += 1
            if [dict(r) for r in rows] != want:
                problems.append(
                    f"{where}: the record's results are {_describe(rows)}; the deal records "
                    f"of match {match.match_id!r} give {_describe(want)}"
                )
    return problems, checked


def check_against_log(
    record: dict[str, Any], index: Mapping[tuple[str, str], dict[str, Any]]
) -> list[str]:
    """A verified ``trix-draw/1`` record's matches against a log (``index``:
    ``transparency.logged``): each played table's match has its receipt in the log; its
    records are exactly the log's ``deal-record`` entries of that match, deal 1 first (none
    withheld, none added); a match of this event's tables (``trix-tables/1``) is the one
    of its round and table; a match with every deal's record ended by its last deal (not a
    forfeit or a cancellation); the record names no match twice; and once its prizes were
    paid (its ``event-payout`` of reason ``result``) every round has its results (an event
    called off may end with a round unplayed) and every match the log holds of the event's
    tables is named."""
    event = record["event"]
    problems: list[str] = []
    seen: dict[str, str] = {}
    paid = index.get(("event-payout", event))  # its prizes: it was played to its end
    ended = paid if paid is not None and paid["body"]["reason"] == "result" else None
    for number, raw in enumerate(record["rounds"], start=1):
        if raw.get("results") is None:
            if ended is not None:
                problems.append(
                    f"round {number}: has no results, though the event ended (its prizes "
                    f"were paid: log entry {ended['index']})"
                )
            continue
        if "matches" not in raw:
            if ("tables-commitment", event) in index:
                problems.append(
                    f"round {number}: its results name no matches, though the log holds the "
                    "event's tables-commitment (its tables' matches are logged)"
                )
            continue
        for t, item in enumerate(raw["matches"], start=1):
            where = f"round {number}, table {t}"
            match_id = item["match_id"]
            if match_id in seen:
                problems.append(f"{where}: match {match_id!r} is {seen[match_id]}'s too")
                continue
            seen[match_id] = where
            problems.extend(_match_in_log(item, index, where, event, number, t - 1))
    if ended is not None:  # every table the event dealt is in its record
        for (kind, match_id), entry in index.items():
            tables = (
                entry["body"]["receipt"].get("tables_commitment")
                if kind == "match-receipt"
                else None
            )
            if tables and tables.get("event") == event and match_id not in seen:
                problems.append(
                    f"the log holds match {match_id!r} of this event (its receipt is entry "
                    f"{entry['index']}), which the record does not name: a round left out"
                )
    return problems


def _match_in_log(item, index, where, event, round_number, table) -> list[str]:
    match_id = item["match_id"]
    receipt = index.get(("match-receipt", match_id))
    if receipt is None:
        return [f"{where}: the log holds no receipt of match {match_id!r}"]
    named = receipt["body"]["receipt"].get("tables_commitment")
    own = event_tables.match_id(event, round_number, table)
    if named is not None and (named.get("event") != event or match_id != own):
        return [
            f"{where}: match {match_id!r} is not this table's: the event's tables are dealt as "
            f"{own!r}"
        ]
    logged = []
    deal = 1
    while (entry := index.get(("deal-record", f"{match_id}/{deal}"))) is not None:
        logged.append(entry)
        deal += 1
    hashes = [e["body"]["record_hash"] for e in logged]
    deals = receipt["body"]["receipt"]["deals"]
    if hashes == list(item["records"]):
        if item["end"] != "played" and len(hashes) == deals:
            return [f"{where}: {ended_early(match_id, deals, item['end'])}"]
        return []
    if len(hashes) != len(item["records"]):
        return [
            f"{where}: the record names {len(item['records'])} deal records of match "
            f"{match_id!r}; the log holds {len(hashes)} (entries "
            f"{', '.join(str(e['index']) for e in logged) or 'none'})"
        ]
    d = next(d for d, (a, b) in enumerate(zip(hashes, item["records"], strict=True), 1) if a != b)
    return [
        f"{where}: deal {d} of match {match_id!r}: the record names {item['records'][d - 1]}, "
        f"the log's entry {logged[d - 1]['index']} {hashes[d - 1]}"
    ]
