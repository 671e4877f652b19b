from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games import signals as games_signals
        from tournaments.signals import on_table_finished

        games_signals.table_finished.connect(
            on_table_finished, dispatch_uid="tournaments.on_table_finished"
        )
