"""``python manage.py demo_data``: an admin, players with funded wallets and verified
identities (the demo verification provider), free open tables with bots, a staked table where
a demo player waits (seated, the stake in escrow), and a tournament open for registration (so
the tournaments page has one to enter).

A staked table of bots alone would be cancelled within ``TRIX_EMPTY_TABLE_EXPIRY`` (bots never
stake, so nobody waits there: ``games.services.cancellation``): the tables with bots are free,
and the staked one has a person waiting, whom a newcomer can join (it waits up to
``TRIX_OPEN_TABLE_EXPIRY``, like any open table).

Idempotent: users are created once, deposits carry fixed idempotency keys, the free tables
are made only when the demo creator has none open, the staked one only when the waiting demo
player has none open, and the tournament only when none is open for registration. The
passwords are fixed demo values printed here, for a local demo site only (never use them on a
real deployment).
"""

from __future__ import annotations

import secrets
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
    # variant, stake, options, bot seats: free tables, made by the first player
    ("complex_partner", 0, {}, [1, 2, 3]),
    ("trix", 0, {"play_timer": 20}, [1, 3]),
]
#: The demo player who waits at the staked demo table (no password: not a login), with the
#: deposit (minor units) the stake comes from.
WAITER = ("layla", "Layla ليلى", 20_00)
#: The staked demo table (variant, stake in minor units, options): the waiter takes seat 0.
WAITING_TABLE = ("complex", 2_00, {"doubling": "sequential"})

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


def demo_player(spec: tuple[str, str, int]):
    """The demo player ``(username, display name, deposit)`` without a password (nobody logs
    in as them), funded once (a fixed idempotency key) and verified (may stake)."""
    username, name, amount = spec
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.com"}
    )
    if created:
        user.set_unusable_password()
        user.save()
        set_display_name(user, name)
    wallet_services.deposit(
        user=user, amount=amount, key=f"demo:deposit:{username}", memo="demo funds"
    )
    start_verification(user=user, provider=DemoKycProvider())
    return user


class Command(BaseCommand):
    help = (
        "Create demo users with funded wallets, free tables with bots and a staked table "
        "where a demo player waits (idempotent)."
    )

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
            waiter = demo_player(WAITER)
        creator = players[0]
        if not table_selectors.tables(TableStatus.OPEN).filter(created_by=creator).exists():
            for variant, stake, opts, bots in TABLES:
                table = table_services.create_table(
                    user=creator, variant=variant, stake=stake, options=opts
                )
                for seat in bots:
                    table_services.seat_bot(user=creator, table_id=table.pk, seat=seat, bot="rules")
        if not table_selectors.tables(TableStatus.OPEN).filter(created_by=waiter).exists():
            variant, stake, opts = WAITING_TABLE
            table = table_services.create_table(
                user=waiter, variant=variant, stake=stake, options=opts
            )
            # The stake goes into the table's escrow through the seat's normal service.
            table_services.take_seat(
                user=waiter, table_id=table.pk, seat=0, client_seed=secrets.token_hex(16)
            )
        demo_tournament(admin)
        out = self.stdout
        out.write(self.style.SUCCESS(f"Trix demo site: {url}"))
        out.write(f"  admin  {ADMIN[0]} / {ADMIN[2]}  ({url}admin/)")
        for (username, _name, password, _amount), user in zip(PLAYERS, players, strict=True):
            out.write(
                f"  player {username} / {password}  wallet {format_money(wallet_balance(user))}"
            )
        demo_tables = table_selectors.tables(TableStatus.OPEN).filter(
            created_by__in=[creator, waiter]
        )
        for table in demo_tables.order_by("id"):
            free = sum(1 for s in table.seats.all() if s.kind is None)
            who = f", {WAITER[1]} waiting" if table.created_by_id == waiter.pk else ""
            out.write(
                f"  table  {url}tables/{table.pk}/  {table.variant}, stake "
                f"{format_money(table.stake)}, {free} free seat(s){who}"
            )
        for t in open_tournaments():
            out.write(
                f"  tournament {url}tournaments/{t.pk}/  entry fee {format_money(t.entry_fee)},"
                f" registration until {t.registration_closes_at:%Y-%m-%d %H:%M} UTC"
            )
        out.write("Demo passwords are fixed demo values: for a local demo only.")
