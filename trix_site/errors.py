"""The base of every service error the API answers: ``{"error": message, "code": code}``
with the error's HTTP ``status`` (``games.api.errors.api_exception_handler``). Each app keeps
its own family (``games.errors``, ``tournaments.errors``) on this base; raising one means the
service wrote nothing."""

from __future__ import annotations


class ServiceError(Exception):
    """Base: ``status`` (HTTP), ``code`` (short machine name), ``message``."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
