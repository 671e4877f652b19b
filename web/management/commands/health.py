"""``manage.py health``: the site's health checks (database, broker, the sweep's age;
``trix_site.health``) as JSON on stdout; exit status 0 when all pass, 1 otherwise.

``--stuck`` fails only when the database and the broker answer but the sweep is stale (or
never ran): the workers or the beat are up yet nothing is consumed, which restarting them
fixes. The watchdog unit (``deploy/systemd/trix-watchdog.service``) runs it and restarts the
worker and the beat on exit status 1; an outage of the database or the broker is theirs to
ride out (they reconnect), not a reason to restart them."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from trix_site.health import report


class Command(BaseCommand):
    help = "Check the database, the broker and the age of the beat's last sweep (exit 1: failing)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--stuck",
            action="store_true",
            help="fail only if the database and the broker answer but the sweep is stale",
        )

    def handle(self, *args, stuck: bool = False, **options):
        body = report()
        self.stdout.write(json.dumps(body))
        failing = [k for k, v in body.items() if isinstance(v, dict) and not v["ok"]]
        if stuck:
            if failing == ["sweep"]:
                raise CommandError("stuck: the database and the broker answer, the sweep is stale")
            return
        if failing:
            raise CommandError(f"unhealthy: {', '.join(failing)}")
