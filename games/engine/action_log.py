"""The compact log of a match's seat actions: each action is logged as a short string, one of
:data:`COMPACT_FORMS` (contract, double, select: a simultaneous doubling pick, play, pass,
forfeit), and :func:`expand_action` reads one back as its JSON action.
"""

from __future__ import annotations

from typing import Any

from .cards import CODES
from .errors import IllegalAction

PLAY_LOG = tuple(tuple(f"p{seat}:{code}" for code in CODES) for seat in range(4))
"""``PLAY_LOG[seat][card]``: the compact entry of ``seat`` playing card number ``card``."""


COMPACT_FORMS = (
    "c<seat>:<contract>, d<seat>:<codes,...>, s<seat>:<codes,...>, p<seat>:<code>, x<seat>, f<seat>"
)


def expand_action(compact: str) -> dict[str, Any]:
    """The JSON action of one compact log entry (the forms above; seat ``0``..``3``).

    Raises :class:`IllegalAction` naming the entry if it is not one of those forms (it is
    never read as some other action)."""
    if isinstance(compact, str) and len(compact) >= 2 and compact[1] in "0123":
        kind, seat = compact[0], int(compact[1])
        if len(compact) == 2:
            if kind == "x":
                return {"type": "pass", "seat": seat}
            if kind == "f":
                return {"type": "forfeit", "seat": seat}
        elif compact[2] == ":":
            arg = compact[3:]
            if kind == "p":
                return {"type": "play", "seat": seat, "card": arg}
            if kind == "c":
                return {"type": "contract", "seat": seat, "contract": arg}
            if kind == "d":
                return {"type": "double", "seat": seat, "cards": arg.split(",") if arg else []}
            if kind == "s":
                return {"type": "select", "seat": seat, "cards": arg.split(",") if arg else []}
    raise IllegalAction(f"not a compact action: {compact!r} (one of {COMPACT_FORMS})")
