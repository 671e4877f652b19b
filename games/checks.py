"""System checks of the games app (``manage.py check``, ``migrate``, ``runserver``): the
site's signing keys load as Ed25519 keys (the settings check their shape). Which key is in
use is the log's to say (``games.signing.current``), read when signing, not here: the
checks run before the database may exist."""

from django.core.checks import Error, register


@register()
def signing_key_loads(app_configs, **kwargs):
    from games import signing
    from games.fairness.errors import FairnessError

    try:
        signing.configured()
    except FairnessError as exc:
        return [Error(f"TRIX_SIGNING_KEY or TRIX_SIGNING_NEW_KEY: {exc}", id="games.E001")]
    return []
