"""A posting: check the key, hash the request, run it on the executor in use, map refusals.

:func:`post` is what every operation of ``wallet.services`` ends in. It runs the
:class:`~wallet.rules.Rule` on PostgreSQL's ``wallet_post`` function
(``wallet.executor_pg``) or through the ORM (``wallet.executor_orm``), as
``wallet.executor_pg.use_function`` says, and turns a refusal into its
``wallet.errors`` exception (``wallet.rules.error``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.db import IntegrityError

from wallet import inputs
from wallet.executor_orm import post_with_orm
from wallet.executor_pg import post_with_function, use_function
from wallet.models import Transaction
from wallet.rules import Refusal, Rule, error, replay


def _request_hash(request: Mapping[str, Any]) -> tuple[dict, str]:
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"))
    return json.loads(canonical), hashlib.sha256(canonical.encode()).hexdigest()


def post(
    *,
    key: str,
    kind: str,
    reference: str,
    request: dict[str, Any],
    refs: Iterable[str],
    rule: Rule,
    create: Mapping[str, tuple[str, int | None]] | None = None,
    before_write: Callable[[], dict] | None = None,
    close: Iterable[str] = (),
    memo: str = "",
    reverses: Transaction | None = None,
) -> Transaction:
    """Lock, check the key, apply ``rule``, write the transaction; all or nothing.

    ``refs`` are the accounts to lock; ``create`` maps those that may be created when
    missing to ``(kind, owner id)``. ``before_write`` (the payment provider) runs after
    every check and returns facts stored in ``details``. ``close`` names escrows to
    close; they must end empty. PostgreSQL runs it as one call of ``wallet_post``
    (``post_with_function``), other databases through the ORM (``post_with_orm``).
    """
    key = inputs.key(key)
    request = {"kind": str(kind), "reference": reference, **request}
    request, request_hash = _request_hash(request)
    post = post_with_function if use_function() else post_with_orm
    try:
        return post(
            key=key,
            kind=str(kind),
            reference=reference,
            request=request,
            request_hash=request_hash,
            refs=sorted(set(refs)),
            rule=rule,
            create=create or {},
            before_write=before_write,
            close=sorted(set(close)),
            memo=memo[:200],
            reverses=reverses,
        )
    except Refusal as refusal:
        raise error(refusal, rule, key, reverses) from None
    except IntegrityError:
        # Another transaction committed the same key first (its accounts differed,
        # so the row locks did not queue us behind it).
        existing = Transaction.objects.filter(idempotency_key=key).first()
        if existing is None:
            raise
        try:
            return replay(existing, request_hash)
        except Refusal as refusal:
            raise error(refusal, rule, key, reverses) from None
