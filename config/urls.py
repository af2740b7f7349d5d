from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView

from config.api_docs import RedocView, SwaggerView
from config.api_urls import not_found as api_not_found
from config.health import healthz
from players.language import set_language
from tournaments.views import player_page


def favicon(request):
    """The site icon (static file names carry a hash, so this is resolved per request)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico before reading the page's icon link.
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("config.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", RedocView.as_view(url_name="api-schema"), name="api-redoc"),
    # Last of /api/: paths ending in a slash only, so CommonMiddleware still adds a
    # missing slash to a real address.
    re_path(r"^api/.*/$", api_not_found),
    path("tournaments/", include("tournaments.urls")),
    path("games/", include("games.urls")),
    path("tournaments/", include("tournaments.clock_urls")),
    # A player's page: rating, history and past events (tournaments reads them).
    path("players/<int:pk>/", player_page, name="player_page"),
    path("", include("players.urls")),
]
