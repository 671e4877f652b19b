"""The ``rules`` bot against the ``random`` bot (issue 2: over 2,000 ``complex_partner``
matches with a fixed seed, a team of two ``rules`` bots must win well over 90%)."""

from __future__ import annotations

import pytest

from games.engine import Options
from games.engine.simulate import simulate

MATCHES = 2000
SEED = 2026


@pytest.mark.slow
def test_rules_team_beats_random_team_in_well_over_90_percent():
    summary = simulate(
        Options(variant="complex_partner"), ["rules", "random", "rules", "random"], MATCHES, SEED
    )
    data = summary.to_json()
    assert data["matches"] == MATCHES
    rules_wins = data["teams"]["0+2"]["wins"]
    # Measured 1937 of 2000 (96.9%) with this seed.
    assert rules_wins / MATCHES > 0.95, data["teams"]
    assert data["teams"]["0+2"]["mean_total"] > 0
