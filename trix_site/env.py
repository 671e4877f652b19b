"""The one reader of the environment for the site's settings (``trix_site/settings.py``).

Each reader takes the variable's name and its default (used when the variable is unset) and
returns a typed value; a value it cannot read, or one outside the bounds given, raises
:class:`~django.core.exceptions.ImproperlyConfigured` naming the variable, the value found and
what was expected, so a site with a typo in its environment stops at start-up with a message
that says where to look instead of running on a value nobody chose.

Numbers are read as Python reads them (``int("1_000")``, ``float("0.5")``), surrounding spaces
ignored. Bounds are inclusive.
"""

from __future__ import annotations

import math
import os
import re
import secrets
from collections.abc import Collection
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})
# DRF's throttle rates: a count, "/" and a period whose first letter DRF reads (s, m, h, d).
_RATE = re.compile(r"[0-9]+/(s|m|h|d)[a-z]*")
_HEX_KEY = re.compile(r"[0-9a-fA-F]{64}")


def refuse(name: str, value: str, expected: str) -> ImproperlyConfigured:
    """The error for ``name`` holding ``value`` where ``expected`` (a phrase: "whole seconds",
    "from 1 to 10") was wanted; the caller raises it."""
    return ImproperlyConfigured(f"{name} must be {expected}, not {value!r}")


def env_str(name: str, default: str = "") -> str:
    """The variable's text as set (spaces kept), or ``default`` when it is unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """``1``, ``true``, ``yes``, ``on`` are true; ``0``, ``false``, ``no``, ``off`` and the empty
    text are false (any case, spaces ignored); unset is ``default``. Raises
    ImproperlyConfigured for anything else."""
    value = os.environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise refuse(name, value, "1 or 0 (also true/false, yes/no, on/off)")


def _bounds(minimum: float | None, maximum: float | None) -> str:
    if minimum is not None and maximum is not None:
        return f"from {minimum} to {maximum}"
    if minimum is not None:
        return f"at least {minimum}"
    return f"at most {maximum}"


def _check_bounds(name, value, number, minimum, maximum, unit):
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise refuse(name, value, _bounds(minimum, maximum) + (f" {unit}" if unit else ""))
    return number


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    unit: str = "",
) -> int:
    """A whole number (``unit``, e.g. "minor units", only words the error message). Raises
    ImproperlyConfigured for text that is not a whole number or a number outside
    ``minimum``..``maximum``."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise refuse(name, value, "a whole number" + (f" of {unit}" if unit else "")) from None
    return _check_bounds(name, value, number, minimum, maximum, unit)


def env_float(
    name: str,
    default: float,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    unit: str = "",
) -> float:
    """A finite decimal number (``unit``, e.g. "seconds", only words the error message).
    Raises ImproperlyConfigured for text that is not a number, for ``nan`` and ``inf``, and for
    a number outside ``minimum``..``maximum``."""
    value = os.environ.get(name)
    if value is None:
        return float(default)
    try:
        number = float(value.strip())
    except ValueError:
        raise refuse(name, value, "a number" + (f" of {unit}" if unit else "")) from None
    if not math.isfinite(number):
        raise refuse(name, value, "a finite number" + (f" of {unit}" if unit else ""))
    return _check_bounds(name, value, number, minimum, maximum, unit)


def env_seconds(name: str, default: float, *, minimum: float = 0) -> float:
    """A duration in seconds (a decimal number, at least ``minimum``, 0 unless given)."""
    return env_float(name, default, minimum=minimum, unit="seconds")


def env_list(name: str, default: str = "") -> list[str]:
    """Comma-separated items, each stripped, empty ones dropped (``"a, b,"`` is ``["a", "b"]``);
    ``default`` is the text read when the variable is unset."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_choice(name: str, default: str, choices: Collection[str]) -> str:
    """One of ``choices``, compared in capitals (``info`` reads as ``INFO``), returned in
    capitals. Raises ImproperlyConfigured for any other word."""
    value = os.environ.get(name, default)
    word = value.strip().upper()
    if word not in choices:
        raise refuse(name, value, "one of " + ", ".join(sorted(choices)))
    return word


def env_rate(name: str, default: str) -> str:
    """A rate of Django REST framework's throttles: ``N/second``, ``N/minute``, ``N/hour`` or
    ``N/day`` (DRF reads the period's first letter). Raises ImproperlyConfigured otherwise."""
    value = os.environ.get(name, default)
    if not _RATE.fullmatch(value):
        raise refuse(name, value, "a rate like 10/second or 6/minute")
    return value


def env_header(name: str) -> tuple[str, str] | None:
    """A request header and its value written ``Name: value`` (``X-Forwarded-Proto: https``),
    as Django's META key and the value (``("HTTP_X_FORWARDED_PROTO", "https")``); unset or
    empty is ``None``. Raises ImproperlyConfigured for anything else."""
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    header, sep, value = (part.strip() for part in text.partition(":"))
    if not (sep and re.fullmatch(r"[A-Za-z0-9-]+", header) and value):
        raise refuse(name, text, "a header and its value, like 'X-Forwarded-Proto: https'")
    return "HTTP_" + header.upper().replace("-", "_"), value


def _check_key(name: str, key: str, *, pem: bool) -> str:
    if _HEX_KEY.fullmatch(key) or (pem and key.startswith("-----BEGIN")):
        return key
    if pem:
        raise ImproperlyConfigured(f"{name} must be 64 hex digits or a PEM Ed25519 key")
    raise ImproperlyConfigured(f"{name} must be 64 hex digits (32 bytes)")


def env_key(name: str, path: Path, *, draw: bool, pem: bool = False) -> str:
    """A key held outside the database, 64 hex digits (32 bytes), or with ``pem`` also a PEM
    text (parsed later, by the app that uses it): the variable ``name`` (spaces stripped);
    without it, when ``draw`` is on (the embedded default, ``DEBUG`` on), 32 random bytes drawn
    once into ``path`` as hex (mode 0600) and read back on every later start. Raises
    ImproperlyConfigured for a key of another shape, and when the variable is unset and
    ``draw`` is off: the site would have no key for its shuffle secrets and receipts."""
    value = os.environ.get(name, "").strip()
    if value:
        return _check_key(name, value, pem=pem)
    if not draw:
        raise ImproperlyConfigured(
            f"{name} must be set when DJANGO_DEBUG is off (64 hex digits; see "
            "docs/operations.md): without it the site would have no key for its shuffle "
            "secrets and receipts"
        )
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
    return _check_key(name, path.read_text().strip(), pem=pem)


def env_optional_key(name: str, *, pem: bool = False) -> str:
    """A key as :func:`env_key` reads it, or ``""`` when the variable is unset or empty.
    Raises ImproperlyConfigured for a key of another shape."""
    value = os.environ.get(name, "").strip()
    return _check_key(name, value, pem=pem) if value else ""


def env_keys(name: str) -> list[str]:
    """Comma-separated keys of 64 hex digits each (none when unset). Raises
    ImproperlyConfigured naming the variable for any other item."""
    return [_check_key(name, key, pem=False) for key in env_list(name)]
