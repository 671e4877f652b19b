"""A person's action is read once, checked once and written once, in the request that
submits it: the seat, the table's lock and the change's rows, and nothing read twice
(``games.services.actions.submit_action``, ``games.services.acting.apply``)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import TableAction
from tests.games.test_deadline_race import alice_to_act  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_action_is_one_seat_read_one_lock_and_one_change(alice_to_act):  # noqa: F811
    alice, table, legal = alice_to_act
    action = {k: v for k, v in legal.items() if k != "seat"}
    services.check_in(user=alice, table_id=table.pk)  # (once per process, done already)
    with CaptureQueriesContext(connection) as queries:
        row = services.submit_action(
            user=alice, table_id=table.pk, action_id=uuid.uuid4(), version=table.version,
            action=action,
        )  # fmt: skip
    assert row.status == "applied"
    statements = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in statements if sql.startswith(('SELECT "games_tableaction"',))]
    locks = [sql for sql in statements if "FOR UPDATE" in sql]
    assert len(locks) == 1, statements
    # the seat; BEGIN; the lock; the events, the action and the table written; COMMIT
    assert len(statements) <= 7, "\n".join(statements)


def test_a_retried_id_is_answered_by_its_first_result(alice_to_act):  # noqa: F811
    alice, table, legal = alice_to_act
    action = {k: v for k, v in legal.items() if k != "seat"}
    kwargs = dict(user=alice, table_id=table.pk, action_id=uuid.uuid4(), version=table.version)
    first = services.submit_action(**kwargs, action=action)
    again = services.submit_action(**kwargs, action=action)  # the table moved on: not stale
    assert again.pk == first.pk and again.status == "applied"
    assert TableAction.objects.filter(pk=first.pk).count() == 1


def test_an_id_reused_for_another_action_names_the_first_as_json(alice_to_act):  # noqa: F811
    """The refusal quotes the first action as the API takes it (JSON), not as Python."""
    from games.errors import Conflict

    alice, table, legal = alice_to_act
    action = {k: v for k, v in legal.items() if k != "seat"}
    kwargs = dict(user=alice, table_id=table.pk, action_id=uuid.uuid4(), version=table.version)
    services.submit_action(**kwargs, action=action)
    with pytest.raises(Conflict) as refused:
        services.submit_action(**kwargs, action={**action, "type": "pass"})
    assert refused.value.code == "duplicate_id"
    assert f'"type": "{action["type"]}"' in refused.value.message
    assert "'type'" not in refused.value.message
