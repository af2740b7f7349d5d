"""One router for the whole API; each app registers its viewsets here."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from config.api import ObtainAuthTokenThrottled
from games.api import GameViewSet, poll
from players.api import DiceSetViewSet, PlayerViewSet
from tournaments.api import MatchViewSet, RegistrationViewSet, RoundViewSet, TournamentViewSet
from tournaments.clock_urls import api_urlpatterns as clock_api_urls

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("dice-sets", DiceSetViewSet, basename="diceset")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("registrations", RegistrationViewSet, basename="registration")
router.register("rounds", RoundViewSet, basename="round")
router.register("matches", MatchViewSet, basename="match")
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("auth/token/", ObtainAuthTokenThrottled.as_view(), name="api-token"),
    *clock_api_urls,
    # Before the router: the poll is a plain Django view (games/api.py).
    path("games/<int:pk>/poll/", poll, name="game-poll"),
    *router.urls,
]
