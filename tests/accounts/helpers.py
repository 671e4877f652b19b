"""Helpers of the accounts tests: staked and free tables, API clients from one address."""

from __future__ import annotations

from rest_framework.test import APIClient

#: Timers long enough that nothing times out while a test runs.
TIMERS = {"choose_timer": 30, "double_timer": 30, "play_timer": 30}


def staked_table(creator, stake: int = 200):
    from games import services

    return services.create_table(user=creator, variant="trix", stake=stake, options=TIMERS)


def free_table(creator):
    return staked_table(creator, stake=0)


def api_for(user, address: str = "203.0.113.7") -> APIClient:
    """An API client logged in as ``user`` whose requests come from ``address``."""
    client = APIClient(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def sit(client: APIClient, table_id: int, seat: int, **extra):
    return client.post(
        f"/api/tables/{table_id}/seats/",
        {"seat": seat, "client_seed": f"seed-{seat}"},
        format="json",
        **extra,
    )
