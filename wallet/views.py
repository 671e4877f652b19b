"""The wallet page: balance and history of the signed-in user, and (with
``settings.TRIX_DEMO_PAYMENTS``) demo deposit and withdraw forms through the demo payment
provider. Thin: reads come from selectors, money moves through ``wallet.services``."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.standing import standing
from responsible import selectors as responsible_selectors
from wallet import selectors, services
from wallet.errors import IdempotencyConflict, InsufficientFunds, LedgerError, PaymentDeclined
from wallet.forms import MoneyForm, new_key
from wallet.payments import DemoProvider
from web.links import link_paths

PAGE_SIZE = 25
ACTIONS = {"deposit": services.deposit, "withdraw": services.withdraw}


def _form(action: str, data=None) -> MoneyForm:
    return MoneyForm(data, prefix=action, initial={"key": new_key()}, too_large=_declined())


def _declined() -> str:
    """The demo provider's refusal of an amount above its limit (the cap of both forms)."""
    limit = selectors.format_money(DemoProvider().limit)
    return _("The demo payment provider declines amounts above %(limit)s.") % {"limit": limit}


def _render(request, forms: dict[str, MoneyForm] | None = None, status: int = 200):
    page = Paginator(selectors.wallet_history(request.user), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = []
    for entry in page.object_list:
        links = selectors.reference_links(entry.transaction.reference)
        rows.append(
            {
                "entry": entry,
                "amount": selectors.format_money(entry.amount),
                "balance_after": selectors.format_money(entry.balance_after),
                "link": links.get("page"),
                "verify": links.get("verify"),
                "label": links.get("label") or entry.transaction.reference,
            }
        )
    forms = forms or {}
    context = {
        "balance": selectors.format_money(selectors.wallet_balance(request.user)),
        "page": page,
        "rows": rows,
        "demo_payments": settings.TRIX_DEMO_PAYMENTS,
        "demo_limit": selectors.format_money(DemoProvider().limit),
        "deposit_form": forms.get("deposit") or _form("deposit"),
        "withdraw_form": forms.get("withdraw") or _form("withdraw"),
        "currency": settings.TRIX_CURRENCY,
        "limits_prompt": responsible_selectors.wants_limits_prompt(request.user),
        "standing": standing(request.user.pk),
    }
    return render(request, "wallet/wallet.html", context, status=status)


@login_required
def wallet_page(request):
    """``GET /wallet/?page=N``: balance, the demo payment forms and the entries, newest first,
    linked to their tables (and the tables' shuffle checks)."""
    return _render(request)


@login_required
@require_POST
def demo_payment(request, action: str):
    """``POST /wallet/deposit/`` or ``/wallet/withdraw/`` (fields ``<action>-amount`` in
    currency units and ``<action>-key``, the form's idempotency key): moves the money through
    the demo payment provider and redirects to the wallet page; a bad amount, a decline or a
    withdrawal above the balance re-renders the page with the message (400) and moves nothing.
    404 unless ``settings.TRIX_DEMO_PAYMENTS``."""
    if not settings.TRIX_DEMO_PAYMENTS or action not in ACTIONS:
        raise Http404("demo payments are off")
    form = _form(action, request.POST)
    if form.is_valid():
        amount = form.cleaned_data["amount"]
        key = f"web:{action}:{request.user.pk}:{form.cleaned_data['key']}"
        provider = DemoProvider()
        try:
            ACTIONS[action](
                user=request.user,
                amount=amount,
                key=key,
                provider=provider,
                memo="demo (wallet page)",
            )
        except InsufficientFunds:
            balance = selectors.format_money(selectors.wallet_balance(request.user))
            form.add_error(
                "amount",
                _("Your balance is %(balance)s: you cannot withdraw %(amount)s.")
                % {"balance": balance, "amount": selectors.format_money(amount)},
            )
        except PaymentDeclined:
            form.add_error("amount", _declined())
        except IdempotencyConflict:
            # The same form was sent before with another amount (Back, edit, resend): offer
            # a fresh form (a new key) with the amount typed, to send again knowingly.
            amount_field = f"{action}-amount"
            data = {amount_field: request.POST.get(amount_field, ""), f"{action}-key": new_key()}
            form = _form(action, data)
            form.is_valid()
            form.add_error(None, _("That form was already used: check the amount and send again."))
        except LedgerError as exc:
            form.add_error("amount", link_paths(str(exc)))  # "/accounts/verification/" a link
        else:
            done = (
                _("Deposited %(amount)s (demo).")
                if action == "deposit"
                else _("Withdrew %(amount)s (demo).")
            )
            messages.success(request, done % {"amount": selectors.format_money(amount)})
            return redirect("wallet:page")
    return _render(request, {action: form}, status=400)
