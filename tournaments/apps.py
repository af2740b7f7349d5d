from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # Imported here, not at the top: models can be imported only once apps are ready.
        from games.hosts import register
        from games.models import GameSession
        from tournaments.online import TournamentHost

        register(GameSession.Kind.TOURNAMENT, TournamentHost())
