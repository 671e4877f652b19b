"""Signals the games app sends; other apps listen (``games`` never imports them).

:data:`table_finished` is sent after the commit that ends a table's match (status
``finished``) or cancels the table, with keyword arguments ``table_id`` (int), ``kind`` (a
:class:`games.policy.TableKind` value), ``origin`` (``Table.origin``, e.g.
``tournament:12/round:3/table:2``, or ``""``) and ``status`` (``finished`` or ``cancelled``).
Receivers must be quick and must not fail the sender: send a Celery task and return. A
receiver that misses a signal (a worker killed after the commit) is covered by its own app's
sweep, which reads finished tables by ``origin``.
"""

from django.dispatch import Signal

table_finished = Signal()

deal_ended = Signal()
"""Sent after the commit that ends a deal of a match that goes on (the last deal ends the
match: :data:`table_finished`), with ``table_id``, ``kind``, ``origin`` (as above) and
``deal`` (the number of the deal that ended). Its scores are public from then on (the
``deal_ended`` event). Receivers as for :data:`table_finished`: quick, a task at most."""

reseal_requested = Signal()
"""Sent by ``manage.py reseal_secrets`` after the games app's secrets are sealed anew under
the current ``TRIX_SEED_KEY``: each receiver reseals its own app's secrets and returns how
many it sealed anew (the tournaments app: its draw secrets)."""
