from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from config import deadlines
        from games import clocks

        deadlines.register_sweep("games", clocks.sweep)  # run by every worker
