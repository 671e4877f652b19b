"""Public verification pages, under ``/verify/``."""

from django.urls import path

from games import views

urlpatterns = [
    path("deals/<int:deal_id>/", views.verify_deal, name="verify-deal"),
    path("matches/<int:table_id>/", views.verify_match, name="verify-match"),
    path(
        "matches/<int:table_id>/records.json",
        views.verify_match_records,
        name="verify-match-records",
    ),
]
