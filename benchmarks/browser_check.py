"""The table page's own check of a finished deal, timed in Chromium on a phone-sized page:
``verify.js``'s ``checkDeal`` (the seed chain, the shuffle, all four hands, the receipt and
its Ed25519 signature) then ``log_check.js``'s ``checkLog`` (the checkpoint's signature, the
consistency proof from the checkpoint kept at the Sit, the inclusion proofs of the deal's
record and of the receipt), per deal of an 8-deal match, at the end of a log of each size.

The answers of ``/fairness/`` are served from memory (no network, no server): the log's
entries are stand-in leaf hashes (a browser only ever sees their hashes, inside proofs)
but for the match's real entries half-way through it, so the proofs have about their
longest length for that size. The CPU can be slowed as Chrome's devtools do (``--throttle
4``: four times slower, a mid-range phone's pace). Prints the median and the slowest deal,
and the median whole match, per size and throttle.

Run: ``.venv/bin/python benchmarks/browser_check.py [--sizes 10000,1000000] [--throttle 1,4]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from benchmarks.merkle import stand_in, store  # noqa: E402
from games.engine.options import Options  # noqa: E402
from games.engine.simulate import simulate  # noqa: E402
from games.fairness import merkle  # noqa: E402
from games.fairness.canonical import sha256_hex  # noqa: E402
from games.fairness.receipt import build_receipt, key_id, public_key_hex, sign  # noqa: E402
from games.fairness.simulation import simulation_dealer  # noqa: E402
from games.fairness.transparency import entry_key, entry_leaf_hash  # noqa: E402

ORIGIN = "http://localhost:8765"
TIME = "2026-12-07T10:00:00Z"


def match_records(key) -> tuple[list[dict], dict, str]:
    """An 8-deal Complex match the engine plays (four bots), its records carrying the
    receipt signed by ``key``, as the site's do."""
    options = Options.from_dict({"variant": "complex"})
    records: list[dict] = []

    def on_deal_end(state, shuffle, match_index):
        records.append({**state.records[-1], "shuffle": shuffle})

    simulate(
        options, ["rules"] * 4, 1, 7, simulation_dealer(7, options.deals_per_match), on_deal_end
    )
    first = records[0]["shuffle"]
    receipt = build_receipt(
        match_id=first["match_id"],
        algorithm=first["algorithm"],
        commitment=first["commitment"],
        deals=options.deals_per_match,
        variant="complex",
        options=options.to_dict(),
        client_seeds=[first["client_seeds"][str(s)] for s in range(4)],
        issued_at=TIME,
        bots=[0, 1, 2, 3],
        key_id=key_id(key.public_key()),
    )
    signature = sign(receipt, key)
    carried = {"deals": options.deals_per_match, "receipt": receipt, "signature": signature}
    return [{**r, "shuffle": {**r["shuffle"], **carried}} for r in records], receipt, signature


def log_answers(size: int, records, receipt, signature, key) -> tuple[str, dict[str, object]]:
    """(the checkpoint kept at the Sit, {path under /fairness/: answer}) for a log of ``size``
    entries holding, half-way, the match's commitment, receipt and deal records (the Sit just
    before them)."""
    fields = ("match_id", "algorithm", "commitment", "deals")
    entries = [{"kind": "match-commitment", "body": {f: receipt[f] for f in fields}}]
    entries.append({"kind": "match-receipt", "body": {"receipt": receipt, "signature": signature}})
    for r in records:
        body = {"match_id": receipt["match_id"], "deal_number": r["shuffle"]["deal_number"]}
        entries.append({"kind": "deal-record", "body": {**body, "record_hash": sha256_hex(r)}})
    sit = size // 2 + 1  # mid-log: proofs of about log2(size) hashes (at the tail, fewer)
    for i, entry in enumerate(entries):
        entry.update(index=sit + i, prev="00" * 32, logged_at=TIME)

    leaves = [stand_in(i) for i in range(sit)] + [entry_leaf_hash(e) for e in entries]
    leaves += [stand_in(i) for i in range(len(leaves), size)]
    stored = store(leaves)

    def hashes(ranges):
        return [merkle.range_hash(lambda a, b: stored[(a, b)], lo, hi).hex() for lo, hi in ranges]

    def note(n: int) -> str:
        root = merkle.range_hash(lambda a, b: stored[(a, b)], 0, n)
        ext = f"time {TIME} key-id {key_id(key.public_key())}"
        text = merkle.format_checkpoint(merkle.Checkpoint("bench/log", n, root, (ext,)))
        raw = bytes.fromhex(public_key_hex(key))
        key_hash = merkle.ed25519_key_hash("bench/log", raw)
        line = merkle.signature_line("bench/log", key_hash, key.sign(text.encode()))
        return text + "\n" + line

    answers: dict[str, object] = {
        "checkpoint": note(size),
        f"proof/consistency?first={sit}&second={size}": {
            "format": "trix-consistency/1", "first": sit, "second": size,
            "proof": hashes(merkle.consistency_ranges(sit, size)),
        },
    }  # fmt: skip
    for entry in entries[1:]:
        subject = quote(entry_key(entry["kind"], entry["body"]), safe="")
        answers[f"proof/inclusion?kind={entry['kind']}&subject={subject}&size={size}"] = {
            "format": "trix-inclusion/1", "index": entry["index"], "size": size, "entry": entry,
            "proof": hashes(merkle.inclusion_ranges(entry["index"], size)),
        }  # fmt: skip
    return note(sit), answers


PAGE_SCRIPT = """async ([records, saved, answers]) => {
  const v = await import('/static/web/table/verify.js');
  const l = await import('/static/web/table/log_check.js');
  const get = async (path) => (path in answers ? answers[path] : null);
  const times = [];
  for (const record of records) {
    const deal = record.shuffle.deal_number;
    const started = performance.now();
    const hand = record.hands[String(saved.seat)];
    const cards = await v.checkDeal(record, {...saved, hand}, deal);
    const log = await l.checkLog(record, saved, get);
    times.push(performance.now() - started);
    if (cards.status !== 'verified' || cards.signature !== 'valid' || log.log !== 'valid') {
      return {error: JSON.stringify([deal, cards, log])};
    }
  }
  return {times};
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,1000000")
    parser.add_argument("--throttle", default="1,4")
    parser.add_argument("--runs", type=int, default=3, help="matches checked per setting")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    key = Ed25519PrivateKey.generate()
    records, receipt, signature = match_records(key)
    saved = {
        "match_id": receipt["match_id"],
        "commitment": receipt["commitment"],
        "deals": receipt["deals"],
        "seat": 0,
        "client_seed": receipt["client_seeds"]["0"],
        "public_key": public_key_hex(key),
        "receipt": receipt,
        "signature": signature,
    }
    static = ROOT / "web" / "static"

    def serve(route):
        path = route.request.url[len(ORIGIN) :]
        if path.startswith("/static/"):
            body = (static / path[len("/static/") :]).read_bytes()
            route.fulfill(body=body, content_type="text/javascript")
        else:
            route.fulfill(body="<!doctype html><title>check</title>", content_type="text/html")

    print(f"python {platform.python_version()}, {platform.machine()}, phone page 390x844")
    with sync_playwright() as p:
        # Debian's Chromium, as the browser tests use (tests/web/conftest.py).
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        print(f"chromium {browser.version}")
        for size in [int(s) for s in args.sizes.split(",")]:
            checkpoint, answers = log_answers(size, records, receipt, signature, key)
            lengths = [len(a["proof"]) for k, a in answers.items() if "inclusion" in k]
            proof = f"{min(lengths)}-{max(lengths)}"
            for rate in [float(t) for t in args.throttle.split(",")]:
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.route(f"{ORIGIN}/**", serve)
                page.goto(ORIGIN + "/")
                page.context.new_cdp_session(page).send(
                    "Emulation.setCPUThrottlingRate", {"rate": rate}
                )
                times: list[float] = []
                matches: list[float] = []
                for _ in range(args.runs):
                    kept = {**saved, "checkpoint": checkpoint}
                    got = page.evaluate(PAGE_SCRIPT, [records, kept, answers])
                    if "error" in got:
                        raise SystemExit(f"the check failed: {got['error']}")
                    times += got["times"]
                    matches.append(sum(got["times"]))
                page.close()
                print(
                    f"log of {size:,} entries (inclusion proofs of {proof} hashes), CPU x{rate:g}: "
                    f"a deal's whole check {statistics.median(times):6.1f} ms median, "
                    f"{max(times):6.1f} ms slowest ({len(times)} deals); a whole "
                    f"{len(records)}-deal match {statistics.median(matches):6.1f} ms median"
                )
        browser.close()


if __name__ == "__main__":
    main()
