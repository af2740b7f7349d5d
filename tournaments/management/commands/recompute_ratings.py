"""Rebuild every player's rating in every game from the rating history (docs/ratings.md)."""

from django.core.management.base import BaseCommand

from tournaments.services.ratings import recompute_ratings


class Command(BaseCommand):
    help = (
        "Replay the whole rating history in order from the start values, each game on its "
        "own (adding confirmed matches and placed pod tables that have no history yet), and "
        "store the figures; a second run changes nothing."
    )

    def handle(self, *args, **options):
        summary = recompute_ratings()
        self.stdout.write(
            "{matches} matches and tables replayed ({added} added to the history), {changed} "
            "history rows corrected, {players} players rated.".format(**summary)
        )
        for game, count in summary["games"].items():
            self.stdout.write(f"  {game}: {count} matches and tables")
