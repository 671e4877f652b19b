from django.urls import path

from web import views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rules/", views.rules, name="rules"),
    path("tables/<int:pk>/", views.table, name="table"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("tables/<int:pk>/payout.json", views.table_payout_json, name="table_payout"),
]
