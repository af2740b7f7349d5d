"""Login names stay private: pages and API show display names to the public; login
names only to their owner and staff. The demo superuser comes only with the demo data."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from games.management.commands.serve import Command as Serve
from games.models import GameSession
from players import services as player_services
from players.models import Player
from tests.conftest import api_as
from tests.test_get_never_writes import _concrete, _pod_table, _routes, _team_event
from tournaments import services
from tournaments.models import Match, PairingJob, Registration, Tournament

User = get_user_model()


@pytest.mark.django_db
def test_player_api_shows_login_names_to_owner_and_staff_only(make_player, organiser, make_user):
    alice = make_player("Alice Liddell")  # login name "aliceliddell"
    bob = make_player("Bob Builder")
    for client in (Client(), api_as(bob.user)):
        body = client.get("/api/players/").content.decode()
        assert "Alice Liddell" in body and "aliceliddell" not in body
        assert client.get(f"/api/players/{alice.pk}/").json()["user"] is None
    assert api_as(alice.user).get(f"/api/players/{alice.pk}/").json()["user"] == "aliceliddell"
    # Being a site organiser shows no login names; site staff (superusers) see them.
    organiser_view = api_as(organiser).get("/api/players/").json()["results"]
    assert {row["user"] for row in organiser_view} == {None}
    staff = make_user("root")
    User.objects.filter(pk=staff.pk).update(is_superuser=True)
    staff.refresh_from_db()
    staff_view = api_as(staff).get("/api/players/").json()["results"]
    assert {row["user"] for row in staff_view} == {"aliceliddell", "bobbuilder"}


@pytest.mark.django_db
def test_tournament_api_names_organiser_and_judges_by_public_name(
    make_user, make_player, organiser, tournament
):
    User.objects.filter(pk=organiser.pk).update(username="login-of-olga")
    player_services.create_player(display_name="Olga Organiser", user=organiser)
    head = tournament.head_judge
    User.objects.filter(pk=head.pk).update(
        username="login-of-judy", first_name="Judy", last_name="Hopps"
    )
    floor = make_user("login-of-floor", groups=["judge"])
    tournament.floor_judges.add(floor)
    outsider = make_player("Outsider").user
    for client in (Client(), api_as(outsider)):
        data = client.get(f"/api/tournaments/{tournament.pk}/").json()
        assert data["organiser"] == "Olga Organiser"
        assert data["head_judge_username"] == "Judy Hopps"
        assert data["floor_judges"] == [None]  # no public name: nothing rather than a login
        listing = client.get("/api/tournaments/").content.decode()
        assert "login-of" not in listing and "Olga Organiser" in listing
    staff = api_as(organiser).get(f"/api/tournaments/{tournament.pk}/").json()
    assert staff["organiser"] == "login-of-olga" and staff["floor_judges"] == ["login-of-floor"]


@pytest.mark.django_db
def test_no_page_or_api_route_shows_a_login_name_to_the_public():
    call_command("load_demo")
    for login in ("organiser", "judge", "admin"):
        User.objects.filter(username=login).update(username=f"login-of-{login}")
    tournament = Tournament.objects.get()
    match = Match.objects.filter(round__tournament=tournament, player_b__isnull=False).first()
    services.give_penalty(
        registration=match.player_a,
        kind="warning",
        reason="Slow play",
        by=User.objects.get(username="login-of-judge"),
        match=match,
    )
    # A team event run by the same organiser: its team pages and API name no login either.
    team = _team_event(tournament.organiser)
    ids = {
        "teams": team.pk,
        "team_id": team.pk,
        "tournaments": tournament.pk,
        "rounds": tournament.rounds.order_by("-number").first().pk,
        "matches": match.pk,
        "games": GameSession.objects.first().pk,
        "dice-sets": 1,
        "players": Player.objects.first().pk,
        "registrations": Registration.objects.first().pk,
        "number": tournament.rounds.order_by("-number").first().number,
        "registration_id": Registration.objects.first().pk,
        "match_id": match.pk,
        "registration": Registration.objects.filter(tournament=tournament).first().pk,
        # A failed background pairing job: its page and API answer name no one either.
        "job_id": PairingJob.objects.create(
            tournament=tournament, number=9, seed="s", status="failed", error="x"
        ).pk,
        "pod-tables": _pod_table(tournament).pk,
        "table": 1,  # a table number of the round
        "report_id": 1,  # a pod report's route takes only POSTs
        "action": "pause",
        "uidb64": "MQ",
        "token": "set-password",
    }
    paths = sorted({p for r in _routes() if (p := _concrete(r, ids))})
    logins = re.compile(r"login-of-\w+|\bplayer\d{1,2}\b")
    outsider = User.objects.create_user("outsider-login", password="x-long-password-1")
    signed_in = Client()
    signed_in.force_login(outsider)
    leaks = []
    for client in (Client(), signed_in):
        for path in paths:
            body = client.get(path).content.decode(errors="replace")
            leaks += [f"{path}: {m}" for m in set(logins.findall(body))]
    assert leaks == []
    # Site staff still see who did what by login name.
    staff = Client()
    staff.force_login(User.objects.get(username="login-of-admin"))
    penalties = staff.get(f"/tournaments/{tournament.pk}/penalties/").content.decode()
    assert "login-of-judge" in penalties


@pytest.mark.django_db
def test_the_demo_superuser_exists_only_with_the_demo_data():
    assert not User.objects.filter(is_superuser=True).exists()  # migrations create none
    call_command("load_demo")
    assert User.objects.get(username="admin").is_superuser


def test_serve_says_whether_demo_logins_exist():
    assert "demo data loaded: logins" in Serve()._accounts_line(no_demo=False)
    assert "admin (superuser)" in Serve()._accounts_line(no_demo=False)
    without = Serve()._accounts_line(no_demo=True)
    assert without.startswith("no demo data") and "createsuperuser" in without
