from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Registers the system checks, and the tasks in every process as a worker's
        # autodiscovery does: games.services.dispatch sends them by name and imports no task
        # module; a registered task is sent through its own apply_async (routes, priority,
        # task_always_eager), as before.
        from games import checks, tasks  # noqa: F401
