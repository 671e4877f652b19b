"""Key every profile again: the confusable key now reads Extended Arabic-Indic digits (۲) as
Arabic-Indic ones (٢) (accounts.names.name_key)."""

from django.db import migrations


def rekey(apps, schema_editor):
    from accounts.names import name_key

    Profile = apps.get_model("accounts", "Profile")
    for profile in Profile.objects.select_related("user").iterator():
        keys = (name_key(profile.display_name), name_key(profile.user.username))
        if keys != (profile.name_key, profile.username_key):
            profile.name_key, profile.username_key = keys
            profile.save(update_fields=["name_key", "username_key"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_profile_name_keys")]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]
