"""The Celery application: workers apply every state change of a table."""

import os

from celery import Celery
from celery.app import backends
from celery.signals import task_postrun, task_prerun, worker_init, worker_process_init

from trix_site.worker_timer import WorkerTimer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trix_site.settings")


class TrixCelery(Celery):
    """Celery, finding the result backend's class once per process. Celery keeps a backend
    per thread unless it is thread-safe (the disabled one, ours: results are ignored, is not
    marked so), and finding its class reads every installed package's entry points: under
    the ASGI server each request runs in a thread of its own, so every action a person posted
    paid for that scan (about a seventh of a web process's CPU with people playing).
    Each thread still gets its own backend instance."""

    _backend_class: tuple | None = None  # (the setting it was found for, (class, url))

    def _get_backend(self):
        setting = self.backend_cls or self.conf.result_backend
        found = self._backend_class
        if found is None or found[0] != setting:
            found = self._backend_class = (setting, backends.by_url(setting, self.loader))
        backend, url = found[1]
        return backend(app=self, url=url)


app = TrixCelery("trix_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.steps["worker"].add(WorkerTimer)


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**_):
    """Around each task, as Django does around each request: close a database connection
    that is broken or older than ``CONN_MAX_AGE`` (``DATABASE_CONN_MAX_AGE``); keep the rest.
    """
    from django.db import close_old_connections

    close_old_connections()


@worker_init.connect
@worker_process_init.connect
def _freeze_loaded(**_):
    """The worker's loaded objects, frozen out of the collector's way (``trix_site.heap``):
    in the main process before it forks the pool, and in each child."""
    from trix_site import heap

    heap.load_site()
    heap.freeze_loaded()
