from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from games import signals as games_signals

        # Registers the tasks in every process (tournaments.dispatch sends them by name).
        from tournaments import tasks  # noqa: F401
        from tournaments.live import notify_version
        from tournaments.models import Tournament
        from tournaments.services import reseal_draw_secrets
        from tournaments.signals import on_deal_ended, on_table_finished

        games_signals.table_finished.connect(
            on_table_finished, dispatch_uid="tournaments.on_table_finished"
        )
        games_signals.deal_ended.connect(on_deal_ended, dispatch_uid="tournaments.on_deal_ended")
        games_signals.reseal_requested.connect(
            reseal_draw_secrets, dispatch_uid="tournaments.reseal_draw_secrets"
        )
        # The live page's long poll: NOTIFY '-<id>:<version>' when a tournament is saved.
        post_save.connect(notify_version, sender=Tournament, dispatch_uid="tournaments.live")
