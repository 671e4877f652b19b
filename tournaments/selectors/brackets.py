"""Reads of a tournament's play: the standings, the bracket (rounds, tables, running
scores, final places) and the draw record with its public check."""

from __future__ import annotations

from typing import Any

from games.fairness.table_results import TableMatch
from games.models import MatchRecord, TableStatus
from games.services import fairness_log
from tournaments import progress
from tournaments.models import Entry, EntryStatus, Round, RoundTable, Status, Tournament
from tournaments.selectors.pages import (
    admin_actions,
    disqualifications,
    live_version,
    team_name,
)
from wallet.selectors import format_money


def _rounds(t: Tournament) -> list[tuple[Round, list[RoundTable]]]:
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    tables: dict[int, list[RoundTable]] = {}
    for rt in (
        RoundTable.objects.filter(round__tournament=t)
        .select_related("table")
        .order_by("round_id", "index")
    ):
        tables.setdefault(rt.round_id, []).append(rt)
    return [(r, tables.get(r.pk, [])) for r in rounds]


def _unit_names(t: Tournament) -> dict[str, str]:
    names = {e["entrant"]: e["name"] for e in t.entrants}
    if t.team_mode:
        by_team: dict[str, list[str]] = {}
        for e in t.entrants:
            if e["team"]:
                by_team.setdefault(e["team"], []).append(e["name"])
        names.update({team: team_name(members) for team, members in by_team.items()})
    return names


def standings(tournament_id: int, after_round: int | None = None) -> list[dict[str, Any]]:
    """The standings after round ``after_round`` (None: after every recorded round):
    ``{"rank", "unit", "name", "points", "score", "opponents_points", "draw_rank"}`` best
    first; [] before the start."""
    t = Tournament.objects.get(pk=tournament_id)
    if not t.draw_key:
        return []
    rounds = _rounds(t)
    if after_round is not None:
        rounds = rounds[: max(after_round, 0)]
    return _standings(t, rounds)


def _standings(t: Tournament, rounds: list[tuple[Round, list[RoundTable]]]) -> list[dict]:
    """:func:`standings` after ``rounds`` (:func:`_rounds`'), read already."""
    if not t.draw_key:
        return []
    names = _unit_names(t)
    return [
        {
            "rank": s.rank,
            "unit": s.unit,
            "name": names.get(s.unit, s.unit),
            "points": s.points,
            "score": s.score,
            "opponents_points": s.opponents_points,
            "draw_rank": s.draw_rank,
        }
        for s in progress.standings(tournament=t, rounds=rounds)
    ]


def bracket(tournament_id: int) -> dict[str, Any]:
    """The live bracket/standings page: ``{"version", "status", "rounds": [{"number", "kind",
    "status", "opened_at", "finished_at", "show_up_deadline", "byes", "bye_names" (the byes'
    names: a team's is ``team_name``), "tables": [{"index",
    "table_id", "table_status", "table_version", "seats": [{"seat", "unit", "name"}],
    "scores", "deals_played", "result" (recorded rows),
    "advanced": [unit], "no_show": [unit], "disqualified": [unit]}]}], "standings",
    "final": [{"place", "unit", "name", "prize", "prize_text", "disqualified"}] (once
    placed; ``disqualified`` None or ``{"by", "reason", "at"}``),
    "admin_actions", "draw": {"commitment", "seed", "record_available"}, "started_at",
    "review_ends_at" (when the prizes are paid), "prizes_paid_at", "no_show_without_action"}``.
    A table's ``scores`` (seat -> match total) and ``deals_played``: while it plays, after
    its last finished deal (:func:`running_scores`; None before the first ends), then its
    result's. Table pages are ``/tables/<table_id>/``."""
    return _bracket(Tournament.objects.get(pk=tournament_id))


def running_scores(table_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The public scores of tables still playing, after their last finished deal: table id ->
    ``{"scores": {"0".."3": match total}, "deals": finished deals}`` (no entry before the
    first deal ends). Read from each
    table's stored checkpoint (``MatchRecord.state``, rewritten when a deal ends), its
    summary alone: totals of finished deals only, never a hand nor a deal in play."""
    rows = MatchRecord.objects.filter(table_id__in=table_ids).values_list(
        "table_id", "state__summary__totals", "state__summary__deal_number"
    )
    return {
        table_id: {"scores": totals, "deals": deals or 0}
        for table_id, totals, deals in rows
        if totals is not None and deals
    }


def _bracket(t: Tournament, version: int | None = None) -> dict[str, Any]:
    """:func:`bracket` of ``t``; ``version``: the live version the caller read (else read)."""
    names = _unit_names(t)
    rounds = _rounds(t)
    playing = running_scores(
        [
            rt.table_id
            for _, tables in rounds
            for rt in tables
            if rt.table.status == TableStatus.PLAYING
        ]
    )
    ruled = t.disqualified_units() if rounds else set()
    out_rounds = []
    for index, (rnd, tables) in enumerate(rounds):
        advanced = _advanced(t, rounds, index)
        out_rounds.append(
            {
                "number": rnd.number,
                "kind": rnd.kind,
                "status": rnd.status,
                "opened_at": rnd.opened_at,
                "finished_at": rnd.finished_at,
                "show_up_deadline": rnd.show_up_deadline,
                "byes": rnd.seating.get("byes", []),
                "bye_names": [names.get(u, u) for u in rnd.seating.get("byes", [])],
                "tables": [_table_row(rt, names, playing, advanced, ruled) for rt in tables],
            }
        )
    final = _final(t, names)
    return {
        "id": t.pk,
        "version": live_version(t.pk) if version is None else version,
        "status": t.status,
        "started_at": t.started_at,
        "review_ends_at": t.review_ends_at,
        "prizes_paid_at": t.prizes_paid_at,
        "no_show_without_action": t.no_show_without_action,
        "rounds": out_rounds,
        "standings": _standings(t, rounds) if t.format == "swiss" else [],
        "final": final,
        "admin_actions": admin_actions(t),
        "draw": {
            "commitment": t.draw_commitment,
            "seed": t.draw_seed or None,
            "record_available": bool(t.draw_seed),
        },
    }


def _table_row(
    rt: RoundTable,
    names: dict[str, str],
    playing: dict[int, dict],
    advanced: set[str],
    ruled: set[str],
) -> dict[str, Any]:
    """One table of :func:`bracket`'s round: its seats' units and names (``bot`` for a
    bot's seat), its scores (``playing``: :func:`running_scores` of the tables playing; a
    finished table's result), its recorded result and the units that ``advanced``. Its
    ``disqualified``: the recorded result's, or before the result the units seated there
    that are disqualified now (``ruled``; a bot plays their seats from then on)."""
    table = rt.table
    live = playing.get(rt.table_id, {})
    if table.result:
        live = {
            "scores": table.result.get("scores"),
            "deals": table.result.get("deals_played"),
        }
    return {
        "index": rt.index,
        "table_id": rt.table_id,
        "table_status": table.status,
        "table_version": table.version,
        "seats": [
            {"seat": s, "unit": u, "name": names.get(u, "bot") if u else "bot"}
            for s, u in enumerate(rt.units)
        ],
        "scores": live.get("scores"),
        "deals_played": live.get("deals"),
        "result": (rt.result or {}).get("results"),
        "no_show": (rt.result or {}).get("no_show", []),
        "disqualified": (
            rt.result.get("disqualified", [])
            if rt.result
            else [u for u in dict.fromkeys(rt.units) if u is not None and u in ruled]
        ),
        "advanced": [u for u in dict.fromkeys(rt.units) if u in advanced],
    }


def _final(t: Tournament, names: dict[str, str]) -> list[dict[str, Any]]:
    """:func:`bracket`'s ``final``: ``[{"place", "unit", "name", "prize", "prize_text",
    "disqualified"}]`` by place once the event is in review or finished (a team's prize is
    its members' sum), else []. ``disqualified``: None, or who disqualified the entrant (a
    team: its first member disqualified) and why, ``{"by", "reason", "at"}``
    (:func:`~tournaments.selectors.pages.disqualifications`)."""
    if t.status not in (Status.REVIEW, Status.FINISHED):
        return []
    entries = list(Entry.objects.filter(tournament=t, place__isnull=False).order_by("place", "id"))
    out = [e for e in entries if e.status == EntryStatus.DISQUALIFIED]
    ruled = disqualifications(t) if out else {}
    by_unit: dict[str, dict[str, Any]] = {}
    for e in entries:
        unit = f"T{e.team_id}" if t.team_mode and e.team_id else e.entrant
        row = by_unit.setdefault(
            unit,
            {
                "place": e.place,
                "unit": unit,
                "name": names.get(unit, unit),
                "prize": 0,
                "disqualified": None,
            },
        )
        row["prize"] += e.prize or 0
        if e in out and row["disqualified"] is None:
            row["disqualified"] = ruled.get(e.user_id)
    final = sorted(by_unit.values(), key=lambda r: (r["place"], r["unit"]))
    for row in final:
        row["prize_text"] = format_money(row["prize"])
    return final


def _advanced(t: Tournament, rounds: list, index: int) -> set[str]:
    """Units that went on from round ``index`` (knockout: seated in the next round)."""
    if t.format != "knockout" or index + 1 >= len(rounds):
        return set()
    return set(rounds[index + 1][0].seating.get("order", []))


def _table_matches(rounds: list[tuple[Round, list[RoundTable]]]) -> dict[int, TableMatch]:
    """The match of each recorded table of ``rounds``, by table id, as the draw record names
    it: its match id, its logged deal records' hashes, how it ended, whom the site
    penalised (``games.fairness.table_results.TableMatch``). Two reads."""
    done = {rt.table_id: rt for _, tables in rounds for rt in tables if rt.result is not None}
    shuffles = MatchRecord.objects.filter(table_id__in=list(done)).values_list(
        "table_id", "shuffle__match_id", "shuffle__chain__length"
    )
    match_ids = {table_id: match for table_id, match, _ in shuffles}
    hashes = fairness_log.logged_records({match: deals for _, match, deals in shuffles})
    out = {}
    for table_id, match in match_ids.items():
        rt = done[table_id]
        finished = rt.table.status == TableStatus.FINISHED
        forfeit = (rt.table.result or {}).get("forfeit") if finished else None
        out[table_id] = TableMatch(
            match_id=match,
            records=tuple(hashes[match]),
            end="cancelled" if not finished else "forfeit" if forfeit is not None else "played",
            forfeit=forfeit,
            no_show=tuple(rt.result.get("no_show", ())),
            disqualified=tuple(rt.result.get("disqualified", ())),
        )
    return out


def draw_record(tournament_id: int) -> dict[str, Any] | None:
    """The tournament's ``trix-draw/1`` record (``trix verify`` checks it), or None before the
    reveal (the secret is never shown before the start). Each played table names its match
    (``_table_matches``)."""
    t = Tournament.objects.get(pk=tournament_id)
    if not t.draw_seed:
        return None
    rounds = _rounds(t)
    return progress.draw_record(tournament=t, rounds=rounds, matches=_table_matches(rounds))


def draw_records(events: list[str]) -> dict[str, dict[str, Any]]:
    """``{event: trix-draw/1 record}`` of the events named ``tournament:<id>`` among
    ``events`` that have one (a day's auditor archive, ``settings.TRIX_ARCHIVE_DRAWS``)."""
    out = {}
    for event in events:
        prefix, _, number = event.partition(":")
        if prefix != "tournament" or not number.isdigit():
            continue
        if Tournament.objects.filter(pk=int(number)).exists():
            record = draw_record(int(number))
            if record is not None:
                out[event] = record
    return out


def draw_check(*, tournament_id: int) -> dict[str, Any]:
    """The seating draw's public check: ``{"available": False}`` before the reveal, else
    ``{"available": True, "verified": bool, "summary": dict | None, "error": str | None}``:
    the ``trix-draw/1`` record recomputed by ``games.fairness.draw_record.verify_record``
    (what ``trix verify`` does)."""
    from games.fairness import FairnessError
    from games.fairness.draw_record import verify_record

    record = draw_record(tournament_id)
    if record is None:
        return {"available": False}
    try:
        summary_ = verify_record(record)
    except FairnessError as exc:
        return {"available": True, "verified": False, "summary": None, "error": str(exc)}
    return {"available": True, "verified": True, "summary": summary_, "error": None}
