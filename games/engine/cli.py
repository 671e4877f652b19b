"""The ``trix`` command: replay, simulate and verify deals without Django, a database or a
network.

- ``trix replay FILE|-`` scores a ``trix-deal/1`` record and prints JSON (``--text`` for a
  table). A bad record exits 1 with one line naming the play index and the reason.
- ``trix simulate --variant V --matches N --seed S [--bots K[,K,K,K]] [--json]
  [--records DIR]`` plays whole matches between bots and prints results and throughput.
- ``trix conformance FILE...`` runs ``trix-conformance/1`` scenario files (``docs/conformance``)
  through the engine: one ``PASS``/``FAIL`` line per scenario, exit 1 if any fails, 2 if a
  file cannot be read or is not a suite.
- ``trix verify FILE|DIR|- [--public-key HEX|FILE] [--keys FILE] [--log FILE] [--head FILE]
  [--checkpoint FILE [--new-checkpoint FILE --consistency FILE] [--inclusion FILE ...]]
  [--commitment HEX] [--client-seed SEAT=TEXT ...] [--partial]`` checks records' shuffles
  against their commitment, receipt and the log and replays them, or recomputes every
  seating of a ``trix-draw/1`` tournament draw record, whose commitment must be the one
  given with ``--commitment``, whose draw and matches must be the log's (``--log``) and
  whose results must be what the matches' deal records beside it give (``docs/fairness.md``),
  or a day's archive (``trix-archive/1``: the whole day's log, records, payouts and draws).
- ``trix witness --site URL --name NAME --key FILE --state FILE [--log-key KEY] [--submit]``
  (the one command that uses the network: the site given) cosigns the site's log checkpoint
  if it extends the tree this witness last cosigned, or refuses a fork (``--new-key FILE``
  makes a witness key); ``--submit`` sends the cosignature to the site.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from .errors import EngineError, InvalidOptions
from .options import VARIANTS, Options
from .record import load_json, load_record, replay_record


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    return Path(path).read_text(encoding="utf-8")


def _text_result(result: dict[str, Any]) -> str:
    lines = [
        f"{result['variant']}  contract {result['contract']}  owner seat {result['owner']}",
        "seat  score",
    ]
    lines += [f"{s:>4}  {v:>5}" for s, v in result["scores"].items()]
    if "teams" in result:
        lines += [f"team {t}: {v}" for t, v in result["teams"].items()]
    if "tricks" in result:
        lines.append("trick  leader  cards            taker")
        for i, t in enumerate(result["tricks"], 1):
            lines.append(f"{i:>5}  {t['leader']:>6}  {' '.join(t['cards']):<15}  {t['taker']:>5}")
    if "order" in result:
        lines.append("out in order: " + ", ".join(f"seat {s}" for s in result["order"]))
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        result = replay_record(load_record(_read(args.file)))
    except EngineError as exc:
        print(f"invalid record: {exc}", file=err)
        return 1
    except UnicodeDecodeError:
        print("invalid record: not UTF-8 text", file=err)
        return 1
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=err)
        return 2
    print(_text_result(result) if args.text else json.dumps(result, indent=2), file=out)
    return 0


def _summary_text(data: dict[str, Any]) -> str:
    lines = [
        f"{data['variant']}: {data['matches']} matches, {data['deals']} deals "
        f"in {data['seconds']} s ({data['matches_per_second']} matches/s, "
        f"{data['deals_per_second']} deals/s)",
        "seat  bot     mean total" + ("" if "teams" in data else "  firsts"),
    ]
    for s, row in data["seats"].items():
        firsts = "" if "teams" in data else f"  {row['firsts']:>6}"  # solo places only
        lines.append(f"{s:>4}  {row['bot']:<6}  {row['mean_total']:>10}{firsts}")
    if "teams" in data:
        for team, row in data["teams"].items():
            lines.append(
                f"team {team} ({row['bots']}): {row['wins']} wins "
                f"({row['win_rate']:.1%}), mean total {row['mean_total']}"
            )
        lines.append(f"draws: {data['draws']}")
    return "\n".join(lines)


def _simulate_options(text: str | None, variant: str) -> Options:
    """The table options of ``trix simulate``: ``--options`` (a JSON object, never naming the
    variant) over the defaults, with ``--variant``. Raises :class:`EngineError`."""
    extra = {} if text is None else load_json(text)
    if not isinstance(extra, dict):
        raise InvalidOptions("--options must be a JSON object of table options")
    if "variant" in extra:
        raise InvalidOptions("give the variant with --variant, not in --options")
    return Options.from_dict({**extra, "variant": variant})


def cmd_simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .simulate import simulate

    kinds = args.bots.split(",")
    if len(kinds) == 1:
        kinds *= 4
    try:
        options = _simulate_options(args.options, args.variant)
    except EngineError as exc:
        print(f"bad options: {exc}", file=err)
        return 2
    if args.matches < 1:
        print("--matches must be at least 1", file=err)
        return 2
    from games.fairness.simulation import simulation_dealer

    # Every deal through a real commitment and trix-shuffle/1, so records pass `trix verify`.
    dealer = simulation_dealer(args.seed, options.deals_per_match)
    on_deal_end = None
    if args.records:
        records_dir = Path(args.records)
        records_dir.mkdir(parents=True, exist_ok=True)

        def on_deal_end(state, shuffle, match_index):
            record = dict(state.records[-1])
            if shuffle is not None:
                record["shuffle"] = shuffle
            name = f"match-{match_index + 1:05d}-deal-{len(state.records):02d}.json"
            (records_dir / name).write_text(json.dumps(record, indent=1) + "\n")

    try:
        summary = simulate(options, kinds, args.matches, args.seed, dealer, on_deal_end)
    except ValueError as exc:
        print(str(exc), file=err)
        return 2
    data = summary.to_json()
    print(json.dumps(data, indent=2) if args.json else _summary_text(data), file=out)
    return 0


def cmd_conformance(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .conformance import InvalidSuite, load_suite, run_suite

    suites = []
    for path in args.files:
        try:
            suites.append((path, load_suite(_read(path))))
        except InvalidSuite as exc:
            print(f"{path}: not a conformance suite: {exc}", file=err)
            return 2
        except UnicodeDecodeError:
            print(f"{path}: not a conformance suite: not UTF-8 text", file=err)
            return 2
        except OSError as exc:
            print(f"cannot read {path}: {exc.strerror}", file=err)
            return 2
    passed = failed = 0
    for path, suite in suites:
        for sid, failures in run_suite(suite):
            if failures:
                failed += 1
                print(f"FAIL {path} {sid}: {'; '.join(failures)}", file=out)
            else:
                passed += 1
                print(f"PASS {path} {sid}", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed else 0


def cmd_verify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from games.fairness import verify_cli

    return verify_cli(
        args.file,
        out,
        err,
        public_key=args.public_key,
        keys=args.keys,
        log=args.log,
        commitment=args.commitment,
        client_seeds=args.client_seed,
        partial=args.partial,
        head=args.head,
        checkpoint=args.checkpoint,
        new_checkpoint=args.new_checkpoint,
        consistency=args.consistency,
        inclusions=args.inclusion,
        witnesses=args.witness,
        quorum=args.witnesses,
    )


def cmd_witness(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from games.fairness.witness_command import witness_cli

    return witness_cli(
        site=args.site,
        name=args.name,
        key=args.key,
        state=args.state,
        log_key=args.log_key,
        new_key=args.new_key,
        submit=args.submit,
        out=out,
        err=err,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="trix", description="The Trix rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="score a trix-deal/1 record")
    p.add_argument("file", help="a record file, or - for standard input")
    p.add_argument("--text", action="store_true", help="a readable table instead of JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play whole matches between bots")
    p.add_argument("--variant", choices=VARIANTS, default="complex_partner")
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="random", help="one kind for all, or four: rules,random,...")
    p.add_argument("--options", help="other table options as a JSON object")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--records", metavar="DIR", help="write every deal record into DIR")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "conformance",
        help="run trix-conformance/1 rule scenarios (docs/conformance/*.json)",
        epilog="Exit 0 every scenario passed, 1 one failed, 2 a file unreadable or not a suite.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="suite files, or - (stdin)")
    p.set_defaults(func=cmd_conformance)

    _add_verify_parser(sub)

    p = sub.add_parser(
        "witness",
        help="cosign a site's log checkpoint if it extends the last one cosigned",
        epilog="Exit 0 cosigned (the cosigned checkpoint on standard output); 1 refused (a "
        "fork, another key), the site unreachable, a key, --log-key or state that cannot be "
        "read or written, or with --submit the cosignature not kept by the site (the "
        "checkpoint still on standard output, the site's answer on standard error); 2 a "
        "missing option, a malformed --site or --name, or a --new-key file that exists.",
    )
    p.add_argument("--site", metavar="URL", help="the site, e.g. https://trix.example")
    p.add_argument("--name", help="this witness's key name, e.g. witness.example.org/w1")
    p.add_argument("--key", metavar="FILE", help="this witness's private key (64 hex digits)")
    p.add_argument("--state", metavar="FILE", help="this witness's state, kept between runs")
    p.add_argument(
        "--log-key",
        metavar="HEX|FILE",
        help="the first run: the site's public key (/fairness/public-key.json) to pin",
    )
    p.add_argument(
        "--submit",
        action="store_true",
        help="also send the cosigned checkpoint to the site (/fairness/cosignatures)",
    )
    p.add_argument("--new-key", metavar="FILE", help="make a witness key into FILE and stop")
    p.set_defaults(func=cmd_witness)
    return parser


def _add_verify_parser(sub: Any) -> None:
    """The ``verify`` command's arguments (``games.fairness.verify_command.verify_cli``)."""
    p = sub.add_parser(
        "verify",
        help="check deal records (shuffle, plays, receipt), a trix-draw/1 record or a day's "
        "archive (/fairness/archive/DAY.zip)",
        epilog="Seats are 0..3 as in records: the table page's Seat 1 is seat 0, Seat 4 is "
        "seat 3. Exit 0 verified, 1 refused, 2 a malformed option value.",
    )
    p.add_argument(
        "file",
        help="a record, a JSON list of one match's records, a directory of downloads, a day's "
        "archive (.zip), or - (stdin)",
    )
    p.add_argument(
        "--public-key",
        metavar="HEX|FILE",
        help="the site's Ed25519 public key (64 hex digits, PEM, or /fairness/public-key.json "
        "saved to a file): every receipt must be signed by it",
    )
    p.add_argument(
        "--keys",
        metavar="FILE",
        help="the site's /fairness/keys.json saved to a file: each signature must be by the "
        "key it names, in use when it was made (pin it with --public-key, the key you saved)",
    )
    p.add_argument(
        "--log",
        metavar="FILE",
        help="the site's /fairness/log.jsonl saved to a file: its hash chain must verify, its "
        "one receipt of each match must be the records' and each record must be its deal's "
        "deal-record entry; a trix-draw/1 record's draw and matches must be the logged ones",
    )
    p.add_argument(
        "--commitment",
        metavar="HEX",
        help="the commitment the table showed before you sat, or for a trix-draw/1 record the "
        "draw commitment the tournament page showed before the start",
    )
    p.add_argument(
        "--client-seed",
        metavar="SEAT=TEXT",
        action="append",
        default=[],
        help="the client seed you sent for SEAT (0..3; the page's Seat 1..4 minus one); repeatable",
    )
    p.add_argument(
        "--head",
        metavar="FILE",
        help="a log head you saved earlier (/fairness/log-head.json), with --log: the log's "
        "first entries must still hash to it",
    )
    p.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="a log checkpoint you saved earlier (/fairness/checkpoint): with --log the log's "
        "first entries must have its Merkle root; the proofs below are checked against it",
    )
    p.add_argument(
        "--new-checkpoint",
        metavar="FILE",
        help="a newer checkpoint, with --consistency: it must extend the saved one",
    )
    p.add_argument(
        "--consistency",
        metavar="FILE",
        help="/fairness/proof/consistency?first=<saved size>&second=<newer size> saved to a file",
    )
    p.add_argument(
        "--inclusion",
        metavar="FILE",
        action="append",
        default=[],
        help="/fairness/proof/inclusion?index=<entry>&size=<a checkpoint's size> saved to a "
        "file: the records' receipt or a deal record is in the log; repeatable",
    )
    p.add_argument(
        "--witness",
        metavar="NAME=KEY",
        action="append",
        default=[],
        help="a witness of the log you trust (its key name and 64-hex public key); repeatable: "
        "the newest checkpoint given must be cosigned by them",
    )
    p.add_argument(
        "--witnesses",
        metavar="N",
        type=int,
        help="how many of the --witness witnesses must have cosigned (default: all)",
    )
    p.add_argument(
        "--partial",
        action="store_true",
        help="accept a match's first deals only (still running, or ended by a forfeit); "
        "with --log, only if the log holds no other deal record of the match",
    )
    p.set_defaults(func=cmd_verify)


def main(argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None):
    """Entry point of the ``trix`` console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args, out or sys.stdout, err or sys.stderr)
    except BrokenPipeError:  # e.g. `trix simulate ... | head`: the reader left, say nothing
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
