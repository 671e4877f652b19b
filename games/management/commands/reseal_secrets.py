"""``python manage.py reseal_secrets``: after a rotation of ``TRIX_SEED_KEY`` (the old key in
``TRIX_SEED_OLD_KEYS``), seal every stored secret anew under the current key: every match's
shuffle secret here, every tournament's draw secret by the tournaments app's receiver of
:data:`games.signals.reseal_requested` (games never imports tournaments). Then the old key
may be dropped. Each row is resealed in its own short transaction, with the row locked."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import sealing, shuffles
from games.models import MatchRecord
from games.signals import reseal_requested


class Command(BaseCommand):
    help = "Seal every stored secret anew under the current TRIX_SEED_KEY (after a rotation)."

    def handle(self, *args, **options):
        count = 0
        try:
            for pk in MatchRecord.objects.values_list("pk", flat=True).iterator():
                with transaction.atomic():
                    record = MatchRecord.objects.select_for_update().get(pk=pk)
                    if not sealing.needs_resealing(record.shuffle["chain"]["sealed"]):
                        continue
                    record.shuffle = shuffles.reseal(record.shuffle)
                    record.save(update_fields=["shuffle"])
                    count += 1
            for _, others in reseal_requested.send(sender=self.__class__):
                count += others
        except sealing.SealError as exc:
            raise CommandError(f"reseal_secrets: {exc}") from None
        self.stdout.write(f"reseal_secrets: {count} secret(s) sealed anew")
