"""Pagination of the table list (``GET /api/tables/``, which the lobby pages through):
DRF's page numbers, ``?page=N`` from 1, ``TRIX_TABLES_PAGE_SIZE`` tables a page (read per
request). A page past the last is 404 ``not_found``."""

from __future__ import annotations

from django.conf import settings
from rest_framework.pagination import PageNumberPagination


class TablePagination(PageNumberPagination):
    """``{"count", "next", "previous", "results"}``, ``next``/``previous`` as full URLs."""

    def get_page_size(self, request) -> int:
        return settings.TRIX_TABLES_PAGE_SIZE
