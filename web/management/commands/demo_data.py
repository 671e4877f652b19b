"""``python manage.py demo_data``: an admin, players with funded wallets and verified
identities (the demo verification provider), open tables with bots, and a tournament open
for registration (so the tournaments page has one to enter).

Idempotent: users are created once, deposits carry fixed idempotency keys, the open
tables are made only when the demo creator has none open, and the tournament only when
none is open for registration. The passwords are fixed demo
values printed here, for a local demo site only (never use them on a real deployment).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.kyc import DemoKycProvider
from accounts.services import set_display_name, start_verification
from games import selectors as table_selectors
from games import services as table_services
from games.selectors import TableStatus  # games.models' (web reads through the selectors)
from tournaments import services as tournament_services
from tournaments.models import Status as TournamentStatus
from tournaments.models import Tournament
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

#: The demo tournament (``tournaments.services.create_tournament``'s parameters, money in
#: minor units): registration open from now for a week, the start an hour after it closes.
TOURNAMENT = {
    "name": "كأس التجربة · Demo Cup",
    "format": "swiss",
    "variant": "complex",
    "rounds": 2,
    "capacity": 16,
    "min_entrants": 4,
    "entry_fee": 1_00,
    "house_fee_bps": 1000,
    "prize_bps": [5000, 3000, 2000],
}
TOURNAMENT_REGISTRATION = timedelta(days=7)


def open_tournaments():
    """Tournaments open for registration now (status and window)."""
    now = timezone.now()
    return Tournament.objects.filter(
        status=TournamentStatus.REGISTRATION,
        registration_opens_at__lte=now,
        registration_closes_at__gt=now,
    ).order_by("id")


def demo_tournament(admin) -> None:
    """The demo tournament, unless one is open for registration already."""
    if open_tournaments().exists():
        return
    now = timezone.now()
    closes = now + TOURNAMENT_REGISTRATION
    tournament_services.create_tournament(
        by=admin,
        registration_opens_at=now,
        registration_closes_at=closes,
        starts_at=closes + timedelta(hours=1),
        **TOURNAMENT,
    )


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
                    user=user, amount=amount, key=f"demo:deposit:{username}", memo="demo funds"
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
        demo_tournament(admin)
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
        for t in open_tournaments():
            out.write(
                f"  tournament {url}tournaments/{t.pk}/  entry fee {format_money(t.entry_fee)},"
                f" registration until {t.registration_closes_at:%Y-%m-%d %H:%M} UTC"
            )
        out.write("Demo passwords are fixed demo values: for a local demo only.")
