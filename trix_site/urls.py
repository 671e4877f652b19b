"""URL routes of the site."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from trix_site.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the header's switch
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/tournaments/", include("tournaments.api.urls")),
    path("api/", include("accounts.api")),  # /api/players/<id>/, /api/me/matches/
    path("api/ratings/", include("ratings.api")),
    path("api/", include("games.urls")),
    path("verify/", include("games.verify_urls")),
    path("fairness/", include("games.fairness_urls")),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("wallet/", include("wallet.urls")),
    path("api/wallet/", include("wallet.api")),
    path("account/limits/", include("responsible.urls")),
    path("api/responsible/", include("responsible.api")),
    path("tournaments/", include("tournaments.urls")),
    path("players/", include("accounts.player_urls")),
    path("ratings/", include("ratings.urls")),
    path("", include("web.urls")),
]
