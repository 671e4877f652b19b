from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.index, name="index"),
    path("<str:family>/", views.leaderboard, name="leaderboard"),
]
