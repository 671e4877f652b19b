"""The notes ``trix verify`` prints after ``verified``: what a ``--partial`` check of a
match covered (:func:`partial_note`), which seats its receipt names bots and which seeds
were pinned (:func:`seats_note`), whether the match's commitment came before its client
seeds (:func:`order_note`), whether its bots' moves were replayed (:func:`bots_note`), and
which keys signed the receipts (:func:`keys_note`). No Django."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.fairness.match_shuffle import BOT_CLIENT_SEED
from games.fairness.signing_keys import Keyring
from games.fairness.transparency import logged
from games.fairness.verify import SEAT_KEYS
from games.fairness.verify_log import bot_moves


def keys_note(ring: Keyring, receipts: Iterable[dict[str, Any]]) -> str:
    """Which keys signed ``receipts`` (their signatures already checked with ``ring``), and
    where those keys came from."""
    used = sorted(
        {ring.key(r.get("key_id"), r["issued_at"], "the receipt").key_id for r in receipts}
    )
    return (
        f"receipt signatures valid under key{'s' if len(used) > 1 else ''} {', '.join(used)} "
        f"({ring.source})"
    )


def partial_note(records: Sequence[Any], logged: bool) -> str:
    """The ``--partial`` note of one match's verified ``records``: which deals they are of
    the receipt's count, and what was known of the rest (``logged``: the log was checked
    and holds no other deal record of the match, :func:`withheld_records`)."""
    shuffles = [r["shuffle"] for r in records]
    last = max(s["deal_number"] for s in shuffles)
    deals = shuffles[0].get("deals")
    given = f"deal{'s 1-' if last > 1 else ' '}{last}"
    if isinstance(deals, int) and not isinstance(deals, bool):
        given += f" of {deals}"
    if deals == last:
        return f"--partial: not needed: {given}, the whole match"
    if logged:
        return (
            f"--partial: {given}; the log holds no other deal record of match "
            f"{shuffles[0]['match_id']!r}: nothing it logged was withheld (only a payout or a "
            "bots' seed entry in the log says the match ended)"
        )
    return (
        f"--partial: only the first deals were required ({given.split(' ', 1)[1]}); "
        "completeness could not be checked without the log (--log): later records of this "
        "match may exist and be withheld"
    )


def seats_note(receipt: dict[str, Any], pinned: Iterable[str]) -> str:
    """The note on a verified match's seats: the ones its ``receipt`` names bots (their
    client seed the constant ``BOT_CLIENT_SEED``, which the receipt check requires), the
    people's, and which of the people's seeds the user pinned (``pinned``: the seats given
    with ``--client-seed``, ``"0"``..``"3"``). A receipt without ``bots`` was issued before
    receipts named their bots: the note says which seats were bots is unknown. Pinning
    every person's seed, with the bots' fixed, fixes all four (``docs/fairness.md``)."""
    match_id = receipt["match_id"]
    pins = sorted(set(pinned))
    if "bots" not in receipt:
        loose = [seat for seat in SEAT_KEYS if seat not in pins]
        line = (
            f"match {match_id!r}: the receipt does not name its bots (issued before receipts "
            f"named them): which seats were bots is unknown; {_pins(pins, loose)}"
        )
        return line + (f" (a bot's seed is {BOT_CLIENT_SEED!r})" if loose else "")
    bots = [str(seat) for seat in receipt["bots"]]
    people = [seat for seat in SEAT_KEYS if seat not in bots]
    line = f"match {match_id!r}: the receipt names "
    if bots:
        line += (
            f"{_seats(bots)} {'bots' if len(bots) > 1 else 'a bot'} (client seed "
            f"{BOT_CLIENT_SEED!r}, required)"
        )
    if not people:
        return line + ": all four seeds are fixed"
    loose = [seat for seat in people if seat not in pins]
    return (
        f"{line}{'; ' if bots else 'no bots; '}{_seats(people)} "
        f"{'are people' if len(people) > 1 else 'is a person'}, their seeds their players' "
        f"own: {_pins(pins, loose)}"
    )


def _pins(pinned: list[str], loose: list[str]) -> str:
    """Which seats ``--client-seed`` pinned (``pinned``) and which it did not (``loose``)."""
    parts = [f"pinned by --client-seed: {_seats(pinned)}"] if pinned else []
    if loose:
        parts.append(f"not pinned: {_seats(loose)}")
    else:
        parts.append("all four seeds are fixed")
    return "; ".join(parts)


def _seats(seats: list[str]) -> str:
    """``["1", "3"]`` -> ``"seats 1, 3"``; ``["2"]`` -> ``"seat 2"``."""
    return f"seat{'s' if len(seats) > 1 else ''} {', '.join(seats)}"


def order_note(receipt: dict[str, Any], entries: Sequence[dict[str, Any]] | None) -> str:
    """The note on whether match ``receipt``'s commitment was logged before every seat's
    client seed (commit first, ``docs/fairness.md``): with ``entries`` (a log
    ``transparency.verify_log`` accepted, which admits a receipt only with the
    ``commitment_entry`` and ``seed_entries`` it names), the entries and the seats whose seed
    the server made; without the log, what the receipt names, unchecked. A receipt without
    ``commitment_entry`` cannot show the order: the site could have drawn its secret after
    it saw the seeds."""
    match_id = receipt["match_id"]
    if "tables_commitment" in receipt:
        return _tables_note(receipt, entries)
    if "commitment_entry" not in receipt:
        return (
            f"match {match_id!r}: the receipt does not show that its commitment came before "
            "the client seeds (a tournament table, whose seats came with it, or a receipt "
            "from before seeds entered the log): the site could have drawn its secret after "
            "it saw them"
        )
    first, seeds = receipt["commitment_entry"], receipt["seed_entries"]
    where = "; ".join(f"seat {seat}: entry {index}" for seat, index in sorted(seeds.items()))
    if entries is None:
        return (
            f"match {match_id!r}: the receipt names its commitment at log entry {first} and "
            f"the client seeds after it ({where or 'no person'}): give --log to see them there"
        )
    by_index = {entry["index"]: entry for entry in entries}
    made = sorted(
        seat for seat, index in seeds.items() if by_index[index]["body"]["source"] == "server"
    )
    line = f"match {match_id!r}: commit first: its commitment (log entry {first})"
    line += f" came before every person's client seed ({where})" if seeds else "; all bots"
    if made:
        line += (
            f"; the server made the seed of {_seats(made)} (its player sent none): the server "
            "chose that part of the shuffle"
        )
    return line


def _tables_note(receipt: dict[str, Any], entries: Sequence[dict[str, Any]] | None) -> str:
    """:func:`order_note` for a tournament's table: its secret comes from the event's key,
    committed before anyone registered (``games.fairness.event_tables``); with the log, the
    key's reveal checked (``verify_log.table_key_problems``) or awaited."""
    tables = receipt["tables_commitment"]
    line = (
        f"match {receipt['match_id']!r}: a table of {tables['event']!r}, whose secret comes "
        f"from the event's key committed at log entry {tables['entry']}, before anyone could "
        "register"
    )
    if entries is None:
        return line + "; give --log to see it there"
    revealed = [
        entry
        for entry in entries
        if entry["kind"] == "tables-key" and entry["body"]["event"] == tables["event"]
    ]
    if revealed:
        return line + f"; the key (log entry {revealed[0]['index']}) gives this commitment"
    return line + "; the key is revealed when the event ends: this commitment is checked then"


def bots_note(
    receipt: dict[str, Any],
    records: Sequence[Any],
    entries: Sequence[dict[str, Any]] | None,
    single: bool = False,
) -> str | None:
    """The note on match ``receipt``'s bots' moves (``records``: its deal records, verified):
    replayed from the seed the log revealed (:func:`replayed_note`); or why not (no log
    given, the match not over, a receipt from before the bots' seed was committed,
    ``single``: one record checked alone). None for a match without bots."""
    match_id = receipt["match_id"]
    if not receipt.get("bots"):
        return None
    block = receipt.get("bot_play")
    if block is None:
        return (
            f"match {match_id!r}: bots' moves not checked: the receipt commits to no bots' "
            "seed (issued before receipts did)"
        )
    if single:
        return (
            f"match {match_id!r}: one record alone: its bots' moves are replayed over all "
            "the match's records, given with --log"
        )
    seats = _seats([str(seat) for seat in receipt["bots"]])
    if entries is None:
        return f"match {match_id!r}: bots' moves not checked: give --log (it reveals their seed)"
    _, done = bot_moves(records, {"receipt": receipt}, logged(entries))
    if done is None:
        return (
            f"match {match_id!r}: bots' moves not checked yet: the log reveals the seed of "
            f"{seats} when the match ends"
        )
    return f"match {match_id!r}: " + replayed_note(receipt, done)


def replayed_note(receipt: dict[str, Any], done: dict[str, Any]) -> str:
    """What a replay of the bots' moves showed (``done``: ``verify_log.bot_moves``'s)."""
    seats = _seats([str(seat) for seat in receipt["bots"]])
    deals = done["deals"]
    line = (
        f"every move of the bots ({seats}, {receipt['bot_play']['decisions']}) in the "
        f"{deals} deal{'s' if deals > 1 else ''} given is the bot's: {done['checked']} "
        f"decisions replayed from the seed logged at entry {done['entry']}, committed in the "
        "receipt"
    )
    if done["derived"]:
        return line + " and drawn with the shuffle's secret (the last deal's seed gives it)"
    return line + (
        "; that it was drawn with the shuffle's secret shows only with the last deal's "
        "record (the match ended before it, or it was not given)"
    )
