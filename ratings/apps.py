from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from games import selectors as tables
        from games import signals as games_signals
        from ratings.selectors import seat_ratings
        from ratings.signals import on_table_finished

        games_signals.table_finished.connect(
            on_table_finished, dispatch_uid="ratings.on_table_finished"
        )
        # Each seat's rating in the tables' answers (games never imports ratings).
        tables.set_seat_ratings(seat_ratings)
