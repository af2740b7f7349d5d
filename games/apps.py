from django.apps import AppConfig

from config import deadlines


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from games import enforcement

        deadlines.register_sweep("games", enforcement.sweep)  # run by every worker
