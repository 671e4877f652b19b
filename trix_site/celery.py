"""The Celery application: workers apply every state change of a table."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trix_site.settings")

app = Celery("trix_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
