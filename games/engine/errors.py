"""The engine's exceptions.

Every refused action raises :class:`IllegalAction` (a ``ValueError``) whose message says what
was wrong; the state is left unchanged. Bad deal records raise :class:`InvalidRecord`.
"""


class EngineError(ValueError):
    """Base of every error the engine raises for bad input."""


class InvalidCard(EngineError):
    """A card code that is not one of the 52, or a card listed twice."""


class InvalidOptions(EngineError):
    """An unknown table option or a value it does not take. ``option`` names it (None when
    the options are not an object); ``rule`` is what it broke: ``"object"``, ``"unknown"``,
    ``"choice"``, ``"bool"``, ``"seconds"`` or ``"holders_simultaneous"`` (``double_asked``
    ``holders`` with ``sequential`` doubling); None where the caller did not say."""

    def __init__(self, message: str, option: str | None = None, rule: str | None = None):
        super().__init__(message)
        self.option = option
        self.rule = rule


class IllegalAction(EngineError):
    """An action the rules do not allow now: not your turn, must follow suit, card not in
    hand, cannot pass holding a playable card, contract already played, cannot double that
    card, deal over, match over, malformed action."""


class InvalidRecord(EngineError):
    """A deal record that cannot be replayed; ``index`` is the play index at fault, if any."""

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        self.reason = message
        super().__init__(f"play {index}: {message}" if index is not None else message)
