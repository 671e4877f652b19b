"""Routes of the limits page (mounted at ``/account/limits/``)."""

from django.urls import path

from responsible import views

app_name = "responsible"
urlpatterns = [
    path("", views.limits_page, name="limits"),
    path("limit/", views.set_limit, name="set-limit"),
    path("reality-check/", views.set_reality_check, name="reality-check"),
    path("time-out/", views.take_time_out, name="time-out"),
    path("self-exclusion/", views.self_exclude, name="self-exclusion"),
]
