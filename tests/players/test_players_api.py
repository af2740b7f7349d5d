"""The players and dice-sets API: permissions, 400s with field messages, nothing written on rejection."""

import pytest

from players import services
from players.models import DiceSet, Player
from tests.conftest import api_as

pytestmark = pytest.mark.django_db


def test_anonymous_can_list_players_but_not_create(api, make_player):
    make_player("Alice")
    assert api.get("/api/players/").status_code == 200
    response = api.post("/api/players/", {"display_name": "Mallory"}, format="json")
    assert response.status_code in (401, 403)
    assert "detail" in response.json()
    assert Player.objects.count() == 1


def test_user_creates_own_profile_linked_to_them(make_user):
    user = make_user("bob")
    response = api_as(user).post(
        "/api/players/", {"display_name": "Bob", "player_number": "42"}, format="json"
    )
    assert response.status_code == 201, response.json()
    player = Player.objects.get()
    assert player.user == user and player.player_number != "42"  # only organisers choose ids
    second = api_as(user).post("/api/players/", {"display_name": "Bob again"}, format="json")
    assert second.status_code == 400
    assert "already has a player profile" in second.json()["detail"]


def test_organiser_creates_unlinked_player_with_chosen_id(organiser):
    response = api_as(organiser).post(
        "/api/players/", {"display_name": "Walk-in", "player_number": "9000000001"}, format="json"
    )
    assert response.status_code == 201
    assert Player.objects.get(player_number="9000000001").user is None
    duplicate = api_as(organiser).post(
        "/api/players/", {"display_name": "Other", "player_number": "9000000001"}, format="json"
    )
    assert duplicate.status_code == 400
    assert duplicate.json()["errors"]["player_number"] == ["This player id is already taken."]


def test_player_edits_only_own_profile(make_player, organiser):
    alice, bob = make_player("Alice"), make_player("Bob")
    assert (
        api_as(alice.user)
        .patch(f"/api/players/{alice.pk}/", {"club": "Dadi"}, format="json")
        .status_code
        == 200
    )
    response = api_as(alice.user).patch(
        f"/api/players/{bob.pk}/", {"club": "Hacked"}, format="json"
    )
    assert response.status_code == 403
    bob.refresh_from_db()
    assert bob.club == ""
    assert (
        api_as(organiser)
        .patch(f"/api/players/{bob.pk}/", {"club": "Kub"}, format="json")
        .status_code
        == 200
    )
    assert api_as(alice.user).delete(f"/api/players/{bob.pk}/").status_code == 403


def test_create_dice_set_for_self(make_player, valid_playing, valid_additional):
    alice = make_player("Alice")
    response = api_as(alice.user).post(
        "/api/dice-sets/",
        {"name": "Main", "playing_dice": valid_playing, "additional_dice": valid_additional},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["player"] == alice.pk and body["frozen"] is False and len(body["playing_dice"]) == 9


@pytest.mark.parametrize(
    "payload_change,field",
    [
        ({"playing_dice": "not a list"}, "playing_dice"),
        ({"playing_dice": [{"type": "laser", "colour": "red"}] * 9}, "playing_dice"),
        ({"additional_dice": [{"type": "crusher", "colour": "black"}] * 4}, "additional_dice"),
        ({"name": ""}, "name"),
    ],
)
def test_invalid_dice_set_gives_400_with_field_messages_and_writes_nothing(
    make_player, valid_playing, payload_change, field
):
    alice = make_player("Alice")
    payload = {"name": "Main", "playing_dice": valid_playing} | payload_change
    response = api_as(alice.user).post("/api/dice-sets/", payload, format="json")
    assert response.status_code == 400
    body = response.json()
    assert field in body["errors"] and body["detail"].startswith("Invalid input.")
    assert DiceSet.objects.count() == 0


def test_rule_failures_come_back_as_field_errors(make_player, valid_playing):
    alice = make_player("Alice")
    valid_playing[0]["rare"] = True  # the fixture already holds 3 rare dice
    response = api_as(alice.user).post(
        "/api/dice-sets/", {"name": "Main", "playing_dice": valid_playing}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"]["playing_dice"] == [
        "A playing set may hold at most 3 rare dice; this one has 4."
    ]


def test_dice_sets_are_private_and_editable_only_by_owner_or_organiser(
    make_player, organiser, valid_playing
):
    alice, bob = make_player("Alice"), make_player("Bob")
    dice_set = services.create_dice_set(player=alice, name="Main", playing_dice=valid_playing)
    assert api_as(bob.user).get("/api/dice-sets/").json()["results"] == []
    assert api_as(bob.user).get(f"/api/dice-sets/{dice_set.pk}/").status_code == 404
    assert (
        api_as(bob.user)
        .patch(f"/api/dice-sets/{dice_set.pk}/", {"name": "x"}, format="json")
        .status_code
        == 404
    )
    response = api_as(bob.user).post(
        "/api/dice-sets/",
        {"player": alice.pk, "name": "Sneaky", "playing_dice": valid_playing},
        format="json",
    )
    assert response.status_code == 403
    assert (
        api_as(organiser)
        .patch(f"/api/dice-sets/{dice_set.pk}/", {"name": "Org"}, format="json")
        .status_code
        == 200
    )
    assert [s["name"] for s in api_as(alice.user).get("/api/dice-sets/").json()["results"]] == [
        "Org"
    ]
    assert DiceSet.objects.count() == 1


def test_organiser_must_name_the_player(organiser, valid_playing):
    response = api_as(organiser).post(
        "/api/dice-sets/", {"name": "M", "playing_dice": valid_playing}, format="json"
    )
    assert response.status_code == 400
    assert "player" in response.json()["errors"]


def test_frozen_set_update_is_a_400_and_changes_nothing(make_player, valid_playing):
    alice = make_player("Alice")
    dice_set = services.create_dice_set(player=alice, name="Main", playing_dice=valid_playing)
    services.freeze_dice_set(dice_set=dice_set)
    client = api_as(alice.user)
    response = client.patch(f"/api/dice-sets/{dice_set.pk}/", {"name": "New"}, format="json")
    assert response.status_code == 400 and "frozen" in response.json()["detail"]
    assert client.delete(f"/api/dice-sets/{dice_set.pk}/").status_code == 400
    dice_set.refresh_from_db()
    assert dice_set.name == "Main"


def test_token_auth(make_player, api):
    alice = make_player("Alice")
    alice.user.set_password("pw-for-token-1")
    alice.user.save()
    token = api.post(
        "/api/auth/token/", {"username": "alice", "password": "pw-for-token-1"}, format="json"
    ).json()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token['token']}")
    assert api.get("/api/dice-sets/").status_code == 200


def test_player_list_runs_a_constant_number_of_queries(
    api, make_player, django_assert_max_num_queries
):
    for i in range(30):
        make_player(f"P{i}")
    with django_assert_max_num_queries(2):  # count + page, whatever the number of players
        assert len(api.get("/api/players/").json()["results"]) == 30


def test_openapi_schema_documents_the_endpoints(api):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/players/" in paths and "/api/dice-sets/{id}/" in paths
    assert api.get("/api/docs/").status_code == 200
