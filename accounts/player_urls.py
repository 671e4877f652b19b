"""Players' pages, mounted at ``/players/``: a player's page by public id (the user id; the
username stays private) and the signed-in player's downloads."""

from django.urls import path

from accounts import views

app_name = "players"

urlpatterns = [
    path("me/", views.my_page, name="me"),
    path("me/history.csv", views.history_csv, name="history-csv"),
    path("me/data.json", views.data_download, name="data"),
    path("<int:player_id>/", views.player, name="player"),
]
