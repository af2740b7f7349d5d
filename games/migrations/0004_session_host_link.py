"""A session no longer names its match or the players' registrations: the link lives
in tournaments.MatchGame (tournaments 0006 copied it), behind games/hosts.py."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_game_deadline_task_eta"),
        ("tournaments", "0007_match_game"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="gamesession", name="one_session_per_match_game"),
        migrations.RemoveField(model_name="gamesession", name="match"),
        migrations.RemoveField(model_name="gamesession", name="game_number"),
        migrations.RemoveField(model_name="gamesession", name="registration_0"),
        migrations.RemoveField(model_name="gamesession", name="registration_1"),
    ]
