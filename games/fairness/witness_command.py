"""``trix witness``: one witness step against a site's log (``games.fairness.witness``).

Fetches ``<site>/fairness/checkpoint`` and, when the tree grew, the consistency proof from
the size this witness last cosigned (``/fairness/proof/consistency``); cosigns the
checkpoint if it extends that tree, keeps the new size and root in its state file, and
prints the cosigned checkpoint (the site's note with the witness's line added), and with
``--submit`` posts it to the site's ``/fairness/cosignatures``. A fork or a
checkpoint not signed by the pinned key is one line on standard error, exit 1, the state
unchanged. The first run pins the log's key (``--log-key``) and origin in a new state file.
``--new-key FILE`` makes a witness key (mode 0600, never over a file). No Django; the
network only to the site given.
"""

from __future__ import annotations

import json
import os
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import TextIO

from games.fairness import merkle
from games.fairness.errors import FairnessError
from games.fairness.receipt import check_hex, load_private_key, load_public_key, public_key_hex
from games.fairness.witness import WitnessState, witness_checkpoint

TIMEOUT = 30  # seconds a request to the site may take


def fetch_text(url: str) -> str:
    """The body of ``url`` (GET) as text; FairnessError naming the URL on any failure."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:  # http(s): witness_cli
            return answer.read().decode("utf-8")
    except (urllib.error.URLError, OSError, UnicodeDecodeError) as error:
        raise FairnessError(f"cannot fetch {url}: {error}") from None


def post_text(url: str, text: str) -> dict:
    """POST ``text`` (UTF-8, text/plain) to ``url``: the JSON answer; FairnessError with the
    site's error (or the failure) otherwise."""
    request = urllib.request.Request(
        url, data=text.encode(), method="POST", headers={"Content-Type": "text/plain"}
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:  # http(s): witness_cli
            return json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        try:
            said = json.loads(error.read().decode("utf-8")).get("error")
        except (ValueError, AttributeError, UnicodeDecodeError):
            said = None
        raise FairnessError(f"{url}: {error.code} {said or error.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise FairnessError(f"cannot post to {url}: {error}") from None


def _new_key(path: str, out: TextIO) -> int:
    key = load_private_key(secrets.token_bytes(32).hex())
    secret = key.private_bytes_raw().hex()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(secret + "\n")
    print(f"public key: {public_key_hex(key)}", file=out)
    return 0


def _state(path: str, log_key: str | None, first_note: str, err: TextIO) -> WitnessState:
    """The witness's state: its file (``log_key`` given: that key pinned again by hand, after
    a rotation the witness's operator checked, its tree kept), or a new one pinning
    ``log_key`` and the origin of the log's first checkpoint it sees."""
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as handle:
                state = WitnessState.loads(handle.read())
        except (UnicodeDecodeError, ValueError) as error:
            raise FairnessError(f"--state: {path} is not a witness state: {error}") from None
        if log_key is not None and _key_hex(log_key) != state.log_key:
            again = _key_hex(log_key)
            print(
                f"note: the log's key pinned again: {state.log_key[:16]}... -> {again[:16]}...",
                file=err,
            )
            state = WitnessState(state.origin, again, state.size, state.root)
        return state
    if log_key is None:
        raise FairnessError("--log-key: the first run pins the log's public key: give it")
    try:
        origin = merkle.parse_checkpoint(merkle.parse_signed_note(first_note)[0]).origin
    except merkle.MerkleError as error:
        raise FairnessError(f"not a checkpoint: {error}") from None
    return WitnessState(origin=origin, log_key=_key_hex(log_key))


def _key_hex(text: str) -> str:
    """64 hex digits of a public key given as hex, PEM or a saved public-key.json."""
    if os.path.isfile(text):
        with open(text, encoding="utf-8") as handle:
            text = handle.read()
        try:
            served = json.loads(text)
            text = served["public_key"] if isinstance(served, dict) else text
        except (ValueError, KeyError):
            pass
    return public_key_hex(load_public_key(text))


def witness_cli(
    *,
    site: str | None,
    name: str | None,
    key: str | None,
    state: str | None,
    log_key: str | None,
    new_key: str | None,
    out: TextIO,
    err: TextIO,
    submit: bool = False,
    fetch: Callable[[str], str] = fetch_text,
    now: Callable[[], float] = time.time,
) -> int:
    """One witness step (module docstring): 0 and the cosigned checkpoint on ``out``; 1 and
    one line on ``err`` for a refusal (a fork, another key), a site it cannot reach, or a key,
    ``--log-key`` or state it cannot read or write; 2 for missing or malformed options.
    ``submit``: also POST the cosigned checkpoint to the site's ``/fairness/cosignatures``
    (a note on ``err``; 1 if the site refuses it, the state kept all the same: the witness
    did see that tree)."""
    if new_key is not None:
        try:
            return _new_key(new_key, out)
        except FileExistsError:
            print(f"--new-key: {new_key} exists: a witness key is never overwritten", file=err)
            return 2
    if not (site and name and key and state):
        print("give --site URL --name NAME --key FILE --state FILE", file=err)
        return 2
    if " " in name or "+" in name or not name.isprintable():
        print("--name: a key name has no space or '+' (e.g. witness.example.org/w1)", file=err)
        return 2
    if not site.startswith(("http://", "https://")):
        print("--site: an http:// or https:// address", file=err)
        return 2
    base = site.rstrip("/")
    try:
        with open(key, encoding="utf-8") as handle:
            private = load_private_key(handle.read())
        note = fetch(base + "/fairness/checkpoint")
        current = _state(state, log_key, note, err)
    except (OSError, FairnessError) as error:
        print(str(error), file=err)
        return 1

    def consistency(first: int, second: int) -> list[bytes]:
        url = f"{base}/fairness/proof/consistency?first={first}&second={second}"
        answer = json.loads(fetch(url))
        if not isinstance(answer, dict) or not isinstance(answer.get("proof"), list):
            raise FairnessError(f"{url}: not a trix-consistency/1 answer")
        return [bytes.fromhex(check_hex(h, "consistency proof")) for h in answer["proof"]]

    try:
        moved, line = witness_checkpoint(
            current, note, consistency, name=name, key=private, timestamp=int(now())
        )
    except (FairnessError, ValueError) as error:
        print(str(error), file=err)
        return 1
    temporary = f"{state}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(moved.dumps())
        os.replace(temporary, state)  # the new state at once, or the old one: never half
    except OSError as error:
        print(f"--state: cannot keep this witness's state: {error}", file=err)
        return 1
    out.write(note + line)
    if not submit:
        return 0
    try:
        kept = post_text(base + "/fairness/cosignatures", note + line)
    except FairnessError as error:
        print(f"cosigned, but not kept by the site: {error}", file=err)
        return 1
    print(f"note: the site keeps this cosignature of size {kept.get('size')}", file=err)
    return 0
