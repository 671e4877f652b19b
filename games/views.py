"""Public verification pages (no login): a deal's and a match's shuffle checks; the site's
public key and the transparency log, under ``/fairness/`` (``docs/fairness.md``)."""

from __future__ import annotations

import json
from functools import wraps
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured, RequestDataTooBig
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import condition, require_POST, require_safe

from games import display, fairness, fairness_archive, fairness_selectors, signing
from games.api.throttles import ArchiveThrottle, CosignatureThrottle, refusal
from games.errors import NotFound, TableError, Unavailable
from games.fairness import transparency
from games.fairness.canonical import canonical_bytes
from games.models import LogKey
from games.services import fairness_log, log_tree, witnesses
from trix_site.errors import error_response

#: The standalone verifier (one Python 3 file, the standard library only; docs/fairness.md).
STANDALONE = Path(fairness.__file__).with_name("verify_standalone.py")

#: Seconds a cache may keep the log and its head (they only grow), the site's keys (a
#: rotation changes the key in use: soon seen everywhere) and the standalone verifier.
LOG_MAX_AGE = 10
KEYS_MAX_AGE = 60
KEY_MAX_AGE = 3600


def read_only(view):
    """A public read (the fairness files): GET and HEAD (the headers alone), any other
    method 405 with ``Allow: GET, HEAD``, with or without a CSRF token (nothing here writes,
    so Django's CSRF page would only hide the 405)."""
    return csrf_exempt(require_safe(view))


def signed(view):
    """A view that signs with the site's key: when no key may sign (the log's key is not in
    this process's environment, ``games.signing.current``), 503 ``{"error", "code":
    "signing_unavailable"}`` rather than a signature by a retired key or a 500."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except Unavailable as exc:
            message = _(
                "The site cannot sign its log right now: this server does not have the "
                "site's signing key. Try again later."
            )
            response = error_response(message, exc.code, exc.status)
            response["Retry-After"] = str(exc.retry_after)
            return response

    return wrapper


def verify_deal(request, deal_id: int):
    try:
        check = fairness_selectors.deal_verification(deal_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    context = {
        "check": check,
        "hands": display.seat_hands(check.get("hands")),
        "seeds": display.seat_seeds(check.get("client_seeds")),
    }
    return render(request, "games/verify_deal.html", context)


def verify_match(request, table_id: int):
    try:
        check = fairness_selectors.match_verification(table_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    receipt_rows = [  # each field of the receipt, objects as compact JSON
        (field, value if isinstance(value, str | int) else json.dumps(value, sort_keys=True))
        for field, value in (check["receipt"] or {}).items()
    ]
    context = {"check": check, "receipt_rows": receipt_rows}
    return render(request, "games/verify_match.html", context)


@read_only
def verify_match_records(request, table_id: int):
    """``GET /verify/matches/<id>/records.json``: the match's finished deals' records as
    one JSON list (what ``trix verify FILE`` checks as a whole match), downloaded."""
    try:
        records = fairness_selectors.match_records(table_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    response = JsonResponse(records, safe=False, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="table-{table_id}-records.json"'
    return response


def _after(request) -> int | None:
    """``?after=i`` (a whole number from -1; -1 = the whole log), or None when malformed."""
    text = request.GET.get("after", "-1")
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(text) > 20 or int(text) < -1:
        return None
    return int(text)


def _log_etag(request) -> str:
    size, head = fairness_log.head_hash()
    return f"{head}-{size}-{_after(request)}"  # parsed: a raw value may break the header


@read_only
@signed
def public_key(request):
    """``GET /fairness/public-key.json``: ``{"algorithm": "ed25519", "public_key": 64 hex,
    "key_id": 16 hex}``, the key receipts, log heads and checkpoints are signed with now."""
    response = JsonResponse(signing.public_key())
    patch_cache_control(response, public=True, max_age=KEYS_MAX_AGE)
    return response


@read_only
@signed
def signing_keys(request):
    """``GET /fairness/keys.json``: ``{"format": "trix-keys/1", "keys": [...]}``, every key
    the site has signed with, each with its statement's signatures, its log index and its
    period (``games.fairness.signing_keys``, docs/fairness.md)."""
    response = JsonResponse(fairness_selectors.signing_keys())
    patch_cache_control(response, public=True, max_age=KEYS_MAX_AGE)
    return response


@read_only
def standalone_verifier(request):
    """``GET /fairness/verify_standalone.py``: the standalone verifier the verify pages offer
    (``games/fairness/verify_standalone.py``), downloaded as ``verify_standalone.py``."""
    response = HttpResponse(STANDALONE.read_bytes(), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="verify_standalone.py"'
    patch_cache_control(response, public=True, max_age=KEY_MAX_AGE)
    return response


@read_only
@condition(etag_func=lambda request: _log_etag(request))
@signed
def log_head(request):
    """``GET /fairness/log-head.json``: the signed head ``{"format": "trix-log-head/1",
    "size", "head", "signature"}``."""
    response = JsonResponse(fairness_log.head())
    patch_cache_control(response, public=True, max_age=LOG_MAX_AGE)
    return response


@read_only
@condition(etag_func=lambda request: _log_etag(request))
def log_lines(request):
    """``GET /fairness/log.jsonl[?after=i]``: the log's entries after index ``i`` (all by
    default) as JSON lines, each line the entry's canonical JSON (so its SHA-256 is the
    entry's hash), streamed; up to the head committed when the request began (its size in
    the ``X-Log-Size`` header; a HEAD request reads no entry). A malformed ``after`` is 400
    with a one-line message."""
    after = _after(request)
    if after is None:
        return _plain_error(
            "after must be a whole number from -1 (the index of the last entry you have)"
        )
    size, _ = fairness_log.head_hash()
    content_type = "application/jsonl; charset=utf-8"
    if request.method == "HEAD":
        response = HttpResponse(content_type=content_type)
    else:
        lines = (canonical_bytes(e) + b"\n" for e in fairness_log.entries(after, size))
        response = StreamingHttpResponse(lines, content_type=content_type)
    response["X-Log-Size"] = str(size)
    patch_cache_control(response, public=True, max_age=LOG_MAX_AGE)
    return response


def _plain_error(message: str, status: int = 400) -> HttpResponse:
    return HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")


def _sizes(request, *names: str) -> list[int] | str:
    """The whole-number query parameters ``names``, or the one-line message of the first
    missing or malformed one."""
    values = []
    for name in names:
        text = request.GET.get(name, "")
        if not (text.isascii() and text.isdigit()) or len(text) > 19:  # 0-9 only: "²" is a digit
            return f"{name} must be a whole number from 0"
        values.append(int(text))
    return values


ARCHIVE_MAX_AGE = 3600
"""Seconds a day's archive may be cached: its entries never change; only its checkpoint's
signature would after a key rotation."""


@read_only
@signed
def daily_archive(request, day: str):
    """``GET /fairness/archive/YYYY-MM-DD.zip``: a finished UTC day's auditor archive
    (``trix-archive/1``, ``games.fairness_archive``), which ``trix verify`` checks in one
    command. 404 (text) for a day not over yet, or with no entry logged after it yet; 429
    ``throttled`` with ``Retry-After`` above ``TRIX_ARCHIVE_RATE`` builds per address."""
    try:
        fairness_archive.finished_day(day)
    except NotFound as exc:
        return _plain_error(str(exc), status=404)
    if refused := refusal(request, ArchiveThrottle()):
        return refused
    try:
        data = fairness_archive.daily_archive(day)
    except NotFound as exc:
        return _plain_error(str(exc), status=404)
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="trix-archive-{day}.zip"'
    patch_cache_control(response, public=True, max_age=ARCHIVE_MAX_AGE)
    return response


@read_only
@signed
def log_checkpoint(request):
    """``GET /fairness/checkpoint``: the log's signed checkpoint now (C2SP
    ``tlog-checkpoint``, a signed note: origin, size, base64 root hash, ``time ... key-id
    ...``, a blank line, the site's signature line), as text."""
    response = HttpResponse(log_tree.checkpoint(), content_type="text/plain; charset=utf-8")
    patch_cache_control(response, public=True, max_age=LOG_MAX_AGE)
    return response


@read_only
def cosigned_checkpoint(request):
    """``GET /fairness/checkpoint/cosigned``: the checkpoint the most of the site's witnesses
    cosigned, with the site's line and theirs (``games.services.witnesses``), as text; 404
    before any cosignature."""
    try:
        note = witnesses.cosigned_checkpoint()
    except ImproperlyConfigured:  # the system check names the setting; the public, nothing
        return _plain_error("the site's witnesses cannot be read now", status=503)
    if note is None:
        return _plain_error("no witness has cosigned a checkpoint of this log yet", status=404)
    response = HttpResponse(note, content_type="text/plain; charset=utf-8")
    patch_cache_control(response, public=True, max_age=LOG_MAX_AGE)
    return response


@csrf_exempt
@require_POST
@signed
def log_cosignatures(request):
    """``POST /fairness/cosignatures``: a witness submits a checkpoint it cosigned (the body,
    text: ``/fairness/checkpoint`` as served, its own line added; ``trix witness --submit``).
    200 ``{"size", "witnesses": [name, ...]}`` kept; 413 ``too_large`` over
    ``witnesses.MAX_NOTE`` bytes; 400 not a signed checkpoint, 403
    ``unknown_witness``, 409 ``stale_checkpoint`` (``witnesses.record_cosignatures``). The
    signatures are the authentication: no login, no CSRF token. 429 ``throttled`` with
    ``Retry-After`` above ``TRIX_COSIGNATURE_RATE`` submissions per address."""
    if refused := refusal(request, CosignatureThrottle()):
        return refused
    try:
        body = request.body
    except RequestDataTooBig:  # over Django's DATA_UPLOAD_MAX_MEMORY_SIZE
        body = None
    if body is None or len(body) > witnesses.MAX_NOTE:
        return error_response(
            _("a cosigned checkpoint is a text of at most 16 KiB"), "too_large", 413
        )
    try:
        note = body.decode("utf-8")
    except UnicodeDecodeError:
        return error_response(_("the body is not UTF-8 text"), "malformed", 400)
    try:
        size, names = witnesses.record_cosignatures(note=note)
    except TableError as exc:
        return error_response(str(exc), exc.code, exc.status)
    except ImproperlyConfigured:
        return error_response(_("the site's witnesses cannot be read now"), "unavailable", 503)
    return JsonResponse({"size": size, "witnesses": names})


@read_only
def log_inclusion(request):
    """``GET /fairness/proof/inclusion?index=i&size=n``: ``{"format": "trix-inclusion/1",
    "index", "size", "entry", "proof": [hex, ...]}``, the entry at ``index`` and the RFC 9162
    inclusion proof of its leaf in the tree of the log's first ``size`` entries. 400 for a
    malformed or impossible pair (``index < size <=`` the log's size).

    ``?kind=K&subject=S&size=n`` names the entry by what it is about instead
    (``transparency.entry_key``: e.g. ``kind=deal-record&subject=table-12/3``, the log admits
    one per kind and subject), so a browser finds its deal's entry without the whole log;
    404 when the log holds none."""
    kind = request.GET.get("kind")
    if kind is not None:
        subject = request.GET.get("subject", "")
        if kind not in transparency.KINDS:
            return _plain_error(f"kind must be one of {', '.join(sorted(transparency.KINDS))}")
        if not (subject.isprintable() and 0 < len(subject) <= LogKey.SUBJECT_LENGTH):
            return _plain_error("subject must be 1 to 160 printable characters")
        values = _sizes(request, "size")
        if isinstance(values, str):
            return _plain_error(values)
        index = fairness_log.entry_index(kind, subject)
        if index is None:
            return _plain_error(f"the log holds no {kind} entry of that subject", status=404)
        if index >= values[0]:
            return _plain_error(f"that entry is not in the tree of the first {values[0]} entries")
        values = [index, values[0]]
    else:
        values = _sizes(request, "index", "size")
        if isinstance(values, str):
            return _plain_error(values)
    index, size = values
    if not index < size <= log_tree.size():
        return _plain_error("give index < size <= the log's size (see /fairness/checkpoint)")
    entry = next(fairness_log.entries(index - 1, index + 1))
    body = {
        "format": "trix-inclusion/1",
        "index": index,
        "size": size,
        "entry": entry,
        "proof": [h.hex() for h in log_tree.inclusion_proof(index, size)],
    }
    response = JsonResponse(body)
    patch_cache_control(response, public=True, max_age=KEY_MAX_AGE)
    return response


@read_only
def log_consistency(request):
    """``GET /fairness/proof/consistency?first=m&second=n``: ``{"format":
    "trix-consistency/1", "first", "second", "proof": [hex, ...]}``, the RFC 9162 proof that
    the tree of the first ``m`` entries is the start of the tree of the first ``n``. 400 for a
    malformed or impossible pair (``m <= n <=`` the log's size)."""
    values = _sizes(request, "first", "second")
    if isinstance(values, str):
        return _plain_error(values)
    first, second = values
    if not first <= second <= log_tree.size():
        return _plain_error("give first <= second <= the log's size (see /fairness/checkpoint)")
    body = {
        "format": "trix-consistency/1",
        "first": first,
        "second": second,
        "proof": [h.hex() for h in log_tree.consistency_proof(first, second)],
    }
    response = JsonResponse(body)
    patch_cache_control(response, public=True, max_age=KEY_MAX_AGE)
    return response
