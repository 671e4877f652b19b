"""The site's public fairness files, under ``/fairness/`` (docs/fairness.md)."""

from django.urls import path

from games import views

urlpatterns = [
    path("public-key.json", views.public_key, name="fairness-public-key"),
    path("log.jsonl", views.log_lines, name="fairness-log"),
    path("log-head.json", views.log_head, name="fairness-log-head"),
    path("verify_standalone.py", views.standalone_verifier, name="fairness-verifier"),
]
