from django.apps import AppConfig

from config import deadlines


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        # Imported here, not at the top: models can be imported only once apps are ready.
        from games.hosts import register
        from games.models import GameSession
        from tournaments import clocks, pod_online
        from tournaments.online import TournamentHost, on_match_clock_event
        from tournaments.services import registration, rounds

        deadlines.register_sweep("matches", clocks.sweep)  # run by every worker
        clocks.listen(on_match_clock_event)  # the online game follows the match clock
        register(GameSession.Kind.TOURNAMENT, TournamentHost())
        # Pod tables played online: opened when their round starts, ended by its time.
        rounds.on_round_started(pod_online.on_round_started)
        registration.on_dropped(pod_online.on_player_dropped)
        clocks.listen_pods(pod_online.on_pod_time)
        register(GameSession.Kind.POD_TABLE, pod_online.PodHost())
