"""Public verification pages (no login): a deal's and a match's shuffle checks; the site's
public key and the transparency log, under ``/fairness/`` (``docs/fairness.md``)."""

from __future__ import annotations

import json
from pathlib import Path

from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition, require_GET

from games import display, fairness, selectors, signing
from games.errors import NotFound
from games.fairness.canonical import canonical_bytes
from games.services import fairness_log

#: The standalone verifier (one Python 3 file, the standard library only; docs/fairness.md).
STANDALONE = Path(fairness.__file__).with_name("verify_standalone.py")

#: Seconds a cache may keep the log and its head (they only grow), and the public key.
LOG_MAX_AGE = 10
KEY_MAX_AGE = 3600


def verify_deal(request, deal_id: int):
    try:
        check = selectors.deal_verification(deal_id)
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
        check = selectors.match_verification(table_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    receipt_rows = [  # each field of the receipt, objects as compact JSON
        (field, value if isinstance(value, str | int) else json.dumps(value, sort_keys=True))
        for field, value in (check["receipt"] or {}).items()
    ]
    context = {
        "check": check,
        "receipt_rows": receipt_rows,
        "public_key": signing.public_key()["public_key"],  # 64 hex, for the command line
    }
    return render(request, "games/verify_match.html", context)


@require_GET
def verify_match_records(request, table_id: int):
    """``GET /verify/matches/<id>/records.json``: the match's finished deals' records as
    one JSON list (what ``trix verify FILE`` checks as a whole match), downloaded."""
    try:
        records = selectors.match_records(table_id)
    except NotFound as exc:
        raise Http404(str(exc)) from None
    response = JsonResponse(records, safe=False, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="table-{table_id}-records.json"'
    return response


def _after(request) -> int | None:
    """``?after=i`` (a whole number from -1; -1 = the whole log), or None when malformed."""
    text = request.GET.get("after", "-1")
    if not text.lstrip("-").isdigit() or len(text) > 20 or int(text) < -1:
        return None
    return int(text)


def _log_etag(request) -> str:
    size, head = fairness_log.head_hash()
    return f"{head}-{size}-{request.GET.get('after', '-1')[:20]}"


@require_GET
def public_key(request):
    """``GET /fairness/public-key.json``: ``{"algorithm": "ed25519", "public_key": 64 hex,
    "key_id": 16 hex}``, the key receipts and log heads are signed with."""
    response = JsonResponse(signing.public_key())
    patch_cache_control(response, public=True, max_age=KEY_MAX_AGE)
    return response


@require_GET
def standalone_verifier(request):
    """``GET /fairness/verify_standalone.py``: the standalone verifier the verify pages offer
    (``games/fairness/verify_standalone.py``), downloaded as ``verify_standalone.py``."""
    response = HttpResponse(STANDALONE.read_bytes(), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="verify_standalone.py"'
    patch_cache_control(response, public=True, max_age=KEY_MAX_AGE)
    return response


@require_GET
@condition(etag_func=lambda request: _log_etag(request))
def log_head(request):
    """``GET /fairness/log-head.json``: the signed head ``{"format": "trix-log-head/1",
    "size", "head", "signature"}``."""
    response = JsonResponse(fairness_log.head())
    patch_cache_control(response, public=True, max_age=LOG_MAX_AGE)
    return response


@require_GET
@condition(etag_func=lambda request: _log_etag(request))
def log_lines(request):
    """``GET /fairness/log.jsonl[?after=i]``: the log's entries after index ``i`` (all by
    default) as JSON lines, each line the entry's canonical JSON (so its SHA-256 is the
    entry's hash), streamed; up to the head committed when the request began (its size in
    the ``X-Log-Size`` header). A malformed ``after`` is 400 with a one-line message."""
    after = _after(request)
    if after is None:
        return HttpResponse(
            "after must be a whole number from -1 (the index of the last entry you have)\n",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    size, _ = fairness_log.head_hash()
    lines = (canonical_bytes(e) + b"\n" for e in fairness_log.entries(after, size))
    response = StreamingHttpResponse(lines, content_type="application/jsonl; charset=utf-8")
    response["X-Log-Size"] = str(size)
    patch_cache_control(response, public=True, max_age=LOG_MAX_AGE)
    return response
