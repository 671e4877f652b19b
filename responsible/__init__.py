"""Responsible play: deposit and stake limits, time-outs, self-exclusion and the
reality check. The rules are pure functions (``responsible.rules``); the wallet asks them
through ``wallet.gates`` before money moves."""
