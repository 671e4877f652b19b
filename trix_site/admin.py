"""Admin pieces shared by the apps."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """An admin that shows rows and never adds, changes or deletes them: the data changes
    only through the apps' services (the ledger's entries, a table's event log)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
