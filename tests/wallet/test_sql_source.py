"""The ledger's PL/pgSQL functions are kept in ``wallet/sql/`` (issue 10): the database runs
exactly what those files say (migration 0003 loads them as they are)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from wallet.inputs import MAX_AMOUNT

SQL_DIR = Path(__file__).resolve().parents[2] / "wallet" / "sql"
FUNCTION = re.compile(
    r"CREATE OR REPLACE FUNCTION (?P<name>\w+)\(.*?\bAS \$\$(?P<body>.*?)\$\$;", re.S
)


def _functions() -> dict[str, str]:
    """Function name -> its body as the files write it (the user table filled in)."""
    table = connection.ops.quote_name(get_user_model()._meta.db_table)
    found = {}
    for path in sorted(SQL_DIR.glob("*.sql")):
        text = path.read_text(encoding="utf-8").replace("{{user_table}}", table)
        text = text.replace("{{max_amount}}", str(MAX_AMOUNT))
        for match in FUNCTION.finditer(text):
            found[match["name"]] = match["body"]
    return found


def test_the_sql_files_hold_the_ledger_functions():
    names = {m["name"] for p in SQL_DIR.glob("*.sql") for m in FUNCTION.finditer(p.read_text())}
    assert names == {"wallet_post", "wallet_refuse", "wallet_staked"}


@pytest.mark.django_db
def test_the_database_runs_the_functions_the_files_say():
    if connection.vendor != "postgresql":
        pytest.skip("the functions exist on PostgreSQL only")
    functions = _functions()
    assert functions
    with connection.cursor() as cursor:
        for name, body in functions.items():
            cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = %s", [name])
            rows = cursor.fetchall()
            assert len(rows) == 1, f"{name}: {len(rows)} functions of that name"
            assert rows[0][0] == body, f"{name} in the database differs from wallet/sql/"
        cursor.execute("SELECT proconfig FROM pg_proc WHERE proname = 'wallet_post'")
        assert cursor.fetchone()[0] == ["plan_cache_mode=force_generic_plan"]
