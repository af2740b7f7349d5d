"""One router for the whole API; each app registers its viewsets here."""

from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from players.api import DiceSetViewSet, PlayerViewSet
from tournaments.api import MatchViewSet, RegistrationViewSet, RoundViewSet, TournamentViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("dice-sets", DiceSetViewSet, basename="diceset")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("registrations", RegistrationViewSet, basename="registration")
router.register("rounds", RoundViewSet, basename="round")
router.register("matches", MatchViewSet, basename="match")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    *router.urls,
]
