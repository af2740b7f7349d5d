from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from config import deadlines
        from tournaments import clocks

        deadlines.register_sweep("matches", clocks.sweep)  # run by every worker
