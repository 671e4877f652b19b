"""The site's public fairness files, under ``/fairness/`` (docs/fairness.md)."""

from django.urls import path, re_path

from games import views

urlpatterns = [
    path("public-key.json", views.public_key, name="fairness-public-key"),
    path("keys.json", views.signing_keys, name="fairness-keys"),
    path("log.jsonl", views.log_lines, name="fairness-log"),
    path("log-head.json", views.log_head, name="fairness-log-head"),
    path("checkpoint", views.log_checkpoint, name="fairness-checkpoint"),
    path("checkpoint/cosigned", views.cosigned_checkpoint, name="fairness-cosigned"),
    path("cosignatures", views.log_cosignatures, name="fairness-cosignatures"),
    path("proof/inclusion", views.log_inclusion, name="fairness-inclusion"),
    path("proof/consistency", views.log_consistency, name="fairness-consistency"),
    re_path(
        r"^archive/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})\.zip$",
        views.daily_archive,
        name="fairness-archive",
    ),
    path("verify_standalone.py", views.standalone_verifier, name="fairness-verifier"),
]
