"""The hook between games and whoever hosts a session (games/hosts.py): games calls only
the host, tournaments hosts tournament games, and practice games have a host that does
nothing."""

import random

import pytest
from django.contrib.auth.models import User

from config.dbtime import db_now
from games import hosts, services
from games.models import GameSession
from players.demo import random_valid_set
from tournaments.models import MatchGame
from tournaments.online import open_match

pytestmark = pytest.mark.django_db


class RecordingHost(hosts.SessionHost):
    """A host that records what games asks of it."""

    def __init__(self):
        self.calls = []

    def lock(self, session_id):
        self.calls.append(("lock", session_id))

    def on_game_over(self, session, now, *, conceded_by=""):
        self.calls.append(("over", session.pk, conceded_by))


@pytest.fixture
def recording_demo_host():
    host = RecordingHost()
    hosts.register(GameSession.Kind.DEMO, host)
    yield host
    hosts._hosts.pop(GameSession.Kind.DEMO)


def _sets():
    rng = random.Random(7)
    return [[d.to_dict() for d in random_valid_set(rng)] for _ in range(2)]


def test_games_tells_the_host_of_a_session_and_no_other(recording_demo_host, judge):
    session = services.create_demo_game(by=judge, sets=_sets(), bot_delay=0)
    assert session.status == GameSession.Status.FINISHED  # two bots, played at once
    assert ("over", session.pk, "") in recording_demo_host.calls
    practice = services.create_practice_game(by=judge, playing_dice=_sets()[0])
    services.concede(session=practice, by=judge)
    assert all(call[1] != practice.pk for call in recording_demo_host.calls)
    # A session known only by its id: every host is asked to lock its row first.
    recording_demo_host.calls.clear()
    services.lock_host_of(practice.pk)
    assert recording_demo_host.calls == [("lock", practice.pk)]


def test_a_practice_game_belongs_to_nothing(judge):
    session = services.create_practice_game(by=judge, playing_dice=_sets()[0])
    host = hosts.host_of(session)
    assert host is hosts.DEFAULT_HOST
    assert host.describe(session) == {"match": None, "game_number": None, "teams": None}
    assert host.clock(session, db_now()) is None
    with pytest.raises(Exception, match="Only a tournament game belongs to a match"):
        services.concede(session=session, by=judge, whole_match=True)


def test_a_tournament_game_is_described_by_its_match(duo):
    session = open_match(match=duo["match"], by=duo["a"])
    link = MatchGame.objects.get(session=session)
    assert (link.match_id, link.number) == (duo["match"].pk, 1)
    described = hosts.host_of(session).describe(session)
    assert described == {"match": duo["match"].pk, "game_number": 1, "teams": None}
    clock = hosts.host_of(session).clock(session, db_now())
    assert clock["match"] == duo["match"].pk


def test_staff_see_in_the_admin_only_the_games_of_events_they_judge(duo, judge, make_user):
    tournament_game = open_match(match=duo["match"], by=duo["a"])
    practice = services.create_practice_game(by=duo["a"], playing_dice=_sets()[0])
    everyone = GameSession.objects.all()

    def visible(user, path=""):
        allowed = hosts.staff_sessions(user, path)
        return set(everyone if allowed is None else everyone.filter(allowed))

    assert visible(judge) == {tournament_game}
    assert visible(make_user("stranger")) == set()
    root = User.objects.create_superuser("root", password="x")
    assert visible(root) == {tournament_game, practice}
