"""Reads of tournaments for the pages and the API: plain dicts of JSON-ready values.

Money is integer minor units with its text beside it (``format_money``); times are
``datetime`` (the caller serialises). The draw's secret never leaves these modules before
the reveal: :func:`tournament_detail` shows ``draw_commitment`` always and ``draw_seed`` only
once revealed (at the start). Rules: ``docs/tournaments.md``.

The package by concern: :mod:`~tournaments.selectors.pages` (the list and an event's page,
the live version), :mod:`~tournaments.selectors.brackets` (standings, the bracket, the draw
record), :mod:`~tournaments.selectors.live_answer` (the live page's cached answer) and
:mod:`~tournaments.selectors.players` (one player's tournaments). This module re-exports
the public reads: patch a function where it is defined, not here.
"""

from tournaments.selectors.brackets import (
    bracket,
    draw_check,
    draw_record,
    running_scores,
    standings,
)
from tournaments.selectors.live_answer import live_page
from tournaments.selectors.pages import (
    FORMAT_NAMES_AR,
    LIST_GROUPS,
    admin_actions,
    disqualifications,
    drafts,
    edit_history,
    entrants,
    live_final_version,
    live_version,
    prize_table,
    summary,
    teams,
    tournament_detail,
    tournament_exists,
    tournament_list,
    tournament_names,
    tournament_readable,
    tournaments_by_status,
)
from tournaments.selectors.players import (
    current_tables,
    entries_in_progress,
    event_of_table,
    is_registered,
    my_tournaments,
    player_status,
)

__all__ = [
    "FORMAT_NAMES_AR",
    "LIST_GROUPS",
    "admin_actions",
    "bracket",
    "current_tables",
    "disqualifications",
    "draw_check",
    "drafts",
    "draw_record",
    "edit_history",
    "entrants",
    "entries_in_progress",
    "event_of_table",
    "is_registered",
    "live_final_version",
    "live_page",
    "live_version",
    "my_tournaments",
    "player_status",
    "prize_table",
    "running_scores",
    "standings",
    "summary",
    "teams",
    "tournament_detail",
    "tournament_exists",
    "tournament_names",
    "tournament_readable",
    "tournament_list",
    "tournaments_by_status",
]
