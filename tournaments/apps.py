from django.apps import AppConfig

from config import deadlines


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # Imported here, not at the top: models can be imported only once apps are ready.
        from games.hosts import register
        from games.models import GameSession
        from tournaments import clocks
        from tournaments.online import TournamentHost

        deadlines.register_sweep("matches", clocks.sweep)  # run by every worker
        register(GameSession.Kind.TOURNAMENT, TournamentHost())
