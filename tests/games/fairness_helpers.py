"""Shared helpers of the fairness tests: loading the standalone verifier, simulated records."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from games.engine.options import Options
from games.engine.simulate import simulate
from games.fairness.simulation import simulation_dealer

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
STANDALONE = DOCS / "verify_standalone.py"


def load_standalone():
    """The standalone verifier as a module (it has no import-time side effects)."""
    spec = importlib.util.spec_from_file_location("verify_standalone", STANDALONE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def simulated_records(variant: str, seed: int, matches: int = 1) -> list[dict]:
    """Deal records (with their shuffle objects) of bot matches played by the engine."""
    options = Options.from_dict({"variant": variant})
    records: list[dict] = []

    def on_deal_end(state, shuffle, match_index):
        records.append({**state.records[-1], "shuffle": shuffle})

    dealer = simulation_dealer(seed, options.deals_per_match)
    simulate(options, ["rules", "random", "rules", "random"], matches, seed, dealer, on_deal_end)
    return records
