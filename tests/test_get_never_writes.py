"""A GET never writes: every page and API route, read by a brand-new user and by an
anonymous visitor, leaves every table as it was and sends no INSERT/UPDATE/DELETE."""

import datetime
import re

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver

from games.models import GameSession
from players.models import DiceSet, Player
from tests.tournaments.pod_helpers import pod_table_of_players
from tournaments import services
from tournaments.models import Match, PairingJob, Registration, Tournament

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)
PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def _routes(patterns=None, prefix=""):
    """Every leaf route as its pattern text, e.g. 'tournaments/<int:pk>/rounds/<int:number>/'."""
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        text = prefix + str(entry.pattern).lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, text)
        elif isinstance(entry, URLPattern):
            yield text


def _concrete(route: str, ids: dict) -> str | None:
    """Fill each parameter from the literal segment before it (tournaments/<pk> is a
    tournament, rounds/<pk> a round ...)."""
    if "format" in route or route.startswith("admin/"):
        return None  # format suffixes repeat other routes; the admin is staff-only
    path, position = "", 0
    for match in PARAMETER.finditer(route):
        path += route[position : match.start()]
        name = match.group(1) or match.group(2)
        owner = path.rstrip("/").rsplit("/", 1)[-1]
        value = ids.get(name) or ids.get(owner) or ids.get((owner, name))
        if value is None:
            raise AssertionError(f"no value for {name!r} after {owner!r} in {route!r}")
        path += str(value)
        position = match.end()
    path += route[position:]
    return "/" + path.replace("\\", "")


def _row_counts() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


@pytest.fixture
def demo(db):
    call_command("load_demo")
    tournament = Tournament.objects.get()
    round_ = tournament.rounds.order_by("-number").first()
    match = Match.objects.filter(round=round_, player_b__isnull=False).first()
    job = PairingJob.objects.create(
        tournament=tournament, number=round_.number + 1, seed="s", status="failed", error="x"
    )
    team = _team_event(tournament.organiser)
    ids = {
        "teams": team.pk,
        "team_id": team.pk,
        "tournaments": tournament.pk,
        "rounds": round_.pk,
        "matches": match.pk,
        "games": GameSession.objects.first().pk,
        "dice-sets": DiceSet.objects.first().pk,
        "players": Player.objects.first().pk,
        "registrations": Registration.objects.first().pk,
        "number": round_.number,
        "registration_id": Registration.objects.first().pk,
        "registration": Registration.objects.filter(tournament=tournament).first().pk,
        "match_id": match.pk,
        "job_id": job.pk,
        "pod-tables": _pod_table(tournament).pk,
        "table": 1,  # a table number of the round
        "report_id": 1,  # a pod table report (POST only: any id shows the GET writes nothing)
        "action": "pause",
        "uidb64": "MQ",
        "token": "set-password",
    }
    paths = sorted({p for r in _routes() if (p := _concrete(r, ids))})
    assert len(paths) > 60  # every page, API and clock route
    return paths


def _pod_table(tournament):
    """A table of a pod event run by the demo's organiser and judge."""
    players = list(Player.objects.filter(user__isnull=False).order_by("pk")[:3])
    return pod_table_of_players(tournament.organiser, tournament.head_judge, players)


def _team_event(organiser):
    """A team event with one team (its own event: the demo's is individual)."""
    event = services.create_tournament(
        organiser=organiser, name="Team Demo", date=datetime.date(2026, 12, 5), team_size=2
    )
    services.change_status(tournament=event, to=Tournament.Status.REGISTRATION, by=organiser)
    sets = list(DiceSet.objects.select_related("player").order_by("player_id")[:2])
    return services.register_team(
        tournament=event,
        name="Demo Team",
        captain=sets[0].player,
        members=[(s.player, s) for s in sets],
        by=organiser,
    )


def _get_everything(client: Client, paths: list[str]) -> list[str]:
    writes = []
    for path in paths:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        assert response.status_code < 500, (path, response.status_code)
        writes += [f"{path}: {q['sql'][:120]}" for q in queries if WRITE.match(q["sql"])]
    return writes


@pytest.mark.django_db
def test_a_new_user_reading_every_route_writes_nothing(demo, django_user_model):
    newcomer = django_user_model.objects.create_user("newcomer", password="x-long-password-1")
    client = Client()
    client.force_login(newcomer)
    before = _row_counts()
    writes = _get_everything(client, demo)
    assert writes == []
    assert _row_counts() == before
    assert not Player.objects.filter(user=newcomer).exists()


@pytest.mark.django_db
def test_an_anonymous_visitor_reading_every_route_writes_nothing(demo):
    before = _row_counts()
    assert _get_everything(Client(), demo) == []
    assert _row_counts() == before


@pytest.mark.django_db
def test_the_profile_is_created_by_saving_it(make_user):
    user = make_user("fresh")
    client = Client()
    client.force_login(user)
    page = client.get("/me/")
    assert page.status_code == 200 and "no player profile yet" in page.content.decode()
    assert client.get("/me/dice-sets/").status_code == 200
    new_set = client.get("/me/dice-sets/new/")
    assert new_set.status_code == 302 and new_set["Location"] == "/me/"
    assert not Player.objects.filter(user=user).exists()
    saved = client.post("/me/", {"display_name": "Fresh Face", "country": "IT", "club": ""})
    assert saved.status_code == 302
    player = Player.objects.get(user=user)
    assert player.display_name == "Fresh Face" and player.country == "IT"
    assert client.get("/me/dice-sets/new/").status_code == 200
