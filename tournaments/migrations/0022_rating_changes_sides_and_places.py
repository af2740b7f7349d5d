"""The rating history before ratings per game: every row is of a two-player match. Each
row takes its event's game, its side (0: player A, 1: player B) and its place (a win 1,
a loss 2, a draw 1 each, not rated empty). The ratings themselves were all stored as
IRONDIE's (players 0006); ``manage.py recompute_ratings`` moves any other game's matches
into that game's rating (docs/ratings.md "Upgrading")."""

from django.db import migrations

PLACE = {"win": 1, "loss": 2, "draw": 1, "": None}


def fill_sides_and_places(apps, schema_editor):
    db = schema_editor.connection.alias  # the database being migrated
    RatingChange = apps.get_model("tournaments", "RatingChange")
    rows = list(
        RatingChange.objects.using(db).select_related(
            "match__player_a", "match__round__tournament"
        ).order_by("id")
    )
    for row in rows:
        row.game = row.match.round.tournament.game
        row.side = 0 if row.match.player_a.player_id == row.player_id else 1
        row.place = PLACE[row.outcome]
    RatingChange.objects.using(db).bulk_update(rows, ["game", "side", "place"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_rating_changes_per_game_for_teams_and_tables"),
    ]

    operations = [
        migrations.RunPython(fill_sides_and_places, migrations.RunPython.noop, elidable=True),
    ]
