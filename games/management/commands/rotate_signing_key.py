"""``python manage.py rotate_signing_key``: rotate the site's Ed25519 signing key
(docs/operations.md, "Rotating the signing key"; ``games.services.signing_keys``).

1. ``rotate_signing_key --generate FILE`` writes a new private key to ``FILE`` (mode 0600,
   never over an existing file) and prints its id; nothing else changes.
2. Give every process that key as ``TRIX_SIGNING_NEW_KEY`` and restart them: they go on
   signing with the key the log names.
3. ``rotate_signing_key`` logs the new key, endorsed by the key in use; every process signs
   with it from then on. Later, move it to ``TRIX_SIGNING_KEY`` and unset the other.

``rotate_signing_key --log-current`` logs the key in use as the log's first key without
rotating (a site that has never rotated, to give its key a period in the log)."""

import os

from django.core.management.base import BaseCommand, CommandError

from games.fairness import receipt as receipts
from games.fairness.errors import FairnessError
from games.services import signing_keys


class Command(BaseCommand):
    help = "Rotate the site's signing key: log TRIX_SIGNING_NEW_KEY, endorsed by the key in use."

    def add_arguments(self, parser):
        steps = parser.add_mutually_exclusive_group()
        steps.add_argument("--generate", metavar="FILE", help="write a new private key to FILE")
        steps.add_argument(
            "--log-current", action="store_true", help="log the key in use as the first key"
        )

    def handle(self, *args, generate=None, log_current=False, **options):
        if generate is not None:
            self._generate(generate)
            return
        try:
            bodies = [signing_keys.log_current()] if log_current else signing_keys.rotate()
        except FairnessError as exc:
            raise CommandError(f"rotate_signing_key: {exc}") from None
        for body in bodies:
            after = f", endorsed by key {body['previous']}" if body["previous"] else ""
            self.stdout.write(f"rotate_signing_key: logged key {body['key_id']}{after}")
        self.stdout.write(
            f"rotate_signing_key: the site signs with key {bodies[-1]['key_id']} from now on"
        )

    def _generate(self, path: str) -> None:
        if not path.strip():
            raise CommandError("rotate_signing_key: --generate needs a file name")
        key = receipts.new_private_key()
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            raise CommandError(f"rotate_signing_key: cannot write {path}: {exc.strerror}") from None
        with os.fdopen(descriptor, "w") as out:
            out.write(receipts.private_key_text(key) + "\n")
        self.stdout.write(
            f"rotate_signing_key: wrote key {receipts.key_id(key)} to {path}. Set "
            "TRIX_SIGNING_NEW_KEY to its contents on every process, restart them, then run "
            "`manage.py rotate_signing_key`."
        )
