"""The Trix rules engine: pure Python, no Django.

Rules: ``docs/rules.md`` and the seed pages it cites. Entry points:

- :func:`new_match`, :func:`apply`, :func:`check` (:mod:`.match`): the match state machine;
  :func:`legal_actions`, :func:`default_action`, :func:`forced_action` (:mod:`.turns`): what a
  seat may do; :func:`match_result` (:mod:`.results`);
- :func:`observe` (a bot's :class:`Observation`), :func:`view`, :func:`spectator_view`,
  :func:`events_for` (:mod:`.observation`): what each seat may see;
- :func:`replay_record`, :func:`load_record` (:mod:`.record`): ``trix-deal/1`` deal records;
- :mod:`.bots`, :mod:`.simulate`: bots and whole simulated matches; :mod:`.cli`: ``trix``.
"""

from .errors import EngineError, IllegalAction, InvalidCard, InvalidOptions, InvalidRecord
from .match import (
    MatchState,
    apply,
    check,
    new_match,
    rebuild,
)
from .observation import Observation, events_for, observe, spectator_view, view
from .options import CONTRACTS, VARIANTS, Options
from .record import load_record, replay_record
from .results import match_result
from .turns import default_action, forced_action, legal_actions

__all__ = [
    "CONTRACTS",
    "VARIANTS",
    "EngineError",
    "IllegalAction",
    "InvalidCard",
    "InvalidOptions",
    "InvalidRecord",
    "MatchState",
    "Observation",
    "Options",
    "apply",
    "check",
    "default_action",
    "events_for",
    "forced_action",
    "legal_actions",
    "load_record",
    "match_result",
    "new_match",
    "observe",
    "rebuild",
    "replay_record",
    "spectator_view",
    "view",
]
