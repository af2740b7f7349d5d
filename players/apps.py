from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players and dice sets"

    def ready(self):
        # Connects the log-in signal that applies a player's saved language.
        from players import language  # noqa: F401
