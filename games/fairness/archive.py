"""A day's archive (``trix-archive/1``, docs/fairness.md "The daily archive"): everything an
auditor needs to check one UTC day of the log in one file, and the proof that its entries are
the whole day.

The archive is a zip file:

- ``archive.json``: ``{"format": "trix-archive/1", "day": "YYYY-MM-DD", "first": a, "end": b,
  "size": n, "frontier": [hex, ...]}``: the day's entries are the log's entries ``a..b-1``;
  the checkpoint is of the log's first ``n = b + 1`` entries, entry ``b`` the first logged
  after the day (a day's archive is made once there is one: log times never go back, so no
  entry of the day can come after it); ``frontier`` is the hash of each perfect subtree
  that makes up the entries before ``log.jsonl``'s first (``merkle.subtrees``).
- ``checkpoint``: the site's signed checkpoint of size ``n`` (C2SP ``tlog-checkpoint``).
- ``keys.json``: the site's keys (``trix-keys/1``).
- ``log.jsonl``: the entries from ``a - 1`` (the previous day's last, when ``a > 0``) to
  ``b`` (the next day's first), one canonical JSON line each. With the
  frontier they rebuild the checkpoint's root (``merkle.extended_root``): they are exactly
  those entries of the signed log. The two neighbours' times prove the day has no other.
- ``context.jsonl``: earlier entries the day's matches and events refer to (their
  commitments, seeds, receipts and earlier deals, their events' draw and table keys) and
  every earlier ``signing-key`` entry, one ``{"entry": ..., "proof": [hex, ...]}`` per line:
  each with its inclusion proof in the tree of ``n`` entries.
- ``records/<match id>.json``: each match of the day, every deal record the log holds of it
  up to the day's end, as one list (the verify pages' "all records" file).
- ``draws/<event>.json``: the ``trix-draw/1`` record of each event with an entry that day.

File names replace any character but ``A-Z a-z 0-9 . _ -`` by ``_``; a verifier reads the
records and draws by their contents, never by their names, and refuses a name given twice
or any other file. Standard library only.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from games.fairness import merkle
from games.fairness.canonical import canonical_bytes
from games.fairness.canonical import loads as strict_loads
from games.fairness.errors import FairnessError
from games.fairness.receipt import check_hex
from games.fairness.transparency import (
    admit,
    check_entry,
    entry_hash,
    entry_key,
    entry_leaf_hash,
    follow_key,
)

FORMAT = "trix-archive/1"
MANIFEST = "archive.json"
CHECKPOINT = "checkpoint"
KEYS = "keys.json"
LOG = "log.jsonl"
CONTEXT = "context.jsonl"
RECORDS = "records/"
DRAWS = "draws/"

#: The most an archive's files may hold once unpacked (bytes): a verifier refuses a bigger
#: one rather than fill the disk or memory (a day of 100,000 eight-deal matches is ~5 GB).
MAX_UNPACKED = 8 * 1024**3

#: The most a file may unpack to per byte packed (beyond its first MiB): the site's JSON
#: packs about tenfold; a file of blanks or zeros packs a thousandfold.
MAX_RATIO = 100

#: A zip entry's time: fixed, so one day's archive is the same bytes whenever it is built.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def file_name(subject: str) -> str:
    """``subject`` (a match id, an event) as a file name: every character outside
    ``A-Z a-z 0-9 . _ -`` replaced by ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", subject)


def day_bounds(day: str) -> tuple[str, str]:
    """The first ``logged_at`` of ``day`` (``YYYY-MM-DD``) and of the day after, as the log
    writes times (``YYYY-MM-DDTHH:MM:SSZ``, which sort as text). FairnessError for a
    malformed day."""
    if not isinstance(day, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", day):
        raise FairnessError(f"day: {day!r} is not a date YYYY-MM-DD")
    try:
        start = date.fromisoformat(day)
        after = start + timedelta(days=1)
    except (ValueError, OverflowError):
        raise FairnessError(f"day: {day!r} is not a date from 0001-01-01 to 9999-12-30") from None
    return f"{start.isoformat()}T00:00:00Z", f"{after.isoformat()}T00:00:00Z"


@dataclass
class Archive:
    """A read ``trix-archive/1``: the manifest's fields, the checkpoint's text, the keys
    document, the log's entries from ``first - 1``, the context entries with their proofs
    (``[(entry, [32-byte hash, ...])]``), and the records and draws by file name."""

    day: str
    first: int
    end: int
    size: int
    frontier: list[bytes]
    checkpoint: str
    keys: Any
    log: list[dict[str, Any]]
    context: list[tuple[dict[str, Any], list[bytes]]]
    records: dict[str, Any] = field(default_factory=dict)
    draws: dict[str, Any] = field(default_factory=dict)

    @property
    def start(self) -> int:
        """The index of ``log``'s first entry: the previous day's last, or 0."""
        return max(self.first - 1, 0)


def _lines(payload: Sequence[Any]) -> bytes:
    return b"".join(canonical_bytes(item) + b"\n" for item in payload)


def pack(
    *,
    day: str,
    first: int,
    end: int,
    frontier: Sequence[bytes],
    checkpoint: str,
    keys: Mapping[str, Any],
    log: Sequence[Mapping[str, Any]],
    context: Sequence[tuple[Mapping[str, Any], Sequence[bytes]]],
    records: Mapping[str, Sequence[Any]],
    draws: Mapping[str, Mapping[str, Any]],
) -> bytes:
    """The archive's zip bytes (deflated; the same inputs give the same bytes). ``log``:
    the entries from ``first - 1`` to the checkpoint's size - 1; ``records``: match id ->
    its records; ``draws``: event -> its draw record."""
    size = (log[-1]["index"] + 1) if log else max(first - 1, 0)
    manifest = {
        "format": FORMAT,
        "day": day,
        "first": first,
        "end": end,
        "size": size,
        "frontier": [h.hex() for h in frontier],
    }
    files = [
        (MANIFEST, json.dumps(manifest, indent=1).encode() + b"\n"),
        (CHECKPOINT, checkpoint.encode()),
        (KEYS, json.dumps(keys, indent=1).encode() + b"\n"),
        (LOG, _lines(log)),
        (CONTEXT, _lines([{"entry": e, "proof": [h.hex() for h in p]} for e, p in context])),
    ]
    files += [
        (f"{RECORDS}{file_name(m)}.json", canonical_bytes(list(r))) for m, r in records.items()
    ]
    files += [(f"{DRAWS}{file_name(e)}.json", canonical_bytes(dict(d))) for e, d in draws.items()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, data)
    return buffer.getvalue()


def _json(data: bytes, name: str) -> Any:
    try:
        return strict_loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError, FairnessError) as error:
        raise FairnessError(f"{name}: not JSON: {error}") from None


def _json_lines(data: bytes, name: str) -> list[Any]:
    if data and not data.endswith(b"\n"):
        raise FairnessError(f"{name}: its last line does not end")
    return [_json(line, f"{name} line {n}") for n, line in enumerate(data.splitlines(), 1)]


def _whole(value: Any, name: str) -> int:
    if type(value) is not int or value < 0:
        raise FairnessError(f"{MANIFEST}: {name} must be a whole number from 0")
    return value


def _hashes(values: Any, name: str) -> list[bytes]:
    if not isinstance(values, list):
        raise FairnessError(f"{name}: must be a list of hex hashes")
    return [bytes.fromhex(check_hex(value, name)) for value in values]


def _names(names: list[str]) -> None:
    """Refuse a name given twice (tools would show one copy, a verifier read another) and
    any file an archive does not hold."""
    seen = set()
    for name in names:
        if name in seen:
            raise FairnessError(f"{name}: in the archive twice")
        seen.add(name)
        known = name in (MANIFEST, CHECKPOINT, KEYS, LOG, CONTEXT) or (
            name.startswith((RECORDS, DRAWS)) and name.endswith(".json") and name.count("/") == 1
        )
        if not known:
            raise FairnessError(f"{name}: not a file of a {FORMAT} archive")


def _bounded(packed: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A file's bytes, read no further than its stated size: a zip whose header states a
    small size for a huge file is refused having unpacked that size and one byte more."""
    with packed.open(info) as handle:
        data = handle.read(info.file_size + 1)
    if len(data) > info.file_size:
        raise FairnessError(f"{info.filename}: unpacks to more than the size its header states")
    return data


def _unzipped(folder: str) -> dict[str, bytes]:
    """An unzipped archive's files, by their names in the zip."""
    names = []
    for root, _, found in os.walk(folder):
        for name in found:
            path = os.path.join(root, name)
            if os.path.islink(path) or not stat.S_ISREG(os.lstat(path).st_mode):
                raise FairnessError(f"{os.path.relpath(path, folder)}: not a plain file")
            names.append(os.path.relpath(path, folder).replace(os.sep, "/"))
    _names(sorted(names))
    if sum(os.path.getsize(os.path.join(folder, n)) for n in names) > MAX_UNPACKED:
        raise FairnessError(f"the archive unpacks to more than {MAX_UNPACKED} bytes")
    files = {}
    for name in names:
        with open(os.path.join(folder, name), "rb") as handle:
            files[name] = handle.read()
    return files


def read(source: Any) -> Archive:
    """Read an archive from a path (the zip, or the folder it was unzipped to) or a binary
    file. Raises FairnessError (not a zip, a name twice or unknown, a file missing or
    malformed, more than :data:`MAX_UNPACKED` bytes unpacked)."""
    if isinstance(source, str) and os.path.isdir(source):
        files = _unzipped(source)
    else:
        try:
            with zipfile.ZipFile(source) as packed:
                infos = [info for info in packed.infolist() if not info.is_dir()]
                _names([info.filename for info in infos])
                if sum(info.file_size for info in infos) > MAX_UNPACKED:
                    raise FairnessError(f"the archive unpacks to more than {MAX_UNPACKED} bytes")
                for info in infos:  # JSON packs some tenfold: far more is a bomb
                    if info.file_size > MAX_RATIO * info.compress_size + 2**20:
                        raise FairnessError(
                            f"{info.filename}: unpacks to {info.file_size} bytes from "
                            f"{info.compress_size}: not a file an archive holds"
                        )
                files = {info.filename: _bounded(packed, info) for info in infos}
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as error:
            raise FairnessError(f"not a readable {FORMAT} zip file: {error}") from None
        except zlib.error as error:
            raise FairnessError(f"not a readable {FORMAT} zip file: {error}") from None
    for name in (MANIFEST, CHECKPOINT, KEYS, LOG, CONTEXT):
        if name not in files:
            raise FairnessError(f"not a {FORMAT} archive: it has no {name}")
    manifest = _json(files[MANIFEST], MANIFEST)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise FairnessError(f"{MANIFEST}: not a {FORMAT} manifest")
    day = manifest.get("day")
    day_bounds(day)
    first, end, size = (_whole(manifest.get(k), k) for k in ("first", "end", "size"))
    if not (first <= end and size == end + 1):
        raise FairnessError(f"{MANIFEST}: first {first}, end {end} and size {size} disagree")
    try:
        checkpoint = files[CHECKPOINT].decode("utf-8")
    except UnicodeDecodeError:
        raise FairnessError(f"{CHECKPOINT}: not UTF-8 text") from None
    context = []
    for n, item in enumerate(_json_lines(files[CONTEXT], CONTEXT), 1):
        where = f"{CONTEXT} line {n}"
        if not isinstance(item, dict) or set(item) != {"entry", "proof"}:
            raise FairnessError(f'{where}: must be {{"entry", "proof"}}')
        context.append((check_entry(item["entry"], where), _hashes(item["proof"], where)))
    log = [check_entry(e, f"{LOG} line {n}") for n, e in enumerate(_json_lines(files[LOG], LOG), 1)]
    archive = Archive(
        day=day,
        first=first,
        end=end,
        size=size,
        frontier=_hashes(manifest.get("frontier"), f"{MANIFEST}: frontier"),
        checkpoint=checkpoint,
        keys=_json(files[KEYS], KEYS),
        log=log,
        context=context,
    )
    for name, data in sorted(files.items()):
        if name.startswith(RECORDS) and name.endswith(".json"):
            archive.records[name] = _json(data, name)
        elif name.startswith(DRAWS) and name.endswith(".json"):
            archive.draws[name] = _json(data, name)
    return archive


def proven_entries(archive: Archive, root: bytes) -> list[dict[str, Any]]:
    """Check that ``archive``'s entries are the log's, given the root of the checkpoint's
    tree (``root``, 32 bytes, from the signed checkpoint); return the entries checked on:
    the context's and the day's, in index order (the neighbours only bound the day).

    Refused with a FairnessError line: ``log.jsonl`` not the entries ``first - 1`` to
    ``size - 1`` in order, one whose ``prev`` is not the hash of the one before, the
    frontier and those entries not giving ``root`` (an entry changed, added, removed or
    moved), a context entry whose inclusion proof fails or that is not before the day's
    entries, a time going back, the day's neighbours logged on the day itself (the archive
    left out some of its entries) or a day's entry outside it, or an entry the log would
    not admit after the ones proven before it (``transparency.admit``: e.g. a receipt whose
    commitment the archive lacks)."""
    start, begin, after = archive.start, *day_bounds(archive.day)
    if [e["index"] for e in archive.log] != list(range(start, archive.size)):
        raise FairnessError(
            f"{LOG}: must hold the entries {start} to {archive.size - 1}, each once, in order"
        )
    for before, entry in zip(archive.log, archive.log[1:], strict=False):
        if entry["prev"] != entry_hash(before):
            raise FairnessError(
                f"{LOG}: entry {entry['index']}: prev is not the hash of the one before"
            )
        if entry["logged_at"] < before["logged_at"]:
            raise FairnessError(f"{LOG}: entry {entry['index']} is logged before the one before it")
    leaves = [entry_leaf_hash(e) for e in archive.log]
    try:
        rebuilt = merkle.extended_root(archive.frontier, start, leaves)
    except merkle.MerkleError as error:
        raise FairnessError(f"{MANIFEST}: frontier: {error}") from None
    if rebuilt != root:
        raise FairnessError(
            f"{LOG}: the frontier and the entries {start} to {archive.size - 1} do not give the "
            "checkpoint's root: an entry was changed, added, removed or moved"
        )
    for entry in archive.log:
        inside = archive.first <= entry["index"] < archive.end
        if inside and not begin <= entry["logged_at"] < after:
            raise FairnessError(
                f"{LOG}: entry {entry['index']} was logged at {entry['logged_at']}, not on "
                f"{archive.day}"
            )
        if entry["index"] == archive.first - 1 and entry["logged_at"] >= begin:
            raise FairnessError(
                f"{LOG}: entry {entry['index']}, before the day's first, was logged on "
                f"{archive.day} too: the day starts earlier than the archive says"
            )
        if entry["index"] == archive.end and entry["logged_at"] < after:
            raise FairnessError(
                f"{LOG}: entry {entry['index']}, after the day's last, was logged on "
                f"{archive.day} too: the day ends later than the archive says"
            )
    context = []
    for entry, proof in archive.context:
        where = f"{CONTEXT}: entry {entry['index']}"
        if entry["index"] >= archive.first:
            raise FairnessError(f"{where}: not before the day's entries")
        try:
            merkle.verify_inclusion(
                entry_leaf_hash(entry), entry["index"], archive.size, proof, root
            )
        except merkle.MerkleError as error:
            raise FairnessError(f"{where}: {error}") from None
        context.append(entry)
    proven = sorted(context, key=lambda e: e["index"]) + [
        e for e in archive.log if archive.first <= e["index"] < archive.end
    ]
    _admitted(proven)
    return proven


def _admitted(entries: list[dict[str, Any]]) -> None:
    """Each entry, in index order, one the log admits after those before it
    (``transparency.admit``) and the signing keys one chain; FairnessError otherwise."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    signing_key = None
    last = -1
    for entry in entries:
        if entry["index"] <= last:
            raise FairnessError(f"entry {entry['index']} is in the archive twice")
        last = entry["index"]
        admit(entry, lambda kind, key: seen.get((kind, key)))
        if entry["kind"] == "signing-key":
            signing_key = follow_key(entry, signing_key)
        seen[(entry["kind"], entry_key(entry["kind"], entry["body"]))] = entry
