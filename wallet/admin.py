"""Read-only admin of the ledger: every account, transaction and entry; nothing editable.

The one write is the "demo deposit" action on wallets (superusers only), which goes
through ``wallet.services.deposit`` with the demo payment provider.
"""

import uuid

from django.contrib import admin, messages

from trix_site.admin import ReadOnlyAdmin
from wallet import services
from wallet.errors import LedgerError
from wallet.models import Account, AccountKind, Entry, Transaction
from wallet.payments import DemoProvider
from wallet.selectors import format_money

DEMO_DEPOSIT = 10_000  # minor units


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ["account", "amount", "balance_after"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["reference", "kind", "owner", "balance", "closed", "created_at"]
    list_filter = ["kind", "closed"]
    search_fields = ["reference", "owner__username"]
    actions = ["demo_deposit"]

    @admin.action(description=f"Demo deposit of {format_money(DEMO_DEPOSIT)} (wallets)")
    def demo_deposit(self, request, queryset):
        if not request.user.is_superuser:
            self.message_user(request, "Only superusers make deposits.", messages.ERROR)
            return
        done = 0
        for account in queryset.filter(kind=AccountKind.WALLET):
            try:
                services.deposit(
                    user=account.owner_id,
                    amount=DEMO_DEPOSIT,
                    key=f"admin-demo:{uuid.uuid4()}",
                    provider=DemoProvider(),
                    reference=f"admin:{request.user.get_username()}",
                    memo="demo deposit from the admin",
                )
                done += 1
            except LedgerError as exc:
                self.message_user(request, f"{account}: {exc}", messages.ERROR)
        self.message_user(request, f"Deposited {format_money(DEMO_DEPOSIT)} into {done} wallets.")


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ["id", "created_at", "kind", "reference", "idempotency_key", "memo"]
    list_filter = ["kind"]
    search_fields = ["idempotency_key", "reference"]
    date_hierarchy = "created_at"
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "transaction", "account", "amount", "balance_after"]
    list_select_related = ["transaction", "account"]
    search_fields = ["account__reference", "transaction__idempotency_key"]
    list_filter = ["account__kind"]
