"""``python manage.py ledger_check``: verify every ledger invariant; exit 1 if any fails."""

from django.core.management.base import BaseCommand, CommandError

from wallet.checks import run_checks


class Command(BaseCommand):
    help = (
        "Verify the ledger: balanced transactions, stored balances, no negative wallet, "
        "closed escrows empty, deposits minus withdrawals equal the money held."
    )

    def handle(self, *args, **options):
        results = run_checks()
        failed = 0
        for name, problems in results.items():
            if problems:
                failed += 1
                self.stdout.write(self.style.ERROR(f"FAIL {name}"))
                for problem in problems:
                    self.stdout.write(f"  - {problem}")
            elif options["verbosity"] >= 1:
                self.stdout.write(self.style.SUCCESS(f"ok   {name}"))
        if failed:
            raise CommandError(f"ledger_check: {failed} of {len(results)} checks failed")
        if options["verbosity"] >= 1:
            self.stdout.write(self.style.SUCCESS("ledger_check: all checks passed"))
