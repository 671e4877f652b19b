from django.contrib import admin

from accounts.models import Profile
from trix_site.admin import StrictLookupsAdmin


@admin.register(Profile)
class ProfileAdmin(StrictLookupsAdmin):
    list_display = ("user", "display_name")
    search_fields = ("user__username", "display_name")
