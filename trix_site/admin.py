"""Admin pieces shared by the apps."""

from django.contrib import admin

#: What a list's URL may add to a field it filters on (``?status__exact=open``).
_SAFE_SUFFIXES = frozenset({"exact", "in", "isnull", "id", "pk", "gte", "lte", "gt", "lt"})
_DATE_SUFFIXES = frozenset({"day", "month", "year"})


class StrictLookupsAdmin(admin.ModelAdmin):
    """An admin whose lists filter only on the fields they offer filters for (a
    ``list_filter`` path such as ``account__kind``, as its filter links write it:
    ``?account__kind__exact=wallet``; a custom filter's own parameter), on the
    ``date_hierarchy``, and on the model's own foreign keys by id: no other lookup in the URL
    (Django would otherwise allow ``?draw_secret__startswith=4`` on any local field, or a JSON
    path into a stored shuffle, and answer one character at a time whether a secret starts
    so). A refused lookup is a 400 (``DisallowedModelAdminLookup``)."""

    def lookup_allowed(self, lookup, value, request=None):
        parts = tuple(lookup.split("__"))
        paths = {(name,) for name in ("id", "pk")} | {
            (f.name,) for f in self.model._meta.get_fields() if f.many_to_one and f.concrete
        }
        parameters = set()
        for entry in self.list_filter:
            name = entry[0] if isinstance(entry, (tuple, list)) else entry
            if isinstance(name, str):
                paths.add(tuple(name.split("__")))
            elif isinstance(name, type) and issubclass(name, admin.SimpleListFilter):
                parameters.add(name.parameter_name)
        if lookup in parameters:
            return super().lookup_allowed(lookup, value, request)
        for path in paths | ({(self.date_hierarchy,)} if self.date_hierarchy else set()):
            rest = parts[len(path) :]
            if parts[: len(path)] != path:
                continue
            dated = self.date_hierarchy is not None and path == (self.date_hierarchy,)
            allowed = _SAFE_SUFFIXES | (_DATE_SUFFIXES if dated else set())
            if all(part in allowed for part in rest):
                return super().lookup_allowed(lookup, value, request)
        return False


class ReadOnlyAdmin(StrictLookupsAdmin):
    """An admin that shows rows and never adds, changes or deletes them: the data changes
    only through the apps' services (the ledger's entries, a table's event log)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
