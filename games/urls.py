"""URLs of the tables API (under ``/api/``)."""

from django.urls import path

from games.api import views

urlpatterns = [
    path("tables/", views.TableListView.as_view(), name="tables"),
    path("tables/<int:table_id>/", views.TableDetailView.as_view(), name="table"),
    path("tables/<int:table_id>/seats/", views.SeatsView.as_view(), name="table-seats"),
    path("tables/<int:table_id>/leave/", views.LeaveView.as_view(), name="table-leave"),
    path("quick-play/", views.QuickPlayView.as_view(), name="quick-play"),
    path("tables/<int:table_id>/invite/", views.InviteView.as_view(), name="table-invite"),
    path("tables/<int:table_id>/rematch/", views.RematchView.as_view(), name="table-rematch"),
    path(
        "tables/<int:table_id>/rematch/decline/",
        views.RematchDeclineView.as_view(),
        name="table-rematch-decline",
    ),
    path("tables/<int:table_id>/back/", views.BackView.as_view(), name="table-back"),
    path("tables/<int:table_id>/bots/", views.BotsView.as_view(), name="table-bots"),
    path("tables/<int:table_id>/state/", views.StateView.as_view(), name="table-state"),
    path("tables/<int:table_id>/stream/", views.table_stream, name="table-stream"),
    path("tables/<int:table_id>/actions/", views.ActionsView.as_view(), name="table-actions"),
    path(
        "deals/<int:deal_id>/verification/",
        views.DealVerificationView.as_view(),
        name="deal-verification",
    ),
    path("deals/<int:deal_id>/record.json", views.DealRecordView.as_view(), name="deal-record"),
    path(
        "matches/<int:table_id>/verification/",
        views.MatchVerificationView.as_view(),
        name="match-verification",
    ),
]
