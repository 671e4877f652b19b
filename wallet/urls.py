"""Routes of the wallet page (mounted at ``/wallet/``)."""

from django.urls import path

from wallet import views

app_name = "wallet"
urlpatterns = [
    path("", views.wallet_page, name="page"),
    path("deposit/", views.demo_payment, {"action": "deposit"}, name="deposit"),
    path("withdraw/", views.demo_payment, {"action": "withdraw"}, name="withdraw"),
]
