from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("verification/", views.verification, name="verification"),
    path("close/", views.close, name="close"),
]
