"""``python manage.py demo_data``: an admin, players with funded wallets and verified
identities (the demo verification provider), open tables with bots.

Idempotent: users are created once, deposits carry fixed idempotency keys, and the open
tables are made only when the demo creator has none open. The passwords are fixed demo
values printed here, for a local demo site only (never use them on a real deployment).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.kyc import DemoKycProvider
from accounts.services import set_display_name, start_verification
from games import selectors as table_selectors
from games import services as table_services
from games.selectors import TableStatus  # games.models' (web reads through the selectors)
from wallet import services as wallet_services
from wallet.selectors import format_money, wallet_balance

ADMIN = ("admin", "admin@example.com", "demo-admin-pass")
PLAYERS = [
    # username, display name, demo password, deposit (minor units)
    ("fahd", "أبو فهد", "demo-fahd-pass", 100_00),
    ("sara", "Sara سارة", "demo-sara-pass", 100_00),
    ("omar", "Omar", "demo-omar-pass", 50_00),
]
TABLES = [
    # variant, stake, options, bot seats
    ("complex_partner", 5_00, {}, [1, 2, 3]),
    ("trix", 0, {"play_timer": 20}, [1, 3]),
    ("complex", 2_00, {"doubling": "sequential"}, [2]),
]


class Command(BaseCommand):
    help = "Create demo users with funded wallets and open tables with bots (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="URL to print")

    def handle(self, *args, url: str, **options):
        User = get_user_model()
        with transaction.atomic():
            admin, created = User.objects.get_or_create(
                username=ADMIN[0],
                defaults={"email": ADMIN[1], "is_staff": True, "is_superuser": True},
            )
            if created:
                admin.set_password(ADMIN[2])
                admin.save()
                set_display_name(admin, "Admin")
            players = []
            for username, name, password, amount in PLAYERS:
                user, created = User.objects.get_or_create(
                    username=username, defaults={"email": f"{username}@example.com"}
                )
                if created:
                    user.set_password(password)
                    user.save()
                    set_display_name(user, name)
                wallet_services.deposit(
                    user, amount, key=f"demo:deposit:{username}", memo="demo funds"
                )
                start_verification(user=user, provider=DemoKycProvider())  # may stake
                players.append(user)
        creator = players[0]
        if not table_selectors.tables(TableStatus.OPEN).filter(created_by=creator).exists():
            for variant, stake, opts, bots in TABLES:
                table = table_services.create_table(
                    user=creator, variant=variant, stake=stake, options=opts
                )
                for seat in bots:
                    table_services.seat_bot(user=creator, table_id=table.pk, seat=seat, bot="rules")
        out = self.stdout
        out.write(self.style.SUCCESS(f"Trix demo site: {url}"))
        out.write(f"  admin  {ADMIN[0]} / {ADMIN[2]}  ({url}admin/)")
        for (username, _name, password, _amount), user in zip(PLAYERS, players, strict=True):
            out.write(
                f"  player {username} / {password}  wallet {format_money(wallet_balance(user))}"
            )
        for table in table_selectors.tables(TableStatus.OPEN).filter(created_by=creator):
            free = sum(1 for s in table.seats.all() if s.kind is None)
            out.write(
                f"  table  {url}tables/{table.pk}/  {table.variant}, stake "
                f"{format_money(table.stake)}, {free} free seat(s)"
            )
        out.write("Demo passwords are fixed demo values: for a local demo only.")
