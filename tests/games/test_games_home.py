"""/games/ names every seat's player of every listed game, in a constant number of
queries whatever the number of games and of seats."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import GameSession

pytestmark = pytest.mark.django_db


def _page(client) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/games/")
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def _practice(user, game, seats):
    return services.create_practice_game(by=user, bot="random", game=game, seats=seats)


def test_every_seat_is_named_in_constant_queries(client, make_user, judge):
    alice = make_user("alice")
    client.force_login(alice)
    _practice(alice, "36d6", 2)
    _empty, few = _page(client)
    four = _practice(alice, "36d6", 4)
    three = _practice(alice, "dice-forge", 3)
    demo = services.create_demo_game(
        by=judge, game="dice-forge", seats=4, bots=("heuristic", "random"), bot_delay=5
    )
    for _ in range(4):
        _practice(alice, "dice-forge", 2)
    page, many = _page(client)
    assert many == few, f"{few} queries with one game, {many} with eight"
    # Every seat, bots named in the reader's language, the game named.
    assert four.seat_count == 4 and three.seat_count == 3 and demo.seat_count == 4
    for session in (four, three, demo):
        names = " – ".join(session.shown_names)
        assert names.count(" – ") == session.seat_count - 1
        assert names in page
    assert "36d6: " in page and "Dice Forge: " in page
    assert "Heuristic bot 3 – Random bot 4" in page  # the demo's last two seats
    assert "Random bot 3" in page  # a practice game's third seat
    # The watch list (games in play, for anyone) names every seat too.
    client.logout()
    watching, _count = _page(client)
    assert " – ".join(demo.shown_names) in watching


def test_the_practice_form_offers_every_game(client, make_user):
    user = make_user("bob")
    client.force_login(user)
    page, _count = _page(client)
    for value in ("irondie", "36d6", "dice-forge"):
        assert f'<option value="{value}">' in page
    response = client.post("/games/practice/", {"game": "dice-forge", "seats": "3"})
    assert response.status_code == 302
    session = GameSession.objects.get(created_by=user)
    assert session.engine == "dice-forge" and session.seat_count == 3
