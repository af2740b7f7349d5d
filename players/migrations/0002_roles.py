from django.db import migrations

ROLE_GROUPS = ["organiser", "judge"]


def create_role_groups(apps, schema_editor):
    db = schema_editor.connection.alias  # the database being migrated
    Group = apps.get_model("auth", "Group")
    for name in ROLE_GROUPS:
        Group.objects.using(db).get_or_create(name=name)


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_role_groups, migrations.RunPython.noop)]
