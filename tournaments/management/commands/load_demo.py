from django.core.management.base import BaseCommand

from games.demo import load_demo_game
from players.demo import DEMO_PASSWORD, load_demo_people
from tournaments.demo import load_demo_tournament


class Command(BaseCommand):
    help = (
        "Load the demo people, their dice sets, a tournament in mid-Swiss and a bot game "
        "in progress (safe to run twice)."
    )

    def handle(self, *args, **options):
        people = load_demo_people(players=16)
        tournament = load_demo_tournament(
            organiser=people["organiser"], judge=people["judge"], players=people["players"]
        )
        game = load_demo_game(judge=people["judge"])
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: “{tournament.name}”. Logins (password {DEMO_PASSWORD}): "
                "organiser, judge, admin, player1..player16. "
                f"A bot game in progress: /games/{game.pk}/."
            )
        )
