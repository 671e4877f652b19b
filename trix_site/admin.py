"""Admin pieces shared by the apps."""

from django.contrib import admin

#: What a list's URL may add to a field it filters on (``?status__exact=open``).
_SAFE_SUFFIXES = frozenset({"exact", "in", "isnull", "id", "pk", "gte", "lte", "gt", "lt"})
_DATE_SUFFIXES = frozenset({"day", "month", "year"})


class StrictLookupsAdmin(admin.ModelAdmin):
    """An admin whose lists filter only on the fields they offer filters for, and on the
    model's own foreign keys by id: no other lookup in the URL (Django would otherwise allow
    ``?draw_secret__startswith=4`` on any local field, or a JSON path into a stored shuffle,
    and answer one character at a time whether a secret starts so). A refused lookup is a
    400 (``DisallowedModelAdminLookup``)."""

    def lookup_allowed(self, lookup, value, request=None):
        first, *rest = lookup.split("__")
        offered = set()
        for entry in self.list_filter:
            name = entry[0] if isinstance(entry, (tuple, list)) else entry
            if isinstance(name, str):
                offered.add(name.split("__")[0])
        if self.date_hierarchy:
            offered.add(self.date_hierarchy)
        keys = {f.name for f in self.model._meta.get_fields() if f.many_to_one and f.concrete}
        if first not in offered | keys | {"id", "pk"}:
            return False
        allowed = _SAFE_SUFFIXES | (_DATE_SUFFIXES if first == self.date_hierarchy else set())
        if not all(part in allowed for part in rest):
            return False
        return super().lookup_allowed(lookup, value, request)


class ReadOnlyAdmin(StrictLookupsAdmin):
    """An admin that shows rows and never adds, changes or deletes them: the data changes
    only through the apps' services (the ledger's entries, a table's event log)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
