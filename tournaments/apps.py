from django.apps import AppConfig

from config import deadlines


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # Imported here, not at the top: models can be imported only once apps are ready.
        from games.hosts import register
        from games.models import GameSession
        from tournaments import clocks
        from tournaments.online import TournamentHost, on_match_clock_event

        deadlines.register_sweep("matches", clocks.sweep)  # run by every worker
        clocks.listen(on_match_clock_event)  # the online game follows the match clock
        register(GameSession.Kind.TOURNAMENT, TournamentHost())
