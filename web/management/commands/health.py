"""``manage.py health``: the site's health checks (database, broker, the sweep's age) as JSON
on stdout, exit status 0 when all pass, 1 otherwise (``trix_site.health``; the watchdog unit
``deploy/systemd/trix-watchdog.service`` restarts the worker and the beat on 1)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from trix_site.health import report


class Command(BaseCommand):
    help = "Check the database, the broker and the age of the beat's last sweep (exit 1: failing)."

    def handle(self, *args, **options):
        body = report()
        self.stdout.write(json.dumps(body))
        if body["status"] != "ok":
            failing = ", ".join(k for k, v in body.items() if isinstance(v, dict) and not v["ok"])
            raise CommandError(f"unhealthy: {failing}")
