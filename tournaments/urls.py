"""URLs of the tournament pages (under ``/tournaments/``)."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("mine/", views.mine, name="mine"),
    path("new/", views.new, name="new"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/live/", views.live, name="live"),
    path("<int:pk>/edit/", views.edit, name="edit"),
    path("<int:pk>/register/", views.register, name="register"),
    path("<int:pk>/unregister/", views.unregister, name="unregister"),
    path("<int:pk>/invite/", views.invite, name="invite"),
    path(
        "<int:pk>/teams/<int:team_id>/<str:choice>/",
        views.answer,
        name="answer",
    ),
    path("<int:pk>/staff/<str:action>/", views.staff_action, name="staff"),
]
