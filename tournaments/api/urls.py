"""URLs of the tournaments API (under ``/api/tournaments/``)."""

from django.urls import path

from tournaments.api import views

app_name = "tournaments-api"

urlpatterns = [
    path("", views.ListView.as_view(), name="list"),
    path("mine/", views.MineView.as_view(), name="mine"),
    path("<int:tournament_id>/", views.DetailView.as_view(), name="detail"),
    path("<int:tournament_id>/live/", views.LiveView.as_view(), name="live"),
    path("<int:tournament_id>/stream/", views.live_stream, name="stream"),
    path("<int:tournament_id>/draw.json", views.DrawRecordView.as_view(), name="draw"),
    path("<int:tournament_id>/register/", views.RegisterView.as_view(), name="register"),
    path("<int:tournament_id>/unregister/", views.UnregisterView.as_view(), name="unregister"),
    path("<int:tournament_id>/invite/", views.InviteView.as_view(), name="invite"),
    path("teams/<int:team_id>/accept/", views.AcceptView.as_view(), name="accept"),
    path("teams/<int:team_id>/decline/", views.DeclineView.as_view(), name="decline"),
    path("<int:tournament_id>/edit/", views.EditView.as_view(), name="edit"),
    path("<int:tournament_id>/open/", views.OpenView.as_view(), name="open"),
    path("<int:tournament_id>/start/", views.StartView.as_view(), name="start"),
    path("<int:tournament_id>/pause/", views.PauseView.as_view(), name="pause"),
    path("<int:tournament_id>/resume/", views.ResumeView.as_view(), name="resume"),
    path("<int:tournament_id>/cancel/", views.CancelView.as_view(), name="cancel"),
    path("<int:tournament_id>/disqualify/", views.DisqualifyView.as_view(), name="disqualify"),
]
