"""Per-event organisers.

Until now anyone in the site group "organiser" managed every tournament. From here on
an event is managed by its owner (the existing ``organiser`` column: the user who
created it, never empty) and its co-organisers. So that an event under way keeps the
people who were running it, a member of the site group who performed organiser-only
actions on an unfinished event (its audit log says so) becomes a co-organiser of that
event; each such grant is written to the event's audit log, where the owner sees it and
may remove it. Nobody else gains or keeps power over an event they do not own.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


# Audit actions only an organiser could perform (tournaments/services.py).
ORGANISER_ACTIONS = [
    "tournament.updated",
    "tournament.status",
    "round.paired",
    "round.published",
    "round.closed",
    "round.unpaired",
    "pairing.edited",
    "top_cut.started",
    "registration.reinstated",
]


def carry_over_acting_organisers(apps, schema_editor):
    db = schema_editor.connection.alias  # the database being migrated
    Tournament = apps.get_model("tournaments", "Tournament")
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    site_organisers = set(
        User.objects.using(db).filter(
            groups__name="organiser", is_active=True, is_superuser=False
        ).values_list("pk", flat=True)
    )
    if not site_organisers:
        return
    acted = (
        AuditEntry.objects.using(db).filter(action__in=ORGANISER_ACTIONS, actor_id__in=site_organisers)
        .exclude(tournament__status="finished")
        .values_list("tournament_id", "actor_id")
        .distinct()
    )
    grants: dict[int, set[int]] = {}
    for tournament_id, actor_id in acted:
        grants.setdefault(tournament_id, set()).add(actor_id)
    for tournament in Tournament.objects.using(db).filter(pk__in=grants).order_by("pk"):
        current = set(tournament.co_organisers.values_list("pk", flat=True))
        new = grants[tournament.pk] - current - {tournament.organiser_id}
        if not new:
            continue
        tournament.co_organisers.add(*new)
        AuditEntry.objects.using(db).create(
            tournament=tournament,
            actor=None,
            action="tournament.co_organisers",
            object_type="Tournament",
            object_id=tournament.pk,
            before={"co_organisers": sorted(current)},
            after={"co_organisers": sorted(current | new)},
            reason="Per-event organisers: kept those who acted as organisers of this event.",
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_tournament_setting_bounds"),
        ("players", "0002_roles"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="co_organisers",
            field=models.ManyToManyField(
                blank=True,
                help_text="Manage the event with its owner (and assign its judges).",
                related_name="co_organised_tournaments",
                to=settings.AUTH_USER_MODEL,
                verbose_name="co-organisers",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="organiser",
            field=models.ForeignKey(
                help_text="Created the event; manages it and chooses its co-organisers.",
                on_delete=django.db.models.deletion.PROTECT,
                related_name="organised_tournaments",
                to=settings.AUTH_USER_MODEL,
                verbose_name="owner",
            ),
        ),
        migrations.RunPython(carry_over_acting_organisers, migrations.RunPython.noop),
    ]
