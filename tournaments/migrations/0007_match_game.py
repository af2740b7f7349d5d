"""Online games of a match: the link moves from games.GameSession (its ``match`` and
``game_number`` columns) to tournaments.MatchGame, so that games knows nothing of
tournaments. The existing links are copied here; games 0003 then drops the old columns.
"""

import django.db.models.deletion
from django.db import migrations, models


def copy_links(apps, schema_editor):
    db = schema_editor.connection.alias  # the database being migrated
    GameSession = apps.get_model("games", "GameSession")
    MatchGame = apps.get_model("tournaments", "MatchGame")
    MatchGame.objects.using(db).bulk_create(
        MatchGame(match_id=match_id, number=number, session_id=session_id)
        for session_id, match_id, number in GameSession.objects.using(db).filter(
            match__isnull=False
        ).values_list("pk", "match_id", "game_number")
    )


def copy_links_back(apps, schema_editor):
    db = schema_editor.connection.alias  # the database being migrated
    GameSession = apps.get_model("games", "GameSession")
    MatchGame = apps.get_model("tournaments", "MatchGame")
    for link in MatchGame.objects.using(db).all():
        GameSession.objects.using(db).filter(pk=link.session_id).update(
            match_id=link.match_id, game_number=link.number
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_game_deadline_task_eta"),
        ("tournaments", "0006_match_deadline_task_etas"),
    ]

    operations = [
        migrations.CreateModel(
            name="MatchGame",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="online_games",
                        to="tournaments.match",
                    ),
                ),
                (
                    "session",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="match_game",
                        to="games.gamesession",
                    ),
                ),
            ],
            options={
                "ordering": ["match_id", "number"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("match", "number"), name="match_game_number_unique"
                    )
                ],
            },
        ),
        migrations.RunPython(copy_links, copy_links_back),
    ]
