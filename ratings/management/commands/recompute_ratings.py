"""``manage.py recompute_ratings``: rebuild every rating from the match history."""

from django.core.management.base import BaseCommand

from ratings import services


class Command(BaseCommand):
    help = (
        "Rebuild every rating from the finished matches, in the order they finished "
        "(ratings.services.recompute): the same numbers as the ratings made match by match."
    )

    def handle(self, *args, **options):
        done = services.recompute()
        self.stdout.write(f"rated {done['matches']} matches; {done['players']} ratings written")
