"""Errors of the fairness package.

Messages never contain a server seed or a hand: they name the field and the rule it broke.
"""


class FairnessError(ValueError):
    """Bad input to a fairness function (a malformed seed, client seed, match id or deal number)."""


class RevealRefused(FairnessError):
    """A server seed was asked for before its deal (or draw) ended."""


class StateError(FairnessError):
    """A step out of order: dealing before client seeds are locked, ending deals out of order."""
