"""System checks of the games app (``manage.py check``, ``migrate``, ``runserver``): the
site's signing keys load as Ed25519 keys (the settings check their shape), and each of the
log's witnesses (``TRIX_LOG_WITNESSES``) is a key name and an Ed25519 public key. Which key is in
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


@register()
def check_witnesses(app_configs, **kwargs):
    from django.core.exceptions import ImproperlyConfigured

    from games.services import witnesses

    try:
        witnesses.witnesses()
    except ImproperlyConfigured as exc:
        return [Error(str(exc), id="games.E002")]
    return []
