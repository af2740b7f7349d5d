"""Online Dice Forge with alternate cards: a practice game names them as its variants
(docs/rules-dice-forge.md F11); an unknown or unplayed one is a 400 that creates nothing."""

import pytest

from games.models import GameSession

from .conftest import login_client

pytestmark = pytest.mark.django_db


def _create(client, **body):
    return client.post(
        "/api/games/", {"game": "dice-forge", "bot": "random", **body}, format="json"
    )


def test_a_practice_game_swaps_in_the_alternate_cards_it_names(make_user):
    client = login_client(make_user("alice"))
    response = _create(client, seats=3, variants=["typhon", "triton"])
    assert response.status_code == 201, response.json()
    view = response.json()["view"]
    assert view["config"]["variants"] == ["triton", "typhon"]
    cards = [feat["card"] for feat in view["feats"]]
    assert "triton" in cards and "typhon" in cards
    assert "gorgon" not in cards and "hydra" not in cards
    assert all("tokens" in player for player in view["players"])


def test_the_boar_and_the_shield_are_played_online(make_user):
    client = login_client(make_user("alice"))
    response = _create(client, seats=2, variants=["guardians_shield", "tenacious_boar"])
    assert response.status_code == 201, response.json()
    cards = [feat["card"] for feat in response.json()["view"]["feats"]]
    assert "tenacious_boar" in cards and "guardians_shield" in cards
    assert "satyrs" not in cards and "minotaur" not in cards


@pytest.mark.parametrize("variants", [["satyrs"], ["typhon", "typhon"], ["zombie"]])
def test_an_alternate_card_not_played_is_a_400_and_creates_nothing(make_user, variants):
    client = login_client(make_user("alice"))
    response = _create(client, variants=variants)
    assert response.status_code == 400, response.json()
    assert "variants" in response.json()["errors"], response.json()
    assert not GameSession.objects.exists()
