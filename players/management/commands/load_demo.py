from django.core.management.base import BaseCommand

from players.demo import DEMO_PASSWORD, load_demo_people


class Command(BaseCommand):
    help = "Load the demo organiser, judge and players with valid dice sets (safe to run twice)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--players", type=int, default=16, help="How many demo players (at most 16)."
        )

    def handle(self, *args, players, **options):
        if not 2 <= players <= 16:
            self.stderr.write(self.style.ERROR("--players must be between 2 and 16."))
            raise SystemExit(2)
        load_demo_people(players=players)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready. Logins (password {DEMO_PASSWORD}): organiser, judge, admin, player1..player{players}."
            )
        )
