"""REST API of the wallet (read-only; money moves through services, not through the API).

``GET /api/wallet/``: ``{"currency", "balance", "balance_display", "in_play",
"in_play_display"}`` (``in_play``: stakes and entry fees held in escrows not yet paid out or
refunded, not part of ``balance``, what a partial refund kept left out:
``wallet.staking.staked_in_open_escrows``; the pages' header reads this after money moves);
``GET /api/wallet/history/?page=N``: the user's entries, newest first, paginated.
Amounts are integers in minor units. Both need an authenticated user.
"""

from django.conf import settings
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from wallet import selectors
from wallet.models import Entry


class WalletSerializer(serializers.Serializer):
    currency = serializers.CharField()
    balance = serializers.IntegerField(help_text="minor units")
    balance_display = serializers.CharField()
    in_play = serializers.IntegerField(
        help_text="minor units held in escrows not yet paid out or refunded (not in balance)"
    )
    in_play_display = serializers.CharField()


class EntrySerializer(serializers.ModelSerializer):
    kind = serializers.CharField(source="transaction.kind")
    reference = serializers.CharField(source="transaction.reference")
    idempotency_key = serializers.CharField(source="transaction.idempotency_key")
    created_at = serializers.DateTimeField(source="transaction.created_at")
    link = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "amount",
            "balance_after",
            "kind",
            "reference",
            "idempotency_key",
            "created_at",
            "link",
        ]

    def get_link(self, entry) -> str | None:
        return selectors.reference_url(entry.transaction.reference)


class WalletView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=WalletSerializer)
    def get(self, request):
        balance = selectors.wallet_balance(request.user)
        held = selectors.in_play(request.user)
        data = {
            "currency": settings.TRIX_CURRENCY,
            "balance": balance,
            "balance_display": selectors.format_money(balance),
            "in_play": held,
            "in_play_display": selectors.format_money(held),
        }
        return Response(WalletSerializer(data).data)


class HistoryPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class HistoryView(generics.ListAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = EntrySerializer
    pagination_class = HistoryPagination

    def get_queryset(self):
        return selectors.wallet_history(self.request.user)


app_name = "wallet-api"
urlpatterns = [
    path("", WalletView.as_view(), name="wallet"),
    path("history/", HistoryView.as_view(), name="history"),
]
