"""Key every profile again: the confusable key now reads a name without the tatweel and the
Arabic marks that leave its letters as drawn (accounts.names.name_key). The rekeying is
0003's, which keys with the current accounts.names.name_key."""

import importlib

from django.db import migrations

rekey = importlib.import_module("accounts.migrations.0003_rekey_extended_digits").rekey


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_standing")]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]
