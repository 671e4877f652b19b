"""The Celery application: workers apply every state change of a table."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trix_site.settings")

app = Celery("trix_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**_):
    """Around each task, as Django does around each request: close a database connection
    that is broken or older than ``CONN_MAX_AGE`` (``DATABASE_CONN_MAX_AGE``); keep the rest.
    """
    from django.db import close_old_connections

    close_old_connections()
