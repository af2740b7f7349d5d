"""One router for the whole API; each app registers its viewsets here."""

from django.http import JsonResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework.routers import DefaultRouter
from rest_framework.settings import api_settings

from config.api import ObtainAuthTokenThrottled
from games.api import GameViewSet, poll
from players.api import DiceSetViewSet, PlayerViewSet
from tournaments.api import (
    MatchViewSet,
    PlayerRatingView,
    RegistrationViewSet,
    RoundViewSet,
    TeamViewSet,
    TournamentViewSet,
)
from tournaments.clock_urls import api_urlpatterns as clock_api_urls

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("dice-sets", DiceSetViewSet, basename="diceset")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("registrations", RegistrationViewSet, basename="registration")
router.register("teams", TeamViewSet, basename="team")
router.register("rounds", RoundViewSet, basename="round")
router.register("matches", MatchViewSet, basename="match")
router.register("games", GameViewSet, basename="game")


@csrf_exempt  # it changes nothing; without this a POST to it got the CSRF 403 page
def not_found(request):
    """An address under /api/ that names nothing (e.g. /api/rounds/abc/) answers in the
    API's JSON error format, not with the site's HTML page."""
    return JsonResponse({"detail": _("Not found: no API address matches this path.")}, status=404)


urlpatterns = [
    # DRF's token view names its own parsers; it gets the API's (nesting limit, no NUL).
    path(
        "auth/token/",
        ObtainAuthTokenThrottled.as_view(parser_classes=api_settings.DEFAULT_PARSER_CLASSES),
        name="api-token",
    ),
    *clock_api_urls,
    # Before the router: the poll is a plain Django view (games/api.py).
    path("games/<int:pk>/poll/", poll, name="game-poll"),
    path("players/<int:pk>/rating/", PlayerRatingView.as_view(), name="player-rating"),
    *router.urls,
]
