"""One rating per player per game (docs/ratings.md): the existing ratings were all of
IRONDIE, the only game rated before; the player's row gets an id of its own."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0005_translated_labels"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="game",
            field=models.CharField(
                default="irondie",
                help_text="The game this rating is for: every game has its own.",
                max_length=20,
                verbose_name="game",
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="rating",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to="players.player",
                verbose_name="player",
            ),
        ),
        migrations.AddField(
            model_name="rating",
            name="id",
            field=models.BigAutoField(
                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="rating",
            name="matches",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Rated matches and pod tables played in this game.",
                verbose_name="matches",
            ),
        ),
        migrations.AlterModelOptions(
            name="rating",
            options={
                "ordering": ["player_id", "game"],
                "verbose_name": "rating",
                "verbose_name_plural": "ratings",
            },
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(
                fields=("player", "game"), name="one_rating_per_player_and_game"
            ),
        ),
    ]
