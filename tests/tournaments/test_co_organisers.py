"""The owner of an event and its co-organisers: adding and removing them (API, console,
admin), what each may do, "my events" lists, and the migration for existing events."""

import datetime
import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.conftest import api_as
from tournaments import services
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db

DATE = datetime.date(2026, 12, 5)


@pytest.fixture
def people(make_user):
    return {
        "owner": make_user("owner", groups=["organiser"]),
        "helper": make_user("helper"),
        "other": make_user("other", groups=["organiser"]),
        "judge": make_user("ref", groups=["judge"]),
    }


@pytest.fixture
def draft(people):
    return services.create_tournament(organiser=people["owner"], name="Club Cup", date=DATE)


@pytest.fixture
def event(people, draft):
    return services.change_status(tournament=draft, to="registration", by=people["owner"])


def _add(user, event, username):
    return api_as(user).post(
        f"/api/tournaments/{event.pk}/co-organisers/", {"username": username}, format="json"
    )


def _remove(user, event, username):
    return api_as(user).post(
        f"/api/tournaments/{event.pk}/co-organisers/remove/", {"username": username}, format="json"
    )


def test_owner_adds_a_co_organiser_who_then_manages_only_this_event(people, draft):
    other_event = services.create_tournament(organiser=people["other"], name="Elsewhere", date=DATE)
    response = _add(people["owner"], draft, "helper")
    assert response.status_code == 200, response.content
    assert response.json()["co_organisers"] == ["helper"]
    helper = api_as(people["helper"])
    assert helper.get(f"/api/tournaments/{draft.pk}/").json()["my_role"] == "co_organiser"
    assert (
        helper.post(
            f"/api/tournaments/{draft.pk}/status/", {"status": "registration"}, format="json"
        ).status_code
        == 200
    )
    event = draft
    # The other event is a draft of someone else: not even visible.
    assert helper.get(f"/api/tournaments/{other_event.pk}/").status_code == 404
    entry = AuditEntry.objects.filter(tournament=event, action="tournament.co_organisers").get()
    assert entry.actor == people["owner"]
    assert entry.before == {"co_organisers": []}
    assert entry.after == {"co_organisers": [people["helper"].pk]}


def test_only_the_owner_chooses_co_organisers(people, event):
    _add(people["owner"], event, "helper")
    assert _add(people["helper"], event, "other").status_code == 403
    assert _add(people["other"], event, "other").status_code == 403  # a site organiser
    assert _add(people["judge"], event, "judge").status_code in (403, 404)
    event.refresh_from_db()
    assert list(event.co_organisers.values_list("username", flat=True)) == ["helper"]


def test_names_cannot_be_probed_and_mistakes_are_400(people, event):
    assert _add(people["other"], event, "nobody-like-this").status_code == 403
    missing = _add(people["owner"], event, "nobody-like-this")
    assert missing.status_code == 400 and "username" in missing.json()["errors"]
    assert _add(people["owner"], event, "owner").status_code == 400  # the owner already is
    assert _add(people["owner"], event, "helper").status_code == 200
    assert _add(people["owner"], event, "helper").status_code == 400  # already
    assert _remove(people["owner"], event, "other").status_code == 400  # not one
    assert AuditEntry.objects.filter(action="tournament.co_organisers").count() == 1


def test_owner_removes_and_a_co_organiser_steps_down(people, event, make_user):
    second = make_user("second")
    _add(people["owner"], event, "helper")
    _add(people["owner"], event, "second")
    assert _remove(people["helper"], event, "second").status_code == 403
    assert _remove(people["helper"], event, "helper").status_code == 200  # steps down
    assert _remove(people["owner"], event, "second").status_code == 200
    event.refresh_from_db()
    assert event.co_organisers.count() == 0
    assert api_as(second).patch(
        f"/api/tournaments/{event.pk}/", {"venue": "x"}, format="json"
    ).status_code in (403, 404)


def test_co_organisers_assign_judges_who_judge_only_here(people, event):
    _add(people["owner"], event, "helper")
    response = api_as(people["helper"]).patch(
        f"/api/tournaments/{event.pk}/",
        {"head_judge": people["judge"].pk, "floor_judge_ids": [people["other"].pk]},
        format="json",
    )
    assert response.status_code == 200
    assert len(response.json()["floor_judges"]) == 1  # named by display name, not login
    assert list(event.floor_judges.all()) == [people["other"]]
    judge = api_as(people["judge"])
    assert judge.get(f"/api/tournaments/{event.pk}/queue/").status_code == 200
    assert judge.get(f"/api/tournaments/{event.pk}/").json()["my_role"] == "judge"
    # Judges do not manage: no settings, no co-organisers.
    assert (
        judge.patch(f"/api/tournaments/{event.pk}/", {"venue": "x"}, format="json").status_code
        == 403
    )
    assert _add(people["judge"], event, "ref").status_code == 403


def test_a_co_organiser_steps_down_from_a_draft_they_then_no_longer_see(people, draft):
    _add(people["owner"], draft, "helper")
    response = _remove(people["helper"], draft, "helper")
    assert response.status_code == 204
    assert api_as(people["helper"]).get(f"/api/tournaments/{draft.pk}/").status_code == 404


def test_drafts_are_seen_by_their_own_people_only(people, draft):
    event = draft
    services.add_co_organiser(tournament=event, user=people["helper"], by=people["owner"])
    services.update_tournament(tournament=event, by=people["owner"], head_judge=people["judge"])
    ids = {
        who: [t["id"] for t in api_as(user).get("/api/tournaments/").json()["results"]]
        for who, user in people.items()
    }
    assert ids == {"owner": [event.pk], "helper": [event.pk], "judge": [event.pk], "other": []}
    page = Client()
    page.force_login(people["other"])
    assert page.get(reverse("tournaments:home", kwargs={"pk": event.pk})).status_code == 404
    assert "Club Cup" not in page.get(reverse("tournaments:list")).content.decode()


def _my_events(people, first, count):
    owner, helper = people["owner"], people["helper"]
    for i in range(first, first + count):
        mine = services.create_tournament(organiser=owner, name=f"Mine {i}", date=DATE)
        services.add_co_organiser(tournament=mine, user=helper, by=owner)
        services.change_status(tournament=mine, to="registration", by=owner)
        theirs = services.create_tournament(
            organiser=people["other"], name=f"Theirs {i}", date=DATE, head_judge=helper
        )
        services.change_status(tournament=theirs, to="registration", by=people["other"])


def test_my_events_in_the_api(people, make_user, django_assert_num_queries):
    _my_events(people, 0, 3)
    client = api_as(people["helper"])
    with django_assert_num_queries(4):  # count, tournaments, judges, co-organisers
        rows = client.get("/api/tournaments/?mine=1").json()["results"]
    assert sorted((r["name"], r["my_role"]) for r in rows) == sorted(
        [(f"Mine {i}", "co_organiser") for i in range(3)]
        + [(f"Theirs {i}", "judge") for i in range(3)]
    )
    assert len(client.get("/api/tournaments/").json()["results"]) == 6
    assert api_as(make_user("stranger")).get("/api/tournaments/?mine=1").json()["results"] == []


def test_my_events_on_the_list_page_in_constant_queries(people):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    page = Client()
    page.force_login(people["helper"])

    def queries():
        with CaptureQueriesContext(connection) as captured:
            html = page.get(reverse("tournaments:list")).content.decode()
        return len(captured), html

    _my_events(people, 0, 2)
    few, _ = queries()
    _my_events(people, 2, 4)
    many, html = queries()
    assert many == few <= 7
    assert html.count("co-organiser") == 6 and "Your events" in html


def test_console_shows_the_team_and_the_owner_manages_it(people, event):
    owner, helper = Client(), Client()
    owner.force_login(people["owner"])
    helper.force_login(people["helper"])
    add = reverse("tournaments:co_organiser_action", kwargs={"pk": event.pk, "action": "add"})
    remove = reverse("tournaments:co_organiser_action", kwargs={"pk": event.pk, "action": "remove"})
    assert helper.post(add, {"username": "helper"}).status_code == 403
    response = owner.post(add, {"username": "helper"}, follow=True)
    assert "helper is now a co-organiser." in response.content.decode()
    console = helper.get(reverse("tournaments:console", kwargs={"pk": event.pk})).content.decode()
    assert "Step down" in console and "add-co-organiser" not in console
    assert helper.post(add, {"username": "other"}).status_code == 403
    assert (
        "No active user by that name."
        in owner.post(add, {"username": "ghost"}, follow=True).content.decode()
    )
    # Stepping down asks first; nothing changes until it is confirmed.
    asked = helper.post(remove, {"username": "helper"})
    assert asked.status_code == 200 and "Step down from" in asked.content.decode()
    assert event.co_organisers.count() == 1
    assert helper.post(remove, {"username": "helper", "confirmed": "yes"}).status_code == 302
    event.refresh_from_db()
    assert event.co_organisers.count() == 0
    assert helper.get(reverse("tournaments:console", kwargs={"pk": event.pk})).status_code == 403


def test_the_admin_is_scoped_to_the_events_a_staff_account_organises(people, event, make_user):
    elsewhere = services.create_tournament(organiser=people["other"], name="Elsewhere", date=DATE)
    helper = people["helper"]
    services.add_co_organiser(tournament=event, user=helper, by=people["owner"])
    helper.is_staff = True
    helper.save()
    helper.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="tournaments",
            codename__in=["view_tournament", "change_tournament", "view_registration"],
        )
    )
    client = Client()
    client.force_login(helper)
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    assert "Club Cup" in listing and "Elsewhere" not in listing
    assert client.get(f"/admin/tournaments/tournament/{elsewhere.pk}/change/").status_code in (
        302,
        403,
        404,
    )
    form = client.get(f"/admin/tournaments/tournament/{event.pk}/change/").content.decode()
    assert 'name="co_organisers"' not in form  # only the owner chooses co-organisers


def test_superuser_changes_co_organisers_in_the_admin_and_it_is_audited(
    people, event, admin_client
):
    url = f"/admin/tournaments/tournament/{event.pk}/change/"
    form = {
        "name": event.name,
        "date": event.date.isoformat(),
        "venue": "",
        "organiser": people["owner"].pk,
        "co_organisers": [people["helper"].pk],
        "status": event.status,
        "top_cut_size": event.top_cut_size,
        "match_minutes": event.match_minutes,
        "team_size": event.team_size,
        "game_minutes": event.game_minutes,
        "pod_mode": event.pod_mode,
        "late_entry": event.late_entry,
        "percentage_floor": event.percentage_floor,
        "bracket_losers": event.bracket_losers,
        "game_draw_points": event.game_draw_points,
        "floor_own_game_win": "on",
        "no_opponents_value": "",
        "no_games_game_win": "",
        "bye_counting": event.bye_counting,
        "standings_decimals": event.standings_decimals,
        "swiss_phases": "[]",
        "round_one_seeding": "random",
        "tiebreakers": "[]",
        "top_cut_seeds": "[]",
        "publish_pairings": "on",
        "publish_standings": "on",
        "publish_results": "on",
    }
    response = admin_client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert list(event.co_organisers.all()) == [people["helper"]]
    entry = AuditEntry.objects.filter(tournament=event, action="tournament.updated").get()
    assert entry.after == {"co_organisers": [people["helper"].pk]}


# --- the migration --------------------------------------------------------------------


def test_migration_keeps_those_who_ran_an_unfinished_event(people, make_user):
    migration = importlib.import_module(
        "tournaments.migrations.0005_tournament_owner_co_organisers"
    )
    # What Django hands a data migration: its schema editor, whose connection names the
    # database being migrated.
    editor = SimpleNamespace(connection=connection)
    owner, other = people["owner"], people["other"]
    left_group = make_user("left_group")  # acted back then, no longer an organiser
    running = services.create_tournament(organiser=owner, name="Running", date=DATE)
    finished = services.create_tournament(organiser=owner, name="Done", date=DATE)
    untouched = services.create_tournament(organiser=owner, name="Quiet", date=DATE)
    Tournament.objects.filter(pk=finished.pk).update(status=Tournament.Status.FINISHED)
    for tournament, actor, action in [
        (running, other, "round.paired"),
        (running, other, "round.published"),
        (running, left_group, "round.closed"),
        (running, people["judge"], "result.confirmed"),
        (finished, other, "round.paired"),
        (untouched, other, "result.confirmed"),  # a judge's action: not an organiser's
    ]:
        AuditEntry.objects.create(tournament=tournament, actor=actor, action=action)
    migration.carry_over_acting_organisers(django_apps, editor)
    assert list(running.co_organisers.all()) == [other]
    assert finished.co_organisers.count() == 0 and untouched.co_organisers.count() == 0
    note = AuditEntry.objects.get(tournament=running, action="tournament.co_organisers")
    assert note.actor is None and note.after == {"co_organisers": [other.pk]}
    # Running it again grants nothing new and writes nothing new.
    migration.carry_over_acting_organisers(django_apps, editor)
    assert AuditEntry.objects.filter(action="tournament.co_organisers").count() == 1
