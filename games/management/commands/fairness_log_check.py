"""``python manage.py fairness_log_check``: verify the whole transparency log (every entry's
shape, index, ``prev`` link and stored hash, ``games.fairness.transparency.verify_log``) and
print its head; exit 1 naming each problem if it is not whole."""

from django.core.management.base import BaseCommand, CommandError

from games.services import fairness_log


class Command(BaseCommand):
    help = "Verify the transparency log's hash chain from entry 0 and print its signed head."

    def handle(self, *args, **options):
        problems = fairness_log.check()
        for problem in problems:
            self.stdout.write(self.style.ERROR(f"FAIL {problem}"))
        if problems:
            raise CommandError(f"fairness_log_check: {len(problems)} problem(s) in the log")
        head = fairness_log.head()
        if options["verbosity"] >= 1:
            self.stdout.write(
                self.style.SUCCESS(
                    f"fairness_log_check: {head['size']} entries, head {head['head']}"
                )
            )
