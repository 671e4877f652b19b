from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResponsibleConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "responsible"
    verbose_name = _("Responsible play")
