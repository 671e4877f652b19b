"""WSGI entry point: ``gunicorn trix_site.wsgi`` or any WSGI server."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trix_site.settings")
application = get_wsgi_application()
