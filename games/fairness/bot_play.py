"""The bots' moves, fixed with the shuffle at the start of a match and checkable at its end.

A bot decides from what its seat may see and from a random source drawn from the match's
bot seed (:func:`games.engine.bots.bot_action`). So that the site cannot steer its bots, the
seed is drawn with the shuffle and revealed when the match ends:

- the bot seed is :func:`derived_seed` of the match's chain secret, so it is fixed when the
  commitment is published, before any client seed;
- the match-start receipt names, in ``bot_play``, the rule the bots follow
  (``"decisions": "trix-bots/1"``, :data:`games.engine.bots.DECISIONS`), the kind of bot on
  each bot seat (``"kinds": {"1": "rules", ...}``, exactly the seats of ``bots``) and
  ``"seed_commitment"``: :func:`seed_commitment` of the seed;
- when the match ends (over, forfeited or called off) the log gets a ``bot-seed`` entry
  ``{"match_id", "seed"}``, admitted only after the match's receipt and only with a seed
  that hashes to that commitment (``games.fairness.transparency.admit``);
- :func:`check_derived` shows the seed is the secret's once the last deal's seed is
  revealed, and :func:`check_bot_moves` replays the match from its deal records and asks
  the bot of every bot seat for each of its decisions (the contract, the doubles, every
  card and pass): each must be what the record says it did.

What it proves: every move of a seat the receipt names a bot is the move the published bot
makes from its own view and a seed fixed with the shuffle. What it does not: a seat a bot
took over after the start (its person's seat in the receipt) is not checked, nor the moves
of a deal cut short (it has no record). Spec: ``docs/fairness.md``, "Bots' moves". No Django.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.bots import BOTS, DECISIONS, bot_action, decision_step
from games.engine.errors import EngineError
from games.engine.match import PHASE_CHOOSE, PHASE_DEAL, PHASE_DOUBLE, apply, new_match
from games.engine.options import Options
from games.fairness.errors import FairnessError
from games.fairness.random_stream import check_hex, check_text

SEED_PREFIX = "trix-bot-seed/1:"
"""What :func:`seed_commitment` hashes before the seed (a seed hash never names anything else)."""

_FIELDS = {"decisions", "kinds", "seed_commitment"}


def derived_seed(secret: bytes, match_id: str) -> str:
    """The bot seed of match ``match_id`` whose shuffle chain's secret (``seed_deals``, the
    last deal's seed, ``games.fairness.chain``) is ``secret``: hex HMAC-SHA256 of the UTF-8
    bytes of ``SEED_PREFIX + match_id`` under it (64 digits). Fixed when the match's
    commitment is published, before any client seed, so the site cannot choose it after it
    knows the hands; checkable by anyone once the last deal's seed is revealed."""
    return hmac.new(secret, (SEED_PREFIX + match_id).encode(), hashlib.sha256).hexdigest()


def check_derived(seed: str, match_id: str, last_seed: str) -> None:
    """Raise FairnessError unless ``seed`` is :func:`derived_seed` of the revealed last seed
    ``last_seed`` (64 hex digits) of match ``match_id``."""
    if not hmac.compare_digest(derived_seed(bytes.fromhex(last_seed), match_id), seed):
        raise FairnessError(
            "the bots' seed is not the one the match's committed secret gives "
            "(HMAC-SHA256 of its last deal's seed): it was chosen, not drawn with the shuffle"
        )


def seed_commitment(seed: str) -> str:
    """The commitment of a bot seed: hex SHA-256 of the UTF-8 bytes of
    ``SEED_PREFIX + seed`` (64 lower-case hex digits)."""
    return hashlib.sha256((SEED_PREFIX + seed).encode()).hexdigest()


def build(kinds: Mapping[int, str], seed: str) -> dict[str, Any]:
    """A receipt's ``bot_play``: the bots' rule, ``kinds`` (seat 0..3 -> bot kind, every bot
    seat) and the commitment of ``seed``. Raises FairnessError for an unknown kind."""
    block = {
        "decisions": DECISIONS,
        "kinds": {str(seat): kind for seat, kind in sorted(kinds.items())},
        "seed_commitment": seed_commitment(seed),
    }
    check(block, sorted(kinds))
    return block


def check(block: object, bots: Sequence[int]) -> dict[str, Any]:
    """Return a receipt's ``bot_play`` if it is well formed for the bot seats ``bots``, else
    raise FairnessError naming the field (``receipt.bot_play.<field>``)."""
    if not isinstance(block, dict) or set(block) != _FIELDS:
        raise FairnessError(f"receipt.bot_play must be an object with {', '.join(sorted(_FIELDS))}")
    check_text(block["decisions"], "receipt.bot_play.decisions")
    kinds = block["kinds"]
    if not isinstance(kinds, dict) or sorted(kinds) != [str(seat) for seat in bots]:
        raise FairnessError("receipt.bot_play.kinds must name exactly the seats of receipt.bots")
    for seat, kind in kinds.items():
        if not isinstance(kind, str) or kind not in BOTS:
            raise FairnessError(
                f"receipt.bot_play.kinds.{seat} must be one of {', '.join(sorted(BOTS))}"
            )
    check_hex(block["seed_commitment"], "receipt.bot_play.seed_commitment")
    return block


def check_seed(block: Mapping[str, Any], seed: object) -> str:
    """``seed`` if it is the seed ``block`` (a receipt's ``bot_play``) committed to, else
    FairnessError."""
    if not isinstance(seed, str) or seed_commitment(seed) != block["seed_commitment"]:
        raise FairnessError(
            "the bots' seed does not hash to the receipt's bot_play.seed_commitment"
        )
    return seed


def _recorded(state, record: Mapping[str, Any], seat: int, step: int) -> dict[str, Any]:
    """The action ``record`` says ``seat`` took now (``step``: plays made in the deal)."""
    if state.phase == PHASE_CHOOSE:
        return {"type": "contract", "seat": seat, "contract": record["contract"]}
    if state.phase == PHASE_DOUBLE:
        return {
            "type": "double",
            "seat": seat,
            "cards": record.get("doubles", {}).get(str(seat), []),
        }
    item = record["plays"][step] if step < len(record["plays"]) else None
    if item == "pass":
        return {"type": "pass", "seat": seat}
    return {"type": "play", "seat": seat, "card": item}


def _same(action: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    if action["type"] == "double":
        return sorted(action["cards"]) == sorted(expected.get("cards", []))
    return dict(action) == dict(expected)


_VERBS = {  # an action's verb: what the record says was done, what the bot does
    "contract": ("chose", "chooses"),
    "double": ("doubled", "doubles"),
    "pass": ("passed", "passes"),
    "play": ("played", "plays"),
}


def _said(action: Mapping[str, Any], tense: int) -> str:
    """``action`` in words (``tense`` 0: what was done, 1: what the bot does)."""
    kind = action["type"]
    verb = _VERBS[kind][tense]
    if kind == "contract":
        return f"{verb} {action['contract']}"
    if kind == "double":
        return f"{verb} {', '.join(action['cards']) or 'nothing'}"
    if kind == "pass":
        return verb
    return f"{verb} {action['card']}"


def check_bot_moves(
    records: Sequence[Mapping[str, Any]], block: Mapping[str, Any], seed: str
) -> dict[str, Any]:
    """Replay a match from its deal records (deals 1.. in order, each already checked on
    its own) and compare every decision of a seat ``block`` (the receipt's ``bot_play``)
    names a bot with what the bot of that kind makes with ``seed``.

    Returns ``{"checked": int, "problems": [str]}``: the number of bot decisions compared
    and one line per difference (``deal 3, play 17: seat 2 (rules bot) played 5H; the
    bot plays 7H``); the replay stops at the first record it cannot follow (named). Raises
    FairnessError when ``block`` names rules this module does not know."""
    if block["decisions"] != DECISIONS:
        raise FairnessError(
            f"the bots followed {block['decisions']!r}; this verifier replays {DECISIONS!r}"
        )
    kinds = {int(seat): kind for seat, kind in block["kinds"].items()}
    problems: list[str] = []
    checked = 0
    if not records:
        return {"checked": 0, "problems": []}
    first = records[0]
    options = Options.from_dict({**first.get("options", {}), "variant": first["variant"]})
    state = new_match(options)
    for number, record in enumerate(records, 1):
        where = f"deal {number}"
        if state.phase != PHASE_DEAL:
            problems.append(f"{where}: the match is over before this record")
            break
        try:
            apply(state, {"type": "deal", "hands": record["hands"]}, emit=False)
        except EngineError as error:
            problems.append(f"{where}: cannot be dealt: {error}")
            break
        while state.phase != PHASE_DEAL and state.deal_number == number and state.to_act():
            seat = state.to_act()[0]
            step = decision_step(state)
            action = _recorded(state, record, seat, step)
            if seat in kinds:
                expected = bot_action(state, seat, kinds[seat], seed)
                checked += 1
                if not _same(action, expected):
                    at = "" if state.phase in (PHASE_CHOOSE, PHASE_DOUBLE) else f", play {step + 1}"
                    problems.append(
                        f"{where}{at}: seat {seat} ({kinds[seat]} bot) {_said(action, 0)}; "
                        f"the bot {_said(expected, 1)}"
                    )
            try:
                apply(state, action, emit=False)
            except EngineError as error:
                problems.append(f"{where}: the record cannot be followed: {error}")
                return {"checked": checked, "problems": problems}
    return {"checked": checked, "problems": problems}


__all__ = [
    "SEED_PREFIX",
    "build",
    "check",
    "check_bot_moves",
    "check_derived",
    "check_seed",
    "derived_seed",
    "seed_commitment",
]
