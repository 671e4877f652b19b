"""The log's witnesses as the site sees them (docs/fairness.md section 9c): the cosignatures
they submit, checked and kept (:func:`record_cosignatures`), and the checkpoint the site
publishes with them (:func:`cosigned_checkpoint`). The witnesses whose cosignatures count
are the setting ``TRIX_LOG_WITNESSES`` (``"<key name>=<64 hex public key>"`` each); the
format is ``games.fairness.witness``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from games.errors import BadRequest, Conflict, NotAllowed
from games.fairness import merkle
from games.fairness.errors import FairnessError
from games.fairness.receipt import load_public_key
from games.fairness.witness import cosignature_time
from games.models import LogCosignature
from games.services import log_tree

MAX_NOTE = 16_384  # characters of a submitted cosigned checkpoint: a note with many lines


def witnesses() -> dict[str, str]:
    """``{key name: 64 hex public key}`` of ``TRIX_LOG_WITNESSES``; ImproperlyConfigured for
    an entry that is not ``name=key``."""
    from django.core.exceptions import ImproperlyConfigured

    out = {}
    for item in settings.TRIX_LOG_WITNESSES:
        name, sep, key = item.partition("=")
        try:
            load_public_key(key)
        except (FairnessError, ValueError):
            sep = ""
        if not sep or not name or " " in name or "+" in name:
            raise ImproperlyConfigured(
                f"TRIX_LOG_WITNESSES: {item!r} is not '<key name>=<64 hex public key>'"
            )
        out[name] = key.strip().lower()
    return out


def record_cosignatures(*, note: str) -> tuple[int, list[str]]:
    """Keep each configured witness's valid cosignature of ``note``, a checkpoint of this
    log with its site's signature line as ``/fairness/checkpoint`` served it and the
    witnesses' lines added. Returns its size and the witnesses' names, sorted. Raises
    BadRequest (``invalid``) for a note that is not a signed checkpoint, Conflict
    (``stale_checkpoint``) for one the site would not sign now (another size's root, or
    signed by a retired key: fetch the checkpoint again), NotAllowed (``unknown_witness``)
    when no line is a valid cosignature by a configured witness. Nothing is kept on a
    refusal."""
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise BadRequest(_("a cosigned checkpoint is a text of at most 16 KiB"))
    try:
        text, lines = merkle.parse_signed_note(note)
        size = merkle.parse_checkpoint(text).size
    except merkle.MerkleError as error:
        raise BadRequest(_("not a signed checkpoint: %(error)s") % {"error": error}) from None
    if size > log_tree.size():
        raise Conflict(_("a checkpoint larger than the log"), "stale_checkpoint")
    ours = log_tree.checkpoint(size)
    if not note.startswith(ours):
        raise Conflict(
            _("not the checkpoint this site signs for that size now: fetch it again"),
            "stale_checkpoint",
        )
    kept = []
    with transaction.atomic():
        for name, key in witnesses().items():
            found = [
                (at, line)
                for line in (merkle.signature_line(n, h, sig) for n, h, sig in lines if n == name)
                if (at := cosignature_time(ours + line, name=name, public_key=key)) is not None
            ]
            if not found:
                continue
            at, line = max(found)
            row, made = LogCosignature.objects.select_for_update().get_or_create(
                witness=name, size=size, defaults={"note": ours, "line": line, "cosigned_at": at}
            )
            if not made and at >= row.cosigned_at:
                row.note, row.line, row.cosigned_at = ours, line, at
                row.save()
            kept.append(name)
    if not kept:
        raise NotAllowed(
            _("no line of this checkpoint is a valid cosignature by one of the site's witnesses"),
            "unknown_witness",
        )
    return size, sorted(kept)


def cosigned_checkpoint() -> str | None:
    """The checkpoint the most witnesses cosigned (the largest such size on a tie), with the
    site's line and each of their lines still valid under the witness's key now, or None
    before any. Only cosignatures of the checkpoint's very text count (a size signed again by
    a newer key is another text)."""
    keys = witnesses()
    names = set(keys)
    best = (
        LogCosignature.objects.filter(witness__in=names)
        .values("size", "note")
        .annotate(n=Count("id"))
        .order_by("-n", "-size")
        .first()
    )
    if best is None:
        return None
    rows = LogCosignature.objects.filter(
        witness__in=names, size=best["size"], note=best["note"]
    ).order_by("witness")
    lines = [  # by the witness's key now: one whose key changed is not its old lines
        row.line
        for row in rows
        if cosignature_time(row.note + row.line, name=row.witness, public_key=keys[row.witness])
        is not None
    ]
    return best["note"] + "".join(lines) if lines else None
