"""System checks of the games app (``manage.py check``, ``migrate``, ``runserver``): the
site's signing key loads as an Ed25519 key (the settings check its shape)."""

from django.core.checks import Error, register


@register()
def signing_key_loads(app_configs, **kwargs):
    from games import signing
    from games.fairness.errors import FairnessError

    try:
        signing.private_key()
    except FairnessError as exc:
        return [Error(f"TRIX_SIGNING_KEY: {exc}", id="games.E001")]
    return []
