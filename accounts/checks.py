"""System checks of the accounts app run by ``manage.py check --deploy`` (the production
recipe runs it before ``migrate``: docs/operations.md).

- ``accounts.E001``: with ``DEBUG`` off, e-mail (sign-up confirmations, password resets) must
  reach people: a console, memory, file or dummy ``EMAIL_BACKEND`` keeps it on the server
  (the console's goes to the web log), and Django's SMTP backend needs ``EMAIL_HOST``.
"""

from django.conf import settings
from django.core.checks import Error, Tags, register

#: Django's backends that deliver to no one.
UNDELIVERED = {
    f"django.core.mail.backends.{name}.EmailBackend"
    for name in ("console", "locmem", "filebased", "dummy")
}
SMTP = "django.core.mail.backends.smtp.EmailBackend"


@register(Tags.security, deploy=True)
def email_is_delivered(app_configs, **kwargs):
    if settings.DEBUG:
        return []
    backend = settings.EMAIL_BACKEND
    if backend in UNDELIVERED:
        why = f"EMAIL_BACKEND is {backend}: mail would reach nobody"
    elif backend == SMTP and not settings.EMAIL_HOST:
        why = "EMAIL_HOST is not set: Django's SMTP backend has no server to send to"
    else:
        return []
    return [
        Error(
            f"{why} (sign-up confirmations, password resets).",
            hint=(
                "Set EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD and "
                "EMAIL_USE_TLS (or EMAIL_USE_SSL) for an SMTP server, or EMAIL_BACKEND to a "
                "provider's backend; and DEFAULT_FROM_EMAIL: deploy/trix.env.example."
            ),
            id="accounts.E001",
        )
    ]
