"""Shared helpers of the fairness tests: loading the standalone verifier, simulated records."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path

from games.engine.options import Options
from games.engine.simulate import simulate
from games.fairness.simulation import simulation_dealer

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
STANDALONE = REPO / "games" / "fairness" / "verify_standalone.py"


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


# --- receipts, logs and forged matches (issue 12) --------------------------------------------

RFC8032_TEST1_SECRET = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
"""RFC 8032 section 7.1 TEST 1's secret key: the fixed key of the published test vectors."""
RFC8032_TEST1_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
ISSUED_AT = "2026-12-01T10:00:00Z"
LOGGED_AT = "2026-12-01T09:59:00Z"


def with_receipt(
    records: list[dict], key, *, issued_at: str = ISSUED_AT, bots=None, key_id: str | None = None
):
    """(records, receipt, signature): copies of one match's records whose shuffle objects carry
    the deal count, the match-start receipt and its signature by ``key``, as the site's do.
    ``bots``: the seats the receipt names as bots (default: the seats whose client seed is
    ``bot``, as the engine's simulated matches seat them); ``key_id``: the signing key's id
    the receipt names (none by default, as receipts before key ids)."""
    from games.fairness.match_shuffle import BOT_CLIENT_SEED
    from games.fairness.receipt import build_receipt, sign

    first = records[0]
    shuffle = first["shuffle"]
    seeds = [shuffle["client_seeds"][str(seat)] for seat in range(4)]
    if bots is None:
        bots = [seat for seat, seed in enumerate(seeds) if seed == BOT_CLIENT_SEED]
    options = Options.from_dict({**first["options"], "variant": first["variant"]})
    receipt = build_receipt(
        match_id=shuffle["match_id"],
        algorithm=shuffle["algorithm"],
        commitment=shuffle["commitment"],
        deals=options.deals_per_match,
        variant=first["variant"],
        options=options.to_dict(),  # as the site writes them: every option, defaults filled in
        client_seeds=seeds,
        issued_at=issued_at,
        bots=bots,
        key_id=key_id,
    )
    return carrying(records, receipt, sign(receipt, key))


def carrying(records: list[dict], receipt: dict, signature: str):
    """(records, receipt, signature): copies of ``records`` whose shuffle objects carry
    ``receipt`` (any dict: a forger's too), ``signature`` and the receipt's deal count."""
    carried = {"deals": receipt["deals"], "receipt": receipt, "signature": signature}
    out = [
        {**copy.deepcopy(r), "shuffle": {**copy.deepcopy(r["shuffle"]), **carried}} for r in records
    ]
    return out, receipt, signature


def match_log(*matches: tuple) -> list[dict]:
    """A ``trix-log/1`` log: for each (receipt, signature) or (records, receipt, signature),
    its match-commitment entry, a tournament's draw commitment in between, its match-receipt
    entry, then (given the records) one deal-record entry per record, as the site logs them."""
    from games.fairness.canonical import sha256_hex
    from games.fairness.transparency import next_entry

    entries: list[dict] = []

    def add(kind, body):
        entries.append(
            next_entry(
                prev=entries[-1] if entries else None, kind=kind, body=body, logged_at=LOGGED_AT
            )
        )

    for number, match in enumerate(matches, start=1):
        records, (receipt, signature) = match[:-2], match[-2:]
        fields = ("match_id", "algorithm", "commitment", "deals")
        add("match-commitment", {field: receipt[field] for field in fields})
        add(
            "draw-commitment",
            {"event": f"tournament:{number}", "algorithm": "trix-draw/1", "commitment": "ab" * 32},
        )
        add("match-receipt", {"receipt": receipt, "signature": signature})
        for record in records[0] if records else []:
            number = record["shuffle"]["deal_number"]
            body = {"match_id": receipt["match_id"], "deal_number": number}
            add("deal-record", {**body, "record_hash": sha256_hex(record)})
    return entries


def played_records(
    variant: str, match_id: str, secret: str, client_seeds: list[str], seed: int = 7
) -> list[dict]:
    """The records of one match the engine plays (bots) with a chain of the given secret
    (64 hex) and four client seeds: a "site" match with a human's seed, or a forged one."""
    from games.engine.cards import mask_of
    from games.fairness.match_shuffle import MatchShuffle

    options = Options.from_dict({"variant": variant})
    state = MatchShuffle.from_secret(match_id, options.deals_per_match, secret)
    state.lock_client_seeds(client_seeds)

    def dealer(match_index, deal_number):
        hands = [mask_of(hand) for hand in state.deal(deal_number)]
        state.end_deal(deal_number)
        return hands, state.shuffle_record(deal_number)

    records: list[dict] = []

    def on_deal_end(match_state, shuffle, match_index):
        records.append({**match_state.records[-1], "shuffle": shuffle})

    simulate(options, ["rules", "random", "rules", "random"], 1, seed, dealer, on_deal_end)
    return records


def forged_records(records: list[dict], client_seeds: list[str], seed: int = 99) -> list[dict]:
    """The forged-match attack: a *different* match under ``records``' match id and
    commitment, built from their last revealed seed (after the last deal, the chain's whole
    secret) with other client seeds, played by the engine: other hands, legal plays, scores."""
    last = max(records, key=lambda r: r["shuffle"]["deal_number"])["shuffle"]
    forged = played_records(
        records[0]["variant"], last["match_id"], last["server_seed"], client_seeds, seed
    )
    assert forged[0]["shuffle"]["commitment"] == last["commitment"]  # the real commitment
    return forged


def toggle_a_bot_double(records: list[dict], bots: set[int]) -> tuple[int, int, str]:
    """Change, in place, what one bot seat doubled in a deal where it held a queen or the
    king of hearts in a doubling contract: (deal number, seat, card). The record stays a
    legal deal (doubles change the scores, not the plays)."""
    for number, record in enumerate(records, 1):
        if record["contract"] not in ("king", "queens", "complex"):
            continue
        for seat in sorted(bots):
            held = [c for c in record["hands"][str(seat)] if c in ("QS", "QH", "QD", "QC", "KH")]
            if held:
                doubles = record.setdefault("doubles", {})
                mine = doubles.get(str(seat), [])
                card = held[0]
                mine = [c for c in mine if c != card] if card in mine else [*mine, card]
                if mine:
                    doubles[str(seat)] = mine
                else:
                    doubles.pop(str(seat), None)
                return number, seat, card
    raise AssertionError("no bot held a doublable card")


def rewrite_the_log(index: int) -> None:
    """What an operator with the database could do (a test only, past the append-only
    trigger): change entry ``index`` (its time), then rebuild every entry's ``prev`` and hash
    and the whole Merkle tree, so that the log is whole again (``fairness_log.check`` passes)
    and only a checkpoint saved before shows the change."""
    from django.db import connection

    from games.fairness import transparency
    from games.models import LogEntry
    from games.services import fairness_log, log_tree

    entries = [fairness_log.entry_of(row) for row in LogEntry.objects.order_by("index")]
    entries[index]["logged_at"] = "2020-01-01T00:00:00Z"
    prev = transparency.GENESIS
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_logentry DISABLE TRIGGER games_logentry_append_only")
        try:
            cursor.execute("UPDATE games_logentry SET hash = 'old:' || index")  # each unique
            for entry in entries:
                entry["prev"] = prev
                prev = transparency.entry_hash(entry)
                cursor.execute(
                    "UPDATE games_logentry SET prev = %s, hash = %s, logged_at = %s"
                    " WHERE index = %s",
                    [entry["prev"], prev, entry["logged_at"], entry["index"]],
                )
        finally:
            cursor.execute("ALTER TABLE games_logentry ENABLE TRIGGER games_logentry_append_only")
        cursor.execute("DELETE FROM games_logtreenode")
    log_tree.add_nodes(entries)
    assert fairness_log.check() == []
