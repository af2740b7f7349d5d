from django.apps import AppConfig

from config import deadlines


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from games import clocks

        deadlines.register_sweep("games", clocks.sweep)  # run by every worker
